package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"arbiter"
	"arbiter/app"
	"arbiter/demo"
)

// demoNow is the clock of the demo sites: a Wednesday, the antichess
// cup's round being played since Tuesday (A4).
var demoNow = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

// demoSite is a site with the demo events of `arbiter serve --demo` (one
// per preset, each stopped half-way through its first stage, the next
// round paired and published) and a finished antichess cup "ac" for the
// podium and the bracket. pages are the main public pages of the running
// antichess cup, by name; captain is the captain of board 1's home team.
type demoSite struct {
	*site
	pages   map[string]string
	order   []string
	captain string
	match   string // board 1's match page
}

func newDemoSite(t *testing.T) *demoSite {
	t.Helper()
	s := newSite(t, demoNow)
	ctx := context.Background()
	if err := demo.SeedAll(ctx, s.App, demoNow); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Run(ctx, s.App, demo.Options{Preset: "antichess-team-cup", Entrants: 10, Seed: 2, Slug: "ac"}); err != nil {
		t.Fatal(err)
	}
	const slug = "demo-antichess-team-cup"
	td := demo.TD
	noErr(t, s.App.AddTD(ctx, td, slug, "td@local")) // the site's TD opens the console
	rounds, err := s.App.Rounds(ctx, slug)
	noErr(t, err)
	last := rounds[len(rounds)-1]
	if last.Status == arbiter.RoundClosed {
		_, _, err = s.App.PairRound(ctx, td, slug)
		noErr(t, err)
	}
	rounds, err = s.App.Rounds(ctx, slug)
	noErr(t, err)
	last = rounds[len(rounds)-1]
	if last.Status == arbiter.RoundPaired {
		_, err = s.App.PublishRound(ctx, td, slug)
		noErr(t, err)
	}
	ms, err := s.App.Matches(ctx, slug, last.ID)
	noErr(t, err)
	es, err := s.App.Entrants(ctx, slug)
	noErr(t, err)
	d := &demoSite{site: s, match: "/events/" + slug + "/matches/" + ms[0].ID}
	for _, e := range es {
		if e.ID == ms[0].Home {
			d.captain = e.Captain
		}
	}
	base := "/events/" + slug
	d.order = []string{"event", "standings", "round", "match", "entrants", "crosstable", "bracket", "podium", "console"}
	d.pages = map[string]string{
		"event": base, "standings": base + "/standings", "round": base + "/rounds/" + last.ID, "match": d.match,
		"entrants": base + "/entrants", "crosstable": base + "/crosstable", "bracket": "/events/ac/bracket",
		"podium": "/events/ac", "console": base + "/td",
	}
	return d
}

