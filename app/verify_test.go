package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/internal/testshared"
	"arbiter/lichess"
	"arbiter/lineup"
	"arbiter/sqlstore"
)

// fixtureGames reads the shared hand-made antichess match (PlayerA v
// PlayerB on 2026-01-01, see the fixture README): rated 3+2 A 1-0
// (SynTh001) and = (SynTh002), 1+2 B wins (SynTh003), 0+2 B wins
// (SynTh004), 3+2 aborted (SynTh005), 3+2 casual A wins (SynTh006).
func fixtureGames(t *testing.T) []lichess.Game {
	t.Helper()
	f, err := os.Open(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "games_antichess_match.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gs []lichess.Game
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var g lichess.Game
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	if err := sc.Err(); err != nil || len(gs) != 6 {
		t.Fatalf("fixture: %d games, %v", len(gs), err)
	}
	return gs
}

// fakeGames is a GameSource over a fixed list of games: it answers like
// Lichess's games of a user against another (either colour, created in
// the window) and records what it was asked.
type fakeGames struct {
	mu    sync.Mutex
	games []lichess.Game
	err   error // answered instead of games when set
	asked []GamesBetween
}

func (f *fakeGames) GamesBetween(_ context.Context, q GamesBetween) ([]lichess.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, q)
	if f.err != nil {
		return nil, f.err
	}
	p, o := strings.ToLower(q.Player), strings.ToLower(q.Opponent)
	var out []lichess.Game
	for _, g := range f.games {
		w, b := g.White.UserID, g.Black.UserID
		if (w == p && b == o || w == o && b == p) && !g.CreatedAt.Before(q.Since) && g.CreatedAt.Before(q.Until) &&
			(q.Perf == "" || g.Perf == q.Perf) {
			out = append(out, g)
		}
	}
	return out, nil
}

func without(gs []lichess.Game, ids ...string) []lichess.Game {
	return slices.DeleteFunc(slices.Clone(gs), func(g lichess.Game) bool { return slices.Contains(ids, g.ID) })
}

// verifyFormat is a two-player antichess round robin whose match has the
// fixture's clocks: 2 games of 3+2, 1 of 1+2, 1 of 0+2; clauses as ACWC
// (W2 games, W4 decided).
func verifyFormat(parts string, playAll bool) string {
	pa := "true"
	if !playAll {
		pa = "false"
	}
	return `{
  "name": "lichess-check",
  "title": "Lichess check",
  "entrant": "individual",
  "variant": "antichess",
  "clauses": {"games": "W2", "decided": "W4"},
  "calendar": {
    "rounds_per_week": 1,
    "pairings_by": {"day": "tuesday", "time": "23:59"},
    "deadline": {"day": "monday", "time": "23:59"}
  },
  "stages": [{
    "name": "all",
    "kind": "round_robin",
    "pairing": "berger",
    "cycles": 1,
    "tiebreaks": ["mutual_match_score"],
    "match": {
      "kind": "individual",
      "parts": ` + parts + `,
      "play_all_games": ` + pa + `,
      "match_points": {"win": 1, "draw": 0.5, "loss": 0},
      "double_forfeit": "loss"
    }
  }]
}`
}

const fixtureParts = `[{"tc": "3+2", "games": 2, "win": 1, "draw": 0.5}, {"tc": "1+2", "games": 1, "win": 1, "draw": 0.5}, {"tc": "0+2", "games": 1, "win": 1, "draw": 0.5}]`

// verifyEvent creates the event, pairs PlayerA (home, seed 1) with
// PlayerB on 2025-12-30 and, when sheet is set, has PlayerA report it.
// The clock is then 2026-01-02 12:00, after the fixture's games.
func verifyEvent(t *testing.T, s *Service, c *clock, slug, doc, sheet string) arbiter.Match {
	t.Helper()
	c.t = utc(2025, 12, 29, 12, 0)
	must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: []byte(doc), Start: utc(2025, 12, 30, 0, 0)}))
	for i, n := range []string{"PlayerA", "PlayerB"} {
		e := must(s.Register(ctx, player(n), slug, arbiter.Entrant{Player: n, Rating: 2000 - i}))
		must(s.Approve(ctx, td, slug, e.ID, 0))
	}
	c.t = utc(2025, 12, 30, 12, 0)
	must(s.CloseRegistration(ctx, td, slug))
	ms := pairOK(s.PairRound(ctx, td, slug))
	must(s.PublishRound(ctx, td, slug))
	if len(ms) != 1 || ms[0].Home != "playera" || ms[0].Away != "playerb" {
		t.Fatalf("paired %+v", ms)
	}
	c.t = utc(2026, 1, 2, 12, 0)
	if sheet != "" {
		return must(s.ReportResult(ctx, player("PlayerA"), slug, ms[0].ID, ResultInput{Sheet: []byte(sheet)}))
	}
	return ms[0]
}

