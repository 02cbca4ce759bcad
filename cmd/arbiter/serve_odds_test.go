package main

// Cheap odds for the served standings pages, as in packages web and
// browsertest: every standings page of a running event starts a
// simulation in the background at production's suggested runs (about 4 s
// of CPU each), and it goes on after the test's server has stopped. The
// serve tests check that the pages answer, not the odds (package odds and
// TestEventOdds do); TestServeDemo alone started six such simulations,
// about 4 s of CPU taken from the tests that ran after it.
func init() { serveOddsSims = 100 }
