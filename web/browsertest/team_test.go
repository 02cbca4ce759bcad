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

// TestTeamEventLineup runs an RKCC team event (set lineups, R7) up to the
// first round: a captain registers a team on the registration page, finds
// the lineup due on their page, is refused a lineup with one player in
// two sets, submits one, and the round's match shows it. The TD's part
// (create the event, approve the teams, close registration, pair and
// publish round 1) goes through package app: TestIndividualEvent clicks
// the same console forms and new-event page (a TD tab and its 16 page
// loads were half of this test's CPU).
func TestTeamEventLineup(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	tdA := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, tdA, app.NewEvent{Slug: "rk", Name: "RKCC 2025", Preset: "rkcc-team-three-tc", Start: time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)

	cap1 := s.tab(t, "cap1", "")
	cap1.signInDemo("cap1", "/events/rk/register")
	cap1.typeInto("#team-name", "Team 1")
	cap1.typeInto("#member-0", "a1")
	cap1.typeInto("#member-1", "b1")
	cap1.typeInto("#substitute", "c1")
	cap1.typeInto("#rating", "1999")
	cap1.click("#register-submit")
	cap1.wantFlash("Registered")
	if got := cap1.rows("#my-registrations"); !slices.Equal(got, []string{"Team 1|cap1, a1, b1 (substitute c1)|1999|pending"}) {
		t.Fatalf("cap1's registration row %q", got)
	}
	// Seven more teams register through package app.
	for i := 2; i <= 8; i++ {
		c := fmt.Sprintf("cap%d", i)
		_, err := s.App.Register(ctx, arbiter.Actor{Name: c, Role: arbiter.RoleCaptain}, "rk", arbiter.Entrant{Name: fmt.Sprintf("Team %d", i), Captain: c,
			Rating: 2000 - i, Members: []string{c, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}, Substitute: fmt.Sprintf("c%d", i)})
		if err != nil {
			t.Fatal(err)
		}
	}
	es, err := s.App.Entrants(ctx, "rk")
	noErr(t, err)
	if len(es) != 8 {
		t.Fatalf("%d teams registered, want 8", len(es))
	}
	for _, e := range es {
		_, err := s.App.Approve(ctx, tdA, "rk", e.ID, 0)
		noErr(t, err)
	}
	if _, err := s.App.CloseRegistration(ctx, tdA, "rk"); err != nil {
		t.Fatal(err)
	}

	// cap1's page names the team (not its id) and the lineup due.
	s.clock.Set(time.Date(2025, 1, 3, 9, 0, 0, 0, time.UTC))
	cap1.goTo("/me")
	if got := cap1.text("#event-rk p.lead"); !strings.Contains(got, "captain of Team 1") || strings.Contains(got, "team-1") {
		t.Errorf("cap1's roles read %q, want the team's name", got)
	}
	due := cap1.text(`#event-rk [data-test="lineup-due"]`)
	if !strings.Contains(due, "The lineup of round 1 is due before Mon 6 Jan 2025 00:00 UTC (R7)") {
		t.Fatalf("lineup due: %q", due)
	}
	cap1.click(`#event-rk [data-test="lineup-due"] a`)
	if p := cap1.path(); p != "/events/rk/teams/team-1/captain?round=1" {
		t.Fatalf("the lineup link leads to %s", p)
	}
	if got := cap1.text("#current-lineup"); got != "No lineup submitted yet." {
		t.Fatalf("current lineup %q", got)
	}
	if got := cap1.texts("#lineup label"); !slices.Equal(got, []string{"Set 1 (3+2)", "Set 2 (1.5+1)", "Set 3 (0.75+0)"}) {
		t.Fatalf("lineup form labels %q", got)
	}
	// One player in two sets is refused, with the reason shown.
	cap1.setValue("#set-0", "a1")
	cap1.setValue("#set-1", "a1")
	cap1.setValue("#set-2", "cap1")
	cap1.click("#lineup-submit")
	if msg, refused := cap1.flash(); !refused || !cap1.has(`p.flash[role="alert"]`) || !strings.Contains(msg, "sets[1]") || !strings.Contains(msg, "R7") {
		t.Fatalf("a lineup with a1 twice: flash %q (refused %v), want an alert naming sets[1] and R7", msg, refused)
	}
	if got := cap1.text("#current-lineup"); got != "No lineup submitted yet." {
		t.Fatalf("after the refusal the current lineup reads %q", got)
	}
	cap1.setValue("#set-0", "a1")
	cap1.setValue("#set-1", "b1")
	cap1.setValue("#set-2", "cap1")
	cap1.click("#lineup-submit")
	cap1.wantFlash("Lineup for round 1 saved")
	if got := cap1.text("#current-lineup"); got != "Lineup submitted for this round: 3+2 a1, 1.5+1 b1, 0.75+0 cap1." {
		t.Fatalf("current lineup %q", got)
	}
	l, from, err := s.App.Lineup(ctx, arbiter.NamedUser("cap1"), "rk", "team-1", 1)
	if err != nil || from != 1 || !slices.Equal(l.Sets, []string{"a1", "b1", "cap1"}) {
		t.Fatalf("stored lineup %v (from round %d): %v", l, from, err)
	}

	// The TD pairs and publishes round 1: cap1's match plays that lineup.
	if rd, _, err := s.App.PairRound(ctx, tdA, "rk"); err != nil || rd.ID != "s1r1" {
		t.Fatalf("pair round 1: %+v, %v", rd, err)
	}
	_, err = s.App.PublishRound(ctx, tdA, "rk")
	noErr(t, err)
	cap1.goTo("/me")
	if got := cap1.rows("#event-rk table.my-pairings"); len(got) != 1 || !strings.HasPrefix(got[0], "s1r1b1|Team 1|Team 5|not agreed|scheduled|result to report") {
		t.Fatalf("cap1's pairings %q", got)
	}
}
