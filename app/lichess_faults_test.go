package app

import (
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
	"arbiter/sqlstore"
)

// acwcOnLichess is the ACWC-style Swiss without time offers: Arbiter
// creates each match's games when the round is published.
var acwcOnLichess = strings.Replace(acwcSwiss, `"entrant": "individual",`,
	`"entrant": "individual", "variant": "antichess", "lichess": {"games": "open_challenge", "rated": true},`, 1)

// publishedOnLichess creates the event with 8 players, publishes round 1
// (4 matches) and returns the rig; the games jobs are due.
func publishedOnLichess(t *testing.T, s *Service, c *clock) (*lichessRig, []arbiter.Match) {
	c.t = utc(2023, 3, 21, 9, 0)
	must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Name: "Cup", Format: []byte(acwcOnLichess), Start: utc(2023, 3, 21, 0, 0), AllowPast: true}))
	names := registerPlayers(t, s, "wc", 8)
	r := newLichessRig(t, s, c, names...)
	for _, n := range names {
		must(s.Approve(ctx, td, "wc", n, 0))
	}
	must(s.CloseRegistration(ctx, td, "wc"))
	ms := pairOK(s.PairRound(ctx, td, "wc"))
	must(s.PublishRound(ctx, td, "wc"))
	return r, ms
}

// gamesJobs are the event's games jobs.
func gamesJobs(t *testing.T, s *Service) []Job {
	var out []Job
	for _, j := range must(s.EventJobs(ctx, td, "wc")) {
		if j.Kind == (GamesJob{}).Kind() {
			out = append(out, j)
		}
	}
	return out
}

// TestLichessDownAndGarbage: Lichess answering 502 to the challenges,
// then garbage to the game export: the jobs wait and try again, the TD
// console says why, and once Lichess answers every game is created once.
func TestLichessDownAndGarbage(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		r, _ := publishedOnLichess(t, s, c)
		r.f.Inject(lichesstest.Fault{Route: "POST /api/challenge/open", Status: 502, Body: "Bad gateway", Times: 4})
		runJobs(t, s, c)
		if n := len(challengesAsked(r.f)); n != 4 {
			t.Fatalf("%d challenge requests, want the 4 refused", n)
		}
		for _, j := range gamesJobs(t, s) {
			if j.State != jobs.Queued || j.Attempt != 1 || !strings.Contains(j.Error, "failed; trying again later") {
				t.Fatalf("job after Lichess failed: %+v", j)
			}
		}
		c.t = c.t.Add(40 * time.Second)
		runJobs(t, s, c)
		if n := len(r.f.Pending()); n != 4 {
			t.Fatalf("%d games waiting after the retry, want 4", n)
		}
		must(r.f.FinishAll(func(lichesstest.Pending) lichesstest.Result { return lichesstest.WhiteWins }))
		r.f.Inject(lichesstest.Fault{Route: "POST /api/games/export/_ids", Status: 200, Body: "<html>maintenance</html>", Times: 4})
		c.t = c.t.Add(GamesPoll)
		runJobs(t, s, c)
		for _, j := range gamesJobs(t, s) {
			if j.State != jobs.Queued || !strings.Contains(j.Error, "reading the games of match") {
				t.Fatalf("job after garbage: %+v", j)
			}
		}
		c.t = c.t.Add(2 * time.Minute)
		runJobs(t, s, c)
		// Every game 1 is read; every game 2 created, once.
		if n, p := len(challengesAsked(r.f)), len(r.f.Pending()); n != 4+4+4 || p != 4 {
			t.Fatalf("%d challenge requests (4 refused), %d pending; want 12 and 4", n, p)
		}
	})
}

// TestLichess429Storm: every answer a 429 for a while. The client stops
// (one request, then the minute Lichess asks for), the jobs wait that
// minute without using a try, and nothing is created twice.
func TestLichess429Storm(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		r, _ := publishedOnLichess(t, s, c)
		r.f.Inject(lichesstest.Fault{Status: 429, Body: `{"error":"Too many requests"}`, Times: 10})
		for range 10 {
			runJobs(t, s, c)
			c.t = c.t.Add(lichess.RateLimitPause + time.Second)
		}
		runJobs(t, s, c)
		if p := len(r.f.Pending()); p != 4 {
			t.Fatalf("%d games after the storm, want 4", p)
		}
		for _, j := range gamesJobs(t, s) {
			if j.Attempt > 1 && j.State == jobs.Failed {
				t.Fatalf("a 429 used up the job's tries: %+v", j)
			}
		}
		busy := 0
		for _, q := range r.f.Log() {
			if q.Status == 429 {
				busy++
			}
			if q.Status != 200 && q.Status != 429 {
				t.Fatalf("%s %s: %d (the client broke the pause)", q.Method, q.Path, q.Status)
			}
		}
		if busy < 10 {
			t.Fatalf("%d answers 429, want at least the 10 of the storm", busy)
		}
	})
}

// TestLichessCrashAfterCreate: a process died after Lichess created a
// challenge and its id was recorded, before the match listed it. The next
// run lists that challenge and creates none.
func TestLichessCrashAfterCreate(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		r, ms := publishedOnLichess(t, s, c)
		m := ms[0]
		ch := must(r.f.Client(t, "lip_org", lichesstest.NewClock(c.t)).OpenChallenge(ctx, lichess.OpenChallengeRequest{
			GameSettings: lichess.GameSettings{Rated: true, Variant: "antichess", Clock: &lichess.Clock{Initial: 60, Increment: 2}},
			Name:         "Cup · round 1 · game 1", Users: [2]string{m.Home, m.Away}}))
		must(0, s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			return sqlstore.RecordJobEffect(ctx, tx, sqlstore.JobEffect{Key: challengeKey("wc", m.ID, 1, 1), Effect: ch.ID, JobID: 1})
		}))
		runJobs(t, s, c)
		if n := len(challengesAsked(r.f)); n != 1+3 {
			t.Fatalf("%d challenges, want the one made before the crash and 3 others", n)
		}
		mg := must(s.MatchView(ctx, nil, "wc", m.ID))
		if len(mg.Games) != 1 || mg.Games[0].ID != ch.ID || mg.Games[0].White != m.Home || mg.Games[0].Number != 1 {
			t.Fatalf("match games %+v", mg.Games)
		}
	})
}
