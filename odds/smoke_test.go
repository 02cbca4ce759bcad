package odds

import (
	"math"
	"testing"
)

// checkSums checks that every band's chances add up to its places and
// that exact chances are exactly 0 or 1.
func checkSums(t *testing.T, res *Result) {
	t.Helper()
	for k, band := range res.Bands {
		sum := 0.0
		for _, e := range res.Entrants {
			c := e.Bands[k]
			sum += c.P
			switch {
			case c.Exact == Clinched && c.P != 1, c.Exact == Eliminated && c.P != 0:
				t.Errorf("%s %s: exact %s with p %v", e.Entrant, band.ID, c.Exact, c.P)
			case c.Exact == "" && (c.P <= 0 || c.P >= 1):
				t.Errorf("%s %s: undecided with p %v", e.Entrant, band.ID, c.P)
			}
		}
		if math.Abs(sum-float64(band.Places)) > 1e-9 {
			t.Errorf("band %s: chances add up to %v, want %d", band.ID, sum, band.Places)
		}
	}
}

func TestStagesOfEveryPreset(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset        string
		n             int
		stage, rounds int
	}{
		{"acwc-2023", 16, 0, 0},
		{"acwc-2023", 16, 0, 5},
		{"acwc-2023", 16, 1, 4},
		{"acwc-2023", 16, 1, 10},
		{"acwc-2023", 16, 2, 1},
		{"antichess-team-cup", 12, 0, 3},
		{"antichess-team-cup", 20, 1, 1},
		{"rkcc-team-three-tc", 8, 0, 4},
		{"rkcc-team-three-tc", 8, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.preset, func(t *testing.T) {
			t.Parallel()
			in := newEvent(t, c.preset, c.n)
			playTo(t, in, c.stage, c.rounds, 3)
			res, err := Run(in, Options{Sims: 300, Seed: 9})
			if err != nil {
				t.Fatalf("stage %d round %d: %v", c.stage, c.rounds, err)
			}
			t.Logf("stage %d round %d: bands %v", c.stage, c.rounds, res.Bands)
			checkSums(t, res)
		})
	}
}
