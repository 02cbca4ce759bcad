package browsertest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arbiter"
)

// TestIndividualEvent runs an ACWC event (preset acwc-2023, W14 time
// offers) through the pages as its people would: the local TD creates it
// (registration opens at once) and runs registration from the console,
// two players register on the registration page, the TD approves, closes
// registration, pairs and publishes round 1; on the match page p01 offers
// three times and p07 accepts one; p01 reports 6-4 with the keyboard, the
// page will not let p01 confirm it, p07 confirms; a visitor's standings
// page shows the round's progress, then, once the round is closed, the
// table after round 1, without being reloaded.
func TestIndividualEvent(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()

	td := s.tab(t, "td", "")
	td.signInTD("/events/new")
	td.createEvent("wc", "ACWC 2023", "acwc-2023", "2023-03-19T12:00")

	// p01 and p07 register on the registration page; ten more players
	// register through package app (registration is not what this test
	// is about). p01's browser is in Berlin (CET, UTC+1 in March 2023),
	// p07's in UTC.
	players := map[string]*tab{"p01": s.tab(t, "p01", "Europe/Berlin"), "p07": s.tab(t, "p07", "")}
	for _, name := range []string{"p01", "p07"} {
		p := players[name]
		p.signInDemo(name, "/events/wc/register")
		p.fill("#rating", fmt.Sprint(2550-50*num(name)))
		p.click("#register-submit")
		p.wantFlash("Registered")
		if st := p.text(`[data-test="registration-status"]`); st != "pending" {
			t.Fatalf("%s's registration is %q, want pending", name, st)
		}
	}
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("p%02d", i)
		if name == "p01" || name == "p07" {
			continue
		}
		if _, err := s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: name, Rating: 2550 - 50*i}); err != nil {
			t.Fatal(err)
		}
	}
	// The TD approves all twelve from the console, one form each.
	td.approveAll("wc", 12)
	td.setValue("#initial_colour", "white")
	td.fill("#close-reason", "p01 plays white on board 1")
	td.click(`#close-registration button[type=submit]`)
	td.wantFlash("Registration closed with 12 entrants")
	td.click(`#pair-round button[type=submit]`)
	td.wantFlash("Round s1r1 paired")
	td.click(`#publish-round button[type=submit]`)
	td.wantFlash("published")

	// A visitor watches the standings: round 1 has no result yet. The
	// visitor takes the TD's tab, the TD being done (users_test.go: a
	// browser context costs Chromium about 1.5 s of CPU by its first page).
	visitor := td
	visitor.signOut()
	visitor.name = "visitor"
	visitor.goTo("/events/wc/standings")
	rows := standingsRows(visitor)
	if len(rows) != 12 || !strings.HasPrefix(rows[0], "1=|p01|0|") {
		t.Fatalf("standings before any result: %q", rows)
	}
	visitor.markPage()

	// Round 1 runs from Sunday 19 March; on Monday p01 finds the match on
	// their page.
	s.clock.Set(time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC))
	p01, p07 := players["p01"], players["p07"]
	p01.goTo("/me")
	if got := p01.texts(`#event-wc [data-test="opponent"]`); !slices.Equal(got, []string{"p07"}) {
		t.Fatalf("p01's opponents %q", got)
	}
	if got := p01.text(`#event-wc [data-test="expect"]`); got != "offer times; result to report" {
		t.Fatalf("p01 is expected to %q", got)
	}
	p01.click(`#event-wc a[data-test="my-match"]`)
	match := p01.path()
	// W14: offers are due by Friday 23:59 UTC, shown as that last minute,
	// with the reader's own time beside it.
	due := p01.text(`#offer-due`)
	if !strings.Contains(due, "Offers are due by Friday 2023-03-24 23:59 UTC") {
		t.Errorf("offer deadline %q, want Friday 23:59", due)
	}
	if local := p01.text(`#offer-due .localtime`); !strings.Contains(local, "your time") || !strings.Contains(local, "GMT+1") && !strings.Contains(local, "CET") {
		t.Errorf("the deadline in p01's time zone: %q", local)
	}
	p01.setValue("#offer-time-0", "2023-03-22T18:00")
	p01.setValue("#offer-time-1", "2023-03-23T18:00")
	p01.setValue("#offer-time-2", "2023-03-24T18:00")
	p01.click("#offer-submit")
	p01.wantFlash("offer is recorded")
	if by := p01.texts(`#offers [data-test="offer-by"]`); len(by) != 3 || by[0] != "p01 (you)" {
		t.Fatalf("offers by %q", by)
	}
	// Each offer shows UTC and, for p01 in Berlin, 19:00 local time.
	if at := p01.text(`#offers [data-test="offer-at"]`); !strings.HasPrefix(at, "Wed 22 Mar 2023 18:00 UTC") || !strings.Contains(at, "19:00") && !strings.Contains(at, "07:00") {
		t.Errorf("first offer %q, want 18:00 UTC with 19:00 local", at)
	}

	// p07 (in UTC: no local time added) accepts the second time. W14 asks
	// for a reply within 24 hours ("preferably"): the page says by when.
	p07.goTo(match)
	if p07.has(".localtime") {
		t.Error("a reader in UTC is shown a second, identical time")
	}
	if due := p07.texts(`#offers [data-test="reply-by"]`); len(due) != 3 || due[0] != "Tue 21 Mar 2023 10:00 UTC" {
		t.Errorf("reply due %q, want 24 h after the offers (Monday 10:00)", due)
	}
	if got := p07.texts(`#accept-offer label`); !slices.Equal(got, []string{"Wed 22 Mar 2023 18:00 UTC", "Thu 23 Mar 2023 18:00 UTC", "Fri 24 Mar 2023 18:00 UTC"}) {
		t.Fatalf("p07 may accept %q", got)
	}
	p07.do("choose the second time", chromedp.Click(chromedp.CSS("#accept-1")))
	p07.click("#accept-submit")
	p07.wantFlash("Agreed")
	if got := p07.text(`[data-test="scheduled"]`); got != "Thu 23 Mar 2023 18:00 UTC" {
		t.Fatalf("the match starts %q", got)
	}

	// After the game p01 reports 6-4 from the keyboard: focus the field,
	// type, Enter submits the form.
	s.clock.Set(time.Date(2023, 3, 23, 20, 0, 0, 0, time.UTC))
	p01.goTo(match)
	p01.do("focus the result field", chromedp.Focus(chromedp.CSS("#report-summary")))
	p01.markPage()
	p01.do("type the result and Enter", chromedp.KeyEvent("6-4\r"))
	p01.waitNewPage("the page after the report")
	p01.wantFlash("reported")
	if !p01.has("#own-report") || p01.has("#confirm-result") {
		t.Fatal("the reporter is not told that the opponent confirms, or is offered the confirm form")
	}
	if st := standingsRows(visitor); !strings.HasPrefix(st[0], "1=|p01|0|") {
		t.Fatalf("a reported, unconfirmed result counts: %q", st)
	}

	// p07 confirms; the match is final.
	p07.goTo(match)
	if got := p07.text(`#reports [data-test="report-score"]`); got != "6 – 4" {
		t.Errorf("the report shows %q", got)
	}
	p07.click("#confirm-submit")
	p07.wantFlash("confirmed")
	if got := p07.text(`[data-test="match-state"]`); got != "final (confirmed)" {
		t.Fatalf("match state %q", got)
	}

	// The visitor's standings page shows the round's progress without a
	// reload; the table counts the result once the round is completed.
	visitor.waitJS("the round's progress to count the result", `document.getElementById("round-progress").textContent.includes("1 of 6 results are final")`)
	if rows = standingsRows(visitor); !strings.HasPrefix(rows[0], "1=|p01|0|") {
		t.Fatalf("the result counts before the round is completed: %q", rows)
	}
	s.clock.Set(time.Date(2023, 3, 28, 0, 0, 0, 0, time.UTC))
	if _, err := s.App.CloseRound(ctx, arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}, "wc"); err != nil {
		t.Fatal(err)
	}
	visitor.waitJS("the standings to count the result", `document.querySelector("table.standings tbody tr").cells[2].textContent.trim() === "1"`)
	rows = standingsRows(visitor)
	// W14: the five other matches had no offers: draws, half a point each.
	if !strings.HasPrefix(rows[0], "1|p01|1|") || !slices.ContainsFunc(rows, func(r string) bool { return strings.Contains(r, "|p07|0|") }) ||
		!slices.ContainsFunc(rows, func(r string) bool { return strings.Contains(r, "|p02|0.5|") }) {
		t.Fatalf("standings after the result: %q", rows)
	}
	if got := visitor.text("#standings-after"); !strings.HasPrefix(got, "After round 1 of 5.") {
		t.Errorf("the table says %q", got)
	}
	if !visitor.stillSamePage() {
		t.Fatal("the standings page was reloaded rather than updated in place")
	}
	visitor.waitJS("the update to be announced", `document.querySelector("[role=status][aria-live=polite]").textContent === "Page updated."`)
}

