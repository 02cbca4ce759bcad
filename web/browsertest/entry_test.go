package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arbiter"
	"arbiter/app"
)

// TestResultGridAntichess: the captain of Team 01 enters the whole
// antichess cup sheet (4 boards × 3 parts × 18 games, A17) through the
// grid from the keyboard, each result moving to the next cell; the
// running totals and the clinch show while typing (A18: boards 1 and 2
// won 144-0, boards 3 and 4 drawn 72-72; 289 of 576 is reached at board
// 3's first game). Team 06's captain disputes it; the TD's console
// opens on the disputed result with a link to the match, whose override
// form starts from the report; after the deadline the console says the
// round is to close, and closing it moves the standings.
func TestResultGridAntichess(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	tdA := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, tdA, app.NewEvent{Slug: "atc", Name: "Antichess Cup", Preset: "antichess-team-cup", Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 10; i++ {
		n := fmt.Sprintf("%02d", i)
		e, err := s.App.Register(ctx, tdA, "atc", arbiter.Entrant{Name: "Team " + n, Captain: "cap" + n, Rating: 2300 - i,
			Members: []string{"cap" + n, "a" + n, "b" + n, "c" + n}})
		noErr(t, err)
		_, err = s.App.Approve(ctx, tdA, "atc", e.ID, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistration(ctx, tdA, "atc")
	noErr(t, err)
	_, ms, err := s.App.PairRound(ctx, tdA, "atc")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, tdA, "atc")
	noErr(t, err)
	s.clock.Set(time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC))
	m := ms[0]
	if m.Home != "team-01" || m.Away != "team-06" {
		t.Fatalf("board 1 is %s-%s", m.Home, m.Away)
	}
	// The other four matches are double forfeits, reported and confirmed.
	for _, o := range ms[1:] {
		capt := func(team string) arbiter.Actor {
			return arbiter.Actor{Name: "cap" + strings.TrimPrefix(team, "team-"), Role: arbiter.RoleCaptain}
		}
		_, err := s.App.ReportResult(ctx, capt(o.Home), "atc", o.ID, app.ResultInput{Summary: "forfeit:double"})
		noErr(t, err)
		_, err = s.App.ConfirmResult(ctx, capt(o.Away), "atc", o.ID, 0)
		noErr(t, err)
	}
	page := "/events/atc/matches/" + m.ID

	// The visitor who reads the standings before and after is cap06's
	// tab before cap06 signs in and after cap06 signs out (a browser
	// context costs about 1.2 s of Chromium's CPU).
	away := s.tab(t, "visitor", "")
	away.goTo("/events/atc/standings")
	before := standingsRows(away)

	home := s.tab(t, "cap01", "")
	home.signInDemo("cap01", page)
	home.waitJS("the form's first check", `document.getElementById("entry-status").textContent.includes("Still to enter")`)
	if got := home.text("#entry-status"); !strings.HasPrefix(got, "0 – 0; 289 points decide the match. Still to enter: 0 of 8 games of part 0+2") || !strings.HasSuffix(got, "(A17)") {
		t.Fatalf("status before typing %q", got)
	}
	home.do("focus board 1's first game", chromedp.Focus(chromedp.CSS("#result-entry-r-1-0-0")))
	keys(home, strings.Repeat("1", 36))
	home.waitJS("the running totals of boards 1 and 2", `document.getElementById("tot-2").textContent === "144 – 0"`)
	if got := eval[string](home, `document.activeElement.name`); got != "r-3-0-0" {
		t.Fatalf("after 36 results the focus is on %q, want board 3's first game", got)
	}
	if got := home.text("#entry-status"); !strings.HasPrefix(got, "288 – 0; 289 points decide the match. Still to enter: 0 of 8 games of part 0+2") || !strings.HasSuffix(got, "(A17)") {
		t.Fatalf("status after boards 1 and 2 %q", got)
	}
	keys(home, strings.Repeat("=", 36))
	home.waitJS("the sheet to be complete", `document.getElementById("entry-status").textContent.includes("Ready to send")`)
	if got := home.text("#entry-status"); !strings.HasPrefix(got, "432 – 144: the match is decided (289 points reached).") {
		t.Fatalf("status of the full sheet %q", got)
	}
	if got := eval[string](home, `document.querySelector("input.entry-cell.decided").name`); got != "r-3-0-0" {
		t.Fatalf("the clinch is marked at %q, want board 3's first game", got)
	}
	if got := home.text("#tot-1-2"); got != "48 – 0" {
		t.Errorf("board 1's 1+2 part shows %q, want 48 – 0 (6 games × 8, A18)", got)
	}
	home.markPage()
	home.do("Enter sends the form", chromedp.KeyEvent("\r"))
	home.waitNewPage("the page after the report")
	home.wantFlash("Result reported")

	away.name = "cap06"
	away.signInDemo("cap06", page)
	away.fill("#dispute-reason", "board 4 was ours")
	away.click("#dispute-submit")
	away.wantFlash("disputed")

	// The TD takes cap01's tab, cap01 being done: a browser context less
	// (users_test.go).
	td := home
	td.signOut()
	td.name = "td"
	td.signInTD("/events/atc/td")
	if got := td.text(`#now [data-kind="disputed"]`); got != "1 result is disputed: decide" {
		t.Fatalf("the console opens on %q%s", got, td.where())
	}
	td.click(`#now [data-kind="disputed"] a`)
	if p := td.path(); p != "/events/atc/td/matches/"+m.ID {
		t.Fatalf("the link leads to %s", p)
	}
	if got := td.text("#override-entry-source"); got != "Filled in from the current report." {
		t.Fatalf("the override form says %q", got)
	}
	td.fill("#override-entry-reason", "the games on Lichess agree with the report")
	td.click("#override-entry-submit")
	td.wantFlash("Result of " + m.ID + " set to")

	s.clock.Set(time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)) // A4: Monday 13 January 23:59 has passed
	td.goTo("/events/atc/td")
	if got := td.text(`#now [data-kind="deadline_passed"]`); got != "Round s1r1's deadline passed Monday 2025-01-13 23:59 UTC: close it" {
		t.Fatalf("after the deadline the console opens on %q%s", got, td.where())
	}
	td.click(`#close-round button[type=submit]`)
	td.wantFlash("Round s1r1 closed")

	visitor := away
	visitor.signOut()
	visitor.name = "visitor"
	visitor.goTo("/events/atc/standings")
	after := standingsRows(visitor)
	if len(after) == 0 || !strings.Contains(after[0], "Team 01") || strings.Join(after, "\n") == strings.Join(before, "\n") {
		t.Fatalf("standings before %q, after %q", before, after)
	}
	if !strings.Contains(after[0], "|1|") || !strings.Contains(after[0], "432") {
		t.Errorf("Team 01's row %q, want 1 match point and 432 points", after[0])
	}
}

