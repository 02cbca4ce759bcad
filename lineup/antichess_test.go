package lineup

import (
	"slices"
	"testing"
	"time"

	"arbiter"
)

func acTeam() Team {
	return Team{
		Members: []Member{
			{Name: "pia", Rating: 2350},
			{Name: "quin", Rating: 2290},
			{Name: "rex", Rating: 2280},
			{Name: "sam", Rating: 2100},
			{Name: "tom", Rating: 2095},
		},
		Captains:   []CaptainTerm{{Name: "quin", From: 1}},
		Boards:     []string{"pia", "quin", "rex", "sam"},
		Comparable: Comparable{{"quin", "rex"}, {"tom", "sam"}, {"tom", "rex"}},
	}
}

func TestRulesAntichessBoards(t *testing.T) {
	// A9: teams of 4, or 3 when fewer than 10 teams.
	for _, tc := range []struct{ teams, boards int }{{9, 3}, {10, 4}, {64, 4}} {
		if r := RulesAntichess(tc.teams); r.Boards != tc.boards || r.MaxMembers != tc.boards+1 {
			t.Errorf("%d teams: %+v", tc.teams, r)
		}
	}
}

func TestRankByRating(t *testing.T) {
	ms := []Member{{Name: "b", Rating: 2000}, {Name: "a", Rating: 2000}, {Name: "c", Rating: 2400}, {Name: "d", Rating: 1500}}
	if got := RankByRating(ms); !slices.Equal(got, []string{"c", "a", "b", "d"}) {
		t.Errorf("got %v", got)
	}
	if ms[0].Name != "b" {
		t.Error("RankByRating reordered its input")
	}
}

func TestCheckOrder(t *testing.T) {
	td := []string{"pia", "quin", "rex", "sam"}
	cmp := Comparable{{"quin", "rex"}, {"rex", "sam"}, {"quin", "sam"}}
	cases := []struct {
		name  string
		final []string
		code  string
		msg   string
	}{
		{"TDs' order", td, "", ""},
		{"allowed interchange", []string{"pia", "rex", "quin", "sam"}, "", ""},
		{"three comparable players rotate", []string{"pia", "sam", "quin", "rex"}, "", ""},
		{"interchange not allowed", []string{"quin", "pia", "rex", "sam"}, arbiter.ERULE, "quin may not play board 1 ahead of pia"},
		{"unknown player", []string{"pia", "quin", "rex", "tom"}, arbiter.EINVALID, "tom is not one of"},
		{"twice", []string{"pia", "quin", "quin", "sam"}, arbiter.EINVALID, "listed twice"},
		{"short", []string{"pia", "quin", "rex"}, arbiter.EINVALID, "3 boards"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckOrder(td, tc.final, cmp)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, tc.code, "A12", tc.msg)
		})
	}
}

func TestValidateTeam(t *testing.T) {
	r := RulesAntichess(12)
	if err := r.Validate(acTeam()); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		edit   func(*Team)
		clause string
		msg    string
	}{
		{"six members", func(t *Team) { t.Members = append(t.Members, Member{Name: "uma"}) }, "A9", "4 to 5 members, got 6"},
		{"three members", func(t *Team) { t.Members = t.Members[:3] }, "A9", "got 3"},
		{"duplicate", func(t *Team) { t.Members[4].Name = "pia" }, "A11", "listed twice"},
		{"two TDs", func(t *Team) { t.Members[0].TD, t.Members[3].TD = true, true }, "A13", "no two tournament directors"},
		{"TD captain", func(t *Team) { t.Members[1].TD = true }, "A13", "cannot be the captain"},
		{"comm-banned captain", func(t *Team) { t.Members[1].CommBanned = true }, "A16", "communication ban"},
		{"captain not a member", func(t *Team) { t.Captains[0].Name = "zed" }, "A11", "not a member"},
		{"no captain", func(t *Team) { t.Captains = nil }, "A11", "names its captain"},
		{"three boards", func(t *Team) { t.Boards = t.Boards[:3] }, "A9", "plays 4 boards"},
		{"board not a member", func(t *Team) { t.Boards[3] = "zed" }, "A12", "zed is not a member"},
		{"board twice", func(t *Team) { t.Boards[3] = "pia" }, "A11", "on two boards"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tm := acTeam().clone()
			tc.edit(&tm)
			wantErr(t, r.Validate(tm), arbiter.EINVALID, tc.clause, tc.msg)
		})
	}
	// One TD who is not the captain is fine; so is a comm-banned non-captain (A16).
	tm := acTeam().clone()
	tm.Members[0].TD, tm.Members[2].CommBanned = true, true
	if err := r.Validate(tm); err != nil {
		t.Error(err)
	}
}

