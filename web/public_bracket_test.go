package web

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"arbiter"
	"arbiter/demo"
	"arbiter/format"
)

// demoEvent simulates an event of a preset through package demo (the
// same use cases as the TDs and players) and returns its fixture.
func demoEvent(t *testing.T, o demo.Options) *fixture {
	t.Helper()
	f := newFixture(t)
	if _, err := demo.Run(context.Background(), f.app, o); err != nil {
		t.Fatal(err)
	}
	return f
}

// knockoutOf returns the knockout matches of stage si by bracket
// position, and the stage's seeds, as package app stored them.
func knockoutOf(t *testing.T, f *fixture, slug string, si int) (map[string]arbiter.Match, []string) {
	t.Helper()
	ctx := context.Background()
	ms, err := f.app.Matches(ctx, slug, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]arbiter.Match{}
	for _, m := range ms {
		if m.Stage == si && m.Bracket != "" {
			out[m.Bracket] = m
		}
	}
	ev, err := f.app.Event(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	return out, ev.Stages[si].Seeds
}

func nameOf(t *testing.T, f *fixture, slug, id string) string {
	t.Helper()
	es, err := f.app.Entrants(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.ID == id {
			return e.Name
		}
	}
	t.Fatalf("no entrant %s", id)
	return ""
}

func winnerOf(m arbiter.Match) (string, string) {
	if m.Result.Result == "home_win" {
		return m.Home, m.Away
	}
	return m.Away, m.Home
}

// TestBracketFinished draws a finished RKCC event's knockout: two
// semifinals and a final (R2: no third-place match), the winner marked
// in the drawing and the table.
func TestBracketFinished(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "rkcc-team-three-tc", Entrants: 8, Seed: 3, Slug: "rk"})
	ko, seeds := knockoutOf(t, f, "rk", 1)
	if len(ko) != 3 || len(seeds) != 4 {
		t.Fatalf("knockout %v seeds %v", ko, seeds)
	}
	body := getPage(t, f, "/events/rk/bracket")
	champ, _ := winnerOf(ko["R2-M1"])
	wantContains(t, body, "<h1>Bracket: ", "Stage 2: knockout", `<svg class="bracket"`, `role="img"`, `<title id="bracket-title">`,
		`<p class="champion" data-test="champion">Winner: <strong>`+nameOf(t, f, "rk", champ)+`</strong></p>`)
	// Semifinals 1 v 4 and 2 v 3 by the stage's seeds (R2).
	seedName := func(i int) string { return fmt.Sprintf("%d. %s", i, nameOf(t, f, "rk", seeds[i-1])) }
	if ko["R1-M1"].Home != seeds[0] || ko["R1-M1"].Away != seeds[3] || ko["R1-M2"].Home != seeds[1] || ko["R1-M2"].Away != seeds[2] {
		t.Fatalf("semifinals %+v %+v, seeds %v", ko["R1-M1"], ko["R1-M2"], seeds)
	}
	for _, id := range []string{"R1-M1", "R1-M2", "R2-M1"} {
		w, l := winnerOf(ko[id])
		idx := slices.Index(seeds, w) + 1
		wantContains(t, body, `<text class="side winner" x=`)
		if !strings.Contains(body, ">"+seedName(idx)+"</text>") {
			t.Errorf("%s: winner %s not drawn", id, seedName(idx))
		}
		// The winner's line is marked, the loser's is not.
		lidx := slices.Index(seeds, l) + 1
		if !regexpMatch(`<text class="side winner" x="\d+" y="\d+">`+regexpQuote(seedName(idx))+`</text>`, body) ||
			!regexpMatch(`<text class="side" x="\d+" y="\d+">`+regexpQuote(seedName(lidx))+`</text>`, body) {
			t.Errorf("%s: winner %s / loser %s lines", id, seedName(idx), seedName(lidx))
		}
	}
	rows := rowsOf(body, "bracket-table")
	if len(rows) != 3 || !strings.HasPrefix(rows[0], "Semifinals|1|") || !strings.HasPrefix(rows[2], "Final|1|") {
		t.Fatalf("bracket rows %q", rows)
	}
	m := ko["R2-M1"]
	want := fmt.Sprintf("Final|1|%s (%d)%s|%s (%d)%s|%s–%s|final", nameOf(t, f, "rk", m.Home), slices.Index(seeds, m.Home)+1, winMark(m, true),
		nameOf(t, f, "rk", m.Away), slices.Index(seeds, m.Away)+1, winMark(m, false), m.Result.Home.Points, m.Result.Away.Points)
	if rows[2] != want {
		t.Errorf("final row %q, want %q", rows[2], want)
	}
	// The crosstable of the Swiss stage is still there; the knockout's is not.
	body = getPage(t, f, "/events/rk/crosstable?stage=1")
	if len(rowsOf(body, "crosstable")) != 8 {
		t.Errorf("Swiss crosstable rows %d", len(rowsOf(body, "crosstable")))
	}
}

func winMark(m arbiter.Match, home bool) string {
	if (m.Result.Result == "home_win") == home {
		return " (winner)"
	}
	return ""
}

