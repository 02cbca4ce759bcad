package browsertest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arbiter"
	"arbiter/app"
)

// TestStandingsOdds opens the standings of an ACWC in its first round:
// first the simulation is running (the page says so and does not wait),
// then the standings carry a column with each player's simulated chance
// of the top 12 and a chart, labelled as a simulation with its runs and
// seed, and the page fits a 390 px phone without scrolling sideways.
func TestStandingsOdds(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	s.App.SetOddsSims(0) // the runs production suggests, not the tests' cheap ones
	ctx := context.Background()
	td := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "cup", Name: "ACWC odds", Preset: "acwc-2023", Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 16; i++ {
		name := fmt.Sprintf("p%02d", i)
		_, err = s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "cup", arbiter.Entrant{Player: name, Rating: 2400 - 30*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, td, "cup", name, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistration(ctx, td, "cup")
	noErr(t, err)
	_, _, err = s.App.PairRound(ctx, td, "cup")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, td, "cup")
	noErr(t, err)

	b := s.tab(t, "visitor", "")
	b.goTo("/events/cup/standings")
	if got := b.text("section.odds .notice"); !strings.Contains(got, "simulation of the rest of the event is running") {
		t.Errorf("first visit: %q", got)
	}
	// The simulation the first visit started, waited for here.
	o, err := s.App.Odds(ctx, "cup", app.OddsRequest{})
	noErr(t, err)

	b.goTo("/events/cup/standings")
	head := b.texts("table.standings thead th")
	if last := head[len(head)-1]; last != "Chance: Top 12 (candidates) (simulated)" {
		t.Errorf("column heading %q", last)
	}
	pct := regexp.MustCompile(`^(<0\.1%|>99\.9%|100%|0%|\d{1,2}\.\d%)$`)
	rows := b.rows("table.standings")
	if len(rows) != 16 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		cells := strings.Split(r, "|")
		if !pct.MatchString(cells[len(cells)-1]) {
			t.Errorf("row %q: no chance in the last column", r)
		}
	}
	label := b.text(".sim-label")
	if want := fmt.Sprintf("(%d runs, seed 1)", o.Sims); !strings.Contains(label, want) || !strings.Contains(label, "Simulated chance") {
		t.Errorf("chart label %q, want %q", label, want)
	}
	if note := b.text("section.odds p.note"); !strings.Contains(note, "simulated") || !strings.Contains(note, "100% and 0% are certain") {
		t.Errorf("note %q", note)
	}
	if n := eval[int](b, `document.querySelectorAll("svg.odds-chart rect.bar").length`); n != 16 {
		t.Errorf("%d bars in the chart, want 16", n)
	}
	if !b.has("section.odds details ul.what-if li") {
		t.Errorf("no what-if for the next matches")
	}

	b.do("phone window", chromedp.EmulateViewport(390, 740, chromedp.EmulateMobile))
	b.goTo("/events/cup/standings")
	if probs := eval[[]string](b, layoutProblems); len(probs) > 0 {
		t.Errorf("standings at 390 px:\n  %s", strings.Join(probs, "\n  "))
	}
	if w := eval[float64](b, `document.querySelector("svg.odds-chart").getBoundingClientRect().right`); w > 390 {
		t.Errorf("the chart ends at %v px in a 390 px window", w)
	}
}
