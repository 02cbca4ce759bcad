package browsertest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/web"
)

// TestPairingEdit: the TD pairs round 2 of a twelve-player ACWC event
// (round 1 played, the better seed winning), opens the review from the
// console, swaps p01 (one point) with a player of a board of losers with a
// reason, sees the warning naming the criteria broken (a score
// difference, C6), publishes the round, and finds the reason in the
// audit log. The event and round 1 go through package app
// (TestIndividualEvent creates an event on /events/new).
func TestPairingEdit(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	tdActor := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "pe", Name: "Pairing Cup", Preset: "acwc-2023", Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("p%02d", i)
		e, err := s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "pe", arbiter.Entrant{Player: name, Rating: 2550 - 50*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, tdActor, "pe", e.ID, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistrationWith(ctx, tdActor, "pe", app.CloseOptions{InitialColour: "white", Reason: "lot drawn on the stream"})
	noErr(t, err)
	// Round 1 through package app: the better seed wins every match.
	rd, ms, err := s.App.PairRound(ctx, tdActor, "pe")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, tdActor, "pe")
	noErr(t, err)
	s.clock.Set(rd.Start.Add(time.Hour))
	for _, m := range ms {
		sum := "6-4"
		if num(m.Away) < num(m.Home) {
			sum = "4-6"
		}
		_, err := s.App.ReportResult(ctx, arbiter.Actor{Name: m.Home, Role: arbiter.RolePlayer}, "pe", m.ID, app.ResultInput{Summary: sum})
		noErr(t, err)
		_, err = s.App.ConfirmResult(ctx, arbiter.Actor{Name: m.Away, Role: arbiter.RolePlayer}, "pe", m.ID, 0)
		noErr(t, err)
	}
	s.clock.Set(rd.End)
	_, err = s.App.CloseRound(ctx, tdActor, "pe")
	noErr(t, err)

	// The TD pairs round 2 in the console and opens the review.
	td := s.tab(t, "td", "")
	td.signInTD("/events/pe/td")
	td.click(`#pair-round button[type=submit]`)
	td.wantFlash("Round s1r2 paired")
	td.click("#review-pairings")
	if p := td.path(); p != "/events/pe/td/pairings" {
		t.Fatalf("the review link leads to %s", p)
	}
	if h := td.text("#review-h"); !strings.Contains(h, "Round s1r2 of qualification: paired, not published") {
		t.Fatalf("review heading %q", h)
	}
	if facts := td.text("#board-1"); !strings.Contains(facts, "score 1") || !strings.Contains(facts, "colours") {
		t.Fatalf("board 1 shows %q, want scores and colours", facts)
	}
	// A board of two losers that p01 has not met: p01 takes one of them
	// as opponent, floating down (C6).
	r2, err := s.App.Matches(ctx, "pe", "s1r2")
	noErr(t, err)
	var other string
	for _, m := range slices.Backward(r2) {
		if !m.IsBye() && m.Home != "p07" && m.Away != "p07" && m.Home != "p01" && m.Away != "p01" {
			other = m.Home
			break
		}
	}
	td.setValue("#edit-a", "p01")
	td.setValue("#edit-b", other)
	td.fill("#edit-reason", "p01 asked to meet a new opponent")
	td.click(`#edit-pairing button[value="apply"]`)
	td.wantFlash("Swapped the opponents of p01 and "+other, "Warning:", "floats down", "(C6)")
	if edits := td.text(`[data-test="edits"]`); !strings.Contains(edits, "p01 asked to meet a new opponent") {
		t.Fatalf("the review lists the edits %q", edits)
	}
	if w := strings.Join(td.texts(`[data-test="warnings"]`), " | "); !strings.Contains(w, "(C6)") {
		t.Fatalf("the boards' warnings %q", w)
	}

	td.goTo("/events/pe/td")
	td.click(`#publish-round button[type=submit]`)
	td.wantFlash("published")
	td.goTo("/events/pe/td/audit?kind=pairing_edit")
	if got := strings.Join(td.texts(`[data-test="audit-reason"]`), " | "); !strings.Contains(got, "p01 asked to meet a new opponent (breaks: ") {
		t.Fatalf("audit reasons %q", got)
	}
}
