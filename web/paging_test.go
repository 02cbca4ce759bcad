package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/app"
)

// TestConsoleListsArePaged (issue 12): with many entrants and reports of
// cheating the TD console shows a page of each list at a time, with
// links to the others; the counts still cover the whole list.
func TestConsoleListsArePaged(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	ctx := context.Background()
	for i := 11; i <= 120; i++ {
		c := fmt.Sprintf("cap%03d", i)
		if _, err := f.app.Register(ctx, tdActor, "atc", arbiter.Entrant{Name: fmt.Sprintf("Team %03d", i), Captain: c,
			Members: []string{c, fmt.Sprintf("a%03d", i), fmt.Sprintf("b%03d", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 45 {
		member := arbiter.Actor{Name: fmt.Sprintf("a%02d", i%10+1), Role: arbiter.RolePlayer}
		if _, err := f.app.ReportCheating(ctx, member, "atc", app.CheatReportRequest{Suspect: "b09", Text: fmt.Sprintf("report number %d", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	td := f.signIn(t, tdActor.Name)
	res, body := f.as(t, td, "GET", console, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, "120 registered, 110 waiting for approval",
		"entrants 1 to 50 of 120 (page 1 of 3)", `href="?entrants=2#registrations" rel="next"`,
		"reports 1 to 20 of 45 (page 1 of 3)", `href="?reports=2#cheating" rel="next"`)
	if n := strings.Count(body, `<tr id="entrant-`); n != 50 {
		t.Errorf("page 1 lists %d entrants, want 50", n)
	}
	if n := strings.Count(body, `id="close-cheating-`); n != 20 {
		t.Errorf("page 1 lists %d reports, want 20", n)
	}
	res, body = f.as(t, td, "GET", console+"?entrants=3&reports=3", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, "entrants 101 to 120 of 120 (page 3 of 3)", "reports 41 to 45 of 45 (page 3 of 3)",
		`href="?entrants=2&amp;reports=3#registrations" rel="prev"`)
	if n := strings.Count(body, `<tr id="entrant-`); n != 20 {
		t.Errorf("page 3 lists %d entrants, want 20", n)
	}
	// A page beyond the end shows the last.
	_, body = f.as(t, td, "GET", console+"?entrants=99", nil)
	wantContains(t, body, "entrants 101 to 120 of 120")
}
