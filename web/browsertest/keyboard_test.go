package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// keyboardOnPhone: a keyboard user on a phone-sized standings page of
// seedACWC's event (a part of TestPhoneWidth, which shares its site and
// visitor's tab). The first Tab reaches the "Skip to content" link, which
// shows itself with the focus outline; Enter moves to the main landmark;
// the standings table's scrolling box is reached with Tab and scrolls
// with the arrow keys.
func keyboardOnPhone(t *testing.T, b *tab) {
	b.do("phone window", chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	b.goTo("/events/wc/standings")

	b.do("Tab", chromedp.KeyEvent(kb.Tab))
	if got := eval[string](b, `document.activeElement.className + " " + document.activeElement.textContent`); got != "skip Skip to content" {
		t.Fatalf("the first Tab focuses %q, want the skip link", got)
	}
	if !eval[bool](b, `document.activeElement.getBoundingClientRect().top >= 0`) {
		t.Error("the focused skip link stays off screen")
	}
	if got := eval[string](b, `(s => s.outlineStyle + " " + s.outlineWidth)(getComputedStyle(document.activeElement))`); got != "solid 3px" {
		t.Errorf("focus outline %q, want solid 3px", got)
	}
	b.do("Enter", chromedp.KeyEvent(kb.Enter))
	b.waitJS("the focus to move to main", `document.activeElement.id === "main" && location.hash === "#main"`)

	// Tab on from main until the standings' scrolling box has the focus.
	for i := 0; i < 30 && !eval[bool](b, `document.activeElement.matches(".table-wrap")`); i++ {
		b.do("Tab", chromedp.KeyEvent(kb.Tab))
	}
	if got := eval[string](b, `document.activeElement.getAttribute("aria-label") || ""`); got != "Standings" {
		t.Fatalf("Tab does not reach the standings box (focus on %q)", got)
	}
	if !eval[bool](b, `(w => w.scrollWidth > w.clientWidth)(document.activeElement)`) {
		t.Fatal("the standings fit a phone: nothing to scroll, the test needs a wider table")
	}
	b.do("ArrowRight", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	b.waitJS("the table to scroll", `document.activeElement.scrollLeft > 0`)
	if eval[int](b, `document.documentElement.scrollLeft`) != 0 {
		t.Error("the arrow keys scrolled the page instead of the table")
	}
}