// summary renders a verification compactly: per check the part, the
// reported and Lichess scores, the games found (id:colour:result) and
// the findings (kind:clause:game).
func summary(v MatchVerification) []string {
	var out []string
	for _, c := range v.Checks {
		s := c.TC + " " + c.HomePlayer + "-" + c.AwayPlayer
		if c.Board > 0 {
			s = fmt.Sprintf("b%d %s", c.Board, s)
		}
		if c.Skipped != "" {
			out = append(out, s+" skipped: "+c.Skipped)
			continue
		}
		if c.Reported != nil {
			s += " reported " + c.Reported.String()
		}
		s += " lichess " + c.Lichess.String() + " ["
		var gs []string
		for _, g := range c.Found {
			gs = append(gs, g.ID+":"+g.HomeColor+":"+g.Result)
		}
		s += strings.Join(gs, " ") + "]"
		for _, d := range c.Discrepancies {
			s += " " + d.Kind + ":" + d.Clause + ":" + d.Game
		}
		out = append(out, s)
	}
	return out
}

func wantSummary(t *testing.T, v MatchVerification, want ...string) {
	t.Helper()
	if got := summary(v); !slices.Equal(got, want) {
		t.Fatalf("verification:\n got %q\nwant %q", got, want)
	}
}

const reportedOK = `{"parts": [{"tc": "3+2", "results": "1 ="}, {"tc": "1+2", "results": "0"}, {"tc": "0+2", "results": "0"}]}`

// TestVerifyMatchConsistent: the report agrees with the fixture's rated
// games (the casual one left out of the source): nothing to rule on. The
// finding is stored on the match, audited, and a second run replaces it.
func TestVerifyMatchConsistent(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		m := verifyEvent(t, s, c, "vc", verifyFormat(fixtureParts, true), reportedOK)
		src := &fakeGames{games: without(fixtureGames(t), "SynTh006")}
		s.SetGameSource(src)
		v := must(s.VerifyMatch(ctx, td, "vc", m.ID))
		wantSummary(t, v,
			"3+2 playera-playerb reported 1.5-0.5 lichess 1.5-0.5 [SynTh001:white:1 SynTh002:black:=]",
			"1+2 playera-playerb reported 0-1 lichess 0-1 [SynTh003:white:0]",
			"0+2 playera-playerb reported 0-1 lichess 0-1 [SynTh004:black:0]")
		if !v.Consistent || v.Discrepancies != 0 || v.Report != m.Report || v.By != "arbitertd" || !v.At.Equal(utc(2026, 1, 2, 12, 0)) ||
			v.Variant != "antichess" || !v.From.Equal(utc(2025, 12, 30, 0, 0)) || !v.To.Equal(v.At) || v.Version != 1 {
			t.Fatalf("verification %+v", v)
		}
		// One request for the pair, over the round window, antichess only.
		want := []GamesBetween{{Player: "playera", Opponent: "playerb", Since: utc(2025, 12, 30, 0, 0), Until: utc(2026, 1, 2, 12, 0), Perf: "antichess"}}
		if !slices.Equal(src.asked, want) {
			t.Fatalf("asked %+v", src.asked)
		}
		if g := v.Checks[0].Found[0]; g.URL != "https://lichess.org/SynTh001" || g.Status != "variantEnd" || !g.Rated || g.TC != "3+2" ||
			!g.CreatedAt.Equal(time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)) {
			t.Fatalf("first game %+v", g)
		}
		// Stored on the match; running it again replaces it, and both
		// runs are in the audit log.
		got := must(s.Verification(ctx, arbiter.NamedUser(td.Name), "vc", m.ID))
		if got == nil || !slices.Equal(summary(*got), summary(v)) || got.Version != 1 {
			t.Fatalf("stored %+v", got)
		}
		c.t = utc(2026, 1, 3, 9, 0)
		v = must(s.VerifyMatch(ctx, td, "vc", m.ID))
		if v.Version != 2 || !v.To.Equal(utc(2026, 1, 3, 9, 0)) {
			t.Fatalf("second run %+v", v)
		}
		var log []string
		for _, e := range must(s.Audit(ctx, td, "vc", sqlstore.AuditFilter{Kind: "verification"})) {
			log = append(log, e.Action+" "+e.RecordID+" by "+e.Actor.Name+": "+e.Reason)
		}
		if want := []string{"match.verify s1r1b1 by arbitertd: s1r1b1: consistent with Lichess", "match.verify s1r1b1 by arbitertd: s1r1b1: consistent with Lichess"}; !slices.Equal(log, want) {
			t.Fatalf("audit %q", log)
		}
		// The result is untouched.
		if ms := must(s.Matches(ctx, "vc", "s1r1")); len(ms) != 1 || ms[0].Status != arbiter.MatchReported || ms[0].Version != m.Version {
			t.Fatalf("match changed: %+v", ms)
		}
		if none := must(s.Verification(ctx, arbiter.NamedUser(td.Name), "vc", "s1r9b9")); none != nil {
			t.Fatalf("no verification expected, got %+v", none)
		}
	})
}

