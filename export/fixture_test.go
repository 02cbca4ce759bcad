package export_test

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"arbiter"
	"arbiter/export"
	"arbiter/format"
	"arbiter/standings"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./export -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file (go test ./export -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func day(d, h int) time.Time { return time.Date(2026, 1, d, h, 0, 0, 0, time.UTC) }

// swissSnapshot is a hand-made individual Swiss (the ACWC format): five
// players, three rounds of a week each, round 3 published and open.
//
//	round 1: alice–carol 6-4 played; dave–bob a full draw without play
//	         (W14); eve_x the pairing-allocated bye
//	round 2: bob–alice a forfeit won by alice; carol–eve_x a double
//	         forfeit; dave the bye
//	round 3: eve_x removed (not paired); alice–dave reported, not
//	         final, time agreed; carol–bob a 5-5 draw
//
// alice and bob may not meet from round 1 until the TDs lifted it before
// round 3; carol and dave may not meet from round 2 on.
func swissSnapshot(t *testing.T) *export.Snapshot {
	t.Helper()
	f, err := format.Preset("acwc-2023")
	if err != nil {
		t.Fatal(err)
	}
	win := func(n int) arbiter.RoundWindow {
		start := day(5+7*(n-1), 0)
		return arbiter.RoundWindow{Seq: n, Stage: 0, Number: n, Start: start, End: start.AddDate(0, 0, 7),
			OfferDeadline: start.AddDate(0, 0, 5)}
	}
	ev := arbiter.Event{ID: "e1", Slug: "spring-open", Name: "Spring Open | Rapid *2026*", Status: arbiter.EventRunning,
		Format: "acwc-2023", Preset: true, Start: day(5, 0), Entrants: 5, Stage: 0, InitialColour: "white", Version: 9,
		Stages: []arbiter.Stage{
			{Name: "qualification", Kind: "swiss", Pairing: "dutch", Entrants: 5, Rounds: 3, Advance: 4, Tiebreak: []string{"cumulative", "median_buchholz"}},
			{Name: "knockout", Kind: "knockout", Pairing: "bracket", Entrants: 4, Rounds: 2},
		},
		Calendar: []arbiter.RoundWindow{win(1), win(2), win(3), {Seq: 4, Stage: 1, Number: 1, Start: day(26, 0), End: day(26, 0).AddDate(0, 0, 7)}}}
	player := func(id string, seed, rating int, status string) arbiter.Entrant {
		return arbiter.Entrant{ID: id, Kind: arbiter.EntrantPlayer, Name: id, Player: id, Rating: rating, Seed: seed, Status: status,
			RegisteredBy: id, Reason: "", RegisteredAt: day(1, 12)}
	}
	es := []arbiter.Entrant{
		player("alice", 1, 2100, arbiter.EntrantApproved), player("bob", 2, 2050, arbiter.EntrantApproved),
		player("carol", 3, 1990, arbiter.EntrantApproved), player("dave", 4, 1900, arbiter.EntrantApproved),
		player("eve_x", 5, 1800, arbiter.EntrantRemoved),
	}
	played := func(h, a arbiter.Points) *arbiter.Outcome {
		o := &arbiter.Outcome{Result: "draw", Decision: "played", Home: arbiter.SideScore{Points: h}, Away: arbiter.SideScore{Points: a}}
		switch {
		case h > a:
			o.Result, o.Home.MatchPoints = "home_win", arbiter.Point
		case a > h:
			o.Result, o.Away.MatchPoints = "away_win", arbiter.Point
		default:
			o.Home.MatchPoints, o.Away.MatchPoints = arbiter.Point/2, arbiter.Point/2
		}
		o.Parts = []arbiter.PartResult{{TC: "1+2", Home: h, Away: a}}
		return o
	}
	bye := func(id string, r int) arbiter.Match {
		return arbiter.Match{ID: "s1r" + itoa(r) + "b3", Stage: 0, Round: r, Board: 3, Home: id, Status: arbiter.MatchFinal, Decision: "bye",
			Result: &arbiter.Outcome{Result: "home_win", Decision: "pairing_bye", Home: arbiter.SideScore{MatchPoints: arbiter.Point}}, Version: 1}
	}
	ms := []arbiter.Match{
		{ID: "s1r1b1", Stage: 0, Round: 1, Board: 1, Home: "alice", Away: "carol", Status: arbiter.MatchFinal, Decision: "confirmed",
			ScheduledAt: day(7, 18), Result: played(6*arbiter.Point, 4*arbiter.Point), Version: 4},
		{ID: "s1r1b2", Stage: 0, Round: 1, Board: 2, Home: "dave", Away: "bob", Status: arbiter.MatchFinal, Decision: "override",
			Result: &arbiter.Outcome{Result: "draw", Decision: "full_draw", Home: arbiter.SideScore{MatchPoints: 50, Points: 500}, Away: arbiter.SideScore{MatchPoints: 50, Points: 500}}, Version: 3},
		bye("eve_x", 1),
		{ID: "s1r2b1", Stage: 0, Round: 2, Board: 1, Home: "bob", Away: "alice", Status: arbiter.MatchFinal, Decision: "override",
			Result: &arbiter.Outcome{Result: "away_win", Decision: "forfeit_loss", Away: arbiter.SideScore{MatchPoints: arbiter.Point, Points: 1000}}, Version: 2},
		{ID: "s1r2b2", Stage: 0, Round: 2, Board: 2, Home: "carol", Away: "eve_x", Status: arbiter.MatchFinal, Decision: "double_forfeit",
			Result: &arbiter.Outcome{Result: "double_loss", Decision: "double_forfeit"}, Version: 2},
		bye("dave", 2),
		{ID: "s1r3b1", Stage: 0, Round: 3, Board: 1, Home: "alice", Away: "dave", Status: arbiter.MatchReported, ScheduledAt: day(21, 19).Add(30 * time.Minute),
			Result: played(7*arbiter.Point, 3*arbiter.Point), Version: 5},
		{ID: "s1r3b2", Stage: 0, Round: 3, Board: 2, Home: "carol", Away: "bob", Status: arbiter.MatchFinal, Decision: "confirmed",
			ScheduledAt: day(20, 20), Result: played(5*arbiter.Point, 5*arbiter.Point), Version: 6},
	}
	round := func(n int, status string) arbiter.Round {
		w := win(n)
		r := arbiter.Round{ID: "s1r" + itoa(n), Stage: 0, Number: n, Status: status, Start: w.Start, End: w.End, Method: "dutch",
			PairedAt: w.Start.Add(-time.Hour), PublishedAt: w.Start}
		if status == arbiter.RoundClosed {
			r.ClosedAt = w.End
		}
		for _, m := range ms {
			if m.Round == n {
				r.Matches = append(r.Matches, m.ID)
			}
		}
		return r
	}
	tb, err := standings.ParseTiebreaks([]string{"cumulative", "median_buchholz"})
	if err != nil {
		t.Fatal(err)
	}
	table := standings.Table{Tiebreaks: tb, Rows: []standings.Row{
		{Rank: 1, ID: "alice", Name: "alice", Score: 200, Values: []arbiter.Points{300, 150}},
		{Rank: 2, ID: "dave", Name: "dave", Score: 150, Values: []arbiter.Points{200, 100}},
		{Rank: 3, Shared: true, ID: "bob", Name: "bob", Score: 100, Values: []arbiter.Points{150, 100}},
		{Rank: 3, Shared: true, ID: "eve_x", Name: "eve_x", Score: 100, Values: []arbiter.Points{150, 100}},
		{Rank: 5, ID: "carol", Name: "carol", Score: 50, Values: []arbiter.Points{50, 200}},
	}}
	return &export.Snapshot{Event: ev, Format: f, BaseURL: "https://arbiter.example", Now: day(22, 12),
		Officials: []string{"td-one", "td-two"}, Entrants: es,
		StageEntrants: [][]string{{"alice", "bob", "carol", "dave", "eve_x"}},
		Rounds:        []arbiter.Round{round(1, arbiter.RoundClosed), round(2, arbiter.RoundClosed), round(3, arbiter.RoundPublished)},
		Matches:       ms,
		Standings:     []export.Table{{Stage: 0, Table: table}},
		Forbidden: []export.Forbidden{
			{Stage: 0, Entrants: []string{"alice", "bob"}, At: day(1, 0), RemovedAt: day(18, 0)},
			{Stage: 0, Entrants: []string{"carol", "dave"}, At: day(10, 0)},
		},
		Games: map[string][]export.Game{"s1r1b1": {{URL: "https://lichess.org/abcd1234", Label: "1+2 game 1"}, {URL: "https://lichess.org/efgh5678", Label: "1+2 game 2"}}},
	}
}

// teamSnapshot is a hand-made RKCC event (teams of three sets): three
// teams in a two-round Swiss, then the knockout's final played.
func teamSnapshot(t *testing.T) *export.Snapshot {
	t.Helper()
	f, err := format.Preset("rkcc-team-three-tc")
	if err != nil {
		t.Fatal(err)
	}
	team := func(id, name, captain string, seed int, members ...string) arbiter.Entrant {
		return arbiter.Entrant{ID: id, Kind: arbiter.EntrantTeam, Name: name, Captain: captain, Members: members, Seed: seed,
			Rating: 2000 - 100*seed, Status: arbiter.EntrantApproved}
	}
	es := []arbiter.Entrant{
		team("knights", "Knights, Inc. | A", "k_one", 1, "k_one", "k2", "k3"),
		team("rooks", "=Rooks", "r1", 2, "r1", "r2", "r3"),
		team("bishops", "Bishops", "b1", 3, "b1", "b2", "b3"),
	}
	es[0].Substitute = "k4"
	sets := func(h, a []arbiter.Points) *arbiter.Outcome {
		o := &arbiter.Outcome{Decision: "played"}
		for i, tc := range []string{"3+2", "1.5+1", "0.75+0"} {
			o.Sets = append(o.Sets, arbiter.PartResult{TC: tc, Home: h[i], Away: a[i]})
			o.Home.Points += h[i]
			o.Away.Points += a[i]
			switch {
			case h[i] > a[i]:
				o.Home.SetsWon++
			case a[i] > h[i]:
				o.Away.SetsWon++
			}
		}
		if o.Home.SetsWon > o.Away.SetsWon {
			o.Result, o.Home.MatchPoints = "home_win", arbiter.Point
		} else {
			o.Result, o.Away.MatchPoints = "away_win", arbiter.Point
		}
		return o
	}
	p := arbiter.P
	ms := []arbiter.Match{
		{ID: "s1r1b1", Stage: 0, Round: 1, Board: 1, Home: "knights", Away: "bishops", Status: arbiter.MatchFinal, Decision: "confirmed",
			Result: sets([]arbiter.Points{p(160), p(144), p(127.5)}, []arbiter.Points{p(80), p(96), p(112.5)}), ScheduledAt: day(7, 18), Version: 3},
		{ID: "s1r1b2", Stage: 0, Round: 1, Board: 2, Home: "rooks", Status: arbiter.MatchFinal, Decision: "bye",
			Result: &arbiter.Outcome{Result: "home_win", Decision: "pairing_bye", Home: arbiter.SideScore{MatchPoints: arbiter.Point}}, Version: 1},
		{ID: "s1r2b1", Stage: 0, Round: 2, Board: 1, Home: "rooks", Away: "knights", Status: arbiter.MatchFinal, Decision: "double_forfeit",
			Result: &arbiter.Outcome{Result: "double_loss", Decision: "double_forfeit"}, Version: 2},
		{ID: "s1r2b2", Stage: 0, Round: 2, Board: 2, Home: "bishops", Status: arbiter.MatchFinal, Decision: "bye",
			Result: &arbiter.Outcome{Result: "home_win", Decision: "pairing_bye", Home: arbiter.SideScore{MatchPoints: arbiter.Point}}, Version: 1},
		{ID: "s2r1b1", Stage: 1, Round: 1, Board: 1, Home: "knights", Away: "rooks", Format: "final", Bracket: "r1m1", Status: arbiter.MatchFinal, Decision: "confirmed",
			Result: sets([]arbiter.Points{p(100), p(96), p(157.5)}, []arbiter.Points{p(140), p(144), p(82.5)}), ScheduledAt: day(28, 17), Version: 4},
	}
	round := func(stage, n int, start time.Time) arbiter.Round {
		r := arbiter.Round{ID: "s" + itoa(stage+1) + "r" + itoa(n), Stage: stage, Number: n, Status: arbiter.RoundClosed,
			Start: start, End: start.AddDate(0, 0, 7), PairedAt: start.Add(-time.Hour), PublishedAt: start, ClosedAt: start.AddDate(0, 0, 7)}
		for _, m := range ms {
			if m.Stage == stage && m.Round == n {
				r.Matches = append(r.Matches, m.ID)
			}
		}
		return r
	}
	ev := arbiter.Event{ID: "e2", Slug: "rkcc-winter", Name: "RKCC Winter", Status: arbiter.EventFinished, Format: "rkcc-team-three-tc",
		Start: day(5, 0), Entrants: 3, Stage: 1, InitialColour: "black", Version: 14,
		Stages: []arbiter.Stage{
			{Name: "swiss", Kind: "swiss", Pairing: "dutch", Entrants: 3, Rounds: 2, Advance: 2, Tiebreak: []string{"match_points", "set_points"}, Seeds: nil},
			{Name: "knockout", Kind: "knockout", Pairing: "bracket", Entrants: 2, Rounds: 1, Seeds: []string{"knights", "rooks"}},
		},
		Calendar: []arbiter.RoundWindow{
			{Seq: 1, Stage: 0, Number: 1, Start: day(5, 0), End: day(12, 0)},
			{Seq: 2, Stage: 0, Number: 2, Start: day(12, 0), End: day(19, 0)},
			{Seq: 3, Stage: 1, Number: 1, Start: day(26, 0), End: day(26, 0).AddDate(0, 0, 7)},
		}}
	tb, err := standings.ParseTiebreaks([]string{"match_points", "set_points"})
	if err != nil {
		t.Fatal(err)
	}
	table := standings.Table{Tiebreaks: tb, Rows: []standings.Row{
		{Rank: 1, ID: "knights", Score: 100, Values: []arbiter.Points{100, p(431.5)}},
		{Rank: 2, ID: "rooks", Score: 100, Values: []arbiter.Points{100, 0}},
		{Rank: 3, ID: "bishops", Score: 100, Values: []arbiter.Points{100, p(288.5)}},
	}}
	return &export.Snapshot{Event: ev, Format: f, BaseURL: "https://arbiter.example", Now: day(31, 9), Officials: []string{"james126"},
		Entrants: es, StageEntrants: [][]string{{"knights", "rooks", "bishops"}, {"knights", "rooks"}},
		Rounds:  []arbiter.Round{round(0, 1, day(5, 0)), round(0, 2, day(12, 0)), round(1, 1, day(26, 0))},
		Matches: ms, Standings: []export.Table{{Stage: 0, Table: table}}, Games: map[string][]export.Game{}}
}

func itoa(n int) string { return strconv.Itoa(n) }
