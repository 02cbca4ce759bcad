package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arbiter/app"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
	"arbiter/web"
)

// tdPassword is the local TD's password on every test site.
const tdPassword = "browser-test-password"

// site is one running web app: a fresh SQLite store, package app on a
// clock the test moves, and web.Serve on a loopback port, as
// 'arbiter serve --demo' wires them (demo sign-in lets the tests sign in
// as any Lichess username).
type site struct {
	URL   string
	DB    *sqlstore.DB
	App   *app.Service
	clock *clock
	logs  *lockedBuffer
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// testOddsSims are the runs of the simulation that every standings page
// of a running event starts in the background, and again after each change
// (app.SetOddsSims). The production default (odds.SuggestedSims, about 4 s
// of CPU each time) made the simulations half of the package's Go CPU;
// TestStandingsOdds, the one test about them, puts the default back.
const testOddsSims = 100

// newSite starts the web app with its clock at now. It stops when the
// test ends; the server log is shown if the test failed.
func newSite(t *testing.T, now time.Time) *site {
	t.Helper()
	needBrowser(t)
	ctx := context.Background()
	db := storetest.SQLite(t)
	s := &site{DB: db, clock: &clock{now: now}, logs: &lockedBuffer{}}
	s.App = app.New(db, s.clock.Now)
	s.App.SetOddsSims(testOddsSims)
	if pw, err := s.App.EnsureLocalTD(ctx, tdPassword); err != nil || pw != tdPassword {
		t.Fatalf("EnsureLocalTD = %q, %v", pw, err)
	}
	log := slog.New(slog.NewTextHandler(s.logs, nil))
	h, err := web.New(web.Config{App: s.App, Logger: log, DemoSignIn: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.URL = "http://" + ln.Addr().String()
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- web.Serve(sctx, ln, h, log) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.logs.String())
		}
	})
	return s
}

// tab is one user's browser: its own browser context (cookies are not
// shared with the other users' tabs) with one page.
type tab struct {
	t    *testing.T
	name string
	site *site
	ctx  context.Context
}

// actionTimeout bounds each step; a page that never shows what a step
// waits for fails the test instead of hanging it.
const actionTimeout = 15 * time.Second

// screenshotOnFailure saves a PNG of the whole page in
// $ARBITER_BROWSER_SHOTS (if set) when the test failed, named after the
// test and the user.
func (b *tab) screenshotOnFailure() {
	dir := os.Getenv("ARBITER_BROWSER_SHOTS")
	if dir == "" || !b.t.Failed() {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err == nil {
		file := filepath.Join(dir, strings.ReplaceAll(b.t.Name(), "/", "_")+"-"+b.name+".png")
		if err = os.WriteFile(file, png, 0o644); err == nil {
			b.t.Logf("%s: screenshot in %s", b.name, file)
		}
	}
	if err != nil {
		b.t.Logf("%s: no screenshot: %v", b.name, err)
	}
}

// do runs steps with the step timeout.
func (b *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %s: %v%s", b.name, what, err, b.where())
	}
}

// where describes the page for a failure message.
func (b *tab) where() string {
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search + "\n" + (document.querySelector("main") ? document.querySelector("main").innerText.slice(0, 1500) : "")`))
	if err != nil {
		return ""
	}
	return "\n-- page " + s
}

// eval evaluates a JavaScript expression and decodes its value into T.
func eval[T any](b *tab, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %s: %v%s", b.name, js, err, b.where())
	}
	return v
}

// q quotes s as a JavaScript string.
func q(s string) string {
	j, _ := json.Marshal(s)
	return string(j)
}

// text is the trimmed text of the first element matching the CSS
// selector, "" when there is none.
func (b *tab) text(sel string) string {
	b.t.Helper()
	return eval[string](b, `(() => { const e = document.querySelector(`+q(sel)+`); return e ? e.textContent.replace(/\s+/g, " ").trim() : ""; })()`)
}

// texts is the trimmed text of every element matching the selector.
func (b *tab) texts(sel string) []string {
	b.t.Helper()
	return eval[[]string](b, `Array.from(document.querySelectorAll(`+q(sel)+`), e => e.textContent.replace(/\s+/g, " ").trim())`)
}

// rows are the body rows of the first table matching the selector, each
// as its cells' trimmed text joined by "|".
func (b *tab) rows(table string) []string {
	b.t.Helper()
	return eval[[]string](b, `(() => { const t = document.querySelector(`+q(table)+`); if (!t) return [];
		return Array.from(t.tBodies[0].rows, tr => Array.from(tr.cells, c => c.textContent.replace(/\s+/g, " ").trim()).join("|")); })()`)
}

// has reports whether an element matches the selector.
func (b *tab) has(sel string) bool {
	b.t.Helper()
	return eval[bool](b, `!!document.querySelector(`+q(sel)+`)`)
}

// waitJS polls a JavaScript condition until it is true. The page polls
// it (every 50 ms, for up to a second per call, answering as soon as it
// holds): one DevTools call a second while waiting instead of one every
// 50 ms, each of which cost the browser process, the renderer and the
// test a message round trip (CPU measured: see docs/web-browser-tests.md).
// A navigation ends the call with an error; the next call asks the new
// document.
func (b *tab) waitJS(what, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(actionTimeout)
	var last error
	js := `new Promise(done => { const end = Date.now() + 1000; const check = () => {
		let ok = false; try { ok = !!(` + cond + `); } catch (e) {}
		if (ok || Date.now() >= end) { done(ok); } else { setTimeout(check, 50); } }; check(); })`
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		if b.ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.t.Fatalf("%s: gave up waiting for %s (%s; last error %v)%s", b.name, what, cond, last, b.where())
}

// goTo loads a page of the site and waits until it is complete.
func (b *tab) goTo(path string) {
	b.t.Helper()
	b.markPage()
	b.do("open "+path, chromedp.Navigate(b.site.URL+path))
	b.waitNewPage("the page " + path)
}

// markPage tags the current document, so that waitNewPage can tell when
// another one replaced it.
func (b *tab) markPage() {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__arbiterOld = true`)); err != nil {
		b.t.Fatalf("%s: mark the page: %v", b.name, err)
	}
}

