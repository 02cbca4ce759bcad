package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"arbiter/demo"
)

// TestPoolsPage stops the ACWC after two rounds of the candidates: W8's
// two pools of six, each with its standings and three matches a round.
func TestPoolsPage(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "acwc-2023", Entrants: 13, Seed: 1, Slug: "wc", StopAfter: "s2r2"})
	ctx := context.Background()
	ev, err := f.app.Event(ctx, "wc")
	if err != nil {
		t.Fatal(err)
	}
	body := getPage(t, f, "/events/wc/pools")
	wantContains(t, body, "<h1>Pools: ", "Stage 2: candidates", "<h3 id=\"pool-upper\">Pool upper</h3>", "<h3 id=\"pool-lower\">Pool lower</h3>",
		`<a href="/events/wc/pools" aria-current="page">Pools</a>`, `<a href="/events/wc/bracket">Bracket</a>`)
	for _, pool := range ev.Stages[1].Pools {
		tab, err := f.app.PoolStandings(ctx, "wc", 1, pool.Name)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(body, `data-test="pool-`+pool.Name+`"`)
		rows := rowsOf(body[i-30:], "standings")
		if len(rows) != 6 || len(tab.Rows) != 6 {
			t.Fatalf("pool %s: %d rows, want 6", pool.Name, len(rows))
		}
		for j, r := range tab.Rows {
			want := fmt.Sprintf("%d%s|%s|%s|", r.Rank, map[bool]string{true: "="}[r.Shared], nameOf(t, f, "wc", r.ID), r.Score)
			if !strings.HasPrefix(rows[j], want) {
				t.Errorf("pool %s row %d %q, want %q…", pool.Name, j, rows[j], want)
			}
		}
		// Two rounds of a six-player round robin: 3 matches each.
		ms := rowsOf(body[i:], "pairings")
		if len(ms) != 6 || !strings.HasPrefix(ms[0], "1|") || !strings.HasPrefix(ms[5], "2|") {
			t.Errorf("pool %s matches %q", pool.Name, ms)
		}
	}
	// The candidates' crosstable is one table per pool.
	body = getPage(t, f, "/events/wc/crosstable")
	wantContains(t, body, "<caption>Pool upper</caption>", "<caption>Pool lower</caption>", `<a href="?stage=2" aria-current="page">candidates</a>`)
	// The knockout has not started.
	body = getPage(t, f, "/events/wc/bracket")
	wantContains(t, body, "The knockout has not started")
	body = getPage(t, f, "/events/wc/pools?stage=1")
	wantContains(t, body, "Stage qualification is a swiss, not a pool stage.")

	var out struct {
		Stage int        `json:"stage"`
		Pools []poolView `json:"pools"`
	}
	apiDo(t, f, "GET", "/api/events/wc/pools", 200, &out)
	if out.Stage != 2 || len(out.Pools) != 2 || out.Pools[0].Name != "upper" || len(out.Pools[0].Rows) != 6 || len(out.Pools[1].Matches) != 6 {
		t.Errorf("API pools %+v", out)
	}
	// A player's page: Lichess profile, and every match (all rounds so
	// far are closed, so all are public), the pool's with its name.
	id := out.Pools[0].Rows[0].ID
	all, err := f.app.Matches(ctx, "wc", "")
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	for _, m := range all {
		if m.Home == id || m.Away == id {
			mine = append(mine, m.ID)
		}
	}
	body = getPage(t, f, "/events/wc/entrants/"+id)
	wantContains(t, body, `<a href="https://lichess.org/@/`+id+`" rel="noopener">`, "· player</p>", "(pool upper)")
	rows := rowsOf(body, "entrant-matches")
	if len(rows) != len(mine) || len(mine) < 3 {
		t.Fatalf("%s: %d match rows, want %d", id, len(rows), len(mine))
	}
	for i, r := range rows {
		if c := strings.Split(r, "|"); c[6] != mine[i] || (c[2] != "white" && c[2] != "black" && c[1] != "bye") {
			t.Errorf("%s row %q, want match %s", id, r, mine[i])
		}
	}
	// The round page of a pool round names each match's pool.
	body = getPage(t, f, "/events/wc/rounds/s2r1")
	if rows := rowsOf(body, "pairings"); len(rows) != 6 || strings.Split(rows[0], "|")[1] != "upper" || strings.Split(rows[5], "|")[1] != "lower" {
		t.Errorf("pool round rows %q", rows)
	}
}

// TestScheduledTimesShown: the antichess cup's players agree start times
// board by board (A5): the round page shows each board's in UTC with a
// datetime for local time, and so does the match page.
func TestScheduledTimesShown(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "antichess-team-cup", Entrants: 10, Seed: 1, Slug: "ac", StopAfter: "s1r1"})
	ms, err := f.app.Matches(context.Background(), "ac", "s1r1")
	if err != nil {
		t.Fatal(err)
	}
	body := getPage(t, f, "/events/ac/rounds/s1r1")
	n := 0
	for _, m := range ms {
		for i, at := range m.BoardTimes {
			if at.IsZero() {
				continue
			}
			n++
			at = at.UTC()
			wantContains(t, body, fmt.Sprintf(`<li>board %d: <time datetime="%s" data-local>%s UTC</time></li>`, i+1, at.Format("2006-01-02T15:04:05Z"), at.Format("Mon 2 Jan 2006 15:04")))
			match := getPage(t, f, "/events/ac/matches/"+m.ID)
			wantContains(t, match, fmt.Sprintf(`<section class="board-negotiation" id="board-%d-time"`, i+1), `data-test="board-time">Agreed start <time datetime="`+at.Format("2006-01-02T15:04:05Z")+`"`)
		}
	}
	if n == 0 {
		t.Fatal("no match with an agreed time in the demo's round 1")
	}
}
