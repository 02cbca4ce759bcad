package browsertest

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"arbiter"
	"arbiter/app"
	"arbiter/web"
)

// allowClipboardAndDownloads lets the tab's page use the clipboard (as a
// user's click does) and saves its downloads in dir.
func (b *tab) allowClipboardAndDownloads(dir string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	id := chromedp.FromContext(b.ctx).BrowserContextID
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted,
			Origin: b.site.URL, BrowserContextID: id})
		noErr(b.t, err)
	}
	_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, BrowserContextID: id})
	noErr(b.t, err)
	// A headless page has no window focus; the clipboard wants one.
	_, err = chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
	noErr(b.t, err)
}

// clipboard is the text on the clipboard.
func (b *tab) clipboard() string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: read the clipboard: %v", b.name, err)
	}
	return v
}

// waitFile waits for a completed download named name in dir.
func waitFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	deadline := time.Now().Add(actionTimeout)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(b) > 0 {
			return b
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	t.Fatalf("no download %s in %s (it holds %v)", name, dir, entries)
	return nil
}

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	noErr(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	noErr(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	noErr(t, err)
	return res.StatusCode, string(b)
}

// TestShareButtons: a visitor copies round 1's pairings post to the
// clipboard with the round page's button and downloads its results as
// CSV; the standings page's copy button does the same for the standings;
// the TD creates a bot token on the console, copies it with the page's
// button, the bot reads with it, and the TD revokes it.
func TestShareButtons(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	td := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "wc", Name: "ACWC 2023", Preset: "acwc-2023", Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("p%02d", i)
		_, err := s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: name, Rating: 2550 - 50*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, td, "wc", name, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistrationWith(ctx, td, "wc", app.CloseOptions{InitialColour: "white", Reason: "lot"})
	noErr(t, err)
	_, ms, err := s.App.PairRound(ctx, td, "wc")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, td, "wc")
	noErr(t, err)
	s.clock.Set(time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC))
	_, err = s.App.OverrideResult(ctx, td, "wc", ms[0].ID, app.ResultInput{Summary: "6-4"}, "from the forum", 0)
	noErr(t, err)

	dir := t.TempDir()
	v := s.tab(t, "visitor", "")
	v.allowClipboardAndDownloads(dir)
	v.goTo("/events/wc/rounds/s1r1")
	v.markPage()
	v.do("copy the pairings post", chromedp.Click(chromedp.CSS("#copy-pairings"), chromedp.NodeVisible))
	v.waitJS("the copy is announced", `document.querySelector('[data-test="copy-status"]').textContent.startsWith("Copied the pairings post")`)
	if !v.stillSamePage() {
		t.Fatal("copying left the page")
	}
	_, post := get(t, s.URL+"/api/events/wc/export?format=markdown&what=pairings&stage=1&round=1", "")
	got := v.clipboard()
	if got != post || !strings.Contains(got, "| 1 | @p01 | @p07 |") {
		t.Fatalf("the clipboard holds\n%s\nwant the pairings post\n%s", got, post)
	}

	v.do("download the results", chromedp.Click(chromedp.CSS("#download-results"), chromedp.NodeVisible))
	rows, err := csv.NewReader(strings.NewReader(string(waitFile(t, dir, "wc-s1r1-results.csv")))).ReadAll()
	noErr(t, err)
	if len(rows) != 7 || rows[1][4] != "p01" || rows[1][7] != "home win" || rows[1][11] != "6" {
		t.Fatalf("downloaded results: %q", rows)
	}

	v.goTo("/events/wc/standings")
	v.do("copy the standings post", chromedp.Click(chromedp.CSS("#copy-standings"), chromedp.NodeVisible))
	v.waitJS("the copy is announced", `document.querySelector('[data-test="copy-status"]').textContent.startsWith("Copied the standings post")`)
	// The table stands after completed rounds: round 1 is being played,
	// so p01's result does not count yet.
	if got := v.clipboard(); !strings.Contains(got, "standings (round 1 in progress)") || !strings.Contains(got, "| p01 | 0 |") {
		t.Fatalf("the clipboard holds\n%s", got)
	}

	// The TD makes a token for p01's bot, copies it, the bot uses it: in
	// the visitor's tab (clipboard allowed already), signed in, rather than
	// a browser context of its own (about 1.2 s of Chromium's CPU).
	tdTab := v
	tdTab.name = "td"
	tdTab.signInTD("/events/wc/td/tokens")
	tdTab.fill("#token-name", "p01's Discord bot")
	tdTab.do("tick report results", chromedp.Click(chromedp.CSS("#scope-report"), chromedp.NodeVisible))
	tdTab.setValue("#token-entrant", "p01")
	tdTab.click(`#new-token button[type=submit]`)
	secret := eval[string](tdTab, `document.getElementById("token-secret").value`)
	if !strings.HasPrefix(secret, "arbt_") {
		t.Fatalf("no token shown: %q%s", secret, tdTab.where())
	}
	tdTab.do("copy the token", chromedp.Click(chromedp.CSS(`[data-copy-from="token-secret"]`), chromedp.NodeVisible))
	tdTab.waitJS("the copy is announced", `document.querySelector('[data-test="copy-status"]').textContent.startsWith("Copied the token")`)
	if got := tdTab.clipboard(); got != secret {
		t.Fatalf("the clipboard holds %q, want the token", got)
	}
	if st, body := get(t, s.URL+"/api/events/wc/matches/"+ms[1].ID, tdTab.clipboard()); st != 200 {
		t.Fatalf("the bot's read: %d %s", st, body)
	}
	tdTab.goTo("/events/wc/td/tokens")
	if used := tdTab.text(`[data-test="last-used"]`); used == "never" || used == "" {
		t.Errorf("last use %q after the bot's request", used)
	}
	tdTab.click(`td[data-test="token-state"] button[type=submit]`)
	tdTab.wantFlash("Revoked the token p01's Discord bot")
	if st, _ := get(t, s.URL+"/api/events/wc/matches/"+ms[1].ID, secret); st != 401 {
		t.Fatalf("a revoked token answered %d", st)
	}
}
