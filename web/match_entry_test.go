package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// TestResultEntryForm: the antichess cup's match page offers its captain
// the grid (4 boards × 3 parts, A17), the check answers the running
// totals and the problem at its cell with the clause, and a form sent
// with a gap comes back on the page (422) with what was typed and the
// refusal next to the cell; sent complete, it is the report.
func TestResultEntryForm(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	antichessEvent(t, f)
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "atc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	f.now = time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	m := ms[0]
	page := "/events/atc/matches/" + m.ID
	home := f.signIn(t, captainOf(m.Home))

	_, body := f.as(t, home, "GET", page, nil)
	wantContains(t, body, `<form id="result-entry" class="entry" method="post" action="`+page+`/report" data-check="`+page+`/check"`,
		`name="r-1-0-0"`, `name="r-4-2-5"`, `name="forfeit-4"`, "289 points of 576 decide the match.")
	if strings.Contains(body, `name="r-1-0-8"`) || strings.Contains(body, `name="r-5-0-0"`) {
		t.Fatal("the grid has cells beyond 8 games of 0+2 or 4 boards")
	}

	// Three games of board 1 typed: 15-3 so far (A18: 6 a win, 3 a draw),
	// the next cell still to enter (A17).
	form := url.Values{"r-1-0-0": {"1"}, "r-1-0-1": {"1"}, "r-1-0-2": {"="}, "r-1-0-3": {""}}
	res, body := f.as(t, home, "POST", page+"/check", form)
	wantStatus(t, res, body, http.StatusOK)
	var chk entryCheckJSON
	if err := json.Unmarshal([]byte(body), &chk); err != nil {
		t.Fatal(err)
	}
	if chk.Home != "15" || chk.Away != "3" || chk.Totals["tot-1-0"] != "15 – 3" || chk.Totals["tot-1"] != "15 – 3" ||
		chk.Problem == nil || !chk.Problem.Incomplete || chk.Problem.Cell != "r-1-0-3" || chk.Problem.Clause != "A17" {
		t.Fatalf("check %+v %+v", chk, chk.Problem)
	}

	// Sent with game 5 but not game 4: the page comes back with the cells
	// as typed and the refusal next to game 4.
	form.Set("entry", "1")
	form.Set("r-1-0-4", "0")
	res, body = f.as(t, home, "POST", page+"/report", form)
	wantStatus(t, res, body, http.StatusUnprocessableEntity)
	wantContains(t, body, `id="result-entry-r-1-0-2" name="r-1-0-2" value="="`, `id="result-entry-r-1-0-4" name="r-1-0-4" value="0"`,
		`id="result-entry-r-1-0-3" name="r-1-0-3" value="" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="2" size="2" aria-invalid="true" aria-describedby="err-1-0"`,
		`<p class="entry-error" id="err-1-0" role="alert">game 4 of 0&#43;2 is empty but a later game has a result`)
	if reps, _ := f.app.Reports(ctx, arbiter.NamedUser(tdActor.Name), "atc", m.ID); len(reps) != 0 {
		t.Fatalf("a refused form stored %d reports", len(reps))
	}

	// Every game won by home on boards 1 and 2, drawn on 3 and 4:
	// 2 × 144 + 2 × 72 = 432 to 144.
	full := url.Values{"entry": {"1"}}
	for b := 1; b <= 4; b++ {
		for p, n := range []int{8, 4, 6} {
			for g := range n {
				v := "1"
				if b > 2 {
					v = "="
				}
				full.Set(app.Cell(b, p, g), v)
			}
		}
	}
	f.submit(t, home, page+"/report", full).wantOK(t, "Result reported")
	got := f.match(t, "atc", m.ID)
	if got.Status != arbiter.MatchReported || got.Result.Home.Points != arbiter.P(432) || got.Result.Away.Points != arbiter.P(144) {
		t.Fatalf("reported %s %+v", got.Status, got.Result)
	}
}
