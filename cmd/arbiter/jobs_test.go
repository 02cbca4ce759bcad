package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"arbiter/internal/testshared"
)

// durations are the run times in 'jobs run' lines, which vary.
var durations = regexp.MustCompile(`, \d+\.\d\d s\)`)

// TestJobsCommands: a registration made with the CLI queues the entrant's
// eligibility check (W1). 'jobs run --now' runs what is due at that time
// once and prints a line per job: with Lichess failing, the job is tried
// again 30 s, 1 min, 2 min and 4 min later (nothing runs in between) and
// is failed after 5 tries; 'jobs list' shows it by state; 'jobs retry
// --as td@local' (audited) gives it one more try, which Lichess, back,
// lets succeed.
func TestJobsCommands(t *testing.T) {
	t.Parallel()
	profile, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "user_tos.json"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	down := true
	lc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if down {
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte("<html>502 Bad Gateway</html>"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(profile)
	}))
	t.Cleanup(lc.Close)
	db := testDB(t)
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", args...)
		if code != want {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return durations.ReplaceAllString(stdout, ", T s)")
	}
	cli(0, "event", "create", "wc", "--preset", "acwc-2023", "--start", "2023-03-21T00:00Z", "--as", "td@local", "--now", "2023-03-12T08:00Z", "--db", db)
	cli(0, "event", "register", "wc", "Flagged", "--rating", "1900", "--as", "Flagged", "--role", "player", "--now", "2023-03-12T09:00Z", "--db", db)
	if got := cli(0, "jobs", "list", "--state", "pending", "--db", db); !regexp.MustCompile(`(?m)^1 +queued +0/5 +2023-03-12 09:00:00 +eligibility:wc:flagged +$`).MatchString(got) {
		t.Fatalf("pending:\n%s", got)
	}
	run := func(at string) string {
		t.Helper()
		return cli(0, "jobs", "run", "--db", db, "--lichess-url", lc.URL, "--now", at)
	}
	const failure = ": fetching the Lichess account flagged failed; try again later\n"
	// The registration also queued the rating fetch (job 2, the preset's
	// lichess.perf); the two lines come in the order the jobs end.
	got := run("2023-03-12T09:00:00Z")
	var first string
	for _, l := range strings.SplitAfter(got, "\n") {
		if strings.HasPrefix(l, "job 1 ") {
			first = l
		}
	}
	if !strings.HasPrefix(first, "job 1 eligibility:wc:flagged: queued (try 1 of 5, T s), next try at 2023-03-12T09:00:3") || !strings.HasSuffix(first, failure) ||
		!strings.Contains(got, "job 2 ratings:wc:flagged: queued (try 1 of 5, T s)") {
		t.Fatalf("first run:\n%s", got)
	}
	if got := run("2023-03-12T09:00:29Z"); got != "no job due at 2023-03-12T09:00:29Z\n" {
		t.Fatalf("before the backoff:\n%s", got)
	}
	for i, at := range []string{"2023-03-12T09:00:34Z", "2023-03-12T09:01:41Z", "2023-03-12T09:03:55Z", "2023-03-12T09:08:20Z"} {
		want := []string{"queued (try 2 of 5", "queued (try 3 of 5", "queued (try 4 of 5", "failed (try 5 of 5, T s)" + failure}[i]
		if got := run(at); !strings.Contains(got, want) {
			t.Fatalf("run at %s:\n%s\nwant %q", at, got, want)
		}
	}
	if got := run("2023-03-20T00:00:00Z"); got != "no job due at 2023-03-20T00:00:00Z\n" {
		t.Fatalf("a failed job ran again:\n%s", got)
	}
	if got := cli(0, "jobs", "list", "--state", "failed", "--db", db); !strings.Contains(got, "1   failed  5/5") || !strings.Contains(got, "fetching the Lichess account flagged failed") {
		t.Fatalf("failed:\n%s", got)
	}
	if got := cli(0, "jobs", "list", "--state", "pending", "--db", db); got != "no jobs\n" {
		t.Fatalf("pending:\n%s", got)
	}

	mu.Lock()
	down = false
	mu.Unlock()
	if got := cli(0, "jobs", "retry", "1", "--as", "td@local", "--now", "2023-03-20T00:00Z", "--db", db); !strings.HasPrefix(got, "job 1 eligibility:wc:flagged: queued, runs at ") || !strings.Contains(got, "(try 6 of 6)") {
		t.Fatalf("retry:\n%s", got)
	}
	if got := run("2023-03-20T00:00:00Z"); got != "job 1 eligibility:wc:flagged: done (try 6 of 6, T s)\n" {
		t.Fatalf("after the retry:\n%s", got)
	}
	if got := cli(1, "jobs", "retry", "1", "--db", db); got != "" {
		t.Fatalf("retrying a done job printed %q", got)
	}
	code, _, stderr := runCLI(t, "", "jobs", "retry", "1", "--db", db)
	if code != 1 || !strings.Contains(stderr, "job 1 is done: there is nothing to retry") {
		t.Fatalf("retry done: %d %s", code, stderr)
	}
	if got := cli(0, "event", "audit", "wc", "--as", "td@local", "--db", db); !strings.Contains(got, "job.retry") {
		t.Fatalf("audit:\n%s", got)
	}
	code, _, stderr = runCLI(t, "", "jobs", "list", "--state", "stuck", "--db", db)
	if code != 3 || !strings.Contains(stderr, "--state must be pending, failed, done or all") {
		t.Fatalf("bad state: %d %s", code, stderr)
	}
}
