package eligibility

// CheckReport is for the external tests over Lichess fixtures
// (lichess_test.go): package lichess imports this package.
var CheckReport = checkReport
