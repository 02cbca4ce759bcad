package web

import (
	"regexp"
	"strings"
	"testing"
)

var nowRE = regexp.MustCompile(`(?s)<section id="now".*?</section>`)

// The event page of a running event says where it stands: round 1 of the
// antichess cup is completed (team-01 beat team-06 348-228, the other four
// matches were ruled double forfeits), so Team 01 leads alone with a
// match win (1 match point, as the crosstable shows) and the five
// results are listed.
func TestEventPageNow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	body := getPage(t, f, "/events/atc")
	if strings.Contains(body, `id="now"`) {
		t.Errorf("registration: the page has a Now box")
	}
	playRound1(t, f)
	body = getPage(t, f, "/events/atc")
	now := stripTags(nowRE.FindString(body))
	now = strings.Join(strings.Fields(now), " ")
	for _, want := range []string{
		"Round 1 of 9 (swiss) is completed; the next round is not published yet.",
		"Leader after round 1: Team 01 (score 1).",
		"Latest results, round 1",
		"Team 01 – Team 06: 348–228, Team 01 won",
	} {
		if !strings.Contains(now, want) {
			t.Errorf("Now box lacks %q:\n%s", want, now)
		}
	}
	if n := strings.Count(nowRE.FindString(body), "<li>"); n != 5 {
		t.Errorf("%d results listed, want the round's 5", n)
	}
}