// TestVerifyMatchDiscrepancies: each kind of finding the TD rules on,
// with its clause: the score reported wrongly, a game in another clock
// (W2 here; R6 in RKCC), a casual game (W2), missing games, and games
// after a match that ends once decided (W4).
func TestVerifyMatchDiscrepancies(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		all := fixtureGames(t)

		// Score mismatch: the 3+2 part reported 1-1, Lichess shows 1.5-0.5.
		m := verifyEvent(t, s, c, "score", verifyFormat(fixtureParts, true),
			`{"parts": [{"tc": "3+2", "results": "1 0"}, {"tc": "1+2", "results": "0"}, {"tc": "0+2", "results": "0"}]}`)
		s.SetGameSource(&fakeGames{games: without(all, "SynTh006")})
		v := must(s.VerifyMatch(ctx, td, "score", m.ID))
		wantSummary(t, v,
			"3+2 playera-playerb reported 1-1 lichess 1.5-0.5 [SynTh001:white:1 SynTh002:black:=] score_mismatch:W2:",
			"1+2 playera-playerb reported 0-1 lichess 0-1 [SynTh003:white:0]",
			"0+2 playera-playerb reported 0-1 lichess 0-1 [SynTh004:black:0]")
		if d := v.Checks[0].Discrepancies[0]; d.Message != "reported 1-1, Lichess shows 1.5-0.5" || v.Consistent || v.Discrepancies != 1 ||
			v.Summary() != "1 discrepancy: score_mismatch (W2)" {
			t.Fatalf("score mismatch %+v, %+v", d, v)
		}

		// Wrong time control: the format has no 0+2 part, so SynTh004 was
		// played in a clock of no part.
		m = verifyEvent(t, s, c, "wrongtc", verifyFormat(`[{"tc": "3+2", "games": 2, "win": 1, "draw": 0.5}, {"tc": "1+2", "games": 1, "win": 1, "draw": 0.5}]`, true), "")
		v = must(s.VerifyMatch(ctx, td, "wrongtc", m.ID))
		wantSummary(t, v,
			"3+2 playera-playerb lichess 1.5-0.5 [SynTh001:white:1 SynTh002:black:=] wrong_time_control:W2:SynTh004",
			"1+2 playera-playerb lichess 0-1 [SynTh003:white:0]") // listed once, on the first part
		if w := v.Checks[0].WrongTC; len(w) != 1 || w[0].ID != "SynTh004" || w[0].TC != "0+2" || w[0].Result != "0" ||
			len(v.Checks[1].WrongTC) != 0 || v.Discrepancies != 1 {
			t.Fatalf("wrong clock games %+v, %+v", w, v.Checks[1].WrongTC)
		}
		if d := v.Checks[0].Discrepancies[0]; d.Message != "game SynTh004 was played in 0+2, not 3+2" {
			t.Fatalf("wrong clock %+v", d)
		}

		// Casual game: the whole fixture, SynTh006 unrated in 3+2 (W2).
		m = verifyEvent(t, s, c, "casual", verifyFormat(fixtureParts, true), reportedOK)
		s.SetGameSource(&fakeGames{games: all})
		v = must(s.VerifyMatch(ctx, td, "casual", m.ID))
		wantSummary(t, v,
			"3+2 playera-playerb reported 1.5-0.5 lichess 1.5-0.5 [SynTh001:white:1 SynTh002:black:=] casual_game:W2:SynTh006",
			"1+2 playera-playerb reported 0-1 lichess 0-1 [SynTh003:white:0]",
			"0+2 playera-playerb reported 0-1 lichess 0-1 [SynTh004:black:0]")

		// Missing games: SynTh003 is not on Lichess, and nothing reported.
		m = verifyEvent(t, s, c, "missing", verifyFormat(fixtureParts, true), "")
		s.SetGameSource(&fakeGames{games: without(all, "SynTh003", "SynTh006")})
		v = must(s.VerifyMatch(ctx, td, "missing", m.ID))
		wantSummary(t, v,
			"3+2 playera-playerb lichess 1.5-0.5 [SynTh001:white:1 SynTh002:black:=]",
			"1+2 playera-playerb lichess 0-0 [] missing_games:W2:",
			"0+2 playera-playerb lichess 0-1 [SynTh004:black:0]")
		if d := v.Checks[1].Discrepancies[0]; d.Message != "Lichess shows 0 of the 1 games in 1+2" {
			t.Fatalf("missing %+v", d)
		}

		// W4: a 3-game 3+2 part that ends once decided. PlayerA wins
		// SynTh002 too (2-0 after two games: decided), so the third game,
		// SynTh006 (rated here), is after the end: extra, clause W4; no
		// game is missing.
		games := without(all, "SynTh003", "SynTh004")
		for i := range games {
			switch games[i].ID {
			case "SynTh002":
				games[i].Winner, games[i].Status = "black", "variantEnd"
			case "SynTh006":
				games[i].Rated = true
			}
		}
		m = verifyEvent(t, s, c, "decided", verifyFormat(`[{"tc": "3+2", "games": 3, "win": 1, "draw": 0.5}]`, false),
			`{"parts": [{"tc": "3+2", "results": "1 1"}]}`)
		s.SetGameSource(&fakeGames{games: games})
		v = must(s.VerifyMatch(ctx, td, "decided", m.ID))
		wantSummary(t, v, "3+2 playera-playerb reported 2-0 lichess 2-0 [SynTh001:white:1 SynTh002:black:1] extra_games:W4:")
		if x := v.Checks[0].Extra; len(x) != 1 || x[0].ID != "SynTh006" || x[0].Result != "1" {
			t.Fatalf("extra %+v", x)
		}
	})
}

