package app

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
	"arbiter/lineup"
)

// lichessRig is a fake Lichess on the test's clock, with a client using
// the real pacing on a virtual clock of its own (its waits are counted,
// never slept).
type lichessRig struct {
	f      *lichesstest.Fake
	pacing *lichesstest.Clock
}

func newLichessRig(t testing.TB, s *Service, c *clock, players ...string) *lichessRig {
	f := lichesstest.Start(t, lichesstest.Options{Seed: 7, Now: c.now})
	for _, p := range players {
		f.AddPlayer(p, lichess.PerfAntichess, 1500, 1800)
	}
	f.AddToken("lip_org", "organiser", lichesstest.AllScopes...)
	pacing := lichesstest.NewClock(c.t)
	lc, err := lichess.New(lichess.Options{BaseURL: f.URL, Token: "lip_org", Time: pacing, Retries429: -1})
	if err != nil {
		t.Fatal(err)
	}
	s.SetLichess(lc)
	must(s.OpenJobs(nil))
	return &lichessRig{f: f, pacing: pacing}
}

// play finishes every game waiting on the fake with script, then lets a
// minute pass and runs the jobs due, until no game is left to play.
func (r *lichessRig) play(t *testing.T, s *Service, c *clock, script func(lichesstest.Pending) lichesstest.Result) int {
	t.Helper()
	looks := 0
	for ; looks < 40; looks++ {
		if _, err := r.f.FinishAll(script); err != nil {
			t.Fatal(err)
		}
		c.t = c.t.Add(GamesPoll)
		runJobs(t, s, c)
		if len(r.f.Pending()) == 0 && !gamesJobsLeft(t, s, c) {
			return looks
		}
	}
	t.Fatalf("games still being played after %d looks", looks)
	return looks
}

// gamesJobsLeft reports games jobs still queued or running.
func gamesJobsLeft(t testing.TB, s *Service, c *clock) bool {
	infos, err := s.Jobs().List(ctx, jobs.Filter{States: []jobs.State{jobs.Queued, jobs.Running}})
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(infos, func(in jobs.Info) bool { return in.Kind == GamesJob{}.Kind() })
}

func challengesAsked(f *lichesstest.Fake) []lichesstest.Request {
	return f.Asked("POST /api/challenge/open")
}

