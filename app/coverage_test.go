package app

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"arbiter"
	"arbiter/armageddon"
	"arbiter/format"
)

// R2: "the top 4 teams ... play a single-elimination knockout": an RKCC
// event cannot run with 3 teams, so closing registration is refused
// naming R2 (the preset's sizing clause); with a fourth team it closes.
func TestRKCCNeedsFourTeamsR2(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		c.t = utc(2025, 1, 3, 12, 0)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 6, 0, 0)}))
		add := func(i int) {
			capt := fmt.Sprintf("cap%d", i)
			e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "rk", arbiter.Entrant{
				Name: fmt.Sprintf("Team %d", i), Captain: capt, Members: []string{capt, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}}))
			must(s.Approve(ctx, td, "rk", e.ID, 0))
		}
		for i := 1; i <= 3; i++ {
			add(i)
		}
		_, err := s.CloseRegistration(ctx, td, "rk")
		wantErr(t, err, arbiter.ERULE, "R2")
		add(4)
		if ev := must(s.CloseRegistration(ctx, td, "rk")); ev.Status != arbiter.EventRunning || ev.Stages[0].Advance != 4 {
			t.Fatalf("with 4 teams: %+v", ev)
		}
	})
}

// A14: the optional fifth member is a substitute, not also one of the
// four: a registration naming a member as the substitute is refused
// naming A14, and nothing is stored.
func TestRegisterSubstituteA14(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		capt := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}
		team := arbiter.Entrant{Name: "Team 01", Captain: "cap01", Members: []string{"cap01", "a01", "b01", "c01"}, Substitute: "B01"}
		_, err := s.Register(ctx, capt, "atc", team)
		wantErr(t, err, arbiter.EINVALID, "A14")
		if e := err.(*arbiter.Error); e.Field != "substitute" {
			t.Fatalf("field %q", e.Field)
		}
		if es := must(s.Entrants(ctx, "atc")); len(es) != 0 {
			t.Fatalf("stored %+v", es)
		}
		team.Substitute = "s01"
		if e := must(s.Register(ctx, capt, "atc", team)); e.Substitute != "s01" {
			t.Fatalf("registered %+v", e)
		}
	})
}

// R11: "the match is decided by sets won; set points break a tie in sets".
// In a knockout a match equal in both has no rulebook procedure: every
// set drawn (3-3, 5-5, 8-8: 120-120 each, R10), 0 sets to 0 and 360-360,
// is left unresolved for the TDs, and the next round cannot be paired
// until they decide it; the TDs' decision (a home win by override) then
// stands and the final is paired with the winner.
func TestRKCCKnockoutTieR11(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("rkcc-team-three-tc"))
		f.Name, f.Stages = "rkcc-ko", f.Stages[1:]
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		c.t = utc(2025, 1, 3, 12, 0)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Format: doc.Bytes(), Start: utc(2025, 1, 6, 0, 0)}))
		for i := 1; i <= 4; i++ {
			capt := fmt.Sprintf("cap%d", i)
			e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "ko", arbiter.Entrant{
				Name: fmt.Sprintf("Team %d", i), Captain: capt, Rating: 2000 - i, Members: []string{capt, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}}))
			must(s.Approve(ctx, td, "ko", e.ID, 0))
		}
		must(s.CloseRegistration(ctx, td, "ko"))
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2025, 1, 8, 12, 0)
		tied := `{"sets": [{"tc": "3+2", "results": "1 1 1 0 0 0"}, {"tc": "1.5+1", "results": "1 1 1 1 1 0 0 0 0 0"},
			{"tc": "0.75+0", "results": "1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0"}]}`
		m := must(s.OverrideResult(ctx, td, "ko", semis[0].ID, ResultInput{Sheet: []byte(tied)}, "entered from Lichess", 0))
		if m.Result.Result != "tie_unresolved" || m.Result.Home.Points != arbiter.P(360) || m.Result.Away.Points != arbiter.P(360) {
			t.Fatalf("tied semifinal: %+v", m.Result)
		}
		must(s.OverrideResult(ctx, td, "ko", semis[1].ID, ResultInput{Sheet: []byte(r14Sheet(2, 3))}, "entered from Lichess", 0))
		c.t = utc(2025, 1, 13, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		if _, _, err := s.PairRound(ctx, td, "ko"); err == nil {
			t.Fatal("the final was paired with a semifinal undecided")
		}
		must(s.OverrideResult(ctx, td, "ko", semis[0].ID, ResultInput{Summary: "forfeit:home"}, "TDs' decision of the tie: team-1 goes on", 0))
		final := pairOK(s.PairRound(ctx, td, "ko"))[0]
		if final.Home != "team-1" || final.Away != "team-2" {
			t.Fatalf("final %s-%s", final.Home, final.Away)
		}
	})
}

