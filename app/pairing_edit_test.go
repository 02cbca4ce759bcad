package app

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// boardKeys lists a round's matches as "home-away" ("home-" for the bye)
// in board order.
func boardKeys(t *testing.T, s *Service, slug, round string) []string {
	t.Helper()
	var out []string
	for _, m := range must(s.Matches(ctx, slug, round)) {
		out = append(out, m.Home+"-"+m.Away)
	}
	return out
}

func criteria(ws []PairingWarning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Criterion+":"+strings.Join(w.Entrants, ","))
	}
	return out
}

// TestEditPairingSwiss edits round 2 of an eight-player Swiss. Round 1 is
// 1-5, 6-2, 3-7, 8-4 (C.04.3: S1 1-4 against S2 5-8), the better seed
// winning. Round 2 by hand: the winners 1-4 (one point; 1 and 3 had White
// and want Black strongly, colour difference +1, 2 and 4 the other way round) pair 1-4 and 2-3, the
// transposition that meets every colour preference (C12); the losers 5-8
// the same way: 5-8, 7-6. Colours: 4-1, 2-3, 5-8, 7-6; boards by the
// higher score, then the better seed.
func TestEditPairingSwiss(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ed", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "ed", 8) {
			must(s.Approve(ctx, td, "ed", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "ed"))
		playRound(t, s, c, "ed")
		pairOK(s.PairRound(ctx, td, "ed"))
		engine := []string{"p04-p01", "p02-p03", "p05-p08", "p07-p06"}
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, engine) {
			t.Fatalf("round 2 %v, want %v", got, engine)
		}

		// The review: p01 before round 2, one point, had White, wants Black.
		rv := must(s.ReviewPairings(ctx, td, "ed"))
		if !rv.Editable || len(rv.Boards) != 4 || rv.Boards[0].Away == nil {
			t.Fatalf("review %+v", rv)
		}
		p01 := *rv.Boards[0].Away
		if p01.Entrant != "p01" || p01.Score != arbiter.P(1) || p01.Colour != "black" || !slices.Equal(p01.History, []string{"W"}) ||
			p01.Difference != 1 || p01.Preference != "black" || p01.Strength != "strong" || !p01.ByeEligible || len(p01.Floats) != 0 {
			t.Fatalf("p01 in review %+v", p01)
		}
		for _, b := range rv.Boards {
			if len(b.Warnings) != 0 {
				t.Errorf("the engine's board %d breaks %v", b.Match.Board, criteria(b.Warnings))
			}
		}
		_, err := s.ReviewPairings(ctx, player("p01"), "ed")
		wantErr(t, err, arbiter.EFORBIDDEN, "")

		// Refusals: not a TD, no reason, unknown kind, a player not in the
		// round, the two opponents of one board, a bye with no bye.
		_, _, err = s.EditPairing(ctx, player("p01"), "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p02"}, Reason: "x"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p02"}})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: "shuffle", Entrants: []string{"p01", "p02"}, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, pairingEditClause)
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p99"}, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, pairingEditClause)
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p04"}, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, pairingEditClause)
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditBye, Entrants: []string{"p01"}, Reason: "x"})
		wantErr(t, err, arbiter.ERULE, "C.04.1 3")

		// Swapping p04 and p05 exchanges their opponents: p05-p01 and
		// p04-p08 were both played in round 1 (C1), and each pairs one
		// point with none (C6). Colours meet every preference.
		ed, ms, err := s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p04", "p05"}, Preview: true})
		must(ms, err)
		want := []string{"C1:p05,p01", "C6:p01,p05", "C1:p04,p08", "C6:p04,p08"}
		if got := criteria(ed.Warnings); !slices.Equal(got, want) {
			t.Fatalf("preview warnings %v, want %v", got, want)
		}
		if !strings.Contains(ed.Warnings[0].Text, "p05 and p01 have already played each other") {
			t.Errorf("warning text %q", ed.Warnings[0].Text)
		}
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, engine) {
			t.Fatalf("a preview changed the round: %v", got)
		}
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p04", "p05"}, Reason: "test"})
		wantErr(t, err, arbiter.ERULE, "C.04.3 C1")
		if !strings.Contains(err.Error(), "Confirm") {
			t.Errorf("refusal %v does not say how to apply it", err)
		}

		// Swapping p01 and p05 instead: p08-p01 (both want Black strongly,
		// colour difference +1; the higher ranked p01 keeps it, 5.2.4, and
		// p08 does not, C13) on board 1, p04-p05 on board 3 (p05 wanted
		// White strongly, C13); both pair one point with none (C6).
		ed, ms, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p05"}, Reason: "p01 asked to avoid p04"})
		must(ms, err)
		want = []string{"C13:p08,p01", "C6:p01,p08", "C13:p05,p04", "C6:p04,p05"}
		if got := criteria(ed.Warnings); !slices.Equal(got, want) || ed.ID != "s1r2e1" || ed.Confirmed || !slices.Equal(ed.Boards, []int{1, 3}) {
			t.Fatalf("edit %+v, warnings %v, want %v", ed, criteria(ed.Warnings), want)
		}
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, []string{"p08-p01", "p02-p03", "p04-p05", "p07-p06"}) {
			t.Fatalf("after the swap %v", got)
		}
		// The review now shows the board's warnings.
		rv = must(s.ReviewPairings(ctx, td, "ed"))
		if got := criteria(rv.Boards[0].Warnings); !slices.Equal(got, []string{"C13:p08,p01", "C6:p01,p08"}) || len(rv.Edits) != 1 {
			t.Fatalf("review after the swap: %v, %d edits", got, len(rv.Edits))
		}

		// The rematch, confirmed: applied, audited as an override.
		ed = edited(s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p05", "p08"}, Reason: "the TDs' decision", Confirm: true}))
		if !ed.Confirmed || ed.ID != "s1r2e2" {
			t.Fatalf("confirmed edit %+v", ed)
		}
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, []string{"p05-p01", "p02-p03", "p04-p08", "p07-p06"}) {
			t.Fatalf("after the confirmed swap %v", got)
		}
		var overrides, swaps int
		for _, e := range must(s.Audit(ctx, td, "ed", sqlstore.AuditFilter{Kind: kindPairingEdit})) {
			if e.Action == "pairing.edit_swap" {
				swaps++
				var after PairingEdit
				if e.Kind == kindPairingEdit && json.Unmarshal(e.After, &after) == nil && after.Confirmed {
					overrides++
				}
			}
		}
		if swaps != 2 || overrides != 1 {
			t.Fatalf("%d swaps audited, %d confirmed; want 2, 1", swaps, overrides)
		}
		log := must(s.Audit(ctx, td, "ed", sqlstore.AuditFilter{Kind: kindMatch}))
		if e := log[len(log)-1]; e.Action != "pairing.edit_swap" || !strings.HasPrefix(e.Reason, "the TDs' decision (breaks: ") {
			t.Fatalf("last match audit %+v", e)
		}

		// Discarded and paired again: the engine's pairing, no edits.
		must(s.DiscardRound(ctx, td, "ed", "start the review again"))
		pairOK(s.PairRound(ctx, td, "ed"))
		if rv := must(s.ReviewPairings(ctx, td, "ed")); len(rv.Edits) != 0 {
			t.Fatalf("edits of the discarded pairing carried over: %+v", rv.Edits)
		}

		// Forcing p01-p02 re-pairs the others: p04-p03 (p04 wanted White,
		// p03 Black) and the losers as before.
		ed = edited(s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditForce, Entrants: []string{"p01", "p02"}, Reason: "a requested pairing"}))
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, []string{"p02-p01", "p04-p03", "p05-p08", "p07-p06"}) || len(ed.Warnings) != 0 || ed.ID != "s1r2e3" {
			t.Fatalf("after forcing p01-p02: %v, %+v", got, ed)
		}
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditForce, Entrants: []string{"p01", "p02"}, Reason: "again"})
		wantErr(t, err, arbiter.ECONFLICT, "")
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditForbid, Entrants: []string{"p01", "p03"}, Reason: "not paired"})
		wantErr(t, err, arbiter.EINVALID, pairingEditClause)

		// Forbidding p06-p07 keeps the forced pair; the losers pair 5-6
		// and 7-8 (an exchange that meets every preference, C13).
		edited(s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditForbid, Entrants: []string{"p07", "p06"}, Reason: "same club"}))
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, []string{"p02-p01", "p04-p03", "p05-p06", "p07-p08"}) {
			t.Fatalf("after forbidding p06-p07: %v", got)
		}
		// Forbidding the forced pair lifts the force; p06-p07 stays
		// forbidden in this round.
		edited(s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditForbid, Entrants: []string{"p01", "p02"}, Reason: "changed our mind"}))
		if got := boardKeys(t, s, "ed", "s1r2"); !slices.Equal(got, []string{"p04-p01", "p02-p03", "p05-p06", "p07-p08"}) {
			t.Fatalf("after forbidding p01-p02: %v", got)
		}
		// A swap recreating a pair forbidden in this round is C1.
		ed, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p05", "p07"}, Preview: true})
		must(ed, err)
		if got := criteria(ed.Warnings); !slices.Contains(got, "C1:p07,p06") {
			t.Fatalf("swap back to p06-p07: %v", got)
		}

		// Published: no more edits.
		must(s.PublishRound(ctx, td, "ed"))
		_, _, err = s.EditPairing(ctx, td, "ed", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p05"}, Reason: "late"})
		wantErr(t, err, arbiter.ERULE, "app.round")
	})
}

