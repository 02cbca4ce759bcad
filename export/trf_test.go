package export_test

import (
	"bytes"
	"strings"
	"testing"

	"arbiter"
	"arbiter/export"
	"arbiter/pairing"
	"arbiter/trf"
)

func parseTRF(t *testing.T, b []byte) *trf.File {
	t.Helper()
	f, err := trf.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the TRF does not parse back: %v\n%s", err, b)
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("the TRF is inconsistent: %v\n%s", err, b)
	}
	return f
}

func TestTRFGolden(t *testing.T) {
	t.Parallel()
	golden(t, "swiss-2026.trf", write(t, swissSnapshot(t), export.Options{Format: "trf"}))
	golden(t, "swiss-2016.trf", write(t, swissSnapshot(t), export.Options{Format: "trf", TRFVersion: 2016}))
	golden(t, "team-2026.trf", write(t, teamSnapshot(t), export.Options{Format: "trf"}))
	golden(t, "team-2016.trf", write(t, teamSnapshot(t), export.Options{Format: "trf", TRFVersion: 2016}))
}

func TestTRFIndividual(t *testing.T) {
	t.Parallel()
	f := parseTRF(t, write(t, swissSnapshot(t), export.Options{Format: "trf"}))
	if f.Version != 2026 || f.TotalRounds != 3 || f.InitialColour != 'w' || f.Name != "Spring Open | Rapid *2026*" {
		t.Errorf("header: version %d, rounds %d, colour %c, name %q", f.Version, f.TotalRounds, f.InitialColour, f.Name)
	}
	if f.ChiefArbiter != "td-one" || len(f.DeputyArbiters) != 1 || f.StartDate != "2026/01/05" || f.EndDate != "2026/01/25" {
		t.Errorf("header: arbiters %q %q, dates %s-%s", f.ChiefArbiter, f.DeputyArbiters, f.StartDate, f.EndDate)
	}
	// Pairing numbers follow the stage's seeds: alice 1, bob 2, carol 3,
	// dave 4, eve_x 5. Each player's rounds, by hand from the fixture.
	want := map[string]struct {
		points arbiter.Points
		rank   int
		rounds string
	}{
		"alice": {200, 1, "3w1 2b+ 4w_"}, // won over the board; forfeit win; pending
		"bob":   {100, 3, "4-D 1w- 3b="}, // full draw without colours; forfeit loss; drawn
		"carol": {50, 5, "1b0 5w- 2w="},  // lost; double forfeit; drawn
		"dave":  {150, 2, "2-D 0-U 1b_"}, // full draw; the bye; pending
		"eve_x": {100, 3, "0-U 3b- 0-Z"}, // the bye; double forfeit; removed, not paired
	}
	for _, p := range f.Players {
		w, ok := want[p.Name]
		if !ok {
			t.Errorf("unexpected player %q", p.Name)
			continue
		}
		var rs []string
		for _, r := range p.Rounds {
			res := string(r.Result)
			if res == " " {
				res = "_"
			}
			rs = append(rs, itoa(r.Opponent)+string(r.Colour)+res)
		}
		got := strings.Join(rs, " ")
		if got != w.rounds || p.Points != w.points || p.Rank != w.rank {
			t.Errorf("%s: rounds %q points %s rank %d, want %q %s %d", p.Name, got, p.Points, p.Rank, w.rounds, w.points, w.rank)
		}
	}
	// alice–bob were forbidden in rounds 1-2 (lifted before round 3 was
	// paired); carol–dave from round 2 to the end.
	var fps []string
	for _, fp := range f.ForbiddenPairs {
		fps = append(fps, fp.Record+" "+itoa(fp.FirstRound)+"-"+itoa(fp.LastRound)+" "+strings.Join(intsToStrings(fp.IDs), ","))
	}
	if got := strings.Join(fps, "; "); got != "260 1-2 1,2; 260 2-3 3,4" {
		t.Errorf("forbidden pairs = %s", got)
	}
	// The pairing engines' reading agrees: scores from the games, the
	// full draw not played, the forfeit paired but not played.
	next := *f
	next.TotalRounds++ // a round left to pair, as trf.PairingInput wants
	full, err := trf.PairingInput(&next)
	if err != nil {
		t.Fatalf("trf.PairingInput: %v", err)
	}
	bob := full.Players[1]
	if g := bob.Games[0]; g.Played || !g.Paired || g.Outcome != pairing.Draw || g.Colour != pairing.NoColour {
		t.Errorf("bob's round 1 (full draw) reads %+v", g)
	}
	if g := full.Players[0].Games[1]; g.Played || !g.Paired || g.Outcome != pairing.Win {
		t.Errorf("alice's round 2 (forfeit win) reads %+v", g)
	}
	// Up to round 2, the removed eve_x is absent from the round to pair
	// (240 Z for round 3), so an engine pairing round 3 leaves her out.
	two := write(t, swissSnapshot(t), export.Options{Format: "trf", Round: 2})
	if !bytes.Contains(two, []byte("\n240 Z   3    5\n")) {
		t.Errorf("the file up to round 2 lacks eve_x's 240 record:\n%s", two)
	}
	t2, err := trf.PairingInput(parseTRF(t, two))
	if err != nil {
		t.Fatal(err)
	}
	if !t2.Players[4].Absent || t2.Players[0].Absent {
		t.Errorf("round 3 to pair: eve_x absent %v, alice absent %v", t2.Players[4].Absent, t2.Players[0].Absent)
	}
	two16 := write(t, swissSnapshot(t), export.Options{Format: "trf", Round: 2, TRFVersion: 2016})
	if !bytes.Contains(two16, []byte("\nXXZ 5\n")) {
		t.Errorf("the TRF-2016 file up to round 2 lacks XXZ 5:\n%s", two16)
	}

	// TRF-2016: XXR and XXC instead of 142 and 152; only XXP for a group
	// that held from round 1 and still stands (none here).
	old := write(t, swissSnapshot(t), export.Options{Format: "trf", TRFVersion: 2016})
	f16 := parseTRF(t, old)
	if f16.Version != 2016 || f16.TotalRounds != 3 || f16.InitialColour != 'w' || len(f16.ForbiddenPairs) != 0 {
		t.Errorf("TRF-2016: version %d, rounds %d, colour %c, forbidden %v", f16.Version, f16.TotalRounds, f16.InitialColour, f16.ForbiddenPairs)
	}
	for _, rec := range []string{"XXR 3", "XXC white1"} {
		if !bytes.Contains(old, []byte("\n"+rec+"\n")) {
			t.Errorf("TRF-2016 lacks %q", rec)
		}
	}
	for _, rec := range []string{"\n142", "\n152", "\n260", "\n192"} {
		if bytes.Contains(old, []byte(rec)) {
			t.Errorf("TRF-2016 holds the TRF-2026 record %q", rec)
		}
	}

	// --round cuts the file after that round.
	cut := parseTRF(t, write(t, swissSnapshot(t), export.Options{Format: "trf", Round: 1}))
	for _, p := range cut.Players {
		if len(p.Rounds) != 1 {
			t.Errorf("--round 1: %s has %d rounds", p.Name, len(p.Rounds))
		}
	}
}