// TestVerifyMatchRefusals: only a TD of the event may check, a server
// without a game source says so, and a bye has nothing to check.
func TestVerifyMatchRefusals(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		m := verifyEvent(t, s, c, "ref", verifyFormat(fixtureParts, true), reportedOK)
		_, err := s.VerifyMatch(ctx, td, "ref", m.ID)
		wantErr(t, err, arbiter.ERULE, "app.lichess")
		src := &fakeGames{games: fixtureGames(t)}
		s.SetGameSource(src)
		_, err = s.VerifyMatch(ctx, player("PlayerA"), "ref", m.ID)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.VerifyMatch(ctx, arbiter.Actor{Name: "someone", Role: arbiter.RoleTD}, "ref", m.ID)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.VerifyMatch(ctx, td, "ref", "s1r7b1")
		wantErr(t, err, arbiter.ENOTFOUND, "")
		if len(src.asked) != 0 {
			t.Fatalf("refused checks asked Lichess: %+v", src.asked)
		}
		if v := must(s.Verification(ctx, arbiter.NamedUser(td.Name), "ref", m.ID)); v != nil {
			t.Fatalf("refused checks stored %+v", v)
		}

		// Lichess does not know a player: the pair's parts are skipped.
		s.SetGameSource(&fakeGames{err: &arbiter.Error{Code: arbiter.ENOTFOUND, Message: "lichess: Not found."}})
		v := must(s.VerifyMatch(ctx, td, "ref", m.ID))
		gone := "Lichess does not know playera or playerb"
		wantSummary(t, v, "3+2 playera-playerb skipped: "+gone, "1+2 playera-playerb skipped: "+gone, "0+2 playera-playerb skipped: "+gone)
		if v.Consistent || v.Summary() != "3 parts not checked" {
			t.Fatalf("unknown player: %+v", v)
		}
		// Lichess failing: "unavailable" (503 on the web) naming the pair; the last
		// check stays as it was.
		s.SetGameSource(&fakeGames{err: errors.New("lichess: GET /api/games/user/playera: 429 Too Many Requests")})
		_, err = s.VerifyMatch(ctx, td, "ref", m.ID)
		var ae *arbiter.Error
		if !errors.As(err, &ae) || ae.Code != arbiter.EUNAVAILABLE || ae.Message != "fetching the games of playera and playerb from Lichess failed; try again later" || ae.Err == nil {
			t.Fatalf("Lichess failing: %v", err)
		}
		if got := must(s.Verification(ctx, arbiter.NamedUser(td.Name), "ref", m.ID)); got == nil || got.Version != 1 || !slices.Equal(summary(*got), summary(v)) {
			t.Fatalf("after a failed check: %+v", got)
		}
	})
}

