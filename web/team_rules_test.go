package web

import (
	"net/url"
	"testing"
)

// TestTDTeamRules: the TD records a team's antichess titles on the
// console and checks A11 (here without Lichess: the board-4 cap stays
// unknown for the TD); three AGM or higher fail (A11), shown in the
// registrations table. A bad title is refused naming the field.
func TestTDTeamRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	tk := signInTD(t, f)
	p := console + "/entrants/team-01/team-rules"
	f.post(t, tk.td, p, url.Values{"titles": {"cap01 AGM"}}, console, true, "titles")
	f.post(t, tk.td, p, url.Values{"titles": {"cap01:GM"}}, console, true, "AGM, ASGM or none")
	f.post(t, tk.td, p, url.Values{"titles": {"cap01:AGM, a01:ASGM, b01:AGM, c01:none"}}, console, false, "A11 team rules of team-01: fail")
	_, body := f.as(t, tk.td, "GET", console, nil)
	checkPage(t, console, body)
	wantContains(t, body, `<details id="team-rules-team-01">`, "Team rules (A11): <strong>fail</strong>", "at most two AGM or higher in a team (an unclaimed AGM counts): 3 AGM or higher",
		`<form id="team-rules-form-team-02"`)
}