// standingsRows are the rows of the first standings table.
func standingsRows(b *tab) []string {
	b.t.Helper()
	return b.rows("table.standings")
}

// createEvent fills and sends the new-event form (the TD is on
// /events/new) and checks that it leads to the new event's console with
// registration open.
func (b *tab) createEvent(slug, name, preset, start string) {
	b.t.Helper()
	b.fill("#slug", slug)
	b.fill("#name", name)
	b.setValue("#preset", preset)
	b.setValue("#start", start)
	b.click("#create-event")
	b.wantFlash("Created " + name)
	if p := b.path(); p != "/events/"+slug+"/td" {
		b.t.Fatalf("after creating the event the TD is at %s", p)
	}
	if !strings.Contains(b.text("main"), "registration") || !b.has("#close-registration") {
		b.t.Fatalf("the new event's console does not show registration open%s", b.where())
	}
}

// approveAll approves every pending entrant from the console, one form
// at a time as the page offers them, and checks that n are approved.
func (b *tab) approveAll(slug string, n int) {
	b.t.Helper()
	b.goTo("/events/" + slug + "/td")
	for i := 0; i < n; i++ {
		sel := eval[string](b, `(() => { const f = document.querySelector('form[id^="decide-"]'); return f ? "#" + f.id : ""; })()`)
		if sel == "" {
			break
		}
		b.click(sel + ` button[value="approve"]`)
		b.wantFlash("Approved")
	}
	if st := b.texts(`[data-test="entrant-status"]`); len(st) != n || slices.ContainsFunc(st, func(s string) bool { return s != "approved" }) {
		b.t.Fatalf("entrant statuses %q, want %d approved", st, n)
	}
}

// num is the number in a fixture name such as "p07".
func num(name string) int {
	var n int
	fmt.Sscanf(strings.TrimLeft(name, "abcdefghijklmnopqrstuvwxyz"), "%d", &n)
	return n
}
