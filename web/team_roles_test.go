package web

import (
	"net/url"
	"strings"
	"testing"

	"arbiter"
)

// TestTeamFormsAnonymous: every form of this group sends an anonymous
// visitor to sign in and changes nothing.
func TestTeamFormsAnonymous(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	m := openRound2(t, f)[0]
	match := "/events/atc/matches/" + m.ID
	for _, p := range []string{
		"/events/atc/register", match + "/offers", match + "/report", match + "/confirm", match + "/dispute", match + "/appeal",
		match + "/armageddon", "/events/atc/teams/team-01/boards", "/events/atc/teams/team-01/lineup",
		"/events/atc/teams/team-01/wildcard", "/events/atc/teams/team-01/substitution",
	} {
		res, body := f.as(t, "", "POST", p, url.Values{"kind": {"propose"}, "time": {"2025-01-15T18:00"}, "summary": {"forfeit:home"},
			"sheet": {teamSheet}, "reason": {"r"}, "bid": {"100"}, "board": {"cap01"}, "round": {"2"}, "set": {"cap01"}, "in": {"a01"}, "out": {"b01"}})
		wantSignIn(t, res, body)
		if cookieOf(res, flashCookie) != nil {
			t.Errorf("%s: a flash for an anonymous post", p)
		}
	}
	if got := f.match(t, "atc", m.ID); got.Status != arbiter.MatchScheduled || !got.ScheduledAt.IsZero() {
		t.Fatalf("match changed by anonymous posts: %+v", got)
	}
}

// TestWildCardRefusedInSwiss: R9's wild card is for knockout rounds; the
// form shows app's refusal naming the clause.
func TestWildCardRefusedInSwiss(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rkccEvent(t, f)
	cap1 := f.signIn(t, "cap1")
	_, body := f.as(t, cap1, "GET", "/events/rk/teams/team-1/captain", nil)
	if strings.Contains(body, `id="wild-card"`) {
		t.Error("the wild card form is shown for a Swiss round")
	}
	f.submit(t, cap1, "/events/rk/teams/team-1/wildcard", url.Values{"round": {"1"}, "x": {"cap1"}, "y": {"a1"}}).wantRefused(t, "R9")
	f.submit(t, cap1, "/events/rk/teams/team-1/wildcard", url.Values{"round": {""}, "x": {"cap1"}, "y": {"a1"}}).wantRefused(t, "round")
}
