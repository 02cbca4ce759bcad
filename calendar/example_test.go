package calendar_test

import (
	"fmt"
	"time"

	"arbiter/calendar"
)

// The ACWC 2023 with 40 players: 7 qualification rounds from the first
// pairings on Sunday 2023-03-19, then candidates, semifinals and finals.
func ExampleBuild() {
	c, err := calendar.Build(calendar.ACWC(), time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC), calendar.ACWCStages(7))
	if err != nil {
		panic(err)
	}
	for _, seq := range []int{1, 2, 8, 18, 19} {
		r, _ := c.Round(seq)
		fmt.Printf("stage %d round %d: offers by %s, due %s\n", r.Stage, r.Number,
			calendar.Format(r.OfferDeadline.Add(-time.Minute)), calendar.Format(r.LastMinute()))
	}
	// Output:
	// stage 0 round 1: offers by Friday 2023-03-24 23:59 UTC, due Monday 2023-03-27 23:59 UTC
	// stage 0 round 2: offers by Friday 2023-03-31 23:59 UTC, due Monday 2023-04-03 23:59 UTC
	// stage 1 round 1: offers by Friday 2023-05-19 23:59 UTC, due Monday 2023-05-22 23:59 UTC
	// stage 2 round 1: offers by Friday 2023-08-04 23:59 UTC, due Monday 2023-08-07 23:59 UTC
	// stage 3 round 1: offers by Friday 2023-08-11 23:59 UTC, due Monday 2023-08-14 23:59 UTC
}