// edited is must for EditPairing's three results.
func edited(ed PairingEdit, _ []arbiter.Match, err error) PairingEdit { return must(ed, err) }

// TestEditPairingBye moves the bye of a nine-player Swiss. Round 1: 1-5,
// 6-2, 3-7, 8-4 and p09, the lowest ranked of the players who may all take
// it, the bye. Round 2: p09 has a point and the bye goes to a loser.
func TestEditPairingBye(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "by", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "by", 9) {
			must(s.Approve(ctx, td, "by", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "by"))
		pairOK(s.PairRound(ctx, td, "by"))
		if got := boardKeys(t, s, "by", "s1r1"); !slices.Equal(got, []string{"p01-p05", "p06-p02", "p03-p07", "p08-p04", "p09-"}) {
			t.Fatalf("round 1 %v", got)
		}
		rv := must(s.ReviewPairings(ctx, td, "by"))
		why := strings.Join(rv.Boards[4].ByeReasons, "; ")
		for _, w := range []string{"may take it (C2)", "scores less than 0 (C5", "the lowest ranked of those who could take it"} {
			if !strings.Contains(why, w) {
				t.Errorf("bye reasons %q lack %q", why, w)
			}
		}
		// The bye to p08: p08's opponent p04 meets p09 on board 4, with
		// Black (5.2.5: the higher ranked p04 has an odd rank, 3).
		ed := edited(s.EditPairing(ctx, td, "by", PairingEditRequest{Kind: EditBye, Entrants: []string{"p08"}, Reason: "p08 asked for a bye"}))
		if got := boardKeys(t, s, "by", "s1r1"); !slices.Equal(got, []string{"p01-p05", "p06-p02", "p03-p07", "p09-p04", "p08-"}) ||
			!slices.Equal(ed.Boards, []int{4, 5}) || len(ed.Warnings) != 0 {
			t.Fatalf("after the bye moved: %v, %+v", got, ed)
		}
		ms := must(s.Matches(ctx, "by", "s1r1"))
		if m := ms[4]; m.Status != arbiter.MatchFinal || m.Result == nil || m.Result.Decision != "pairing_bye" {
			t.Fatalf("the new bye %+v", m)
		}
		if m := ms[3]; m.Status != arbiter.MatchScheduled || m.Result != nil {
			t.Fatalf("the bye's old board %+v", m)
		}
		_, _, err := s.EditPairing(ctx, td, "by", PairingEditRequest{Kind: EditBye, Entrants: []string{"p08"}, Reason: "again"})
		wantErr(t, err, arbiter.ECONFLICT, "")
		edited(s.EditPairing(ctx, td, "by", PairingEditRequest{Kind: EditBye, Entrants: []string{"p09"}, Reason: "back to the engine's"}))
		must(s.PublishRound(ctx, td, "by"))
		playOpen(t, s, c, "by")

		// Round 2: p09 (bye, one point) may not have a second (C2); the
		// holder chosen by the engine has no point.
		pairOK(s.PairRound(ctx, td, "by"))
		rv = must(s.ReviewPairings(ctx, td, "by"))
		bye := rv.Boards[len(rv.Boards)-1]
		if bye.Away != nil || bye.Home.Score != 0 || !bye.Home.ByeEligible {
			t.Fatalf("round 2 bye %+v", bye.Home)
		}
		_, _, err = s.EditPairing(ctx, td, "by", PairingEditRequest{Kind: EditBye, Entrants: []string{"p09"}, Reason: "mistake"})
		wantErr(t, err, arbiter.ERULE, "C.04.3 C2")
		if !strings.Contains(err.Error(), "p09 already had a bye") || !strings.Contains(err.Error(), "with a lower score (C5)") {
			t.Fatalf("refusal %v", err)
		}
	})
}

