package matching

// Every test of the package checks the ties found by dual classes.
func init() { CheckTies = true }
