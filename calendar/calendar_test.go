package calendar

import (
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // DST tests need real zones on any machine

	"arbiter"
)

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

// wantRule asserts err is an arbiter ERULE/EINVALID error naming clause.
func wantRule(t *testing.T, err error, code, clause string) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) {
		t.Fatalf("want %s error for %s, got %v", code, clause, err)
	}
	if e.Code != code || e.Rule != clause {
		t.Fatalf("want code %s rule %s, got code %s rule %s (%v)", code, clause, e.Code, e.Rule, err)
	}
}

type span struct{ start, end time.Time }

func checkRounds(t *testing.T, c Calendar, want []span) {
	t.Helper()
	if len(c.Rounds) != len(want) {
		t.Fatalf("got %d rounds, want %d", len(c.Rounds), len(want))
	}
	for i, w := range want {
		r := c.Rounds[i]
		if !r.Start.Equal(w.start) || !r.End.Equal(w.end) {
			t.Errorf("round %d: got [%s, %s), want [%s, %s)", i+1, r.Start, r.End, w.start, w.end)
		}
		if r.Seq != i+1 {
			t.Errorf("round %d: Seq %d", i+1, r.Seq)
		}
		if r.Start.Location() != time.UTC || r.End.Location() != time.UTC {
			t.Errorf("round %d: not in UTC", i+1)
		}
	}
}

