package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/challonge/challongetest"
	"arbiter/webhook"
)

// TestEventWebhooks: 'event webhooks' adds a webhook (printing its
// secret once), lists it and its deliveries; publishing a round queues a
// delivery that 'jobs run' sends; without --webhooks-allow-private a
// receiver on this machine is refused (failed at once, nothing sent); a
// redelivery with the flag reaches it, signed with the printed secret.
func TestEventWebhooks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got [][2]string // signature, body
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, [2]string{r.Header.Get(webhook.SignatureHeader), string(b)})
		mu.Unlock()
	}))
	t.Cleanup(rcv.Close)
	db := testDB(t)
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(args, "--db", db)...)
		if code != want {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return stdout + stderr
	}
	cli(0, "demo", "acwc-2023", "--entrants", "12", "--stop-after", "s1r1", "--slug", "wc")
	td := []string{"--as", "demo-td"}
	out := cli(0, append([]string{"event", "webhooks", "wc", "add", rcv.URL + "/hook", "--events", "round.published,round.closed", "--allow-private",
		"--base-url", "https://arbiter.example"}, td...)...)
	m := regexp.MustCompile(`(?s)^added webhook (w[0-9a-f]+) to http://127.0.0.1:\d+/hook for round.published, round.closed\nsigning secret \(shown only now\): (whsec_\S+)\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("add:\n%s", out)
	}
	id, secret := m[1], m[2]
	if out := cli(3, append([]string{"event", "webhooks", "wc", "add", "ftp://bot.example.org/x"}, td...)...); !strings.Contains(out, "URL: a webhook's URL starts with https:// or http://") {
		t.Fatalf("a bad URL:\n%s", out)
	}
	if out := cli(3, append([]string{"event", "webhooks", "wc", "add", rcv.URL}, td...)...); !strings.Contains(out, "127.0.0.1 is not a public address") {
		t.Fatalf("a private URL without --allow-private:\n%s", out)
	}
	if out := cli(1, "event", "webhooks", "wc", "list", "--as", "someone", "--role", "player"); !strings.Contains(out, "see the webhooks") {
		t.Fatalf("a player's list:\n%s", out)
	}
	if out := cli(0, append([]string{"event", "webhooks", "wc", "list"}, td...)...); !strings.Contains(out, id+"  "+rcv.URL+"/hook  round.published,round.closed  active") {
		t.Fatalf("list:\n%s", out)
	}
	cli(0, append([]string{"event", "pair", "wc"}, td...)...)
	cli(0, append([]string{"event", "publish", "wc"}, td...)...)
	out = cli(0, append([]string{"event", "webhooks", "wc", "deliveries"}, td...)...)
	dm := regexp.MustCompile(`(?m)^(wd[0-9a-f]+) +round.published +127.0.0.1:\d+ +queued +0 *$`).FindStringSubmatch(out)
	if dm == nil {
		t.Fatalf("deliveries:\n%s", out)
	}
	if out := cli(0, "jobs", "run"); !strings.Contains(out, "webhook:wc:"+dm[1]+":0: failed (try 1 of 8") || !strings.Contains(out, "is not a public address") {
		t.Fatalf("jobs run without --webhooks-allow-private:\n%s", out)
	}
	cli(0, append([]string{"event", "webhooks", "wc", "redeliver", dm[1]}, td...)...)
	if out := cli(0, "jobs", "run", "--webhooks-allow-private"); !strings.Contains(out, "webhook:wc:"+dm[1]+":1: done (try 1 of 8") {
		t.Fatalf("jobs run --webhooks-allow-private:\n%s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0][1], `"type":"round.published"`) || !strings.Contains(got[0][1], `"url":"https://arbiter.example/events/wc"`) {
		t.Fatalf("received %q", got)
	}
	if err := webhook.Verify(secret, got[0][0], []byte(got[0][1]), time.Now(), 0); err != nil {
		t.Fatalf("the printed secret does not verify the delivery: %v", err)
	}
	if out := cli(0, append([]string{"event", "webhooks", "wc", "deliveries"}, td...)...); !regexp.MustCompile(`(?m)^` + dm[1] + ` +round.published +127.0.0.1:\d+ +delivered +2 +HTTP 200 *$`).MatchString(out) {
		t.Fatalf("deliveries after:\n%s", out)
	}
	if out := cli(0, append([]string{"event", "webhooks", "wc", "remove", id}, td...)...); out != "removed webhook "+id+" to "+rcv.URL+"/hook\n" {
		t.Fatalf("remove:\n%s", out)
	}
	if out := cli(0, append([]string{"event", "webhooks", "wc", "list"}, td...)...); out != "no webhooks\n" {
		t.Fatalf("list after remove:\n%s", out)
	}
}

// TestEventChallongePush: 'event challonge-push' links the RKCC demo's
// knockout to a (fake) Challonge tournament and pushes it at once with
// the key from --challonge-key-file; with --queue the push is a job that
// 'jobs run' does with its own --challonge-key-file.
func TestEventChallongePush(t *testing.T) {
	t.Setenv("CHALLONGE_API_KEY", "") // no key but the file's
	fake := challongetest.New(t, "the-key")
	fake.AddTournament("rkcc", "RKCC", false)
	dir := t.TempDir()
	db, keyFile := testDB(t), filepath.Join(dir, "challonge.key")
	if err := os.WriteFile(keyFile, []byte("the-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(args, "--db", db)...)
		if code != want {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return durations.ReplaceAllString(stdout+stderr, ", T s)")
	}
	cli(0, "demo", "rkcc-team-three-tc", "--entrants", "8", "--seed", "3", "--slug", "rk")
	td := []string{"--as", "demo-td", "--challonge-url", fake.URL}
	if out := cli(3, append([]string{"event", "challonge-push", "rk", "--tournament", "https://example.org/rkcc"}, td...)...); !strings.Contains(out, "--tournament: example.org is not a Challonge address") {
		t.Fatalf("a bad tournament:\n%s", out)
	}
	if out := cli(3, append([]string{"event", "challonge-push", "rk", "--tournament", "https://challonge.com/rkcc"}, td...)...); !strings.Contains(out, "no Challonge API key") {
		t.Fatalf("without a key:\n%s", out)
	}
	out := cli(0, append([]string{"event", "challonge-push", "rk", "--challonge-key-file", keyFile}, td...)...)
	if out != "pushed to Challonge: 4 participants added, tournament started, 3 results sent, 0 results already there\n" {
		t.Fatalf("push:\n%s", out)
	}
	out = cli(0, "event", "challonge-push", "rk", "--queue", "--as", "demo-td")
	jm := regexp.MustCompile(`^job (\d+) challonge:rk: queued\n$`).FindStringSubmatch(out)
	if jm == nil {
		t.Fatalf("--queue:\n%s", out)
	}
	if out := cli(0, "jobs", "run", "--challonge-key-file", keyFile, "--challonge-url", fake.URL); out != "job "+jm[1]+" challonge:rk: done (try 1 of 6, T s)\n" {
		t.Fatalf("jobs run:\n%s", out)
	}
	if out := cli(0, "event", "audit", "rk", "--as", "demo-td"); strings.Count(out, "challonge.push") != 2 {
		t.Fatalf("audit:\n%s", out)
	}
}