// TestLichessRoundACWC runs round 1 of the ACWC preset through the fake
// Lichess: the players agree a time, Arbiter creates each match's games
// one after another as open challenges (1+2 antichess, rated, noRematch,
// colours alternating from the home player's White, W4: no game once a
// side has more than 5), imports the finished games as reports from
// Lichess, and makes them final after the 24 h confirmation window.
func TestLichessRoundACWC(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Name: "ACWC 2023", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		names := registerPlayers(t, s, "wc", 12)
		r := newLichessRig(t, s, c, names...)
		for _, n := range names {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		runJobs(t, s, c) // the eligibility checks registration asked for
		must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		if js := must(s.EventJobs(ctx, td, "wc")); len(js) != 6 || js[0].What != "Import of match "+ms[5].ID+" from Lichess" {
			t.Fatalf("after publishing (times not agreed yet): %+v", js)
		}
		c.t = utc(2023, 3, 20, 10, 0)
		start := utc(2023, 3, 22, 18, 0)
		offers := []time.Time{start, utc(2023, 3, 23, 18, 0), utc(2023, 3, 24, 18, 0)}
		for _, m := range ms {
			must2(s.Negotiate(ctx, player(m.Home), "wc", m.ID, NegotiationStep{Kind: NegPropose, Times: offers}))
			must2(s.Negotiate(ctx, player(m.Away), "wc", m.ID, NegotiationStep{Kind: NegAccept, At: start}))
		}
		c.t = start.Add(-time.Minute)
		wantRan(t, runJobs(t, s, c)) // not yet
		c.t = start
		runJobs(t, s, c)
		asked := challengesAsked(r.f)
		if len(asked) != 6 {
			t.Fatalf("%d challenges at the start, want one per match", len(asked))
		}
		var first url.Values
		for _, q := range asked {
			if strings.HasPrefix(q.Form.Get("users"), ms[0].Home+",") {
				first = q.Form
			}
		}
		if first.Get("users") != ms[0].Home+","+ms[0].Away || first.Get("clock.limit") != "60" || first.Get("clock.increment") != "2" ||
			first.Get("variant") != "antichess" || first.Get("rated") != "true" || first.Get("rules") != "noRematch" ||
			first.Get("name") != "ACWC 2023 · qualification round 1 · game 1" || first.Get("expiresAt") != fmt.Sprint(utc(2023, 3, 28, 0, 0).UnixMilli()) {
			t.Fatalf("first challenge %v", first)
		}
		// Board 1: White always wins, so the players share the games 5-5
		// after ten; elsewhere the home player wins every game, 6-0 after
		// six (W4: decided).
		board1 := ms[0]
		looks := r.play(t, s, c, func(p lichesstest.Pending) lichesstest.Result {
			if p.White == board1.Home || p.White == board1.Away {
				return lichesstest.WhiteWins
			}
			for _, m := range ms {
				if p.White == m.Home {
					return lichesstest.WhiteWins
				}
			}
			return lichesstest.BlackWins
		})
		asked = challengesAsked(r.f)
		if len(asked) != 10+5*6 {
			t.Fatalf("%d challenges after %d looks, want 10 for board 1 and 6 for the others", len(asked), looks)
		}
		var b1 []string
		for _, q := range asked {
			if strings.Contains(q.Form.Get("users"), board1.Home) {
				b1 = append(b1, q.Form.Get("users"))
			}
		}
		h, a := board1.Home, board1.Away
		if want := []string{h + "," + a, a + "," + h, h + "," + a, a + "," + h, h + "," + a, a + "," + h, h + "," + a, a + "," + h, h + "," + a, a + "," + h}; !slices.Equal(b1, want) {
			t.Fatalf("board 1 colours %v, want alternation %v", b1, want)
		}
		mg := must(s.MatchView(ctx, nil, "wc", board1.ID))
		if len(mg.Games) != 10 || mg.Games[9].Name != "ACWC 2023 · qualification round 1 · game 10" || mg.Games[9].Result() != "1-0" ||
			!strings.HasPrefix(mg.Games[0].URL, "https://lichess.org/") {
			t.Fatalf("board 1 games %+v", mg.Games)
		}
		for i, m := range must(s.Matches(ctx, "wc", "")) {
			rep := must(s.Reports(ctx, arbiter.NamedUser(td.Name), "wc", m.ID))
			if m.Status != arbiter.MatchReported || len(rep) != 1 || rep[0].By != "lichess" || rep[0].Summary != "from Lichess" {
				t.Fatalf("match %d after the games: %s %+v", i+1, m.Status, rep)
			}
			wantHome := arbiter.P(6)
			if i == 0 {
				wantHome = arbiter.P(5)
			}
			if m.Result.Home.Points != wantHome {
				t.Fatalf("match %s: %+v", m.ID, m.Result)
			}
			im := must(s.ImportedSheet(ctx, td, "wc", m.ID))
			if !im.Complete || im.Report != rep[0].ID || len(im.Findings) != 0 {
				t.Fatalf("import of %s: %+v", m.ID, im)
			}
		}
		// A side disputes match 2 within the window: it goes to the TD.
		must(s.DisputeResult(ctx, player(ms[1].Away), "wc", ms[1].ID, "the third game was a disconnection", 0))
		c.t = c.t.Add(24 * time.Hour)
		runJobs(t, s, c)
		for i, m := range must(s.Matches(ctx, "wc", "")) {
			want := arbiter.MatchFinal
			if i == 1 {
				want = arbiter.MatchDisputed
			}
			if m.Status != want {
				t.Fatalf("match %d after the window: %s, want %s", i+1, m.Status, want)
			}
		}
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "wc"))
		table := must(s.Standings(ctx, "wc", 0))
		scores := map[string]arbiter.Points{}
		for _, row := range table.Rows {
			scores[row.ID] = row.Score
		}
		if scores[ms[2].Home] != arbiter.P(1) || scores[ms[2].Away] != 0 || scores[board1.Home] != arbiter.P(0.5) || scores[board1.Away] != arbiter.P(0.5) {
			t.Fatalf("standings after round 1: %v", scores)
		}
		t.Logf("ACWC round: %d challenges, %d requests in all, client paced %s", len(asked), len(r.f.Log()), r.pacing.Waited())
	})
}

