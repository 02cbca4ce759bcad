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

// layoutProblems lists what does not fit the window: the page scrolling
// sideways, any element sticking out of it (only the content of a
// .table-wrap or of the event's page navigation, which scroll in their
// own box, may), and table captions
// whose text runs past the right edge of their scroll box, where it is
// cut off until the reader scrolls the table.
const layoutProblems = `(() => {
	const vw = document.documentElement.clientWidth, out = [];
	const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "");
	if (document.documentElement.scrollWidth > vw) {
		out.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " px wide in " + vw);
	}
	for (const e of document.body.querySelectorAll("*")) {
		const wrap = e.parentElement && e.parentElement.closest(".table-wrap, .bracket-wrap, pre, .event-nav");
		if (wrap || e.closest(".visually-hidden, .skip")) continue;
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) continue;
		if (r.right > vw + 0.5 || r.left < -0.5) out.push(name(e) + " spans " + Math.round(r.left) + ".." + Math.round(r.right) + " px");
	}
	for (const c of document.querySelectorAll(".table-wrap caption")) {
		const box = c.closest(".table-wrap").getBoundingClientRect();
		const range = document.createRange();
		range.selectNodeContents(c);
		const r = range.getBoundingClientRect();
		if (r.right > box.right + 0.5) out.push("caption '" + c.textContent.trim() + "' ends at " + Math.round(r.right) + " px, its box at " + Math.round(box.right));
	}
	for (const e of document.querySelectorAll('input[type="datetime-local"]')) {
		const c = e.cloneNode();
		c.style.width = "auto";
		c.style.maxWidth = "none";
		e.after(c);
		const natural = c.offsetWidth, room = e.parentElement.clientWidth;
		c.remove();
		if (e.offsetWidth < Math.min(natural, room) - 0.5) out.push(name(e) + " is " + e.offsetWidth + " px wide, its date and time need " + natural);
	}
	return out;
})()`

// TestPhoneWidth opens the pages of each kind of user in a 375 px wide
// window (a small phone): nothing may stick out of the window, the page
// never scrolls sideways (wide tables scroll inside their own box), table
// captions stay readable without scrolling the table, and date-time
// fields show their whole value (the TD pages also at 1280 px). First a
// keyboard user goes through the standings (keyboardOnPhone, once its
// own test: it shares this site and tab rather than pay for another).
// The visitor, p01 and the TD take turns in one tab (users_test.go): a
// browser context is about 1.2 s of Chromium's CPU, a sign-out 0.2 s.
func TestPhoneWidth(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	match := seedACWC(t, s)
	ctx := context.Background()
	_, err := s.App.CreateEvent(ctx, arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}, app.NewEvent{Slug: "open", Name: "Open registration", Preset: "antichess-team-cup",
		Start: time.Date(2023, 4, 3, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)

	b := s.tab(t, "visitor", "")
	t.Run("keyboard", func(t *testing.T) { keyboardOnPhone(t, b.as(t, "visitor")) })

	check := func(b *tab, width int64, pages ...string) {
		t.Helper()
		if width < 600 {
			b.do("phone window", chromedp.EmulateViewport(width, 740, chromedp.EmulateMobile))
		} else {
			b.do("desktop window", chromedp.EmulateViewport(width, 900))
		}
		for _, p := range pages {
			b.goTo(p)
			if probs := eval[[]string](b, layoutProblems); len(probs) > 0 {
				t.Errorf("%s at %d px:\n  %s", p, width, strings.Join(probs, "\n  "))
			}
		}
	}
	check(b, 375, "/", "/formats", "/formats/acwc-2023?entrants=40", "/formats/antichess-team-cup?entrants=12", "/login",
		"/events/wc", "/events/wc/standings", "/events/wc/rounds/s1r1", "/events/wc/entrants", "/events/wc/crosstable", match)

	b.name = "p01"
	b.setTimeZone("Europe/Berlin")
	b.signInDemo("p01", "/me")
	check(b, 375, "/me", match, "/events/open/register")
	b.signOut()

	b.name = "td"
	b.setTimeZone("UTC")
	b.signInTD("/events/new")
	tdPages := []string{"/events/new", "/events/wc/td", "/events/wc/td/matches/" + match[strings.LastIndex(match, "/")+1:], "/events/wc/td/audit",
		"/events/wc/td/sanctions", "/events/wc/td/appeals", "/events/open/td"}
	check(b, 1280, tdPages...)
	check(b, 375, tdPages...)
}

// seedACWC creates the ACWC event "wc" through package app (registration
// is not what the tests using it are about): twelve players p01..p12,
// approved, registration closed, round 1 paired and published, the clock
// on its Monday. It returns the path of board 1's match page (p01-p07).
func seedACWC(t *testing.T, s *site) string {
	t.Helper()
	ctx := context.Background()
	td := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "wc", Name: "ACWC 2023", Preset: "acwc-2023", Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("p%02d", i)
		_, err = s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: name, Rating: 2550 - 50*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, td, "wc", name, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistration(ctx, td, "wc")
	noErr(t, err)
	_, ms, err := s.App.PairRound(ctx, td, "wc")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, td, "wc")
	noErr(t, err)
	s.clock.Set(time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC))
	return "/events/wc/matches/" + ms[0].ID
}