func TestChangeCaptain(t *testing.T) {
	r := RulesAntichess(12)
	tm := acTeam()
	tm.Members[3].CommBanned = true // sam
	tm.Members[4].TD = true         // tom

	// During round 3 the team makes pia captain: from round 4 (A13).
	got, err := r.ChangeCaptain(tm, "pia", 3, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.CaptainAt(3) != "quin" || got.CaptainAt(4) != "pia" || got.CaptainAt(9) != "pia" || got.Changes != 1 {
		t.Errorf("captains %+v", got.Captains)
	}
	if len(tm.Captains) != 1 {
		t.Error("ChangeCaptain modified its input")
	}
	_, err = r.ChangeCaptain(got, "rex", 5, false)
	wantErr(t, err, arbiter.ERULE, "A13", "already changed its captain once")
	_, err = r.ChangeCaptain(tm, "sam", 3, false)
	wantErr(t, err, arbiter.ERULE, "A16", "communication ban")
	_, err = r.ChangeCaptain(tm, "tom", 3, false)
	wantErr(t, err, arbiter.ERULE, "A13", "tournament director")
	_, err = r.ChangeCaptain(tm, "quin", 3, false)
	wantErr(t, err, arbiter.EINVALID, "A13", "already the captain")
	_, err = r.ChangeCaptain(tm, "zed", 3, false)
	wantErr(t, err, arbiter.EINVALID, "A13", "not a member")

	// The TDs replace quin (A16): the team keeps its one change but may not bring quin back.
	byTD, err := r.ChangeCaptain(tm, "rex", 2, true)
	if err != nil {
		t.Fatal(err)
	}
	if byTD.Changes != 0 || byTD.CaptainAt(3) != "rex" || !slices.Equal(byTD.RemovedByTD, []string{"quin"}) {
		t.Errorf("%+v", byTD)
	}
	_, err = r.ChangeCaptain(byTD, "quin", 4, false)
	wantErr(t, err, arbiter.ERULE, "A16", "TDs removed quin")
	if again, err := r.ChangeCaptain(byTD, "pia", 4, false); err != nil || again.CaptainAt(5) != "pia" {
		t.Errorf("team's own change after a TD replacement: %v", err)
	}
}

func TestSubstitute(t *testing.T) {
	r := RulesAntichess(12)
	pairings := utc(2025, 5, 20, 0, 0)
	before := pairings.Add(-time.Minute)
	swiss := SubContext{Round: 3, NextPairings: pairings}
	ko := SubContext{Round: 6, NextPairings: pairings, Knockout: true, MatchFinished: true, MatchWon: true}
	cases := []struct {
		name    string
		in, out string
		ctx     SubContext
		now     time.Time
		boards  []string
		code    string
		clause  string
		msg     string
	}{
		{"5th replaces a comparable player", "tom", "sam", swiss, before, []string{"pia", "quin", "rex", "tom"}, "", "", ""},
		{"5th takes the replaced board", "tom", "rex", swiss, before, []string{"pia", "quin", "tom", "sam"}, "", "", ""},
		{"not comparable", "tom", "pia", swiss, before, nil, arbiter.ERULE, "A14", "did not approve tom for pia"},
		{"at the pairings", "tom", "sam", swiss, pairings, nil, arbiter.ERULE, "A14", "before the next pairings"},
		{"in already plays", "sam", "rex", swiss, before, nil, arbiter.EINVALID, "A14", "already plays"},
		{"out not playing", "tom", "zed", swiss, before, nil, arbiter.EINVALID, "A14", "does not play"},
		{"in not a member", "zed", "sam", swiss, before, nil, arbiter.EINVALID, "A14", "not a member"},
		{"KO after a win", "tom", "sam", ko, before, []string{"pia", "quin", "rex", "tom"}, "", "", ""},
		{"KO match unfinished", "tom", "sam", SubContext{Round: 6, NextPairings: pairings, Knockout: true, MatchWon: true}, before, nil, arbiter.ERULE, "A14", "finished and won"},
		{"KO match lost", "tom", "sam", SubContext{Round: 6, NextPairings: pairings, Knockout: true, MatchFinished: true}, before, nil, arbiter.ERULE, "A14", "finished and won"},
		{"KO opponent known", "tom", "sam", SubContext{Round: 6, NextPairings: pairings, Knockout: true, MatchFinished: true, MatchWon: true, OpponentKnown: true}, before, nil, arbiter.ERULE, "A14", "before the next opponent is known"},
	}
	tm := acTeam()
	tm.Comparable = append(tm.Comparable, Pair{"tom", "quin"})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Substitute(tm, tc.in, tc.out, tc.ctx, tc.now)
			if tc.boards == nil {
				wantErr(t, err, tc.code, tc.clause, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Boards, tc.boards) || tm.Boards[3] != "sam" {
				t.Errorf("boards %v", got.Boards)
			}
		})
	}
	// A15: the captain (quin) may sit out in the Swiss for a comparable 5th, never in the knockout.
	if got, err := r.Substitute(tm, "tom", "quin", swiss, before); err != nil || got.Boards[1] != "tom" {
		t.Errorf("captain sits out in the Swiss: %v", err)
	}
	_, err := r.Substitute(tm, "tom", "quin", ko, before)
	wantErr(t, err, arbiter.ERULE, "A15", "captain cannot sit out")
	// After a captain change the new captain is the one protected.
	changed, _ := r.ChangeCaptain(tm, "rex", 5, false)
	_, err = r.Substitute(changed, "tom", "rex", ko, before)
	wantErr(t, err, arbiter.ERULE, "A15", "captain cannot sit out")
	if _, err := r.Substitute(changed, "tom", "quin", ko, before); err != nil {
		t.Errorf("former captain may sit out: %v", err)
	}
}
