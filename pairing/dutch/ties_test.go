package dutch

import "arbiter/pairing/matching"

// The tests check every tie the matching finds by dual classes against the
// exact slacks (matching.CheckTies); benchmarks and profiles measure the
// engine as it runs (uncheckedTies), so they turn it off. Benchmarks run after
// every test, so the flag is never changed while a test reads it.
func init() { matching.CheckTies = true }

func uncheckedTies() { matching.CheckTies = false }
