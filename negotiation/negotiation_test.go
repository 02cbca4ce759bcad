package negotiation

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/calendar"
)

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

// Antichess round: pairings Tuesday 2025-05-13, due Monday 05-19 23:59;
// offers due 72 h after the previous round ended (Thursday 05-15 23:59);
// the weekend starts Saturday 05-17.
func a5() State {
	return State{
		Rules:         RulesAntichess(),
		Round:         calendar.Window{Start: utc(2025, 5, 13, 0, 0), End: utc(2025, 5, 20, 0, 0)},
		OfferDeadline: utc(2025, 5, 16, 0, 0),
		Weekend:       utc(2025, 5, 17, 0, 0),
	}
}

// ACWC round: pairings Tuesday 2023-03-28, due Monday 04-03 23:59; offers
// by Friday 03-31 23:59; the weekend starts Saturday 04-01.
func w14() State {
	return State{
		Rules:         RulesACWC(),
		Round:         calendar.Window{Start: utc(2023, 3, 28, 0, 0), End: utc(2023, 4, 4, 0, 0)},
		OfferDeadline: utc(2023, 4, 1, 0, 0),
		Weekend:       utc(2023, 4, 1, 0, 0),
	}
}

func TestNewFromCalendar(t *testing.T) {
	c, err := calendar.Build(calendar.AntichessTeamCup(), utc(2025, 5, 6, 0, 0), []calendar.Stage{{Rounds: 2}})
	if err != nil {
		t.Fatal(err)
	}
	s := New(RulesAntichess(), c.Rounds[1])
	want := a5()
	if !s.Round.Start.Equal(want.Round.Start) || !s.Round.End.Equal(want.Round.End) ||
		!s.OfferDeadline.Equal(want.OfferDeadline) || !s.Weekend.Equal(want.Weekend) {
		t.Errorf("New = %+v, want %+v", s, want)
	}
}

func wantRule(t *testing.T, err error, clause, msg string) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Code != arbiter.ERULE || e.Rule != clause {
		t.Fatalf("want rule error naming %s, got %#v", clause, err)
	}
	if !strings.Contains(e.Message, msg) {
		t.Fatalf("message %q lacks %q", e.Message, msg)
	}
}

// step is one action at one instant; err is "" when it must succeed, or a
// fragment of the expected refusal message.
type step struct {
	now time.Time
	a   Action
	err string
}

func play(t *testing.T, s State, steps []step) State {
	t.Helper()
	for i, st := range steps {
		before := len(s.Offers)
		next, err := Apply(s, st.a, st.now)
		if st.err == "" {
			if err != nil {
				t.Fatalf("step %d (%T): %v", i, st.a, err)
			}
			s = next
			continue
		}
		wantRule(t, err, s.Rules.Clause, st.err)
		if len(s.Offers) != before {
			t.Fatalf("step %d: a refused action changed the state", i)
		}
	}
	return s
}

func propose(p Player, ts ...time.Time) Propose { return Propose{By: p, Times: ts} }