// TestEditPairingTeams: team Swiss edits use the same criteria on the
// teams' Dutch view (colour = board 1). Round 1 of ten antichess teams is
// 1-6, 7-2, 3-8, 9-4, 5-10 (TestTeamSwissSecondaryOrder); swapping team-06
// and team-02 gives team-01 v team-02 (team-01 White, 5.2.5: rank 0 takes
// the initial colour) and team-07 v team-06 (rank 5 is odd: team-06 Black).
// Knockout and round robin rounds are refused.
func TestEditPairingTeams(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		pairOK(s.PairRound(ctx, td, "atc"))
		ed := edited(s.EditPairing(ctx, td, "atc", PairingEditRequest{Kind: EditSwap, Entrants: []string{"Team 06", "team-02"}, Reason: "clubs"}))
		if got := boardKeys(t, s, "atc", "s1r1"); !slices.Equal(got, []string{"team-01-team-02", "team-07-team-06", "team-03-team-08", "team-09-team-04", "team-05-team-10"}) ||
			len(ed.Warnings) != 0 || !slices.Equal(ed.Entrants, []string{"team-06", "team-02"}) {
			t.Fatalf("after the swap %v, %+v", got, ed)
		}
		rv := must(s.ReviewPairings(ctx, td, "atc"))
		if !rv.Team || rv.Boards[0].Home.Colour != "white" {
			t.Fatalf("team review %+v", rv)
		}
		rd := must(s.PublishRound(ctx, td, "atc"))
		c.t = rd.Start.Add(3600e9)
		for _, m := range must(s.Matches(ctx, "atc", "s1r1")) { // the home side wins
			must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Sheet: []byte(antichessSheet("1"))}, "entered by the TD", 0))
		}
		c.t = rd.End
		must(s.CloseRound(ctx, td, "atc"))
		// Round 2: team-01 beat team-02 in round 1, so making them meet
		// again is C1; the warning names board 1's colour.
		pairOK(s.PairRound(ctx, td, "atc"))
		ms := must(s.Matches(ctx, "atc", "s1r2"))
		var opp string // team-01's opponent in round 2
		for _, m := range ms {
			if m.Home == "team-01" {
				opp = m.Away
			} else if m.Away == "team-01" {
				opp = m.Home
			}
		}
		if opp == "" || opp == "team-02" {
			t.Fatalf("round 2 %v", matchKeys(ms))
		}
		ed, _, err := s.EditPairing(ctx, td, "atc", PairingEditRequest{Kind: EditSwap, Entrants: []string{opp, "team-02"}, Preview: true})
		must(ed, err)
		if got := criteria(ed.Warnings); len(got) == 0 || !strings.HasPrefix(got[0], "C1:") || !slices.Contains(ed.Warnings[0].Entrants, "team-01") {
			t.Fatalf("rematch of team-01 and team-02: %v", got)
		}
	})
}

