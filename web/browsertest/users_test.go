package browsertest

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A new browser context costs Chromium a renderer process, started by
// its first page: about 1.5 s of CPU with that page, measured, against
// 0.2 to 0.5 s for a later page load. A test whose people
// act one after the other, none of them watching a page while another
// acts, lets them take turns in one tab: signOut, then the next one signs
// in (or stays a visitor). Separate tabs stay where two people's pages
// must be open at once (a live update, a second reader).

// signOut signs the tab's user out with the header's "Sign out" button
// and checks that the site says so and shows "Sign in" again: the tab is
// a visitor's from here on.
func (b *tab) signOut() {
	b.t.Helper()
	b.click(`header.site .account form[action="/logout"] button[type=submit]`)
	b.wantFlash("You are signed out.")
	if got := b.text("header.site .account"); got != "Sign in" || b.path() != "/" {
		b.t.Fatalf("%s: after signing out the header reads %q at %s%s", b.name, got, b.path(), b.where())
	}
}

// as is the tab as seen by a subtest: its failures are the subtest's.
func (b *tab) as(t *testing.T, name string) *tab {
	c := *b
	c.t, c.name = t, name
	return &c
}

// setTimeZone emulates another time zone (an IANA name) in the tab, as
// site.tab does for a new one: the next person to use it lives there.
// Chromium refuses a second override while one is in effect, so the
// first is lifted ("" restores the host's zone) before the new one.
func (b *tab) setTimeZone(tz string) {
	b.t.Helper()
	b.do("time zone "+tz, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, id := range []string{"", tz} {
			if _, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: id}); err != nil {
				return err
			}
		}
		return nil
	}))
	if got := eval[string](b, `Intl.DateTimeFormat().resolvedOptions().timeZone`); !strings.EqualFold(got, tz) {
		b.t.Fatalf("%s: the time zone is %q, want %q", b.name, got, tz)
	}
}
