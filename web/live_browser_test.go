package web

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLiveBrowserRefresh opens the standings in headless Chromium (skipped
// when it is not installed), confirms a result through app while the user
// types in a field, and checks that the page waits for the user to leave
// the field, then shows the result (in the round's progress: the table
// stands after completed rounds) without a reload, announced in the
// status region.
func TestLiveBrowserRefresh(t *testing.T) {
	t.Parallel()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium not installed, and CI is set: browser tests must run (see docs/web-browser-tests.md)")
		}
		t.Skip("chromium not installed")
	}
	f := newFixture(t)
	liveHubOf(t, f).interval = 50 * time.Millisecond
	match := reportedRound1(t, f)
	ts := liveServer(t, f)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	// waitFor polls an expression until it is "true".
	waitFor := func(what, js string) {
		t.Helper()
		eventually(t, what, func() bool { return eval(`String(`+js+`)`) == "true" })
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(ts.URL+"/events/atc/standings")); err != nil {
		t.Fatal(err)
	}
	waitFor("the page is loaded", `document.readyState === "complete" && !!document.querySelector("main[data-live]")`)
	before := eval(`document.querySelector("main").textContent`)
	if !strings.Contains(before, "0 of 5 results are final") {
		t.Fatalf("the standings page does not say how far round 1 has come:\n%s", before)
	}
	// The stream is open once the server counts it.
	eventually(t, "the page opened its stream", func() bool {
		h := liveHubOf(t, f)
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.streams == 1
	})
	// The user is typing in a field of the page: the refresh waits.
	eval(`document.querySelector("main h1").dataset.old = "1";
		(() => { const q = document.createElement("input"); q.id = "q"; q.setAttribute("aria-label", "q");
		document.querySelector("main").append(q); q.focus(); q.value = "half-typed"; })(); "ok"`)
	ok(t)(f.app.ConfirmResult(context.Background(), captain(6), "atc", match, 0))
	waitFor("the user is told a change waits", `document.querySelector('[role=status]').textContent.startsWith("This page has changed")`)
	if eval(`String(!!document.querySelector("main h1[data-old]") && document.getElementById("q").value)`) != "half-typed" {
		t.Fatal("the page was replaced while the user was typing")
	}
	// Leaving the field with a changed value still holds the refresh;
	// leaving it as served lets it through.
	eval(`(() => { const q = document.getElementById("q"); q.value = "";
		q.dispatchEvent(new Event("change", {bubbles: true})); q.blur(); })(); "ok"`)
	waitFor("the page refreshed", `!document.querySelector("main h1[data-old]")`)
	after := eval(`document.querySelector("main").textContent`)
	if after == before {
		t.Fatal("the page content did not change after the result was confirmed")
	}
	// The standings stand after completed rounds; the round's progress
	// shows the confirmed result.
	if !strings.Contains(after, "1 of 5 results are final") {
		t.Errorf("the refreshed page does not count the confirmed result:\n%s", after)
	}
	waitFor("the update is announced", `document.querySelector('[role=status][aria-live=polite]').textContent === "Page updated."`)
}
