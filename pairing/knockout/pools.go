package knockout

import (
	"slices"
	"strconv"

	"arbiter"
)

func itoa(i int) string { return strconv.Itoa(i) }

// Pools splits a ranked list (best first) into pools by a placement
// pattern: pattern[i] lists the 1-based places that go into pool i (ACWC
// W8: {{12, 9, 7, 6, 4, 1}, {11, 10, 8, 5, 3, 2}}). Every place from 1 to
// the total the pattern names must appear exactly once, and the ranking
// must be at least that long (entrants below are not placed). Each pool
// comes back best place first, so its index is the pool seed.
func Pools[T any](ranked []T, pattern [][]int) ([][]T, error) {
	if len(pattern) == 0 {
		return nil, arbiter.FieldError("pattern", "pools.pattern", "the pattern names no pool")
	}
	total := 0
	for _, p := range pattern {
		total += len(p)
	}
	seen := make([]bool, total+1)
	for i, p := range pattern {
		if len(p) == 0 {
			return nil, arbiter.FieldError("pattern["+itoa(i)+"]", "pools.pattern", "pool %d is empty", i+1)
		}
		for j, place := range p {
			field := "pattern[" + itoa(i) + "][" + itoa(j) + "]"
			if place < 1 || place > total {
				return nil, arbiter.FieldError(field, "pools.pattern", "place %d is outside 1..%d (the pattern places %d entrants)", place, total, total)
			}
			if seen[place] {
				return nil, arbiter.FieldError(field, "pools.pattern", "place %d appears twice", place)
			}
			seen[place] = true
		}
	}
	if len(ranked) < total {
		return nil, arbiter.FieldError("ranking", "pools.pattern", "the pattern places %d entrants but the ranking has %d", total, len(ranked))
	}
	out := make([][]T, len(pattern))
	for i, p := range pattern {
		places := slices.Sorted(slices.Values(p))
		for _, place := range places {
			out[i] = append(out[i], ranked[place-1])
		}
	}
	return out, nil
}

// CrossPoolSeeds seeds a knockout from pool standings (each pool best
// first): the first `advance` of every pool qualify, ordered by rank, then
// by pool (A1, B1, ..., A2, B2, ...). Seeded with New, pool winners are
// kept apart and meet other pools' lower finishers: with two pools and two
// advancing, the semifinals are A1 v B2 and B1 v A2 (ACWC W10), the final
// and third-place match follow from them. Seed s is entrant [s-1].
func CrossPoolSeeds[T any](standings [][]T, advance int) ([]T, error) {
	if len(standings) < 2 {
		return nil, arbiter.FieldError("pools", "knockout.cross_pool", "cross-pool seeding needs at least 2 pools, got %d", len(standings))
	}
	if advance < 1 {
		return nil, arbiter.FieldError("advance", "knockout.cross_pool", "at least 1 per pool must advance, got %d", advance)
	}
	for i, p := range standings {
		if len(p) < advance {
			return nil, arbiter.FieldError("pools["+itoa(i)+"]", "knockout.cross_pool", "pool %d has %d entrants, %d must advance", i+1, len(p), advance)
		}
	}
	out := make([]T, 0, advance*len(standings))
	for r := range advance {
		for _, p := range standings {
			out = append(out, p[r])
		}
	}
	return out, nil
}

// SizeRule says how many qualify for a knockout from a field size: entrants
// in [Min, Max] (Max 0: no upper bound) send Size to the knockout.
type SizeRule struct {
	Min  int `json:"min"`
	Max  int `json:"max,omitempty"`
	Size int `json:"size"`
}

// KnockoutSize returns the knockout size for a field by the first rule that
// matches (antichess A10: 10-15 -> 4, 16-31 -> 8, 32-63 -> 16). A field no
// rule covers is an ERULE error naming the rule.
func KnockoutSize(entrants int, rules []SizeRule, rule string) (int, error) {
	for _, r := range rules {
		if entrants >= r.Min && (r.Max == 0 || entrants <= r.Max) {
			if r.Size < 2 || r.Size > entrants {
				return 0, arbiter.FieldError("size", rule, "a knockout of %d from %d entrants is impossible", r.Size, entrants)
			}
			return r.Size, nil
		}
	}
	return 0, arbiter.RuleError(rule, "no knockout size is defined for %d entrants", entrants)
}