func TestOfferValidationA5(t *testing.T) {
	now := utc(2025, 5, 13, 10, 0)
	cases := []struct {
		name  string
		prior []time.Time // A's earlier offers, made at now
		times []time.Time
		err   string
	}{
		{"three good offers", nil, []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 15, 18, 0), utc(2025, 5, 16, 18, 0)}, ""},
		{"one at a time is fine", nil, []time.Time{utc(2025, 5, 14, 18, 0)}, ""},
		{"third completes the set", []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 15, 18, 0)}, []time.Time{utc(2025, 5, 16, 18, 0)}, ""},
		{"in the past", nil, []time.Time{utc(2025, 5, 13, 9, 0)}, "in the past"},
		{"now is past", nil, []time.Time{now}, "in the past"},
		{"after the round", nil, []time.Time{utc(2025, 5, 20, 0, 0)}, "outside the round"},
		{"last minute of the round", nil, []time.Time{utc(2025, 5, 19, 23, 59)}, ""},
		{"gap 2h59", nil, []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 14, 20, 59)}, "at least 3 hours apart"},
		{"gap exactly 3h", nil, []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 14, 21, 0)}, ""},
		{"gap against an earlier offer", []time.Time{utc(2025, 5, 14, 18, 0)}, []time.Time{utc(2025, 5, 14, 16, 0)}, "at least 3 hours apart"},
		{"duplicate in one set", nil, []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 14, 18, 0)}, "already offered"},
		{"duplicate of an earlier offer", []time.Time{utc(2025, 5, 14, 18, 0)}, []time.Time{utc(2025, 5, 14, 18, 0)}, "already offered"},
		{"all within 24 h (23:59)", nil, []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 14, 21, 0), utc(2025, 5, 15, 17, 59)}, "within 24 hours"},
		{"spanning exactly 24 h", nil, []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 14, 21, 0), utc(2025, 5, 15, 18, 0)}, ""},
		{"three on one evening", []time.Time{utc(2025, 5, 14, 20, 0), utc(2025, 5, 14, 23, 0)}, []time.Time{utc(2025, 5, 15, 2, 0)}, "within 24 hours"},
		{"three on one date are fine in A5", nil, []time.Time{utc(2025, 5, 14, 0, 0), utc(2025, 5, 14, 12, 0), utc(2025, 5, 15, 0, 0)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := a5()
			if tc.prior != nil {
				s = play(t, s, []step{{now, propose(PlayerA, tc.prior...), ""}})
			}
			s = play(t, s, []step{{now, propose(PlayerA, tc.times...), tc.err}})
			if tc.err == "" && len(s.Offers) != len(tc.prior)+len(tc.times) {
				t.Errorf("recorded %d offers", len(s.Offers))
			}
		})
	}
}

func TestOfferValidationW14(t *testing.T) {
	now := utc(2023, 3, 28, 8, 0)
	cases := []struct {
		name  string
		times []time.Time
		err   string
	}{
		{"three on one date", []time.Time{utc(2023, 3, 29, 9, 0), utc(2023, 3, 29, 13, 0), utc(2023, 3, 29, 17, 0)}, "at most 2 offers may fall on one date"},
		{"two on one date", []time.Time{utc(2023, 3, 29, 9, 0), utc(2023, 3, 29, 13, 0), utc(2023, 3, 30, 9, 0)}, ""},
		// W14 has no 24-hour span rule: these three span 6 hours over two dates.
		{"one evening over midnight", []time.Time{utc(2023, 3, 29, 20, 0), utc(2023, 3, 29, 23, 0), utc(2023, 3, 30, 2, 0)}, ""},
		{"gap", []time.Time{utc(2023, 3, 29, 20, 0), utc(2023, 3, 29, 22, 0)}, "at least 3 hours apart"},
		{"after the round", []time.Time{utc(2023, 4, 4, 10, 0)}, "outside the round"},
		{"before the round", []time.Time{utc(2023, 3, 27, 23, 0)}, "in the past"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			play(t, w14(), []step{{now, propose(PlayerB, tc.times...), tc.err}})
		})
	}
	// A future time before the round start: refused as outside the round.
	s := w14()
	play(t, s, []step{{utc(2023, 3, 20, 0, 0), propose(PlayerA, utc(2023, 3, 27, 12, 0)), "outside the round"}})
}

var (
	aOffers = []time.Time{utc(2025, 5, 14, 18, 0), utc(2025, 5, 15, 18, 0), utc(2025, 5, 16, 18, 0)}
	bOffers = []time.Time{utc(2025, 5, 14, 8, 0), utc(2025, 5, 15, 8, 0), utc(2025, 5, 17, 8, 0)}
)

