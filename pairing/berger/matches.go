package berger

import "arbiter"

// RoundMatches is round number (1-based over every cycle) of the schedule
// for the seeds in order, as the app stores it: one match per pair (Home
// White), then the bye, all in the named pool ("" outside a pool stage).
func RoundMatches(seeds []string, cycles, number int, pool string) ([]arbiter.Match, error) {
	all, err := ScheduleMatches(seeds, cycles, pool)
	if err != nil {
		return nil, err
	}
	if number < 1 || number > len(all) {
		return nil, arbiter.RuleError("app.round", "the round robin has %d rounds", len(all))
	}
	return all[number-1], nil
}

// ScheduleMatches is every round of the schedule for the seeds in order,
// as RoundMatches gives each.
func ScheduleMatches(seeds []string, cycles int, pool string) ([][]arbiter.Match, error) {
	sched, err := Schedule(len(seeds), cycles)
	if err != nil {
		return nil, err
	}
	out := make([][]arbiter.Match, len(sched))
	for i, r := range sched {
		out[i] = AppendMatches(make([]arbiter.Match, 0, len(r.Pairs)+1), r, seeds, pool)
	}
	return out, nil
}

// AppendMatches appends round r of a table to dst as the app stores it:
// one match per pair (Home White), then the bye, all in the named pool.
// The odds simulation uses it to write one round into a reused slice.
func AppendMatches(dst []arbiter.Match, r Round, seeds []string, pool string) []arbiter.Match {
	for _, p := range r.Pairs {
		dst = append(dst, arbiter.Match{Home: seeds[p.White-1], Away: seeds[p.Black-1], Pool: pool})
	}
	if r.Bye > 0 {
		dst = append(dst, arbiter.Match{Home: seeds[r.Bye-1], Pool: pool})
	}
	return dst
}