// waitNewPage waits until a navigation replaced the marked document and
// the new one is loaded.
func (b *tab) waitNewPage(what string) {
	b.t.Helper()
	b.waitJS(what, `!window.__arbiterOld && document.readyState === "complete" && document.querySelector("main")`)
}

// click clicks the element (a submit button or a link) and waits for the
// page it leads to.
func (b *tab) click(sel string) {
	b.t.Helper()
	b.markPage()
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	b.waitNewPage("the page after clicking " + sel)
}

// typeInto focuses a field, clears it and types s, key by key.
func (b *tab) typeInto(sel, s string) {
	b.t.Helper()
	if !eval[bool](b, `(() => { const e = document.querySelector(`+q(sel)+`); if (!e) return false; e.value = ""; return true; })()`) {
		b.t.Fatalf("%s: no field %s%s", b.name, sel, b.where())
	}
	b.do("type into "+sel, chromedp.SendKeys(chromedp.CSS(sel), s, chromedp.NodeVisible))
}

// fill puts s into a text field the way pasting or autofill does: the
// field gets the focus, its value, and the input and change events. Most
// fields a test fills are not about the keyboard (names, reasons, URLs,
// the demo sign-in's username), and typing costs about 7.5 ms of CPU a
// key (browser, renderer and test; measured in a cgroup, December 2026)
// against about 2 ms for a fill, so they are filled; typeInto and chromedp.KeyEvent stay where the typing
// is what the test checks (the result grid, the keyboard-only sign-in,
// Enter submitting a form, the registration forms of TestTeamEventLineup
// and TestRegistrationKeepsInput).
func (b *tab) fill(sel, s string) {
	b.t.Helper()
	js := `(() => { const e = document.querySelector(` + q(sel) + `); if (!e || !e.checkVisibility()) return false; e.focus(); e.value = ` + q(s) + `;
		e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return e.value === ` + q(s) + `; })()`
	if !eval[bool](b, js) {
		b.t.Fatalf("%s: could not fill %s with %q%s", b.name, sel, s, b.where())
	}
}

// setValue sets a field's value the way a picker does (date-time fields,
// selects), and fires its input and change events.
func (b *tab) setValue(sel, v string) {
	b.t.Helper()
	js := `(() => { const e = document.querySelector(` + q(sel) + `); if (!e) return false; e.value = ` + q(v) + `;
		e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return e.value === ` + q(v) + `; })()`
	if !eval[bool](b, js) {
		b.t.Fatalf("%s: could not set %s to %q%s", b.name, sel, v, b.where())
	}
}

// flash is the message the last form left (p.flash), and whether it is a
// refusal.
func (b *tab) flash() (msg string, refused bool) {
	b.t.Helper()
	return b.text("p.flash"), b.has("p.flash.flash-error")
}

// wantFlash checks that the last form succeeded with a message holding
// every part of want.
func (b *tab) wantFlash(want ...string) {
	b.t.Helper()
	msg, refused := b.flash()
	if refused || msg == "" {
		b.t.Fatalf("%s: flash %q (refused %v), want success with %q%s", b.name, msg, refused, want, b.where())
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			b.t.Fatalf("%s: flash %q lacks %q", b.name, msg, w)
		}
	}
}

// path is the current page's path and query.
func (b *tab) path() string {
	b.t.Helper()
	return eval[string](b, `location.pathname + location.search`)
}

// signInTD signs in as the local TD with the keyboard only: the account
// name, Tab to the password, Enter submits. next is where to go after.
func (b *tab) signInTD(next string) {
	b.t.Helper()
	b.goTo("/login?next=" + next)
	b.do("focus the account name", chromedp.Focus(chromedp.CSS("#username")))
	if id := eval[string](b, `document.activeElement.id`); id != "username" {
		b.t.Fatalf("focus is on %q, want the account name", id)
	}
	b.markPage()
	b.do("type the credentials", chromedp.KeyEvent(web.LocalTD), chromedp.KeyEvent("\t"))
	if id := eval[string](b, `document.activeElement.id`); id != "password" {
		b.t.Fatalf("Tab from the account name went to %q, want the password", id)
	}
	b.do("type the password and Enter", chromedp.KeyEvent(tdPassword+"\r"))
	b.waitNewPage("the page after signing in")
	if p := b.path(); p != next {
		b.t.Fatalf("%s: after signing in at %s, want %s%s", b.name, p, next, b.where())
	}
}

// signInDemo signs in as a Lichess user through the demo form of the
// sign-in page.
func (b *tab) signInDemo(user, next string) {
	b.t.Helper()
	b.goTo("/login?next=" + next)
	b.fill("#demo-username", user)
	b.click("#demo-sign-in button[type=submit]")
	if p := b.path(); p != next {
		b.t.Fatalf("%s: after signing in at %s, want %s%s", b.name, p, next, b.where())
	}
	if got := b.text("header.site .account"); !strings.Contains(got, user) {
		b.t.Fatalf("%s: the header says %q, want the user's name", b.name, got)
	}
}

// stillSamePage tells whether the document marked by markPage is still
// the one shown (a live update replaced content, not the page).
func (b *tab) stillSamePage() bool { return eval[bool](b, `window.__arbiterOld === true`) }

// noErr fails the test on err.
func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
