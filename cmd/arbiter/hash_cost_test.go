package main

import "arbiter/app"

// Cheap password hashes for the tests, as in packages web and browsertest:
// serve creates td@local and every local sign-in checks its hash, and
// production's 600 000 rounds cost about 0.2 s of CPU each. The count is
// stored in each hash, so checking runs the real code; app's
// TestPasswordHashCost checks the production cost.
func init() { app.PasswordIterations = 1000 }