// TestLichessRoundCup runs round 1 of the antichess cup preset with 12
// teams through the fake: each board's players agree their own time (A5),
// Arbiter plays the board's 18 games (8 of 0+2, 4 of 2+5, 6 of 1+2) one
// after another, the home player White in game 1 on boards 1 and 3 and
// Black on boards 2 and 4, alternating; the home teams win every game,
// 576-0 (A19).
func TestLichessRoundCup(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Name: "Antichess Cup", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 12, 1, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		players := submitCupBoards(t, s, "atc", 12)
		r := newLichessRig(t, s, c, players...)
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 7, 10, 0)
		start := utc(2025, 1, 8, 18, 0)
		offers := []time.Time{start, utc(2025, 1, 9, 18, 0), utc(2025, 1, 10, 18, 0)}
		for _, m := range ms {
			for b := range 4 {
				must2(s.Negotiate(ctx, player(m.HomeBoards[b]), "atc", m.ID, NegotiationStep{Board: b + 1, Kind: NegPropose, Times: offers}))
				must2(s.Negotiate(ctx, player(m.AwayBoards[b]), "atc", m.ID, NegotiationStep{Board: b + 1, Kind: NegAccept, At: start}))
			}
		}
		home := map[string]bool{}
		for _, m := range ms {
			for _, p := range m.HomeBoards {
				home[p] = true
			}
		}
		c.t = start
		runJobs(t, s, c)
		if n := len(challengesAsked(r.f)); n != 6*4 {
			t.Fatalf("%d challenges at the start, want one per board", n)
		}
		r.play(t, s, c, func(p lichesstest.Pending) lichesstest.Result {
			if home[p.White] {
				return lichesstest.WhiteWins
			}
			return lichesstest.BlackWins
		})
		asked := challengesAsked(r.f)
		if len(asked) != 6*4*18 {
			for _, j := range must(s.EventJobs(ctx, td, "atc")) {
				t.Logf("%s %s %s", j.What, j.State, j.Error)
			}
			t.Fatalf("%d challenges, want 432", len(asked))
		}
		var b2 []string
		for _, q := range asked {
			if u := q.Form.Get("users"); strings.Contains(u, ms[0].HomeBoards[1]) {
				b2 = append(b2, u+" "+q.Form.Get("clock.limit")+"+"+q.Form.Get("clock.increment"))
			}
		}
		h, a := ms[0].HomeBoards[1], ms[0].AwayBoards[1]
		if len(b2) != 18 || b2[0] != a+","+h+" 0+2" || b2[1] != h+","+a+" 0+2" || b2[8] != a+","+h+" 120+5" || b2[12] != a+","+h+" 60+2" {
			t.Fatalf("board 2 of match 1: %v", b2)
		}
		if !slices.ContainsFunc(asked, func(q lichesstest.Request) bool {
			return q.Form.Get("name") == "Antichess Cup · swiss round 1 · board 4 · game 18"
		}) {
			t.Fatalf("no game named for its board: %q", asked[0].Form.Get("name"))
		}
		for _, m := range must(s.Matches(ctx, "atc", "")) {
			if m.Status != arbiter.MatchReported || m.Result.Home.Points != arbiter.P(576) || m.Result.Away.Points != 0 {
				t.Fatalf("match %s: %s %+v", m.ID, m.Status, m.Result)
			}
		}
		c.t = c.t.Add(24 * time.Hour)
		runJobs(t, s, c)
		for _, m := range must(s.Matches(ctx, "atc", "")) {
			if m.Status != arbiter.MatchFinal || m.Decision != "confirmed" {
				t.Fatalf("match %s after the window: %s", m.ID, m.Status)
			}
		}
		t.Logf("cup round: %d challenges, %d requests in all, client paced %s", len(asked), len(r.f.Log()), r.pacing.Waited())
	})
}

// submitCupBoards ranks and submits the boards of the teams registerTeams
// made, team-01..team-NN (capNN, aNN, bNN, cNN rated 2000, 1990, 1980,
// 1970 in that order), as captain NN, and returns every player, team by team.
func submitCupBoards(t *testing.T, s *Service, slug string, n int) []string {
	t.Helper()
	var players []string
	for i := 1; i <= n; i++ {
		team := fmt.Sprintf("team-%02d", i)
		var members []lineup.Member
		for j, p := range []string{"cap", "a", "b", "c"} {
			name := fmt.Sprintf("%s%02d", p, i)
			players = append(players, name)
			members = append(members, lineup.Member{Name: name, Rating: 2000 - 10*j})
		}
		bt := must(s.RankBoards(ctx, td, slug, team, members, nil))
		must(s.SubmitBoards(ctx, arbiter.Actor{Name: fmt.Sprintf("cap%02d", i), Role: arbiter.RoleCaptain}, slug, team, bt.TDOrder))
	}
	return players
}