// TestEditPairingRoundRobin: a round robin round follows the Berger
// tables; editing it is refused, naming what fixes its pairings. Its
// review shows the boards without the Swiss details.
func TestEditPairingRoundRobin(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := strings.Replace(strings.Replace(acwcSwiss, `"kind": "swiss",
    "pairing": "dutch",
    "rounds": {"log2": {"mul": 1, "add": 2}},`, `"kind": "round_robin",
    "pairing": "berger",
    "cycles": 1,`, 1), `"min_entrants": 8,`, ``, 1)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rr", Format: []byte(f), Start: utc(2023, 3, 21, 0, 0)}))
		for _, n := range registerPlayers(t, s, "rr", 6) {
			must(s.Approve(ctx, td, "rr", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "rr"))
		pairOK(s.PairRound(ctx, td, "rr"))
		_, _, err := s.EditPairing(ctx, td, "rr", PairingEditRequest{Kind: EditSwap, Entrants: []string{"p01", "p02"}, Reason: "x"})
		wantErr(t, err, arbiter.ERULE, pairingEditClause)
		if !strings.Contains(err.Error(), "Berger tables") {
			t.Errorf("refusal %v", err)
		}
		rv := must(s.ReviewPairings(ctx, td, "rr"))
		if rv.Editable || len(rv.Boards) != 3 || rv.Boards[0].Home.Preference != "" || rv.Boards[0].Home.Seed != 1 {
			t.Fatalf("round robin review %+v", rv)
		}
	})
}