// TestVerifyMatchTeamSets: an RKCC match (team_sets, standard chess)
// checks each set's pair on its own: before any report or lineup names
// them the sets are not checked and Lichess is not asked; with the report
// naming every set's players, one request per set (all perfs: a standard
// game of any speed may be in the wrong clock) and, with no games on
// Lichess, each set is missing its games and its reported score (R3).
func TestVerifyMatchTeamSets(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		ms := rkccEvent(t, s, c, "rk", nil)
		c.t = utc(2025, 1, 8, 12, 0)
		src := &fakeGames{}
		s.SetGameSource(src)
		b1 := ms[0] // team-1 v team-5
		v := must(s.VerifyMatch(ctx, td, "rk", b1.ID))
		not := "the players of this part are not known (no lineup or report names them)"
		wantSummary(t, v, "3+2 - skipped: "+not, "1.5+1 - skipped: "+not, "0.75+0 - skipped: "+not)
		if len(src.asked) != 0 || v.Consistent || v.Variant != "standard" || v.Summary() != "3 parts not checked" {
			t.Fatalf("asked %+v; %+v", src.asked, v)
		}

		must(s.ReportResult(ctx, arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}, "rk", b1.ID, ResultInput{Sheet: []byte(rkccNamed(1, 5))}))
		v = must(s.VerifyMatch(ctx, td, "rk", b1.ID))
		wantSummary(t, v,
			"3+2 cap1-cap5 reported 6-0 lichess 0-0 [] missing_games:R3: score_mismatch:R3:",
			"1.5+1 a1-a5 reported 10-0 lichess 0-0 [] missing_games:R3: score_mismatch:R3:",
			"0.75+0 b1-b5 reported 16-0 lichess 0-0 [] missing_games:R3: score_mismatch:R3:")
		from, to := utc(2025, 1, 6, 0, 0), utc(2025, 1, 8, 12, 0)
		want := []GamesBetween{{"cap1", "cap5", from, to, ""}, {"a1", "a5", from, to, ""}, {"b1", "b5", from, to, ""}}
		if !slices.Equal(src.asked, want) || v.Discrepancies != 6 {
			t.Fatalf("asked %+v", src.asked)
		}
	})
}

