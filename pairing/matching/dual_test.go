package matching

import (
	"fmt"
	"testing"
)

// checkDuals asserts dual feasibility: every present edge has a
// non-negative slack, counting the duals of the blossoms containing both ends.
func (s *Incremental) checkDuals(t *testing.T, tag string) {
	tmp := make([]uint64, s.words)
	for _, v := range s.live {
		for _, u := range s.live {
			if u <= v {
				continue
			}
			k := tri(v, u)
			if !s.exists(k) {
				continue
			}
			s.slack(tmp, k)
			common := map[int]bool{}
			for b := s.bparent[v]; b != -1; b = s.bparent[b] {
				common[b] = true
			}
			for b := s.bparent[u]; b != -1; b = s.bparent[b] {
				if common[b] {
					add(tmp, tmp, s.d(b))
					add(tmp, tmp, s.d(b))
				}
			}
			if isNeg(tmp) {
				t.Fatalf("%s: edge %d-%d has a negative slack", tag, v, u)
			}
		}
	}
}

// TestDualFeasibility re-runs the incremental random test checking dual
// feasibility after every dual adjustment (this caught a too small error
// bound of the floating-point slack filter for near-zero duals).
func TestDualFeasibility(t *testing.T) {
	n := 0
	randomIncremental(t, func(g *Incremental, dt int) {
		n++
		g.checkDuals(t, fmt.Sprintf("adjustment %d (type %d)", n, dt))
	})
	if n == 0 {
		t.Fatal("no dual adjustment observed")
	}
}