func TestRKCCCalendar(t *testing.T) {
	// R1/R2/R4: 5 Swiss rounds then a 2-round knockout, from Monday 2026-01-05.
	c, err := Build(RKCC(), utc(2026, 1, 5, 0, 0), []Stage{{Name: "swiss", Rounds: 5}, {Name: "knockout", Rounds: 2}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, c, []span{
		{utc(2026, 1, 5, 0, 0), utc(2026, 1, 12, 0, 0)},
		{utc(2026, 1, 12, 0, 0), utc(2026, 1, 19, 0, 0)},
		{utc(2026, 1, 19, 0, 0), utc(2026, 1, 26, 0, 0)},
		{utc(2026, 1, 26, 0, 0), utc(2026, 2, 2, 0, 0)},
		{utc(2026, 2, 2, 0, 0), utc(2026, 2, 9, 0, 0)},
		{utc(2026, 2, 9, 0, 0), utc(2026, 2, 16, 0, 0)},
		{utc(2026, 2, 16, 0, 0), utc(2026, 2, 23, 0, 0)},
	})
	// R4: the last minute of round 1 is Sunday 23:59.
	if got, want := c.Rounds[0].LastMinute(), utc(2026, 1, 11, 23, 59); !got.Equal(want) {
		t.Errorf("last minute %s, want %s", got, want)
	}
	if got := Format(c.Rounds[0].LastMinute()); got != "Sunday 2026-01-11 23:59 UTC" {
		t.Errorf("Format = %q", got)
	}
	if r := c.Rounds[5]; r.Stage != 1 || r.Number != 1 {
		t.Errorf("round 6 is stage %d number %d, want knockout round 1", r.Stage, r.Number)
	}
	// R8: registration closes Saturday 06:00, final by Saturday 23:59, first lineup by Monday 00:00.
	reg := c.Registration
	if reg == nil {
		t.Fatal("no registration times")
	}
	if !reg.Closes.Equal(utc(2026, 1, 3, 6, 0)) || !reg.Finalised.Equal(utc(2026, 1, 4, 0, 0)) || !reg.FirstLineupDue.Equal(utc(2026, 1, 5, 0, 0)) {
		t.Errorf("registration %+v", *reg)
	}
	if reg.Closes.Weekday() != time.Saturday {
		t.Errorf("registration closes on %s", reg.Closes.Weekday())
	}
	// RKCC sets no offer deadline.
	if !c.Rounds[0].OfferDeadline.IsZero() || !c.Rounds[0].Weekend.IsZero() {
		t.Errorf("RKCC round has offer deadline %s weekend %s", c.Rounds[0].OfferDeadline, c.Rounds[0].Weekend)
	}
	if !c.End().Equal(utc(2026, 2, 23, 0, 0)) {
		t.Errorf("End %s", c.End())
	}
}

func TestRKCCYearEndAndLeapYear(t *testing.T) {
	c, err := Build(RKCC(), utc(2025, 12, 22, 0, 0), []Stage{{Rounds: 3}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, c, []span{
		{utc(2025, 12, 22, 0, 0), utc(2025, 12, 29, 0, 0)},
		{utc(2025, 12, 29, 0, 0), utc(2026, 1, 5, 0, 0)},
		{utc(2026, 1, 5, 0, 0), utc(2026, 1, 12, 0, 0)},
	})
	// 2028 is a leap year: the round from Monday 2028-02-28 ends Sunday 2028-03-05 23:59.
	c, err = Build(RKCC(), utc(2028, 2, 21, 0, 0), []Stage{{Rounds: 2}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, c, []span{
		{utc(2028, 2, 21, 0, 0), utc(2028, 2, 28, 0, 0)},
		{utc(2028, 2, 28, 0, 0), utc(2028, 3, 6, 0, 0)},
	})
	if got := Format(c.Rounds[1].LastMinute()); got != "Sunday 2028-03-05 23:59 UTC" {
		t.Errorf("leap year last minute %s", got)
	}
	// 2027 is not: the round from Monday 2027-02-22 ends Sunday 2027-02-28 23:59.
	c, err = Build(RKCC(), utc(2027, 2, 22, 0, 0), []Stage{{Rounds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, c, []span{{utc(2027, 2, 22, 0, 0), utc(2027, 3, 1, 0, 0)}})
}

func TestDSTDoesNotMatter(t *testing.T) {
	// Europe/Berlin and America/New_York switch to summer time in March
	// 2026; rounds stay exactly 168 h and start on Monday 00:00 UTC.
	for _, zone := range []string{"Europe/Berlin", "America/New_York", "Australia/Sydney"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		start := utc(2026, 3, 2, 0, 0).In(loc) // same instant, local representation
		c, err := Build(RKCC(), start, []Stage{{Rounds: 6}})
		if err != nil {
			t.Fatalf("%s: %v", zone, err)
		}
		for _, r := range c.Rounds {
			if r.End.Sub(r.Start) != 168*time.Hour {
				t.Errorf("%s: round %d lasts %s", zone, r.Seq, r.End.Sub(r.Start))
			}
			if r.Start.Weekday() != time.Monday || r.Start.Hour() != 0 || r.Start.Location() != time.UTC {
				t.Errorf("%s: round %d starts %s", zone, r.Seq, r.Start)
			}
		}
	}
	// A Monday 00:00 in New York is Monday 05:00 UTC: not a round start.
	ny, _ := time.LoadLocation("America/New_York")
	_, err := Build(RKCC(), time.Date(2026, 3, 9, 0, 0, 0, 0, ny), []Stage{{Rounds: 1}})
	wantRule(t, err, arbiter.EINVALID, "R4")
}

func TestACWCCalendar(t *testing.T) {
	// W5: 40 players -> floor(log2 40)+2 = 7 qualification rounds. W13: the
	// first pairings were published on Sunday 2023-03-19; each round is due
	// the Monday 23:59 after; one-week breaks before candidates and semis.
	c, err := Build(ACWC(), utc(2023, 3, 19, 12, 0), ACWCStages(7))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rounds) != 7+10+1+1 {
		t.Fatalf("got %d rounds", len(c.Rounds))
	}
	r1 := c.Rounds[0]
	if !r1.Start.Equal(utc(2023, 3, 19, 12, 0)) || Format(r1.LastMinute()) != "Monday 2023-03-27 23:59 UTC" {
		t.Errorf("round 1 [%s, %s)", r1.Start, r1.End)
	}
	// W14: offers by Friday 2023-03-24 23:59; weekend from Saturday 03-25.
	if !r1.OfferDeadline.Equal(utc(2023, 3, 25, 0, 0)) || !r1.Weekend.Equal(utc(2023, 3, 25, 0, 0)) {
		t.Errorf("round 1 offers %s weekend %s", r1.OfferDeadline, r1.Weekend)
	}
	r2 := c.Rounds[1]
	if !r2.Start.Equal(utc(2023, 3, 28, 0, 0)) || !r2.End.Equal(utc(2023, 4, 4, 0, 0)) {
		t.Errorf("round 2 [%s, %s)", r2.Start, r2.End)
	}
	if !r2.OfferDeadline.Equal(utc(2023, 4, 1, 0, 0)) || Format(r2.OfferDeadline.Add(-time.Minute)) != "Friday 2023-03-31 23:59 UTC" {
		t.Errorf("round 2 offers %s", r2.OfferDeadline)
	}
	q7 := c.Rounds[6]
	if !q7.Start.Equal(utc(2023, 5, 2, 0, 0)) || !q7.End.Equal(utc(2023, 5, 9, 0, 0)) {
		t.Errorf("qualification round 7 [%s, %s)", q7.Start, q7.End)
	}
	// One-week break: the candidates start Tuesday 2023-05-16.
	c1 := c.Rounds[7]
	if c1.Stage != 1 || c1.Number != 1 || !c1.Start.Equal(utc(2023, 5, 16, 0, 0)) || !c1.End.Equal(utc(2023, 5, 23, 0, 0)) {
		t.Errorf("candidates round 1 %+v", c1)
	}
	// A5-style offer deadlines never count from the round before a break.
	if !c1.OfferDeadline.Equal(utc(2023, 5, 20, 0, 0)) {
		t.Errorf("candidates round 1 offers %s", c1.OfferDeadline)
	}
	c10 := c.Rounds[16]
	if !c10.End.Equal(utc(2023, 7, 25, 0, 0)) {
		t.Errorf("candidates round 10 ends %s", c10.End)
	}
	semi, final := c.Rounds[17], c.Rounds[18]
	if !semi.Start.Equal(utc(2023, 8, 1, 0, 0)) || !semi.End.Equal(utc(2023, 8, 8, 0, 0)) {
		t.Errorf("semifinal [%s, %s)", semi.Start, semi.End)
	}
	if !final.Start.Equal(utc(2023, 8, 8, 0, 0)) || !final.End.Equal(utc(2023, 8, 15, 0, 0)) || final.Stage != 3 {
		t.Errorf("final %+v", final)
	}
	if c.Registration != nil {
		t.Error("ACWC has no RKCC registration times")
	}
	if got := c.Rules.ReplyDue(utc(2023, 3, 22, 17, 30)); !got.Equal(utc(2023, 3, 23, 17, 30)) {
		t.Errorf("W14 reply due %s", got)
	}
}

func TestAntichessCalendarAndOfferDeadlines(t *testing.T) {
	c, err := Build(AntichessTeamCup(), utc(2025, 5, 6, 0, 0), []Stage{{Name: "swiss", Rounds: 3}, {Name: "knockout", Rounds: 2}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, c, []span{
		{utc(2025, 5, 6, 0, 0), utc(2025, 5, 13, 0, 0)},
		{utc(2025, 5, 13, 0, 0), utc(2025, 5, 20, 0, 0)},
		{utc(2025, 5, 20, 0, 0), utc(2025, 5, 27, 0, 0)},
		{utc(2025, 5, 27, 0, 0), utc(2025, 6, 3, 0, 0)},
		{utc(2025, 6, 3, 0, 0), utc(2025, 6, 10, 0, 0)},
	})
	// A5: 72 h after the previous round ended Monday 23:59 -> Thursday 23:59.
	wantOffers := []time.Time{utc(2025, 5, 9, 0, 0), utc(2025, 5, 16, 0, 0), utc(2025, 5, 23, 0, 0), utc(2025, 5, 30, 0, 0), utc(2025, 6, 6, 0, 0)}
	for i, w := range wantOffers {
		if got := c.Rounds[i].OfferDeadline; !got.Equal(w) {
			t.Errorf("round %d offer deadline %s, want %s", i+1, got, w)
		}
		if got := c.Rounds[i].Weekend; got.Weekday() != time.Saturday || got.Sub(c.Rounds[i].Start) != 4*Day {
			t.Errorf("round %d weekend %s", i+1, got)
		}
	}
	if Format(c.Rounds[1].LastMinute()) != "Monday 2025-05-19 23:59 UTC" {
		t.Errorf("A4 deadline %s", Format(c.Rounds[1].LastMinute()))
	}
	// Pairings published on Monday evening belong to Tuesday's week.
	c, err = Build(AntichessTeamCup(), utc(2025, 5, 5, 20, 0), []Stage{{Rounds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, c, []span{{utc(2025, 5, 5, 20, 0), utc(2025, 5, 13, 0, 0)}})
	if !c.Rounds[0].OfferDeadline.Equal(utc(2025, 5, 8, 20, 0)) {
		t.Errorf("first round offers due %s", c.Rounds[0].OfferDeadline)
	}
}

func TestBringForward(t *testing.T) {
	c, err := Build(AntichessTeamCup(), utc(2025, 5, 6, 0, 0), []Stage{{Rounds: 3}})
	if err != nil {
		t.Fatal(err)
	}
	now := utc(2025, 5, 17, 11, 0)
	got, err := c.BringForward(2, utc(2025, 5, 17, 12, 0), true, now)
	if err != nil {
		t.Fatal(err)
	}
	// Round 2 now ends Saturday 12:00; round 3 moves 2 days 12 hours earlier.
	checkRounds(t, got, []span{
		{utc(2025, 5, 6, 0, 0), utc(2025, 5, 13, 0, 0)},
		{utc(2025, 5, 13, 0, 0), utc(2025, 5, 17, 12, 0)},
		{utc(2025, 5, 17, 12, 0), utc(2025, 5, 24, 12, 0)},
	})
	if !got.Rounds[2].OfferDeadline.Equal(utc(2025, 5, 20, 12, 0)) {
		t.Errorf("round 3 offers due %s", got.Rounds[2].OfferDeadline)
	}
	if !c.Rounds[1].End.Equal(utc(2025, 5, 20, 0, 0)) {
		t.Error("BringForward modified its receiver")
	}

	cases := []struct {
		name   string
		rules  Rules
		seq    int
		newEnd time.Time
		done   bool
		code   string
		clause string
	}{
		{"matches unfinished", AntichessTeamCup(), 2, utc(2025, 5, 17, 12, 0), false, arbiter.ERULE, "A4"},
		{"not earlier", AntichessTeamCup(), 2, utc(2025, 5, 20, 0, 0), true, arbiter.ERULE, "A4"},
		{"in the past", AntichessTeamCup(), 2, utc(2025, 5, 17, 10, 0), true, arbiter.ERULE, "A4"},
		{"before round start", AntichessTeamCup(), 2, utc(2025, 5, 13, 0, 0), true, arbiter.ERULE, "A4"},
		{"no such round", AntichessTeamCup(), 4, utc(2025, 5, 17, 12, 0), true, arbiter.EINVALID, "A4"},
		{"ACWC has no such power", ACWC(), 2, utc(2025, 5, 17, 12, 0), true, arbiter.ERULE, "W13"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cal, err := Build(tc.rules, utc(2025, 5, 6, 0, 0), []Stage{{Rounds: 3}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cal.BringForward(tc.seq, tc.newEnd, tc.done, now)
			wantRule(t, err, tc.code, tc.clause)
		})
	}
	rk, _ := Build(RKCC(), utc(2026, 1, 5, 0, 0), []Stage{{Rounds: 2}})
	_, err = rk.BringForward(1, utc(2026, 1, 10, 0, 0), true, utc(2026, 1, 9, 0, 0))
	wantRule(t, err, arbiter.ERULE, "R4")
}

func TestBuildRefusals(t *testing.T) {
	cases := []struct {
		name   string
		rules  Rules
		start  time.Time
		stages []Stage
		field  string
	}{
		{"RKCC Tuesday", RKCC(), utc(2026, 1, 6, 0, 0), []Stage{{Rounds: 1}}, "start"},
		{"RKCC Monday noon", RKCC(), utc(2026, 1, 5, 12, 0), []Stage{{Rounds: 1}}, "start"},
		{"no stages", RKCC(), utc(2026, 1, 5, 0, 0), nil, "stages"},
		{"zero rounds", ACWC(), utc(2023, 3, 19, 0, 0), []Stage{{Rounds: 3}, {Name: "x", Rounds: 0}}, "stages[1].rounds"},
		{"negative break", ACWC(), utc(2023, 3, 19, 0, 0), []Stage{{Rounds: 3}, {Rounds: 1, BreakBefore: -Week}}, "stages[1].break"},
		{"partial day break", ACWC(), utc(2023, 3, 19, 0, 0), []Stage{{Rounds: 3}, {Rounds: 1, BreakBefore: time.Hour}}, "stages[1].break"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.rules, tc.start, tc.stages)
			var e *arbiter.Error
			if !errors.As(err, &e) || e.Code != arbiter.EINVALID || e.Field != tc.field || e.Rule != tc.rules.RoundClause {
				t.Fatalf("got %#v", err)
			}
		})
	}
}

func TestWindows(t *testing.T) {
	r := RKCC()
	roundStart, roundEnd := utc(2026, 1, 12, 0, 0), utc(2026, 1, 19, 0, 0)
	cases := []struct {
		name   string
		w      Window
		clause string
		now    time.Time
		ok     bool
		msg    string
	}{
		// R5: appeals from the round end to 24 h later.
		{"appeal before round end", r.Appeals(roundEnd), "R5", utc(2026, 1, 18, 23, 59), false, "open on Monday 2026-01-19 00:00 UTC"},
		{"appeal at round end", r.Appeals(roundEnd), "R5", roundEnd, true, ""},
		{"appeal last second", r.Appeals(roundEnd), "R5", utc(2026, 1, 19, 23, 59).Add(59 * time.Second), true, ""},
		{"appeal too late", r.Appeals(roundEnd), "R5", utc(2026, 1, 20, 0, 0), false, "closed on Monday 2026-01-19 23:59 UTC"},
		// R7.1: lineup correction within 24 h of the round start.
		{"grace in window", r.LineupCorrection(roundStart), "R7", utc(2026, 1, 12, 18, 0), true, ""},
		{"grace too late", r.LineupCorrection(roundStart), "R7", utc(2026, 1, 13, 0, 0), false, "closed on Monday 2026-01-12 23:59 UTC"},
		// R9: wild card within 24 h of the pairings (published Tuesday 10:00).
		{"wild card in window", r.WildCard(utc(2026, 1, 13, 10, 0)), "R9", utc(2026, 1, 14, 9, 59), true, ""},
		{"wild card too late", r.WildCard(utc(2026, 1, 13, 10, 0)), "R9", utc(2026, 1, 14, 10, 0), false, "closed on Wednesday 2026-01-14 09:59 UTC"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.w.Require(tc.now, tc.clause, "the window")
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRule(t, err, arbiter.ERULE, tc.clause)
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q lacks %q", err.Error(), tc.msg)
			}
		})
	}
	if !ACWC().ReplyDue(utc(2023, 1, 1, 0, 0)).Equal(utc(2023, 1, 2, 0, 0)) || !RKCC().ReplyDue(utc(2023, 1, 1, 0, 0)).IsZero() {
		t.Error("ReplyDue")
	}
}

func TestWeekStartAndAt(t *testing.T) {
	cases := []struct{ in, want time.Time }{
		{utc(2026, 1, 5, 0, 0), utc(2026, 1, 5, 0, 0)},
		{utc(2026, 1, 11, 23, 59), utc(2026, 1, 5, 0, 0)},
		{utc(2026, 1, 1, 12, 0), utc(2025, 12, 29, 0, 0)}, // across the year end
		{utc(2028, 3, 1, 0, 0), utc(2028, 2, 28, 0, 0)},   // leap day inside the week
	}
	for _, tc := range cases {
		if got := WeekStart(tc.in); !got.Equal(tc.want) {
			t.Errorf("WeekStart(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	c, _ := Build(RKCC(), utc(2026, 1, 5, 0, 0), []Stage{{Rounds: 2}})
	if r, ok := c.At(utc(2026, 1, 18, 23, 59)); !ok || r.Seq != 2 {
		t.Errorf("At Sunday of round 2: %v %v", r.Seq, ok)
	}
	if _, ok := c.At(utc(2026, 1, 19, 0, 0)); ok {
		t.Error("At after the event found a round")
	}
	if _, err := c.Round(0); err == nil {
		t.Error("Round(0) accepted")
	}
}

func TestWeekTimeRules(t *testing.T) {
	// A format of data, not a rulebook: rounds open Saturday 12:00 and end
	// Friday 20:00; offers by Sunday 18:00.
	r := Rules{
		RoundClause: "X1",
		RoundStart:  &WeekTime{Day: time.Saturday, Hour: 12},
		Deadline:    WeekTime{Day: time.Friday, Hour: 20},
		Offer:       OfferByWeekTime,
		OfferBy:     WeekTime{Day: time.Sunday, Hour: 18},
	}
	c, err := Build(r, utc(2026, 1, 3, 12, 0), []Stage{{Rounds: 2}})
	if err != nil {
		t.Fatal(err)
	}
	// Friday 20:00 is a whole minute: the round ends at 20:01.
	checkRounds(t, c, []span{
		{utc(2026, 1, 3, 12, 0), utc(2026, 1, 9, 20, 1)},
		{utc(2026, 1, 9, 20, 1), utc(2026, 1, 16, 20, 1)},
	})
	if !c.Rounds[0].OfferDeadline.Equal(utc(2026, 1, 4, 18, 1)) || !c.Rounds[1].OfferDeadline.Equal(utc(2026, 1, 11, 18, 1)) {
		t.Errorf("offer deadlines %s %s", c.Rounds[0].OfferDeadline, c.Rounds[1].OfferDeadline)
	}
	_, err = Build(r, utc(2026, 1, 3, 12, 0).Add(time.Second), []Stage{{Rounds: 1}})
	if err == nil || !strings.Contains(err.Error(), "rounds begin on Saturday 12:00 UTC") {
		t.Errorf("off-minute start: %v", err)
	}
	bad := []Rules{
		{RoundClause: "X1", Deadline: WeekTime{Day: time.Monday, Hour: 24}, PairingsBy: &WeekTime{Day: time.Tuesday}},
		{RoundClause: "X1", Deadline: WeekTime{Day: time.Monday, Minute: 60}, PairingsBy: &WeekTime{Day: time.Tuesday}},
		{RoundClause: "X1", Deadline: WeekTime{Day: 7}, PairingsBy: &WeekTime{Day: time.Tuesday}},
		{RoundClause: "X1", Deadline: WeekTime{Day: time.Monday}},
		{RoundClause: "X1", Deadline: WeekTime{Day: time.Monday}, PairingsBy: &WeekTime{Day: time.Tuesday}, Offer: OfferByWeekTime, OfferBy: WeekTime{Hour: -1}},
	}
	for i, b := range bad {
		if _, err := Build(b, utc(2026, 1, 3, 12, 0), []Stage{{Rounds: 1}}); arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("bad rules %d: %v", i, err)
		}
	}
	if s := (WeekTime{Day: time.Monday, Hour: 23, Minute: 59}).String(); s != "Monday 23:59 UTC" {
		t.Errorf("String %q", s)
	}
}
