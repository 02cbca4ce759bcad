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
	"arbiter/lineup"
)

// TestPastStartConfirmation: the TD types a start that is already past;
// the page shows it spelled out in UTC and asks for a confirmation; only
// then is the event created.
func TestPastStartConfirmation(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	td := s.tab(t, "td", "")
	td.signInTD("/events/new")
	td.fill("#slug", "old")
	td.fill("#name", "Old Cup")
	td.setValue("#preset", "acwc-2023")
	td.setValue("#start", "2024-12-31T18:00")
	td.click("#create-event")
	if got := td.text("#past-start"); !strings.Contains(got, "The first round would start on Tue 31 Dec 2024 18:00 UTC, which is in the past.") {
		t.Fatalf("past start notice %q", got)
	}
	if !td.has("#allow_past") || td.path() != "/events/new" {
		t.Fatalf("no confirmation offered at %s", td.path())
	}
	if v := eval[string](td, `document.getElementById("name").value`); v != "Old Cup" {
		t.Errorf("the form lost the name: %q", v)
	}
	if _, err := s.App.Event(context.Background(), "old"); err == nil {
		t.Fatal("the event was created before the confirmation")
	}
	td.do("confirm the past start", chromedp.Click(chromedp.CSS("#allow_past")))
	td.click("#create-event")
	td.wantFlash("Created Old Cup")
	ev, err := s.App.Event(context.Background(), "old")
	if err != nil || !ev.Start.Equal(time.Date(2024, 12, 31, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("created %+v %v", ev, err)
	}
}

// podium: a finished event's page shows the winner and the podium, and
// every place on request, to a visitor. A part of TestPhonePagesFit, on
// its demo site's finished antichess cup "ac" and its tab before anyone
// signs in (once its own test: a site, a demo run and a browser context
// of its own).
func podium(t *testing.T, s *site, v *tab, slug string) {
	ps, err := s.App.Ranking(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	v.goTo("/events/" + slug)
	if got := v.text(`[data-test="winner"]`); got != "Winner: "+ps[0].Name {
		t.Fatalf("winner %q, want %s", got, ps[0].Name)
	}
	places := v.texts(".podium li")
	if len(places) != 3 {
		t.Fatalf("podium %q", places)
	}
	for i, want := range []string{"1st " + ps[0].Name + " won the final", "2nd " + ps[1].Name + " lost the final", "3rd " + ps[2].Name + " won the third-place match"} {
		if places[i] != want {
			t.Errorf("place %d: %q, want %q", i+1, places[i], want)
		}
	}
	if eval[bool](v, `document.getElementById("full-ranking").open`) {
		t.Error("every place is shown before it is asked for")
	}
	v.do("open every place", chromedp.Click(chromedp.CSS("#full-ranking summary")))
	if !eval[bool](v, `document.getElementById("full-ranking").open`) {
		t.Error("every place does not open")
	}
	if rows := v.rows("#full-ranking table"); len(rows) != 10 || !strings.HasPrefix(rows[3], "4|"+ps[3].Name+"|lost the third-place match") {
		t.Fatalf("full ranking %q", rows)
	}
}

// TestBoardAgreedTimes: in the antichess cup each board's players agree
// their own time (A5): team-01's captain offers three times for board 2,
// team-06's captain accepts one for his board 2 player (A16); board 2
// shows its agreed time, board 1 none. a01, team-01's board 2 player, may
// act on board 2 only.
func TestBoardAgreedTimes(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	tdA := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.App.CreateEvent(ctx, tdA, app.NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)})
	must(err)
	for i := 1; i <= 10; i++ {
		n := fmt.Sprintf("%02d", i)
		e, err := s.App.Register(ctx, tdA, "atc", arbiter.Entrant{Name: "Team " + n, Captain: "cap" + n, Rating: 2300 - i,
			Members: []string{"cap" + n, "a" + n, "b" + n, "c" + n}})
		must(err)
		_, err = s.App.Approve(ctx, tdA, "atc", e.ID, 0)
		must(err)
	}
	_, err = s.App.CloseRegistration(ctx, tdA, "atc")
	must(err)
	for _, n := range []string{"01", "06"} {
		_, err := s.App.RankBoards(ctx, tdA, "atc", "team-"+n, []lineup.Member{{Name: "cap" + n, Rating: 2000}, {Name: "a" + n, Rating: 1900},
			{Name: "b" + n, Rating: 1800}, {Name: "c" + n, Rating: 1700}}, nil)
		must(err)
	}
	_, ms, err := s.App.PairRound(ctx, tdA, "atc")
	must(err)
	_, err = s.App.PublishRound(ctx, tdA, "atc")
	must(err)
	s.clock.Set(time.Date(2025, 1, 7, 10, 0, 0, 0, time.UTC))
	m := ms[0] // team-01 v team-06
	page := "/events/atc/matches/" + m.ID

	home, away := s.tab(t, "cap01", ""), s.tab(t, "cap06", "")
	home.signInDemo("cap01", page)
	for i, at := range []string{"2025-01-08T18:00", "2025-01-09T18:00", "2025-01-10T18:00"} {
		home.setValue(fmt.Sprintf("#offer-time-2-%d", i), at)
	}
	home.click("#offer-submit-2")
	home.wantFlash("offer is recorded")
	away.signInDemo("cap06", page)
	if got := away.texts(`#board-2-time .accept-offer label`); len(got) != 3 || got[1] != "Thu 9 Jan 2025 18:00 UTC" {
		t.Fatalf("cap06 may accept %q on board 2", got)
	}
	away.do("choose the second time", chromedp.Click(chromedp.CSS("#accept-2-1")))
	away.click("#accept-submit-2")
	away.wantFlash("Agreed: board 2 starts Thu 9 Jan 2025 18:00 UTC")
	if got := away.text(`#board-2-time [data-test="board-time"]`); !strings.HasPrefix(got, "Agreed start Thu 9 Jan 2025 18:00 UTC") {
		t.Errorf("board 2 shows %q", got)
	}
	if got := away.text(`#board-1-time [data-test="board-time"]`); got != "No time offered yet." {
		t.Errorf("board 1 shows %q", got)
	}
	// a01 and then a visitor take cap01's tab, one after the other
	// (users_test.go: a tab each would cost 1.2 s of CPU apiece).
	a01 := home
	a01.signOut()
	a01.name = "a01"
	a01.signInDemo("a01", page)
	if a01.has("#offer-time-board-1") || a01.has("#offer-time-board-3") {
		t.Error("a01 is offered another board's forms")
	}
	round := a01
	round.signOut()
	round.name = "visitor"
	round.goTo("/events/atc/rounds/s1r1")
	if got := round.text(".board-times li"); !strings.HasPrefix(got, "board 2: Thu 9 Jan 2025 18:00 UTC") {
		t.Errorf("the round page shows %q", got)
	}
}
