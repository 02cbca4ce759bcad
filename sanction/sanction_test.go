package sanction

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"arbiter"
)

var matches = []Match{
	{ID: "m1", Sides: [2]string{"x", "a"}, Completed: true},
	{ID: "m2", Sides: [2]string{"b", "x"}, Completed: true},
	{ID: "m3", Sides: [2]string{"x", "c"}},
}

// ch builds the expected changes for m1, m2 (completed) and m3 (pending).
func ch(done, pending Effect, doneClause, pendingClause string) []Change {
	ben := func(e Effect, who string) string {
		if e == AwardOpponent || e == AdjudicateOpponent || e == FullForfeit {
			return who
		}
		return ""
	}
	return []Change{
		{MatchID: "m1", Effect: done, Beneficiary: ben(done, "a"), Clause: doneClause},
		{MatchID: "m2", Effect: done, Beneficiary: ben(done, "b"), Clause: doneClause},
		{MatchID: "m3", Effect: pending, Beneficiary: ben(pending, "c"), Clause: pendingClause},
	}
}

func TestDecide(t *testing.T) {
	cases := []struct {
		name string
		c    Case
		want Outcome
	}{
		// RKCC R14/R16: TOS violation -> every previous result a full forfeit for the opponent; barred; replaceable.
		{"RKCC TOS violation", Case{Rulebook: RKCC, Stage: Swiss, Subject: "x", Reason: TOSViolation, Matches: matches},
			Outcome{Changes: []Change{
				{MatchID: "m1", Effect: FullForfeit, Beneficiary: "a", Clause: "R14"},
				{MatchID: "m2", Effect: FullForfeit, Beneficiary: "b", Clause: "R14"},
				{MatchID: "m3", Effect: Keep, Clause: "R14"},
			}, Dropped: true, Barred: true, MayReplace: true}},
		{"RKCC TOS violation in the knockout", Case{Rulebook: RKCC, Stage: Knockout, Subject: "x", Reason: TOSViolation, Matches: matches[:1]},
			Outcome{Changes: []Change{{MatchID: "m1", Effect: FullForfeit, Beneficiary: "a", Clause: "R14"}}, Dropped: true, Barred: true, MayReplace: true}},
		{"RKCC team leader's TOS violation", Case{Rulebook: RKCC, Stage: Swiss, Subject: "x", Reason: TOSViolation, Matches: matches[:1], Team: &TeamContext{Captain: true}},
			Outcome{Changes: []Change{{MatchID: "m1", Effect: FullForfeit, Beneficiary: "a", Clause: "R14"}}, Dropped: true, Barred: true, MayReplace: true, NewCaptain: true}},
		{"RKCC removal for deliberate losing", Case{Rulebook: RKCC, Stage: Swiss, Subject: "x", Reason: Disqualification, Matches: matches},
			Outcome{Changes: ch(Keep, Keep, "R16", "R16"), Dropped: true, Barred: true, MayReplace: true}},
		{"RKCC withdrawal", Case{Rulebook: RKCC, Stage: Swiss, Subject: "x", Reason: Withdrawal, Matches: matches},
			Outcome{Changes: ch(Keep, Keep, "R14", "R14"), Dropped: true, MayReplace: true}},

		// Antichess: A1/A9 results kept, A8 pending to the opponent.
		{"antichess withdrawal", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: Withdrawal, Matches: matches, Team: &TeamContext{}},
			Outcome{Changes: ch(Keep, AwardOpponent, "A9", "A8"), Dropped: true, MayReplace: true}},
		{"antichess DQ", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: Disqualification, Matches: matches, Team: &TeamContext{}},
			Outcome{Changes: ch(Keep, AwardOpponent, "A1", "A8"), Dropped: true, MayReplace: true}},
		// A8: a Lichess ban not shown to be unrelated to cheating -> completed matches to the opponents.
		{"antichess cheating ban", Case{Rulebook: Antichess, Stage: Knockout, Subject: "x", Reason: LichessBan, Matches: matches, Team: &TeamContext{}},
			Outcome{Changes: ch(AdjudicateOpponent, AwardOpponent, "A8", "A8"), Dropped: true, MayReplace: true}},
		{"antichess ban proven not for cheating", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: LichessBan, NotForCheating: true, Matches: matches, Team: &TeamContext{}},
			Outcome{Changes: ch(Reopen, AwardOpponent, "A8", "A8"), Dropped: true, MayReplace: true}},
		// A2: a ban in the 12 months before, found after the start.
		{"antichess ineligible", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: Ineligible, Matches: matches, Team: &TeamContext{}},
			Outcome{Changes: ch(AdjudicateOpponent, AwardOpponent, "A2", "A8"), Dropped: true, MayReplace: true}},
		// A15: a second disqualified player, or the captain, takes the team out.
		{"antichess second DQ", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: Disqualification, Matches: matches, Team: &TeamContext{PriorDQs: 1}},
			Outcome{Changes: ch(Keep, AwardOpponent, "A1", "A8"), Dropped: true, TeamOut: true}},
		{"antichess captain DQ", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: Disqualification, Matches: matches, Team: &TeamContext{Captain: true}},
			Outcome{Changes: ch(Keep, AwardOpponent, "A1", "A8"), Dropped: true, TeamOut: true}},
		{"antichess without team context", Case{Rulebook: Antichess, Stage: Swiss, Subject: "x", Reason: Disqualification, Matches: matches},
			Outcome{Changes: ch(Keep, AwardOpponent, "A1", "A8"), Dropped: true}},

		// ACWC W17.
		{"ACWC qualification withdrawal", Case{Rulebook: ACWC, Stage: Swiss, Subject: "x", Reason: Withdrawal, Matches: matches},
			Outcome{Changes: ch(Keep, AwardOpponent, "W17", "W17"), Dropped: true}},
		{"ACWC qualification booster mark", Case{Rulebook: ACWC, Stage: Swiss, Subject: "x", Reason: BoosterMark, Matches: matches},
			Outcome{Changes: ch(Keep, AwardOpponent, "W17", "W17"), Dropped: true}},
		{"ACWC qualification engine mark", Case{Rulebook: ACWC, Stage: Swiss, Subject: "x", Reason: EngineMark, Matches: matches},
			Outcome{Changes: ch(AdjudicateOpponent, AwardOpponent, "W17", "W17"), Dropped: true}},
		{"ACWC candidates", Case{Rulebook: ACWC, Stage: RoundRobin, Subject: "x", Reason: EngineMark, Matches: matches},
			Outcome{Changes: ch(Disregard, Disregard, "W17", "W17"), Dropped: true}},
		{"ACWC candidates withdrawal", Case{Rulebook: ACWC, Stage: RoundRobin, Subject: "x", Reason: Withdrawal, Matches: matches},
			Outcome{Changes: ch(Disregard, Disregard, "W17", "W17"), Dropped: true}},
		{"ACWC semifinal", Case{Rulebook: ACWC, Stage: Knockout, Subject: "x", Reason: Disqualification, Matches: matches[2:]},
			Outcome{Changes: []Change{{MatchID: "m3", Effect: Replaced, Clause: "W17"}}, Dropped: true, MoveUp: true}},
		{"no matches", Case{Rulebook: ACWC, Stage: Swiss, Subject: "x", Reason: Withdrawal},
			Outcome{Changes: []Change{}, Dropped: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decide(tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestDecideRefusals(t *testing.T) {
	cases := []struct {
		name   string
		c      Case
		code   string
		clause string
		msg    string
	}{
		{"captain withdraws", Case{Rulebook: Antichess, Subject: "x", Reason: Withdrawal, Team: &TeamContext{Captain: true}}, arbiter.ERULE, "A15", "handing the captaincy"},
		{"captain withdraws too soon", Case{Rulebook: Antichess, Subject: "x", Reason: Withdrawal, Team: &TeamContext{RecentCaptain: true}}, arbiter.ERULE, "A15", "one round"},
		{"RKCC engine mark", Case{Rulebook: RKCC, Subject: "x", Reason: EngineMark}, arbiter.EINVALID, "R14", "no engine mark case"},
		{"antichess TOS", Case{Rulebook: Antichess, Subject: "x", Reason: TOSViolation}, arbiter.EINVALID, "A8", "no TOS violation case"},
		{"ACWC Lichess ban", Case{Rulebook: ACWC, Stage: Swiss, Subject: "x", Reason: LichessBan}, arbiter.EINVALID, "W17", "no Lichess ban case"},
		{"ACWC unknown stage", Case{Rulebook: ACWC, Subject: "x", Reason: Withdrawal}, arbiter.EINVALID, "W17", "unknown stage"},
		{"subject not in match", Case{Rulebook: ACWC, Stage: Swiss, Subject: "y", Reason: Withdrawal, Matches: matches}, arbiter.EINVALID, "sanction.matches", "y is not one side of match \"m1\""},
		{"self match", Case{Rulebook: ACWC, Stage: Swiss, Subject: "x", Reason: Withdrawal, Matches: []Match{{ID: "z", Sides: [2]string{"x", "x"}}}}, arbiter.EINVALID, "sanction.matches", "not one side"},
		{"unknown rulebook", Case{Subject: "x", Reason: Withdrawal}, arbiter.EINVALID, "sanction.rulebook", "unknown rulebook"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decide(tc.c)
			wantErr(t, err, tc.code, tc.clause, tc.msg)
		})
	}
}

func wantErr(t *testing.T, err error, code, clause, msg string) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Code != code || e.Rule != clause {
		t.Fatalf("want %s error naming %q, got %#v", code, clause, err)
	}
	if !strings.Contains(e.Error(), msg) {
		t.Fatalf("message %q lacks %q", e.Error(), msg)
	}
}

// TestPropertyBeneficiaryIsOpponent: whatever the case, an award,
// adjudication or forfeit goes to the subject's opponent in that match,
// never to the subject, and every match gets exactly one change.
func TestPropertyBeneficiaryIsOpponent(t *testing.T) {
	for _, rb := range []Rulebook{RKCC, Antichess, ACWC} {
		for _, st := range []StageKind{Swiss, RoundRobin, Knockout} {
			for r := Withdrawal; r <= BoosterMark; r++ {
				for _, nfc := range []bool{false, true} {
					o, err := Decide(Case{Rulebook: rb, Stage: st, Subject: "x", Reason: r, NotForCheating: nfc, Matches: matches, Team: &TeamContext{}})
					if err != nil {
						continue
					}
					if len(o.Changes) != len(matches) || !o.Dropped {
						t.Errorf("%d/%d/%s: %+v", rb, st, r, o)
					}
					for i, c := range o.Changes {
						opp, _ := matches[i].opponent("x")
						if c.MatchID != matches[i].ID || c.Clause == "" {
							t.Errorf("%d/%d/%s: change %+v", rb, st, r, c)
						}
						if (c.Beneficiary != "") != (c.Effect == AwardOpponent || c.Effect == AdjudicateOpponent || c.Effect == FullForfeit) ||
							(c.Beneficiary != "" && c.Beneficiary != opp) {
							t.Errorf("%d/%d/%s: beneficiary of %+v", rb, st, r, c)
						}
						// A pending match is never "kept" as if played, outside RKCC where the replacement plays it.
						if !matches[i].Completed && c.Effect == Keep && rb != RKCC {
							t.Errorf("%d/%d/%s: pending match kept", rb, st, r)
						}
					}
				}
			}
		}
	}
}

func TestForfeitDisqualifies(t *testing.T) {
	cases := []struct {
		rb       Rulebook
		forfeits []Forfeit
		dq       bool
		clause   string
	}{
		{Antichess, []Forfeit{{"m1"}}, false, "A7"},
		{Antichess, []Forfeit{{"m1"}, {"m1"}}, true, "A7"}, // twice, even in one match
		{ACWC, []Forfeit{{"m1"}, {"m1"}}, false, "W16"},    // W16 needs two different matches
		{ACWC, []Forfeit{{"m1"}, {"m2"}}, true, "W16"},
		{ACWC, nil, false, "W16"},
		{RKCC, []Forfeit{{"m1"}, {"m2"}, {"m3"}}, false, ""},
	}
	for i, tc := range cases {
		if dq, cl := ForfeitDisqualifies(tc.rb, tc.forfeits); dq != tc.dq || cl != tc.clause {
			t.Errorf("case %d: %v %q", i, dq, cl)
		}
	}
}

func TestCheckReplacement(t *testing.T) {
	ok := Candidate{Name: "new", Rating: 1900, Eligible: true, Willing: true}
	cases := []struct {
		name    string
		rb      Rulebook
		rating  int
		c       Candidate
		removed []string
		out     bool
		clause  string // "" when accepted
		msg     string
	}{
		{"A15 exactly 100 below", Antichess, 2000, ok, nil, false, "", ""},
		{"A15 99 below", Antichess, 1999, ok, nil, false, "A15", "at least 100 points below the replaced player (1999): new is rated 1900"},
		{"A15 higher rated", Antichess, 1800, ok, nil, false, "A15", "at least 100 points"},
		{"A15 ineligible", Antichess, 2200, Candidate{Name: "new", Rating: 1900, Willing: true}, nil, false, "A15", "eligibility"},
		{"A15 unwilling", Antichess, 2200, Candidate{Name: "new", Rating: 1900, Eligible: true}, nil, false, "A15", "willing"},
		{"A15 team out", Antichess, 2200, ok, nil, true, "A15", "team is disqualified"},
		{"A11 other team", Antichess, 2200, Candidate{Name: "new", Rating: 1900, Eligible: true, Willing: true, Team: "other"}, nil, false, "A11", "another team"},
		{"A15 disqualified player", Antichess, 2200, ok, []string{"new"}, false, "A15", "disqualified"},
		{"R14 free player", RKCC, 0, Candidate{Name: "new"}, nil, false, "", ""},
		{"R14 already ours", RKCC, 0, Candidate{Name: "new", Team: "us"}, nil, false, "", ""},
		{"R14 other team", RKCC, 0, Candidate{Name: "new", Team: "them"}, nil, false, "R14", "another team"},
		{"R16 removed", RKCC, 0, Candidate{Name: "new"}, []string{"new"}, false, "R16", "removed"},
		{"ACWC none", ACWC, 0, ok, nil, false, "W17", "cannot be replaced"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckReplacement(tc.rb, "us", tc.rating, tc.c, tc.removed, tc.out)
			if tc.clause == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, arbiter.ERULE, tc.clause, tc.msg)
		})
	}
	if err := MayPlay("x", []string{"y"}); err != nil {
		t.Error(err)
	}
	wantErr(t, MayPlay("y", []string{"y"}), arbiter.ERULE, "R16", "may not play for any team")
}

func TestStrings(t *testing.T) {
	if Withdrawal.String() != "withdrawal" || Reason(99).String() != "reason 99" || Replaced.String() != "replace" || Effect(0).String() != "effect 0" {
		t.Error("names")
	}
}