func TestAgreement(t *testing.T) {
	tue := utc(2025, 5, 13, 10, 0)
	s := play(t, a5(), []step{
		{tue, propose(PlayerA, aOffers...), ""},
		{tue, Accept{PlayerA, aOffers[0]}, "your own offer"},
		{tue, Accept{PlayerB, utc(2025, 5, 14, 19, 0)}, "did not offer"},
		{tue.Add(time.Hour), propose(PlayerB, bOffers...), ""}, // counter-offers
		{utc(2025, 5, 15, 9, 0), Accept{PlayerA, bOffers[0]}, "already passed"},
		{utc(2025, 5, 15, 9, 0), Accept{PlayerB, aOffers[1]}, ""},
		{utc(2025, 5, 15, 10, 0), propose(PlayerA, utc(2025, 5, 18, 12, 0)), "already agreed"},
		{utc(2025, 5, 15, 10, 0), Accept{PlayerA, bOffers[2]}, "already agreed"},
	})
	if s.Outcome != Agreed || !s.AgreedAt.Equal(aOffers[1]) {
		t.Errorf("outcome %s at %s", s.Outcome, s.AgreedAt)
	}
	for _, o := range s.Offers {
		if o.Batch != 0 || o.Made.IsZero() {
			t.Errorf("offer %+v", o)
		}
	}
}

func TestMissedDeadline(t *testing.T) {
	tue, deadline := utc(2025, 5, 13, 10, 0), utc(2025, 5, 16, 0, 0)
	s := play(t, a5(), []step{
		{tue, propose(PlayerA, aOffers...), ""},
		{tue, propose(PlayerB, bOffers[:2]...), ""}, // B makes only 2
		// Just before the deadline B could still complete the set...
		{deadline.Add(-time.Second), propose(PlayerB, utc(2025, 5, 18, 8, 0)), ""},
	})
	if s.MissedDeadline(PlayerB, deadline) {
		t.Error("B made 3 offers in time")
	}

	s = play(t, a5(), []step{
		{tue, propose(PlayerA, aOffers...), ""},
		{tue, propose(PlayerB, bOffers[:2]...), ""},
		// ...at the deadline instant it is too late: B must accept A's times.
		{deadline, propose(PlayerB, utc(2025, 5, 18, 8, 0)), "must accept one of your opponent's times"},
		// A made 3 in time and may still counter-offer after the deadline.
		{deadline, propose(PlayerA, utc(2025, 5, 18, 20, 0)), ""},
		{deadline, Accept{PlayerB, utc(2025, 5, 18, 20, 0)}, ""},
	})
	if s.Outcome != Agreed || !s.AgreedAt.Equal(utc(2025, 5, 18, 20, 0)) {
		t.Errorf("outcome %s %s", s.Outcome, s.AgreedAt)
	}
	if !s.MustAccept(PlayerB, deadline) || s.MustAccept(PlayerA, deadline) {
		t.Error("MustAccept")
	}
	// The refusal message tells the player the deadline as the rulebook writes it.
	_, err := Apply(a5(), propose(PlayerA, aOffers[2]), deadline)
	if err == nil || !strings.Contains(err.Error(), "Thursday 2025-05-15 23:59 UTC") || !strings.Contains(err.Error(), "(rule A5)") {
		t.Errorf("message %v", err)
	}
}

func TestRenewalA5(t *testing.T) {
	tue := utc(2025, 5, 13, 10, 0)
	wed := utc(2025, 5, 14, 0, 0)
	s := play(t, a5(), []step{
		{tue, propose(PlayerA, aOffers...), ""},
		{tue, propose(PlayerB, bOffers[:2]...), ""},
		{wed, NoneSuitable{PlayerA}, "player B has made 2 of 3 offers"},
		{wed, propose(PlayerB, bOffers[2]), ""},
		{wed, NoneSuitable{PlayerB}, ""},
		// The three new offers must differ from all six before.
		{wed, propose(PlayerA, utc(2025, 5, 18, 8, 0), bOffers[2], utc(2025, 5, 19, 20, 0)), "offered before"},
		{wed, propose(PlayerA, aOffers[2]), "offered before"},
		// Gaps count within the new batch only.
		{wed, propose(PlayerA, utc(2025, 5, 16, 20, 0), utc(2025, 5, 18, 8, 0), utc(2025, 5, 19, 20, 0)), ""},
		{wed, NoneSuitable{PlayerA}, "player B has made 0 of 3 offers"},
		// An earlier offer may still be accepted.
		{wed, Accept{PlayerB, aOffers[2]}, ""},
	})
	if s.Batch != 1 || s.Outcome != Agreed {
		t.Errorf("batch %d outcome %s", s.Batch, s.Outcome)
	}
	// A format asking for 2 more offers per renewal (format data, not a rulebook).
	two := a5()
	two.Rules.RetryOffers = 2
	play(t, two, []step{
		{tue, propose(PlayerA, aOffers...), ""},
		{tue, propose(PlayerB, bOffers...), ""},
		{wed, NoneSuitable{PlayerA}, ""},
		{wed, propose(PlayerA, utc(2025, 5, 18, 8, 0), utc(2025, 5, 19, 8, 0)), ""},
		{wed, propose(PlayerB, utc(2025, 5, 18, 14, 0)), ""},
		{wed, NoneSuitable{PlayerA}, "player B has made 1 of 2 offers"},
		{wed, propose(PlayerB, utc(2025, 5, 19, 14, 0)), ""},
		{wed, NoneSuitable{PlayerB}, ""},
	})
	// W14 has no renewal.
	w := w14()
	play(t, w, []step{{utc(2023, 3, 28, 9, 0), NoneSuitable{PlayerA}, "different offer"}})
}

