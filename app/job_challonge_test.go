package app

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/challonge"
	"arbiter/challonge/challongetest"
	"arbiter/jobs"
	"arbiter/sqlstore"
)

// TestChallongePushJob: an event linked to a Challonge tournament pushes
// its knockout after each knockout result made final (not the Swiss
// stage's), as a job: Challonge failing once is retried after the
// backoff; a result that comes while a push runs is pushed by a second
// run of the same job; a TD's "Push to Challonge" pushes again, sending
// nothing new; an unknown tournament fails at once (the dead letter) and
// a TD's retry after fixing the link succeeds; a server without a key
// fails saying so.
func TestChallongePushJob(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		fake := challongetest.New(t, "key")
		fake.AddTournament("rkcc_ko", "KO", true)
		// A proxy in front of the fake, to act while a push runs.
		target, _ := url.Parse(fake.URL)
		var mu sync.Mutex
		var onPut func()
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			fn := onPut
			if r.Method == http.MethodPut {
				onPut = nil
			}
			mu.Unlock()
			httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host}).ServeHTTP(w, r)
			if r.Method == http.MethodPut && fn != nil {
				fn()
			}
		}))
		t.Cleanup(proxy.Close)
		cl := challonge.New("key")
		cl.BaseURL = proxy.URL + "/v1"
		s.SetIntegrations(IntegrationOptions{Challonge: cl})
		run := func(at time.Time) []jobs.Result {
			t.Helper()
			c.t = at
			return must(s.Jobs().RunDue(ctx, at, 1))
		}

		koEvent(t, s, "ko")
		_, err := s.LinkChallonge(ctx, player("p01"), "ko", "rkcc_ko")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.LinkChallonge(ctx, td, "ko", "https://example.org/rkcc_ko")
		wantErr(t, err, arbiter.EINVALID, challongeClause)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "plain", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 0, 0)}))
		_, err = s.LinkChallonge(ctx, td, "plain", "rkcc_ko")
		wantErr(t, err, arbiter.ERULE, challongeClause)
		if l := must(s.LinkChallonge(ctx, td, "ko", "https://challonge.com/rkcc_ko")); l.Tournament != "rkcc_ko" || l.By != "arbitertd" {
			t.Fatalf("link %+v", l)
		}

		// The Swiss stage: its results push nothing.
		ms := pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2023, 3, 22, 0, 0)
		for _, m := range ms {
			sum := "6-4"
			if m.Home > m.Away {
				sum = "4-6"
			}
			must(s.OverrideResult(ctx, td, "ko", m.ID, ResultInput{Summary: sum}, "from the games", 0))
		}
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		if js := must(s.EventJobs(ctx, td, "ko")); len(js) != 0 {
			t.Fatalf("jobs after the Swiss: %+v", js)
		}
		must(s.AdvanceStage(ctx, td, "ko", AdvanceOptions{TieOrder: []string{"p01", "p02", "p03", "p04"}, Reason: "drawing of lots"}))
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))

		// Semifinal 1 final: a push is queued with the result. Challonge
		// fails the first try; the second, after the backoff, pushes it,
		// and semifinal 2, decided meanwhile, is pushed by a run again.
		c.t = utc(2023, 3, 29, 0, 0)
		must(s.OverrideResult(ctx, td, "ko", semis[0].ID, ResultInput{Summary: "6-4"}, "from the games", 0))
		js := must(s.EventJobs(ctx, td, "ko"))
		if len(js) != 1 || js[0].What != "Push of the knockout to Challonge" || js[0].State != jobs.Queued || js[0].Key != "challonge:ko" {
			t.Fatalf("jobs after a knockout result: %+v", js)
		}
		fake.Do("rkcc_ko", func(*challongetest.Tournament) { fake.FailNext = 1 })
		res := run(c.t)
		if len(res) != 1 || res[0].State != jobs.Queued || res[0].Attempt != 1 || !strings.Contains(res[0].Error, "500") {
			t.Fatalf("push with Challonge down: %+v", res)
		}
		mu.Lock()
		onPut = func() {
			must(s.OverrideResult(ctx, td, "ko", semis[1].ID, ResultInput{Summary: "4-6"}, "from the games", 0))
		}
		mu.Unlock()
		res = run(res[0].RunAt)
		if len(res) != 1 || res[0].State != jobs.Queued || res[0].RunAt.After(c.t.Add(2*time.Second)) { // snoozed a second
			t.Fatalf("push while a result came: %+v", res)
		}
		if js := must(s.EventJobs(ctx, td, "ko")); len(js) != 1 {
			t.Fatalf("a second push job: %+v", js)
		}
		res = run(res[0].RunAt.Add(time.Second))
		if len(res) != 1 || res[0].State != jobs.Done {
			t.Fatalf("the push again: %+v", res)
		}
		fake.Do("rkcc_ko", func(tour *challongetest.Tournament) {
			if len(tour.Participants) != 4 || tour.State != "underway" {
				t.Fatalf("Challonge has %d participants, %s", len(tour.Participants), tour.State)
			}
			misc := map[int64]string{}
			for _, p := range tour.Participants {
				misc[p.ID] = p.Misc
			}
			done := 0
			for _, m := range tour.Matches {
				if m.Round == 1 && m.State == "complete" {
					done++
					if w := misc[m.WinnerID]; w != semis[0].Home && w != semis[1].Away {
						t.Errorf("semifinal won by %s", w)
					}
				}
			}
			if done != 2 {
				t.Errorf("%d semifinals complete on Challonge", done)
			}
		})
		st := must(s.Challonge(ctx, td, "ko"))
		if !st.Knockout || !st.Key || st.Link == nil || st.Link.LastPush == nil || st.Link.LastPush.By != "arbiter" || st.Job == nil || st.Job.State != jobs.Done {
			t.Fatalf("status %+v", st)
		}
		if p := st.Link.LastPush; len(p.Updated) != 1 || p.Unchanged != 1 || p.Added != 0 {
			t.Fatalf("the last push %+v", p)
		}

		// The TD's button: one more push, nothing new to send.
		_, err = s.RequestChallongePush(ctx, player("p01"), "ko")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		j := must(s.RequestChallongePush(ctx, td, "ko"))
		if j2 := must(s.RequestChallongePush(ctx, td, "ko")); j.State != jobs.Queued || !j2.Duplicate || j2.ID != j.ID {
			t.Fatalf("asked twice: %+v %+v", j, j2)
		}
		if res := run(c.t); len(res) != 1 || res[0].State != jobs.Done {
			t.Fatalf("the TD's push: %+v", res)
		}
		if p := must(s.Challonge(ctx, td, "ko")).Link.LastPush; p.By != "arbitertd" || len(p.Updated) != 0 || p.Unchanged != 2 {
			t.Fatalf("the TD's push %+v", p)
		}

		// An unknown tournament: failed at once, kept for a TD.
		must(s.LinkChallonge(ctx, td, "ko", "nosuch"))
		j = must(s.RequestChallongePush(ctx, td, "ko"))
		res = run(c.t)
		if len(res) != 1 || res[0].State != jobs.Failed || res[0].Attempt != 1 || !strings.Contains(res[0].Error, "404") {
			t.Fatalf("push to an unknown tournament: %+v", res)
		}
		must(s.LinkChallonge(ctx, td, "ko", "rkcc_ko"))
		must(s.RetryJob(ctx, td, "ko", j.ID))
		if res := run(c.t); len(res) != 1 || res[0].State != jobs.Done {
			t.Fatalf("retried after fixing the link: %+v", res)
		}
		audit := must(s.Audit(ctx, td, "ko", sqlstore.AuditFilter{Kind: kindChallonge}))
		var actions []string
		for _, e := range audit {
			actions = append(actions, e.Action+" "+e.Actor.Name)
		}
		if got := strings.Join(actions, ", "); got != "challonge.link arbitertd, challonge.push arbiter, challonge.push arbiter, challonge.push arbitertd, challonge.link arbitertd, challonge.link arbitertd, challonge.push arbitertd" {
			t.Fatalf("audit %s", got)
		}

		// A server without a key.
		s.SetIntegrations(IntegrationOptions{})
		must(s.RequestChallongePush(ctx, td, "ko"))
		res = run(c.t)
		if len(res) != 1 || res[0].State != jobs.Failed || !strings.Contains(res[0].Error, "no Challonge API key") {
			t.Fatalf("push without a key: %+v", res)
		}
	})
}
