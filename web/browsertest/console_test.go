package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/web"

	"github.com/chromedp/chromedp"
)

// TestConsolePagingAndSignInDelay: wrong passwords slow the sign-in form
// down with a wait it names (not a lock), and the TD's console shows a
// crowded event's entrants a page at a time, the links moving between
// the pages.
func TestConsolePagingAndSignInDelay(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	td := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	if _, err := s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "big", Name: "Big Cup", Preset: "antichess-team-cup",
		Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 70; i++ {
		c := fmt.Sprintf("cap%02d", i)
		if _, err := s.App.Register(ctx, td, "big", arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: c,
			Members: []string{c, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i)}}); err != nil {
			t.Fatal(err)
		}
	}

	b := s.tab(t, "td", "")
	b.goTo("/login?next=/events/big/td")
	for i := 1; i <= 6; i++ {
		// The fields are filled as a password manager does (setValue),
		// not key by key: 144 keys were a third of this test's CPU, and
		// typing on this form is signInTD's, which every TD test uses.
		b.setValue("#username", web.LocalTD)
		b.setValue("#password", "not-the-password")
		b.markPage()
		b.do("send the form", chromedp.Submit(chromedp.CSS("#password")))
		b.waitNewPage("the sign-in answer")
		want := "wrong account name or password"
		if i == 6 {
			want = "too many failed sign-ins; wait 1 second"
		}
		if msg, refused := b.flash(); !refused || !strings.Contains(msg, want) {
			t.Fatalf("try %d: flash %q (refused %v), want %q", i, msg, refused, want)
		}
	}
	s.clock.Set(time.Date(2025, 1, 1, 12, 0, 2, 0, time.UTC)) // the wait is over
	b.signInTD("/events/big/td")

	if got := b.text("#registrations nav.pager"); !strings.Contains(got, "entrants 1 to 50 of 70 (page 1 of 2)") {
		t.Fatalf("pager %q", got)
	}
	if n := len(b.texts(`table.td-entrants tbody tr`)); n != 50 {
		t.Fatalf("page 1 lists %d entrants, want 50", n)
	}
	b.click(`#registrations nav.pager a[rel="next"]`)
	if p := b.path(); p != "/events/big/td?entrants=2" {
		t.Fatalf("the next page is %s", p)
	}
	rows := b.texts(`table.td-entrants tbody th`)
	if len(rows) != 20 || !strings.HasPrefix(rows[0], "Team 51") || !strings.HasPrefix(rows[19], "Team 70") {
		t.Fatalf("page 2 lists %d entrants, from %q", len(rows), rows)
	}
	b.click(`#registrations nav.pager a[rel="prev"]`)
	if got := b.text("#registrations nav.pager"); !strings.Contains(got, "page 1 of 2") {
		t.Fatalf("back on page 1: pager %q", got)
	}
}
