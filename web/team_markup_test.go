package web

import (
	"net/url"
	"strings"
	"testing"
)

// TestTeamPagesWellFormed renders every page of this group in each role
// that sees a different part of it and checks nesting, CSP cleanliness,
// one h1, and a label for every visible input.
func TestTeamPagesWellFormed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	rankTeam01(t, f)
	m := openRound2(t, f)[0]
	home, away := f.signIn(t, captainOf(m.Home)), f.signIn(t, captainOf(m.Away))
	f.submit(t, home, "/events/atc/matches/"+m.ID+"/report", url.Values{"sheet": {teamSheet}}).wantOK(t, "reported")
	cap01, td := f.signIn(t, "cap01"), f.signIn(t, "ArbiterTD")
	pages := []struct{ tok, path string }{
		{cap01, "/me"}, {home, "/me"}, {td, "/me"}, {f.signIn(t, "nobody"), "/me"},
		{cap01, "/events/atc/register"},
		{"", "/events/atc/matches/s1r1b1"}, {cap01, "/events/atc/matches/s1r1b1"}, {td, "/events/atc/matches/s1r1b1"},
		{home, "/events/atc/matches/" + m.ID}, {away, "/events/atc/matches/" + m.ID}, {"", "/events/atc/matches/" + m.ID},
		{cap01, "/events/atc/teams/team-01/captain"}, {f.signIn(t, "a01"), "/events/atc/teams/team-01/captain"},
		{cap01, "/events/atc/teams/team-02/captain"}, // 403 page
	}
	g := newFixture(t)
	rkccEvent(t, g)
	mw := acwcEvent(t, g)
	p01 := g.signIn(t, "p01")
	g.submit(t, p01, "/events/wc/matches/"+mw.ID+"/offers", url.Values{"kind": {"propose"}, "time": {"2023-03-22T18:00", "2023-03-23T18:00", "2023-03-24T18:00"}}).wantOK(t, "recorded")
	gpages := []struct{ tok, path string }{
		{g.signIn(t, "cap1"), "/events/rk/teams/team-1/captain"}, {g.signIn(t, "cap1"), "/events/rk/register"},
		{g.signIn(t, "p07"), "/events/wc/matches/" + mw.ID}, {p01, "/events/wc/matches/" + mw.ID}, {p01, "/me"},
	}
	check := func(fx *fixture, tok, path string) {
		_, body := fx.as(t, tok, "GET", path, nil)
		if msg := checkBalanced(body); msg != "" {
			t.Errorf("%s: %s", path, msg)
		}
		if inlineStyleRE.MatchString(body) || inlineHandlerRE.MatchString(body) {
			t.Errorf("%s: inline style or event handler", path)
		}
		for _, s := range inlineScriptRE.FindAllString(body, -1) {
			if !strings.Contains(s, ` src="/static/`) {
				t.Errorf("%s: inline script %s", path, s)
			}
		}
		if strings.Count(body, "<h1") != 1 {
			t.Errorf("%s: want one h1", path)
		}
		// Every visible input, select and textarea has a label.
		for _, tag := range inputRE.FindAllStringSubmatch(body, -1) {
			if strings.Contains(tag[0], `type="hidden"`) {
				continue
			}
			id := idRE.FindStringSubmatch(tag[0])
			if id == nil || !strings.Contains(body, `<label for="`+id[1]+`"`) {
				t.Errorf("%s: no label for %s", path, tag[0])
			}
		}
	}
	for _, p := range pages {
		check(f, p.tok, p.path)
	}
	for _, p := range gpages {
		check(g, p.tok, p.path)
	}
}