// TestResultGridEarlyEnd: in the ACWC a match ends once decided (W4:
// more than 5 of 10). p01's grid takes six wins, marks the clinch, and a
// seventh game typed is refused next to its cell citing W4; Backspace
// takes it back and Enter reports 6-0.
func TestResultGridEarlyEnd(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	tdA := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, tdA, app.NewEvent{Slug: "wc", Name: "ACWC", Preset: "acwc-2023", Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("p%02d", i)
		e, err := s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: name, Rating: 2550 - 50*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, tdA, "wc", e.ID, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistrationWith(ctx, tdA, "wc", app.CloseOptions{InitialColour: "white", Reason: "lot"})
	noErr(t, err)
	_, ms, err := s.App.PairRound(ctx, tdA, "wc")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, tdA, "wc")
	noErr(t, err)
	s.clock.Set(time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC))
	m := ms[0]
	page := "/events/wc/matches/" + m.ID

	p := s.tab(t, m.Home, "")
	p.signInDemo(m.Home, page)
	p.do("focus game 1", chromedp.Focus(chromedp.CSS("#result-entry-r-0-0-0")))
	keys(p, "111111")
	p.waitJS("the clinch", `!!document.querySelector('input.entry-cell.decided[name="r-0-0-5"]')`)
	p.do("a seventh game", chromedp.KeyEvent("0"))
	p.waitJS("the refusal", `!document.getElementById("err-0-0").hidden`)
	if got := p.text("#err-0-0"); !strings.Contains(got, "game played after the match was decided") || !strings.HasSuffix(got, "(W4)") {
		t.Fatalf("the refusal next to the games reads %q", got)
	}
	if got := eval[string](p, `document.querySelector('[aria-invalid="true"]').name`); got != "r-0-0-6" {
		t.Fatalf("the cell marked wrong is %q, want game 7", got)
	}
	p.do("take game 7 back", chromedp.KeyEvent("\b\b"))
	p.waitJS("the refusal to go", `document.getElementById("err-0-0").hidden && document.getElementById("entry-status").textContent.includes("Ready to send")`)
	p.markPage()
	p.do("Enter sends the form", chromedp.KeyEvent("\r"))
	p.waitNewPage("the page after the report")
	p.wantFlash("Result reported")
	if got := p.text(`[data-test="score"]`); !strings.HasPrefix(got, "6 – 0") {
		t.Fatalf("the match shows %q", got)
	}
}

// keys types s into the focused field a key at a time, each key its own
// step (a loaded machine is slow to answer 36 keys at once).
func keys(b *tab, s string) {
	b.t.Helper()
	for _, k := range s {
		b.do("type "+string(k), chromedp.KeyEvent(string(k)))
	}
}