func TestFaultRulings(t *testing.T) {
	tue, sat := utc(2025, 5, 13, 10, 0), utc(2025, 5, 17, 0, 0)
	a, b := PlayerA, PlayerB
	base := play(t, a5(), []step{
		{tue, propose(PlayerA, aOffers...), ""},
		{tue, propose(PlayerB, bOffers...), ""},
		{sat.Add(-time.Minute), RuleFault{}, "before the weekend"},
	})
	// No fault: A5 rules a 0-0 draw.
	s := play(t, base, []step{{sat, RuleFault{}, ""}, {sat, RuleFault{&a}, "negotiation is over"}})
	if s.Outcome != DrawZeroZero {
		t.Errorf("A5 no fault: %s", s.Outcome)
	}
	// A at fault: A must accept one of B's times; B decides and may add times.
	s = play(t, base, []step{
		{sat, RuleFault{&a}, ""},
		{sat, RuleFault{&b}, "already ruled"},
		{sat, propose(PlayerA, utc(2025, 5, 18, 22, 0)), "found you at fault"},
		{sat, propose(PlayerB, utc(2025, 5, 18, 12, 0)), ""},
		{sat, Accept{PlayerA, utc(2025, 5, 18, 12, 0)}, ""},
	})
	if s.Outcome != Agreed || !s.AtFault[PlayerA] || s.AtFault[PlayerB] {
		t.Errorf("%+v", s)
	}
	// W14 no fault: a draw.
	ws := play(t, w14(), []step{{utc(2023, 4, 1, 0, 0), RuleFault{}, ""}})
	if ws.Outcome != Draw {
		t.Errorf("W14 no fault: %s", ws.Outcome)
	}
	// After a ruling, a player who missed the deadline but was not found at
	// fault may decide the time.
	s = play(t, a5(), []step{
		{sat, RuleFault{&b}, ""},
		{sat, propose(PlayerA, utc(2025, 5, 18, 12, 0)), ""},
		{sat, propose(PlayerB, utc(2025, 5, 18, 20, 0)), "found you at fault"},
	})
}

func TestBadPlayerIsInvalid(t *testing.T) {
	for _, a := range []Action{propose(Player(2), aOffers[0]), Accept{Player(-1), aOffers[0]}, NoneSuitable{Player(3)}, RuleFault{AtFault: new(Player(7))}} {
		_, err := Apply(a5(), a, utc(2025, 5, 17, 1, 0))
		if arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("%#v: %v", a, err)
		}
	}
	_, err := Apply(a5(), Propose{By: PlayerA}, utc(2025, 5, 13, 1, 0))
	if arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Errorf("empty proposal: %v", err)
	}
}