// W12: the ACWC's armageddon is A3's with rock-paper-scissors on equal
// bids (Arbiter's verifiable flip stands in for it). The ACWC knockout
// stage alone (seeded by rating): semifinal p1 v p4 ends 5-5, which W10
// sends straight to armageddon. Both bid 2:00: the auction is settled by
// the flip with W12's rules (Black 3 minutes with draw odds, White the
// bid, no increment); a sheet giving White to the other side is refused,
// the one matching the auction stands, and White's win decides the match.
func TestACWCArmageddonW12(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("acwc-2023"))
		f.Name, f.Stages = "acwc-ko", f.Stages[2:]
		f.Stages[0].Seeding, f.Stages[0].BreakWeeksBefore = "standings", 0
		f.MinEntrants = 4
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Format: doc.Bytes(), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "ko", 4) {
			must(s.Approve(ctx, td, "ko", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "ko"))
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2023, 3, 22, 0, 0)
		id := semis[0].ID
		rules := armageddon.RulesW12()
		if rules.Clause != "W12" || rules.BlackTime != 3*time.Minute || rules.Increment != 0 {
			t.Fatalf("W12 rules %+v", rules)
		}
		cHome, sHome := must2(armageddon.Seal(rules, id, armageddon.SideA, 120*time.Second, rand.Reader))
		cAway, sAway := must2(armageddon.Seal(rules, id, armageddon.SideB, 120*time.Second, rand.Reader))
		home, away := player(semis[0].Home), player(semis[0].Away)
		must(s.BidArmageddon(ctx, home, "ko", id, &cHome, nil))
		must(s.BidArmageddon(ctx, away, "ko", id, &cAway, nil))
		must(s.BidArmageddon(ctx, home, "ko", id, nil, &sHome))
		auc := must(s.BidArmageddon(ctx, away, "ko", id, nil, &sAway))
		o := auc.Outcome
		if o == nil || !o.ByFlip || o.WhiteTime != 120*time.Second || o.BlackTime != 3*time.Minute {
			t.Fatalf("auction %+v", o)
		}
		white, other := "home", "away"
		if o.White == armageddon.SideB {
			white, other = "away", "home"
		}
		// White wins the armageddon: "1" from home's view when home is White.
		res := map[string]string{"home": "1", "away": "0"}[white]
		sheet := func(w string) []byte {
			return []byte(fmt.Sprintf(`{"parts": [{"tc": "1+2", "results": "1 1 1 1 1 0 0 0 0 0"}], "tie": {
				"armageddon": {"home_bid": 120, "away_bid": 120, "white": %q, "result": %q}}}`, w, res))
		}
		_, err := s.ReportResult(ctx, home, "ko", id, ResultInput{Sheet: sheet(other)})
		wantErr(t, err, arbiter.EINVALID, "W12")
		m := must(s.ReportResult(ctx, home, "ko", id, ResultInput{Sheet: sheet(white)}))
		want := map[string]string{"home": "home_win", "away": "away_win"}[white]
		if m.Result.Result != want || m.Result.DecidedBy != "armageddon" {
			t.Fatalf("armageddon result %+v, want %s", m.Result, want)
		}
	})
}

// R14: "the team leader may replace the player with another player not
// registered to another team"; R16: a removed player may not play on any
// team. After a1 (team-1) is removed for a TOS violation, the TDs may name
// d1 (on no team) in a1's place, but not a2 (registered with team-2:
// R14), nor a1 again (removed: R16), and only once for a1.
func TestRKCCReplacementR14(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		rkccEvent(t, s, c, "rk", nil)
		c.t = utc(2025, 1, 8, 12, 0)
		must2(s.Sanction(ctx, td, "rk", SanctionRequest{Entrant: "team-1", Player: "a1", Kind: "tos_violation", Reason: "Lichess closed a1's account for a TOS violation"}))
		req := func(p string) ReplacementRequest {
			return ReplacementRequest{Entrant: "team-1", Replaced: "a1", Player: p, Eligible: true, Willing: true, Reason: "the team leader's choice"}
		}
		_, err := s.NameReplacement(ctx, td, "rk", req("a2"))
		wantErr(t, err, arbiter.ERULE, "R14")
		_, err = s.NameReplacement(ctx, td, "rk", req("a1"))
		wantErr(t, err, arbiter.ERULE, "R16")
		e := must(s.NameReplacement(ctx, td, "rk", req("d1")))
		if !slices.Contains(e.Members, "d1") || slices.Contains(e.Members, "a1") {
			t.Fatalf("team-1 after the replacement: %v", e.Members)
		}
		_, err = s.NameReplacement(ctx, td, "rk", req("e1"))
		if err == nil {
			t.Fatal("a second replacement for a1 was accepted")
		}
	})
}
