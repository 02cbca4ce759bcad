package browsertest

import (
	"context"
	"sync"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// Tabs are handed on from one test to the next. A new browser context
// costs Chromium a renderer process, started by its first page: about
// 1.5 s of CPU, measured inside the tests, against 0.2 s for a page load.
// A tab whose test passed goes back to the pool with its cookies,
// permissions, downloads and emulations reset; the next test's first page
// (on another port of 127.0.0.1, the same site to Chromium) reuses its
// renderer: 0.2 s, measured. Going through about:blank in between would
// cost a new renderer again (0.6 s a switch, measured), so the tab stays
// on its last page, whose server is gone, until the next test navigates.
// The pool holds at most as many tabs as ran at once.
var tabPool struct {
	sync.Mutex
	free []context.Context
}

// tab gives the test a tab for the user called name (for messages only),
// with a desktop window and the time zone given (an IANA name; "" keeps
// UTC), from the pool when there is one free, else in a new browser
// context (its own cookie jar).
func (s *site) tab(t *testing.T, name, timeZone string) *tab {
	t.Helper()
	needBrowser(t)
	tabPool.Lock()
	var ctx context.Context
	if n := len(tabPool.free); n > 0 {
		ctx, tabPool.free = tabPool.free[n-1], tabPool.free[:n-1]
	}
	tabPool.Unlock()
	fresh := ctx == nil
	if fresh {
		// Not cancelled with the test: the browser's end closes it.
		ctx, _ = chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	}
	tb := &tab{t: t, name: name, site: s, ctx: ctx}
	t.Cleanup(func() { release(t, ctx) })
	t.Cleanup(tb.screenshotOnFailure) // runs before release
	if timeZone == "" {
		timeZone = "UTC"
	}
	// The first call creates the target: no timeout on it. Chromium
	// refuses a second time zone override while one is in effect: ""
	// lifts the last test's.
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, id := range []string{"", timeZone} {
			if _, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: id}); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		t.Fatalf("%s: open a browser context: %v", name, err)
	}
	if fresh {
		// Chromium starts the tab's renderer with its first page: 1.5 s
		// of CPU, which on a loaded box (6 tests starting at once, load
		// 30 on 2 cores) took more than the 15 s of a step, failing the
		// test's first goTo (seen in TestKeyboard). A plain answer of the
		// site starts it here, with a minute for it.
		c, cancel := context.WithTimeout(ctx, 4*actionTimeout)
		defer cancel()
		if err := chromedp.Do(c, chromedp.Navigate(s.URL+"/healthz")); err != nil {
			t.Fatalf("%s: start the tab's renderer: %v", name, err)
		}
	}
	return tb
}

// release puts the tab back in the pool as a new one would be (no
// cookies, no permissions, downloads refused, a desktop window with no
// emulation), or closes it when the test failed (a tab in a state no
// one foresaw) or the reset did not work.
func release(t *testing.T, ctx context.Context) {
	closeTab := func() { chromedp.Cancel(ctx) }
	if t.Failed() || ctx.Err() != nil {
		closeTab()
		return
	}
	c, cancel := context.WithTimeout(ctx, actionTimeout)
	defer cancel()
	id := chromedp.FromContext(ctx).BrowserContextID
	// window.stop ends the live stream and any load under way.
	_, err := chromedp.Run(c, chromedp.Evaluate[bool](`window.stop(), true`))
	if err == nil {
		err = chromedp.Do(c, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{}}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: false})
			return err
		}))
	}
	if err == nil {
		_, err = chromedp.CallBrowser(c, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: id})
	}
	if err == nil {
		_, err = chromedp.CallBrowser(c, cdpbrowser.ResetPermissions, cdpbrowser.ResetPermissionsParams{BrowserContextID: id})
	}
	if err == nil {
		_, err = chromedp.CallBrowser(c, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDefault, BrowserContextID: id})
	}
	if err != nil {
		t.Logf("a tab does not go back to the pool: %v", err)
		closeTab()
		return
	}
	tabPool.Lock()
	tabPool.free = append(tabPool.free, ctx)
	tabPool.Unlock()
}
