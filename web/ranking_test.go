package web

import (
	"strings"
	"testing"

	"arbiter/app"
	"arbiter/demo"
)

// TestAPIRankingAndPodium: a finished antichess cup (a demo run to its
// end) has a final ranking: the API lists every team, the final deciding
// 1st and 2nd and the third-place match 3rd and 4th (A18's bronze
// match); the event page shows the winner and the podium.
func TestAPIRankingAndPodium(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "antichess-team-cup", Entrants: 10, Seed: 1, Slug: "ac"})
	var ps []app.Placing
	apiDo(t, f, "GET", "/api/events/ac/ranking", 200, &ps)
	if len(ps) != 10 {
		t.Fatalf("%d places, want 10", len(ps))
	}
	for i, want := range []string{"final", "final", "third_place", "third_place"} {
		if ps[i].Rank != i+1 || ps[i].DecidedBy != want || ps[i].Shared {
			t.Errorf("place %d: %+v, want decided by %s", i+1, ps[i], want)
		}
	}
	if ps[0].How != "won the final" || ps[1].How != "lost the final" || ps[2].How != "won the third-place match" {
		t.Errorf("how: %q, %q, %q", ps[0].How, ps[1].How, ps[2].How)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Entrant] || p.Entrant == "" {
			t.Errorf("entrant %q twice or empty", p.Entrant)
		}
		seen[p.Entrant] = true
	}
	wantAPIError(t, f, "GET", "/api/events/nope/ranking", 404, "not_found", "")

	res, body := f.do(t, "GET", "/events/ac")
	wantStatus(t, res, body, 200)
	checkPage(t, "/events/ac", body)
	wantContains(t, body, `<section id="podium"`, `data-test="winner">Winner: <a href="/events/ac/entrants/`+ps[0].Entrant+`">`+ps[0].Name+`</a>`,
		`<li data-rank="1"><span class="place">1st</span>`, `<li data-rank="2"><span class="place">2nd</span>`,
		`<li data-rank="3"><span class="place">3rd</span> <a href="/events/ac/entrants/`+ps[2].Entrant+`">`, "won the third-place match")
	if strings.Contains(body, `data-rank="4"`) {
		t.Error("the podium shows a 4th place")
	}
}

// TestNoPodiumWhileRunning: a running event shows no final ranking and its
// API refuses one.
func TestNoPodiumWhileRunning(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "antichess-team-cup", Entrants: 10, Seed: 1, Slug: "ac", StopAfter: "s2r1"})
	res, body := f.do(t, "GET", "/events/ac")
	wantStatus(t, res, body, 200)
	if strings.Contains(body, `id="podium"`) {
		t.Error("a running event shows a podium")
	}
	e := wantAPIError(t, f, "GET", "/api/events/ac/ranking", 422, "rule", "")
	if e.Error.Rule != "app.ranking" {
		t.Errorf("rule %q", e.Error.Rule)
	}
}

func TestOrdinal(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}