// phone and desktop windows; dark or light colour scheme.
func (b *tab) window(phone, dark bool) {
	b.t.Helper()
	if phone {
		b.do("phone window", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	} else {
		b.do("desktop window", chromedp.EmulateViewport(1280, 900))
	}
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	b.do("prefers-color-scheme "+scheme, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
}

// readable lists the text that does not reach WCAG AA (4.5:1) against the
// background it is drawn on, computed from the browser's own colours:
// every visible element with text of its own, its colour against the
// first opaque background among itself and its ancestors.
const readable = `(() => {
	const rgb = s => { const m = s.match(/rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
	const lum = c => { const f = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const bgOf = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && c[3] > 0.5) return c; } return rgb(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255, 1]; };
	const out = [];
	let worst = 21;
	for (const e of document.body.querySelectorAll("*")) {
		if (e.closest(".visually-hidden, .skip, svg, .who-label")) continue;
		const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim() !== "");
		if (!own || e.getClientRects().length === 0) continue;
		const st = getComputedStyle(e);
		if (st.visibility === "hidden" || st.display === "none") continue;
		const fg = rgb(st.color), bg = bgOf(e), r = ratio(fg, bg);
		worst = Math.min(worst, r);
		if (r < 4.5) out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " '" + e.textContent.trim().slice(0, 30) + "': " + st.color + " on " + "rgb(" + bg.slice(0, 3).join(", ") + ") = " + r.toFixed(2));
	}
	return {problems: out, worst: worst, dark: lum(bgOf(document.body)) < 0.05};
})()`

type readability struct {
	Problems []string `json:"problems"`
	Worst    float64  `json:"worst"`
	Dark     bool     `json:"dark"`
}

// TestPhonePagesFit: at 390 px (a phone) no page of a running team event
// scrolls sideways, in light and in dark mode: the event page, standings,
// round, match (as its captain), entrants, crosstable, bracket and the
// TD console; and in dark mode every text is readable (AA, 4.5:1) on its
// background as the browser computes the colours. First, on the same
// site and tab, a visitor reads the finished cup's podium (podium, once
// TestPodium). The visitor, the captain and the TD take turns in one tab
// (users_test.go): a browser context costs about 1.2 s of Chromium's
// CPU.
func TestPhonePagesFit(t *testing.T) {
	t.Parallel()
	d := newDemoSite(t)
	b := d.tab(t, "visitor", "")
	t.Run("podium", func(t *testing.T) { podium(t, d.site, b.as(t, "visitor"), "ac") })
	b.name = "captain"
	b.signInDemo(d.captain, "/me")
	look := func(b *tab, name string, dark bool) {
		t.Helper()
		b.goTo(d.pages[name])
		mode := map[bool]string{false: "light", true: "dark"}[dark]
		if w := eval[[]int](b, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
			t.Errorf("%s (%s) at 390 px: the page is %d px wide in a %d px window", name, mode, w[0], w[1])
		}
		r := eval[readability](b, readable)
		if r.Dark != dark {
			t.Errorf("%s: dark page %v under prefers-color-scheme %s", name, r.Dark, mode)
		}
		if len(r.Problems) > 0 {
			t.Errorf("%s (%s): text below 4.5:1:\n  %s", name, mode, strings.Join(r.Problems, "\n  "))
		}
	}
	for _, dark := range []bool{false, true} {
		b.window(true, dark)
		for _, name := range d.order {
			if name != "console" {
				look(b, name, dark)
			}
		}
	}
	// The standings' rank and entrant stay in view while the table
	// scrolls, and the tiebreak columns hide with their switch.
	b.window(true, false)
	b.goTo(d.pages["standings"])
	before := eval[float64](b, `document.querySelector("table.standings tbody th.who").getBoundingClientRect().left`)
	eval[bool](b, `(document.querySelector(".standings-block .table-wrap").scrollLeft = 400) > 0`)
	if after := eval[float64](b, `document.querySelector("table.standings tbody th.who").getBoundingClientRect().left`); after != before {
		t.Errorf("the entrant column moved from %v to %v px as the table scrolled", before, after)
	}
	shown := `getComputedStyle(document.querySelector("table.standings td.tb")).display !== "none"`
	if !eval[bool](b, shown) {
		t.Fatal("tiebreak columns hidden before the switch is used")
	}
	b.do("hide the tiebreaks", chromedp.Click(chromedp.CSS(`label[for="show-tb-0"]`), chromedp.NodeVisible))
	if eval[bool](b, shown) {
		t.Error("the switch does not hide the tiebreak columns")
	}
	// One row of event navigation.
	if rows := eval[int](b, `new Set(Array.from(document.querySelectorAll(".event-nav li"), li => Math.round(li.getBoundingClientRect().top))).size`); rows != 1 {
		t.Errorf("the event navigation takes %d rows at 390 px", rows)
	}

	// The TD's console, in the same tab once the captain signed out.
	b.signOut()
	b.name = "td"
	b.signInTD("/")
	for _, dark := range []bool{false, true} {
		b.window(true, dark)
		look(b, "console", dark)
	}
}

// TestRegistrationKeepsInput: a refused registration comes back with
// what the captain typed. a03 already plays for another team (A11: one
// team per player), so the form is refused, and every field still holds
// its value, the reason shown above the form.
func TestRegistrationKeepsInput(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	td := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "atc", Name: "Antichess cup", Preset: "antichess-team-cup", Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)
	_, err = s.App.Register(ctx, arbiter.Actor{Name: "cap9", Role: arbiter.RoleCaptain}, "atc",
		arbiter.Entrant{Name: "Team 9", Captain: "cap9", Members: []string{"cap9", "a03", "b9", "c9"}})
	noErr(t, err)
	b := s.tab(t, "cap1", "")
	b.signInDemo("cap1", "/events/atc/register")
	// A9: 3 or 4 players; the captain is one, so three member fields.
	if n := eval[int](b, `document.querySelectorAll('input[name="member"]').length`); n != 3 {
		t.Errorf("%d member fields, want 3", n)
	}
	typed := map[string]string{"#team-name": "Team 1", "#member-0": "a01", "#member-1": "a03", "#member-2": "a02", "#substitute": "s01", "#rating": "2100"}
	for _, sel := range []string{"#team-name", "#member-0", "#member-1", "#member-2", "#substitute", "#rating"} {
		b.typeInto(sel, typed[sel])
	}
	b.click("#register-submit")
	if msg := b.text("#register-error"); !strings.Contains(msg, "a03") || !strings.Contains(msg, "A11") {
		t.Errorf("refusal %q, want one naming a03 and A11", msg)
	}
	for sel, want := range typed {
		if got := eval[string](b, `document.querySelector(`+q(sel)+`).value`); got != want {
			t.Errorf("%s holds %q after the refusal, want %q", sel, got, want)
		}
	}
	// Correcting one field is enough.
	b.typeInto("#member-1", "a04")
	b.click("#register-submit")
	b.wantFlash("Registered Team 1")
	if got := b.rows("#my-registrations"); len(got) != 1 || !strings.Contains(got[0], "cap1, a01, a04, a02 (substitute s01)") {
		t.Errorf("registration %q", got)
	}
}
