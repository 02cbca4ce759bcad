package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// TestRoundUnderReview: a paired round not yet published shows its
// pairings to the event's TD on the round page, marked as under their
// review and without the share buttons; a team's captain and a visitor
// get the notice and no pairings. Once the TD publishes it, everyone sees
// the same pairings.
func TestRoundUnderReview(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	tdA := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, tdA, app.NewEvent{Slug: "atc", Name: "Antichess Cup", Preset: "antichess-team-cup", Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 10; i++ {
		n := fmt.Sprintf("%02d", i)
		e, err := s.App.Register(ctx, tdA, "atc", arbiter.Entrant{Name: "Team " + n, Captain: "cap" + n, Rating: 2300 - i,
			Members: []string{"cap" + n, "a" + n, "b" + n, "c" + n}})
		noErr(t, err)
		_, err = s.App.Approve(ctx, tdA, "atc", e.ID, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistration(ctx, tdA, "atc")
	noErr(t, err)
	_, ms, err := s.App.PairRound(ctx, tdA, "atc")
	noErr(t, err)
	const page = "/events/atc/rounds/s1r1"

	td := s.tab(t, "td", "")
	td.signInTD(page)
	if got := td.text(`[data-test="round-review"]`); !strings.Contains(got, "under your review") {
		t.Errorf("the TD's review notice %q%s", got, td.where())
	}
	rows := td.rows("table.pairings")
	if len(rows) != len(ms) || !strings.Contains(rows[0], "Team 01") {
		t.Fatalf("the TD sees pairings %q, want %d", rows, len(ms))
	}
	if td.has("#copy-pairings") {
		t.Error("the share buttons are offered for pairings under review")
	}

	// The visitor and the captain take turns in one tab: the visitor's
	// look before cap01 signs in, and again after cap01 signs out (a
	// browser context costs about 1.2 s of Chromium's CPU, a sign-out a
	// page load).
	other := s.tab(t, "visitor", "")
	lookUnderReview := func(b *tab) {
		t.Helper()
		if got := b.text("p.notice"); !strings.Contains(got, "The TDs are reviewing this round's pairings") {
			t.Errorf("%s: notice %q%s", b.name, got, b.where())
		}
		if b.has("table.pairings") {
			t.Errorf("%s sees the pairings under review", b.name)
		}
	}
	other.goTo(page)
	lookUnderReview(other)
	other.name = "cap01"
	other.signInDemo("cap01", page)
	lookUnderReview(other)

	_, err = s.App.PublishRound(ctx, tdA, "atc")
	noErr(t, err)
	lookPublished := func(b *tab) {
		t.Helper()
		b.goTo(page)
		if got := b.rows("table.pairings"); strings.Join(got, "\n") != strings.Join(rows, "\n") {
			t.Errorf("%s: published pairings %q, want %q", b.name, got, rows)
		}
		if b.has(`[data-test="round-review"]`) {
			t.Errorf("%s: still marked under review", b.name)
		}
	}
	lookPublished(td)
	lookPublished(other) // cap01
	other.signOut()
	other.name = "visitor"
	lookPublished(other)
}