func intsToStrings(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = itoa(n)
	}
	return out
}

func TestTRFTeams(t *testing.T) {
	t.Parallel()
	f := parseTRF(t, write(t, teamSnapshot(t), export.Options{Format: "trf"}))
	if f.Version != 2026 || len(f.Teams) != 3 || len(f.Players) != 10 {
		t.Fatalf("version %d, %d teams, %d players", f.Version, len(f.Teams), len(f.Players))
	}
	k := f.Teams[0]
	if k.Name != "Knights, Inc. | A" || k.MatchPoints != arbiter.Point || k.GamePoints != arbiter.P(431.5) || k.Rank != 1 || len(k.Members) != 4 {
		t.Errorf("knights: %+v", k)
	}
	if len(f.TeamByes) != 1 || f.TeamByes[0].Teams[0] != 2 || f.TeamByes[0].Teams[1] != 3 || f.TeamByes[0].MatchPoints != arbiter.Point {
		t.Errorf("team byes: %+v", f.TeamByes)
	}
	if len(f.TeamForfeits) != 1 || f.TeamForfeits[0] != (trf.TeamForfeit{Result: "--", Round: 2, White: 2, Black: 1}) {
		t.Errorf("team forfeits: %+v", f.TeamForfeits)
	}
	if f.TeamPoints != (trf.TeamPointSystem{Win: arbiter.Point, Draw: arbiter.Point / 2}) || f.InitialColour != 'b' {
		t.Errorf("team points %+v, colour %c", f.TeamPoints, f.InitialColour)
	}
	f16 := parseTRF(t, write(t, teamSnapshot(t), export.Options{Format: "trf", TRFVersion: 2016}))
	if f16.Version != 2016 || len(f16.Teams) != 3 || f16.Teams[0].Record != "013" {
		t.Errorf("TRF-2016 teams: version %d, %+v", f16.Version, f16.Teams)
	}
}
