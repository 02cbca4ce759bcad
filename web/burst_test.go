package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// TestWriteBurstOneMatch (issue 12: 120-200 concurrent writes on one
// match gave 18-71 answers of 500, "too many clients already"): 200 TD
// overrides of one match at once, through the real HTTP server, are each
// answered 200 (done), 409 (lost the race; reload) or 503 with Retry-After
// (the bounded pool is saturated; nothing done), never 500.
func TestWriteBurstOneMatch(t *testing.T) { writeBurst(t, testSQLiteDSN(t), 0) }

// TestWriteBurstOneMatchPostgres is the same on PostgreSQL (skipped
// unless $ARBITER_TEST_POSTGRES names a server), with the default pool
// bound of sqlstore.
func TestWriteBurstOneMatchPostgres(t *testing.T) {
	t.Parallel()
	writeBurst(t, storetest.PostgresDSN(t), 0)
}

func writeBurst(t *testing.T, dsn string, maxConns int) {
	db, err := sqlstore.OpenWith(context.Background(), dsn, sqlstore.Options{MaxConns: maxConns})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := newFixtureOn(t, db)
	antichessEvent(t, f)
	playRound1(t, f)
	match := openRound2(t, f)[0].ID
	token := f.signIn(t, tdActor.Name)
	ts := httptest.NewServer(f.srv)
	t.Cleanup(ts.Close)

	const n = 200
	statuses := make([]int, n)
	retry := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: n, MaxIdleConnsPerHost: n}}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := jsonRequest(t, token, "POST", ts.URL+"/api/events/atc/matches/"+match+"/override",
				map[string]any{"summary": "forfeit:home", "reason": fmt.Sprintf("burst %d", i)})
			req.RequestURI = ""
			<-start
			res, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			statuses[i], retry[i] = res.StatusCode, res.Header.Get("Retry-After")
		}()
	}
	close(start)
	wg.Wait()
	count := map[int]int{}
	for i, s := range statuses {
		count[s]++
		switch s {
		case 200, 409:
		case 503:
			if retry[i] == "" {
				t.Errorf("request %d: 503 without Retry-After", i)
			}
		default:
			t.Errorf("request %d: status %d", i, s)
		}
	}
	t.Logf("%d concurrent overrides of one match (pool bound %d): %v", n, db.MaxConns(), count)
	if count[200] == 0 {
		t.Fatal("no override succeeded")
	}
}