// TestVerifyMatchTeamBoards: an antichess team cup match (team_boards,
// A12-A17) checks every part of every board, each board's pair once: the
// home players from the board list kept when the round was paired
// (team-06 was never ranked, so its players come only from the report);
// with no games on Lichess every part misses its games (A17) and the
// reported scores differ.
func TestVerifyMatchTeamBoards(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, true)
		must(s.CloseRegistration(ctx, td, "atc"))
		cap01 := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}
		members := []lineup.Member{{Name: "cap01", Rating: 2000}, {Name: "a01", Rating: 2100}, {Name: "b01", Rating: 1900},
			{Name: "c01", Rating: 1800}, {Name: "s01", Rating: 1700}}
		must(s.RankBoards(ctx, td, "atc", "team-01", members, lineup.Comparable{{"a01", "cap01"}}))
		must(s.SubmitBoards(ctx, cap01, "atc", "team-01", []string{"cap01", "a01", "b01", "c01"}))
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		m := ms[0]
		if m.Home != "team-01" || m.Away != "team-06" || !slices.Equal(m.HomeBoards, []string{"cap01", "a01", "b01", "c01"}) || len(m.AwayBoards) != 0 {
			t.Fatalf("match %+v", m)
		}
		c.t = utc(2025, 1, 10, 12, 0)
		src := &fakeGames{}
		s.SetGameSource(src)

		// Before a report: team-06's players are not known.
		v := must(s.VerifyMatch(ctx, td, "atc", m.ID))
		if len(v.Checks) != 12 || v.Checks[0].Board != 1 || v.Checks[0].HomePlayer != "cap01" || v.Checks[0].AwayPlayer != "" ||
			v.Checks[11].Board != 4 || v.Checks[11].HomePlayer != "c01" || v.Checks[11].Skipped == "" || len(src.asked) != 0 || v.Variant != "antichess" {
			t.Fatalf("before the report: %+v, asked %+v", v, src.asked)
		}

		sheet := teamSheet
		away := []string{"cap06", "a06", "b06", "c06"}
		for i, p := range away {
			sheet = strings.Replace(sheet, fmt.Sprintf(`{"board": %d, `, i+1), fmt.Sprintf(`{"board": %d, "away_player": %q, `, i+1, p), 1)
		}
		must(s.ReportResult(ctx, cap01, "atc", m.ID, ResultInput{Sheet: []byte(sheet)}))
		v = must(s.VerifyMatch(ctx, td, "atc", m.ID))
		var lines []string
		for _, l := range summary(v) {
			if !strings.HasSuffix(l, " [] missing_games:A17: score_mismatch:A17:") {
				t.Fatalf("check %q", l)
			}
			lines = append(lines, strings.TrimSuffix(l, " [] missing_games:A17: score_mismatch:A17:"))
		}
		// The format's part order (A17's default): 0+2, 2+5, 1+2.
		want := []string{
			"b1 0+2 cap01-cap06 reported 8-0 lichess 0-0", "b1 2+5 cap01-cap06 reported 4-0 lichess 0-0", "b1 1+2 cap01-cap06 reported 6-0 lichess 0-0",
			"b2 0+2 a01-a06 reported 4-4 lichess 0-0", "b2 2+5 a01-a06 reported 2-2 lichess 0-0", "b2 1+2 a01-a06 reported 2.5-3.5 lichess 0-0",
			"b3 0+2 b01-b06 reported 4-4 lichess 0-0", "b3 2+5 b01-b06 reported 2-2 lichess 0-0", "b3 1+2 b01-b06 reported 2.5-3.5 lichess 0-0",
			"b4 0+2 c01-c06 reported 4-4 lichess 0-0", "b4 2+5 c01-c06 reported 2-2 lichess 0-0", "b4 1+2 c01-c06 reported 2.5-3.5 lichess 0-0",
		}
		if !slices.Equal(lines, want) {
			t.Fatalf("checks:\n got %q\nwant %q", lines, want)
		}
		var pairs []string
		for _, q := range src.asked {
			pairs = append(pairs, q.Player+"-"+q.Opponent+" "+q.Perf)
			if !q.Until.Equal(c.t) || !q.Since.Before(q.Until) {
				t.Fatalf("window %+v", q)
			}
		}
		if !slices.Equal(pairs, []string{"cap01-cap06 antichess", "a01-a06 antichess", "b01-b06 antichess", "c01-c06 antichess"}) {
			t.Fatalf("asked %q", pairs)
		}
	})
}