func TestExpireW14(t *testing.T) {
	fri, sat := utc(2023, 3, 31, 23, 59), utc(2023, 4, 1, 0, 0)
	// Both missed: a draw, both count a forfeited game.
	s := play(t, w14(), []step{
		{utc(2023, 3, 29, 0, 0), propose(PlayerA, utc(2023, 3, 30, 12, 0), utc(2023, 3, 31, 12, 0)), ""},
		{fri, Expire{}, "not passed"},
		{sat, Expire{}, ""},
	})
	if s.Outcome != DrawBothForfeited {
		t.Errorf("both missed: %s", s.Outcome)
	}
	// Only B missed: no automatic result; B must accept A's times.
	s = play(t, w14(), []step{
		{utc(2023, 3, 29, 0, 0), propose(PlayerA, utc(2023, 3, 30, 12, 0), utc(2023, 3, 31, 12, 0), utc(2023, 4, 2, 12, 0)), ""},
		{sat, Expire{}, ""},
		{sat, propose(PlayerB, utc(2023, 4, 2, 18, 0)), "must accept"},
		{sat, Accept{PlayerB, utc(2023, 4, 2, 12, 0)}, ""},
	})
	if s.Outcome != Agreed {
		t.Errorf("one missed: %s", s.Outcome)
	}
	// A5 has no automatic result when both missed: the TDs rule at the weekend.
	s = play(t, a5(), []step{{utc(2025, 5, 16, 0, 0), Expire{}, ""}})
	if s.Outcome != Open {
		t.Errorf("A5 both missed: %s", s.Outcome)
	}
}

func TestAgreeDrawAndException(t *testing.T) {
	play(t, a5(), []step{{utc(2025, 5, 14, 0, 0), AgreeDraw{}, "without being played"}})
	s := play(t, w14(), []step{{utc(2023, 3, 29, 0, 0), AgreeDraw{}, ""}})
	if s.Outcome != Draw {
		t.Errorf("W14 agreed draw: %s", s.Outcome)
	}
	s, err := Apply(a5(), Exception{Outcome: Agreed, AgreedAt: utc(2025, 5, 21, 12, 0)}, utc(2025, 5, 14, 0, 0))
	if err != nil || s.Outcome != Agreed || !s.AgreedAt.Equal(utc(2025, 5, 21, 12, 0)) {
		t.Errorf("exception %v %+v", err, s)
	}
	if _, err := Apply(a5(), Exception{Outcome: Agreed}, utc(2025, 5, 14, 0, 0)); arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Errorf("exception without time: %v", err)
	}
}

func TestUnansweredW14(t *testing.T) {
	tue := utc(2023, 3, 28, 10, 0)
	s := play(t, w14(), []step{{tue, propose(PlayerA, utc(2023, 3, 30, 12, 0)), ""}})
	if n := len(s.Unanswered(PlayerB, tue.Add(24*time.Hour-time.Second))); n != 0 {
		t.Errorf("before 24 h: %d unanswered", n)
	}
	if n := len(s.Unanswered(PlayerB, tue.Add(24*time.Hour))); n != 1 {
		t.Errorf("after 24 h: %d unanswered", n)
	}
	if n := len(s.Unanswered(PlayerA, tue.Add(48*time.Hour))); n != 0 {
		t.Errorf("A has nothing to answer: %d", n)
	}
	s = play(t, s, []step{{tue.Add(5 * time.Hour), propose(PlayerB, utc(2023, 3, 31, 12, 0)), ""}})
	if n := len(s.Unanswered(PlayerB, tue.Add(48*time.Hour))); n != 0 {
		t.Errorf("B counter-offered: %d unanswered", n)
	}
	if n := len(a5().Unanswered(PlayerB, tue)); n != 0 {
		t.Error("A5 has no reply window")
	}
}

// TestApplyDoesNotAlias: appending to a state's offers must not change
// another state sharing the array.
func TestApplyDoesNotAlias(t *testing.T) {
	now := utc(2025, 5, 13, 10, 0)
	s := a5()
	s.Offers = make([]Offer, 0, 10)
	s1, _ := Apply(s, propose(PlayerA, aOffers[0]), now)
	s2, _ := Apply(s1, propose(PlayerB, bOffers[0]), now)
	s3, _ := Apply(s1, propose(PlayerB, bOffers[1]), now)
	if !s2.Offers[1].At.Equal(bOffers[0]) || !s3.Offers[1].At.Equal(bOffers[1]) || len(s1.Offers) != 1 {
		t.Errorf("aliasing: %v / %v", s2.Offers, s3.Offers)
	}
}