// TestBracketMidway stops the antichess cup after its semifinals: the
// final and the third-place match are not paired yet, but the bracket
// already shows who plays them.
func TestBracketMidway(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "antichess-team-cup", Entrants: 10, Seed: 1, Slug: "ac", StopAfter: "s2r1"})
	ko, _ := knockoutOf(t, f, "ac", 1)
	if len(ko) != 2 {
		t.Fatalf("knockout after the semifinals %v", ko)
	}
	w1, l1 := winnerOf(ko["R1-M1"])
	w2, l2 := winnerOf(ko["R1-M2"])
	body := getPage(t, f, "/events/ac/bracket")
	rows := rowsOf(body, "bracket-table")
	if len(rows) != 4 {
		t.Fatalf("bracket rows %q", rows)
	}
	// A18: the final and the third-place match follow the semifinals.
	final, third := strings.Split(rows[2], "|"), strings.Split(rows[3], "|")
	if final[0] != "Final" || final[5] != "to be paired" || !strings.HasPrefix(final[2], nameOf(t, f, "ac", w1)+" (") ||
		!strings.HasPrefix(final[3], nameOf(t, f, "ac", w2)+" (") {
		t.Errorf("final row %q, want %s v %s", rows[2], w1, w2)
	}
	if third[1] != "third place" || !sameNames(third[2:4], nameOf(t, f, "ac", l1), nameOf(t, f, "ac", l2)) {
		t.Errorf("third-place row %q, want %s and %s", rows[3], l1, l2)
	}
	if strings.Contains(body, "data-test=\"champion\"") {
		t.Error("a champion before the final")
	}
	wantContains(t, body, "Third place", `class="position unpaired"`)
	var out struct {
		Stage    int            `json:"stage"`
		Champion string         `json:"champion"`
		Rounds   []bracketRound `json:"rounds"`
	}
	apiDo(t, f, "GET", "/api/events/ac/bracket", 200, &out)
	if out.Stage != 2 || out.Champion != "" || len(out.Rounds) != 2 || out.Rounds[1].Matches[0].Home.ID != w1 ||
		out.Rounds[1].Matches[0].Away.ID != w2 || out.Rounds[0].Matches[0].Match != ko["R1-M1"].ID || out.Rounds[1].Matches[0].Match != "" {
		t.Errorf("API bracket %+v", out)
	}
}

func sameNames(cells []string, a, b string) bool {
	return (strings.HasPrefix(cells[0], a+" (") && strings.HasPrefix(cells[1], b+" (")) ||
		(strings.HasPrefix(cells[0], b+" (") && strings.HasPrefix(cells[1], a+" ("))
}

// TestBracketWithByes lays out three entrants: seed 1 goes through
// without play, 2 v 3 is played, and the final's sides are known.
func TestBracketWithByes(t *testing.T) {
	t.Parallel()
	v := &eventView{
		Ev: arbiter.Event{Slug: "x", Stages: []arbiter.Stage{{Name: "swiss", Kind: format.Swiss}, {Name: "ko", Kind: format.Knockout, Seeds: []string{"a", "b", "c"}}}},
		F:  &format.Format{Stages: []format.Stage{{Kind: format.Swiss}, {Kind: format.Knockout}}},
		byID: map[string]*arbiter.Entrant{"a": {ID: "a", Name: "Alpha <A>"}, "b": {ID: "b", Name: "Bravo"},
			"c": {ID: "c", Name: "Charlie with a name far too long for its box"}},
		Matches: []arbiter.Match{{ID: "s2r1b1", Stage: 1, Round: 1, Home: "b", Away: "c", Bracket: "R1-M2", Status: arbiter.MatchFinal,
			Result: &arbiter.Outcome{Result: "away_win", Decision: "played", Home: arbiter.SideScore{Points: arbiter.P(4)}, Away: arbiter.SideScore{Points: arbiter.P(6)}}}},
	}
	b, err := v.bracket(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Rounds) != 2 || b.Rounds[1].Name != "Final" {
		t.Fatalf("rounds %+v", b.Rounds)
	}
	bye, semi, final := b.Rounds[0].Matches[0], b.Rounds[0].Matches[1], b.Rounds[1].Matches[0]
	if bye.Status != "bye" || bye.Home.ID != "a" || !bye.Home.Winner || bye.Away.Name != "bye" {
		t.Errorf("bye %+v", bye)
	}
	if semi.Match != "s2r1b1" || !semi.Away.Winner || semi.Home.Winner || semi.Away.Score != "6" || semi.Home.Score != "4" {
		t.Errorf("played %+v", semi)
	}
	if final.Home.ID != "a" || final.Away.ID != "c" || final.Status != "to be paired" || b.Champion != "" {
		t.Errorf("final %+v champion %q", final, b.Champion)
	}
	svg := string(bracketSVG(b))
	if msg := checkBalanced(svg); msg != "" {
		t.Error(msg)
	}
	if inlineStyleRE.MatchString(svg) || strings.Contains(svg, "<A>") {
		t.Errorf("style attribute or unescaped name in %s", svg)
	}
	// Names are escaped and cut to fit their box; seeds prefix them; the
	// final's box is joined to both semifinal boxes.
	wantContains(t, svg, ">1. Alpha &lt;A&gt;</text>", ">3. Charlie with a name …</text>", `<text class="side winner score"`, ">bye</text>")
	if n := strings.Count(svg, `<path class="link"`); n != 2 {
		t.Errorf("%d connectors, want 2", n)
	}
}

func TestBracketNotices(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	body := getPage(t, f, "/events/atc/bracket")
	wantContains(t, body, "The knockout has not started: its entrants are known once the stage before it ends.")
	body = getPage(t, f, "/events/atc/bracket?stage=1")
	wantContains(t, body, "Stage swiss is a swiss, not a knockout: it has no bracket.")
	if strings.Contains(body, "<svg") {
		t.Error("a drawing without a knockout")
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

func regexpQuote(s string) string { return regexp.QuoteMeta(html.EscapeString(s)) }
