package odds

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchRun runs the simulation b.N times and reports, besides the wall
// time per run (ns/op), the CPU time per run (cpu-s/op), which a shared
// machine disturbs less.
func benchRun(b *testing.B, in *Input, sims int) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		if _, err := Run(in, Options{Sims: sims, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkACWC40 simulates the last 3 rounds of a 40-player ACWC Swiss
// (rounds 1-4 played) and the rest of the event after it (candidates
// pools, semifinals, final) 10,000 times. Reproduce:
// go test -run '^$' -bench ACWC40 -benchtime 1x ./odds/
func BenchmarkACWC40(b *testing.B) {
	in := newEvent(b, "acwc-2023", 40)
	playTo(b, in, 0, 4, 1)
	benchRun(b, in, 10000)
}

// BenchmarkSwiss200 simulates a 200-player 9-round Swiss from round 5
// (rounds 1-4 played) 1,000 times: the antichess cup's format has 9 Swiss
// rounds for 32-63 teams, so the individual Swiss is the ACWC's with
// 200 players, whose Swiss has floor(log2 200) + 2 = 9 rounds.
// Reproduce: go test -run '^$' -bench Swiss200 -benchtime 1x ./odds/
func BenchmarkSwiss200(b *testing.B) {
	in := newEvent(b, "acwc-2023", 200)
	if r := in.Event.Stages[0].Rounds; r != 9 {
		b.Fatalf("ACWC with 200 players: %d Swiss rounds, want 9", r)
	}
	playTo(b, in, 0, 4, 1)
	benchRun(b, in, 1000)
}
