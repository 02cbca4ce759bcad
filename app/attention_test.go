package app

import (
	"slices"
	"testing"
	"time"

	"arbiter"
	"arbiter/calendar"
)

// TestNeedsAttention: hand-made states of an antichess cup (A4: rounds
// end Monday 23:59, pairings are due by Tuesday 23:59) and what the
// console opens on for each.
func TestNeedsAttention(t *testing.T) {
	t.Parallel()
	ac := calendar.AntichessTeamCup()
	// Round 1 runs Tue 7 Jan 2025 to Mon 13 Jan 23:59; round 2 from Tue
	// 14 Jan (pairings due by Tue 14 Jan 23:59) to Mon 20 Jan 23:59.
	r1s, r1e := utc(2025, 1, 7, 0, 0), utc(2025, 1, 14, 0, 0)
	r2e := utc(2025, 1, 21, 0, 0)
	running := arbiter.Event{Status: arbiter.EventRunning, Start: r1s,
		Stages:   []arbiter.Stage{{Name: "swiss", Kind: "swiss", Rounds: 2}, {Name: "knockout", Kind: "knockout", Rounds: 2}},
		Calendar: []arbiter.RoundWindow{{Seq: 1, Stage: 0, Number: 1, Start: r1s, End: r1e}, {Seq: 2, Stage: 0, Number: 2, Start: r1e, End: r2e}}}
	round := func(n int, status string, end time.Time, matches ...string) arbiter.Round {
		return arbiter.Round{ID: "s1r" + string(rune('0'+n)), Stage: 0, Number: n, Status: status, End: end, Matches: matches}
	}
	match := func(id, status string) arbiter.Match {
		return arbiter.Match{ID: id, Status: status, Home: "a", Away: "b"}
	}
	type item struct {
		kind  string
		count int
	}
	for _, c := range []struct {
		name  string
		in    AttentionInput
		next  string // the next step's kind, "" for none
		round string
		over  bool
		items []item
	}{
		{name: "registration with entrants waiting", in: AttentionInput{Event: arbiter.Event{Status: arbiter.EventRegistration, Start: r1s}, Pending: 2, Approved: 10, RegistrationRuns: true, Now: r1s.Add(-time.Hour)},
			items: []item{{AttendRegistrations, 2}}},
		{name: "registration ready, start passed", in: AttentionInput{Event: arbiter.Event{Status: arbiter.EventRegistration, Start: r1s}, Approved: 10, RegistrationRuns: true, Now: r1s.Add(time.Hour)},
			next: StepCloseRegistration, over: true},
		{name: "too few to start", in: AttentionInput{Event: arbiter.Event{Status: arbiter.EventRegistration, Start: r1s}, Approved: 3, Now: r1s}},
		{name: "round 1 to pair, in time", in: AttentionInput{Event: running, Now: r1s.Add(time.Hour)},
			next: StepPair, round: "s1r1"},
		// Tuesday 7 January 23:59 was the last minute for round 1's pairings.
		{name: "round 1's pairings late", in: AttentionInput{Event: running, Now: utc(2025, 1, 8, 0, 0)},
			next: StepPair, round: "s1r1", over: true, items: []item{{AttendPairingsDue, 1}}},
		{name: "paired, to publish", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundPaired, r1e, "m1")}, Now: r1s.Add(time.Hour)},
			next: StepPublish, round: "s1r1"},
		{name: "round running, a report near the deadline", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundPublished, r1e, "m1", "m2", "m3")},
			Matches: []arbiter.Match{match("m1", arbiter.MatchReported), match("m2", arbiter.MatchDisputed), match("m3", arbiter.MatchScheduled)}, Now: r1e.Add(-24 * time.Hour)},
			items: []item{{AttendDisputed, 1}, {AttendUnconfirmed, 1}}},
		{name: "a report far from the deadline waits for the opponent", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundPublished, r1e, "m1")},
			Matches: []arbiter.Match{match("m1", arbiter.MatchReported)}, Now: r1s}},
		{name: "deadline passed", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundPublished, r1e, "m1")},
			Matches: []arbiter.Match{match("m1", arbiter.MatchScheduled)}, Now: r1e},
			next: StepCloseRound, round: "s1r1", over: true, items: []item{{AttendDeadlinePassed, 1}}},
		{name: "closed with a held match: no pairing yet", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundClosed, r1e, "m1", "m2")},
			Matches: []arbiter.Match{match("m1", arbiter.MatchHeld), match("m2", arbiter.MatchFinal)}, Now: r1e.Add(time.Hour)},
			items: []item{{AttendHeld, 1}}},
		{name: "closed and final: pair round 2", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundClosed, r1e, "m1")},
			Matches: []arbiter.Match{match("m1", arbiter.MatchFinal)}, Now: r1e.Add(time.Hour)},
			next: StepPair, round: "s1r2"},
		{name: "the stage's last round closed: start the knockout", in: AttentionInput{Event: running,
			Rounds:  []arbiter.Round{round(1, arbiter.RoundClosed, r1e, "m1"), round(2, arbiter.RoundClosed, r2e, "m2")},
			Matches: []arbiter.Match{match("m1", arbiter.MatchFinal), match("m2", arbiter.MatchFinal)}, Now: r2e.Add(time.Hour)},
			next: StepAdvanceStage},
		{name: "appeals and failed jobs", in: AttentionInput{Event: running, Rounds: []arbiter.Round{round(1, arbiter.RoundPublished, r1e)},
			Appeals: []arbiter.Appeal{{Status: arbiter.AppealPending}, {Status: "decided"}}, FailedJobs: 2, Now: r1s},
			items: []item{{AttendAppeals, 1}, {AttendFailedJobs, 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.in.PairingsDue = ac.PairingsDue
			got := NeedsAttention(c.in)
			switch {
			case c.next == "" && got.Next != nil:
				t.Errorf("next %+v, want none", *got.Next)
			case c.next != "" && (got.Next == nil || got.Next.Kind != c.next || got.Next.Round != c.round || got.Next.Overdue != c.over):
				t.Errorf("next %+v, want %s %s overdue %v", got.Next, c.next, c.round, c.over)
			}
			var items []item
			for _, it := range got.Items {
				items = append(items, item{it.Kind, it.Count})
			}
			if !slices.Equal(items, c.items) {
				t.Errorf("items %v, want %v", items, c.items)
			}
		})
	}
	// The pairings of round 2 are due by Tuesday 14 January 23:59.
	if due := ac.PairingsDue(r1e); !due.Equal(utc(2025, 1, 15, 0, 0)) {
		t.Errorf("round 2's pairings due %s", due)
	}
	if got := NeedsAttention(AttentionInput{Event: running, Now: r1s, PairingsDue: ac.PairingsDue}); got.Next.Stage != "" || !got.Next.Due.Equal(utc(2025, 1, 8, 0, 0)) {
		t.Errorf("round 1 due %+v", got.Next)
	}
}
