package app

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// TestLichessBulkPairing: the TD chooses bulk pairing for an ACWC
// knockout (audited; a player may not); player sign-in from the event's
// pages then asks for challenge:write. p01, p02 and p03 granted it, p04
// did not, and the console says so. At publication semifinal p02 v p03
// gets its first game through POST /api/bulk-pairing (the organiser's
// token, players "p02's token:p03's token", White first, 1+2 antichess,
// rated, noRematch, clocks starting 3 minutes later), p01 v p04 an open
// challenge with a note naming p04. The bulk's game is imported like any
// other: both results come in from Lichess.
func TestLichessBulkPairing(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("acwc-2023"))
		f.Name, f.Stages = "acwc-ko", f.Stages[2:]
		f.Stages[0].Seeding, f.Stages[0].BreakWeeksBefore = "standings", 0
		f.Stages[0].ThirdPlace, f.Stages[0].ThirdPlaceMatch = false, nil
		f.MinEntrants, f.Calendar.Negotiation = 4, nil
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Name: "ACWC 2023", Format: doc.Bytes(), Start: utc(2023, 3, 21, 10, 0)}))
		names := registerPlayers(t, s, "ko", 4)
		for _, n := range names {
			must(s.Approve(ctx, td, "ko", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "ko"))
		r := newLichessRig(t, s, c, names...)
		if sc := s.PlayerLichessScopes(ctx, "ko"); len(sc) != 0 {
			t.Fatalf("scopes asked before bulk pairing is chosen: %v", sc)
		}
		_, err := s.SetBulkPairing(ctx, player("p01"), "ko", true)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		if ev := must(s.SetBulkPairing(ctx, td, "ko", true)); !ev.BulkPairing {
			t.Fatal("bulk pairing not on")
		}
		if sc := s.PlayerLichessScopes(ctx, "ko"); !slices.Equal(sc, []string{"challenge:write"}) {
			t.Fatalf("scopes asked at sign-in: %v", sc)
		}
		for _, n := range names[:3] {
			r.f.AddToken("lip_"+n, n, lichess.ScopeChallengeWrite)
			must(0, s.GrantLichess(ctx, n, "lip_"+n, []string{lichess.ScopeChallengeWrite}))
		}
		must(0, s.GrantLichess(ctx, "p04", "lip_p04_read", nil)) // no challenge:write: not kept
		st := must(s.BulkPairingStatus(ctx, td, "ko"))
		if !st.On || !slices.Equal(st.Missing, []string{"p04"}) || !strings.Contains(st.Message, "1 player has not granted challenge:write") {
			t.Fatalf("console: %+v", st)
		}
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		a, b := semis[0], semis[1]
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2023, 3, 21, 12, 0)
		runJobs(t, s, c)
		bulks := r.f.Asked("POST /api/bulk-pairing")
		if len(bulks) != 1 {
			t.Fatalf("%d bulk pairings, want one for %s v %s", len(bulks), b.Home, b.Away)
		}
		q := bulks[0]
		if q.Token != "lip_org" || q.Form.Get("players") != "lip_p02:lip_p03" || q.Form.Get("clock.limit") != "60" || q.Form.Get("clock.increment") != "2" ||
			q.Form.Get("variant") != "antichess" || q.Form.Get("rated") != "true" || q.Form.Get("rules") != "noRematch" ||
			q.Form.Get("startClocksAt") != fmt.Sprint(c.t.Add(3*time.Minute).UnixMilli()) || q.Form.Has("message") {
			t.Fatalf("bulk pairing %+v", q.Form)
		}
		open := challengesAsked(r.f)
		if len(open) != 1 || open[0].Form.Get("users") != "p01,p04" {
			t.Fatalf("open challenges %v", open)
		}
		ga := must(s.MatchView(ctx, nil, "ko", a.ID)).Games
		gb := must(s.MatchView(ctx, nil, "ko", b.ID)).Games
		if len(ga) != 1 || ga[0].Bulk || ga[0].Note != "open challenge: p04 did not grant challenge:write for bulk pairing" {
			t.Fatalf("p01 v p04: %+v", ga)
		}
		if len(gb) != 1 || !gb[0].Bulk || !gb[0].ClocksAt.Equal(c.t.Add(3*time.Minute)) || gb[0].White != "p02" || gb[0].URL != "https://lichess.org/"+gb[0].ID {
			t.Fatalf("p02 v p03: %+v", gb)
		}
		// The home players win every game (6-0 each, W4): the bulk's game
		// is looked at and imported like the open challenges.
		r.play(t, s, c, func(p lichesstest.Pending) lichesstest.Result {
			if p.White == a.Home || p.White == b.Home {
				return lichesstest.WhiteWins
			}
			return lichesstest.BlackWins
		})
		if n := len(r.f.Asked("POST /api/bulk-pairing")); n != 1 {
			t.Fatalf("%d bulk pairings: only each match's first game is paired in bulk", n)
		}
		for _, m := range must(s.Matches(ctx, "ko", "")) {
			im := must(s.ImportedSheet(ctx, td, "ko", m.ID))
			if m.Status != arbiter.MatchReported || m.Result.Result != "home_win" || !im.Complete || im.Games[0].ID != map[string]string{a.ID: ga[0].ID, b.ID: gb[0].ID}[m.ID] {
				t.Fatalf("match %s: %s %+v %+v", m.ID, m.Status, m.Result, im.Games)
			}
		}
	})
}
