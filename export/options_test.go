package export_test

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
	"arbiter/export"
)

func TestChallongeFiles(t *testing.T) {
	t.Parallel()
	s := teamSnapshot(t)
	res := readCSV(t, write(t, s, export.Options{Format: "challonge"}))
	want := [][]string{
		{"Round", "Match", "Player 1", "Player 2", "Scores", "Winner"},
		// R10: set points are the game score times the TC factor: 2.5-3.5
		// x 40, 4-6 x 24, 10.5-5.5 x 15.
		{"1", "s2r1b1", "Knights, Inc. | A", "'=Rooks", "100-140,96-144,157.5-82.5", "'=Rooks"},
	}
	checkCells(t, "challonge results", res, want)
	golden(t, "team-challonge.csv", write(t, s, export.Options{Format: "challonge"}))
	// Bulk Add: one name per line, seed order, no header, no comma.
	got := string(write(t, s, export.Options{Format: "challonge", What: "entrants"}))
	if got != "Knights  Inc. | A\r\n'=Rooks\r\n" {
		t.Errorf("bulk add list = %q", got)
	}
	b := export.ChallongeBracketOf(s, 1)
	if len(b.Participants) != 2 || b.Participants[1] != (export.ChallongeParticipant{Seed: 2, ID: "rooks", Name: "=Rooks"}) {
		t.Errorf("participants %+v", b.Participants)
	}
	if m := b.Matches[0]; m.Winner != "rooks" || m.ScoresCSV(true) != "140-100,144-96,82.5-157.5" {
		t.Errorf("match %+v, flipped %s", m, m.ScoresCSV(true))
	}
}

// TestResolveErrors: options that do not fit name the option at fault.
func TestResolveErrors(t *testing.T) {
	t.Parallel()
	s := swissSnapshot(t)
	reg := swissSnapshot(t)
	reg.Event.Status = arbiter.EventRegistration
	cases := []struct {
		snap  *export.Snapshot
		o     export.Options
		field string
		code  string
		msg   string
	}{
		{s, export.Options{}, "format", arbiter.EINVALID, "give a format"},
		{s, export.Options{Format: "pdf"}, "format", arbiter.EINVALID, `unknown format "pdf"`},
		{s, export.Options{Format: "trf", What: "standings"}, "what", arbiter.EINVALID, "what does not apply"},
		{s, export.Options{Format: "ics", What: "pairings"}, "what", arbiter.EINVALID, "what does not apply"},
		{s, export.Options{Format: "csv", What: "state"}, "what", arbiter.EINVALID, "csv exports standings, pairings, results, entrants"},
		{s, export.Options{Format: "markdown", What: "standings", Round: 2}, "round", arbiter.EINVALID, "standings count every round"},
		{s, export.Options{Format: "markdown", What: "entrants", Stage: 1}, "stage", arbiter.EINVALID, "stage does not apply"},
		{s, export.Options{Format: "markdown", What: "pairings", Round: 4}, "round", arbiter.EINVALID, "rounds 1 to 3, not 4"},
		{s, export.Options{Format: "markdown", What: "pairings", Stage: 3}, "stage", arbiter.EINVALID, "stages 1 to 2, not 3"},
		{s, export.Options{Format: "markdown", What: "pairings", Stage: 2}, "stage", arbiter.EINVALID, "has not begun"},
		{s, export.Options{Format: "csv", TRFVersion: 2016}, "trf-version", arbiter.EINVALID, "goes with format trf"},
		{s, export.Options{Format: "trf", TRFVersion: 2020}, "trf-version", arbiter.EINVALID, "2026 or 2016"},
		{s, export.Options{Format: "trf", Stage: 2}, "stage", arbiter.EINVALID, "needs a swiss stage; stage 2 (knockout) is a knockout"},
		{s, export.Options{Format: "challonge"}, "format", arbiter.EINVALID, "needs the knockout stage (stage 2, knockout), which has not begun"},
		{s, export.Options{Format: "markdown", Entrant: "alice"}, "entrant", arbiter.EINVALID, "narrows a calendar"},
		{s, export.Options{Format: "ics", Entrant: "nobody"}, "entrant", arbiter.EINVALID, `"nobody" is not an entrant`},
		{s, export.Options{Format: "ics", Player: "nobody"}, "player", arbiter.EINVALID, "plays for no entrant"},
		{s, export.Options{Format: "ics", Round: 1}, "round", arbiter.EINVALID, "covers the whole event"},
		{reg, export.Options{Format: "csv"}, "what", arbiter.EINVALID, "still in registration"},
		{reg, export.Options{Format: "trf"}, "format", arbiter.EINVALID, "still in registration"},
	}
	for _, c := range cases {
		_, err := export.Resolve(c.snap, c.o)
		var ae *arbiter.Error
		if !errors.As(err, &ae) {
			t.Errorf("%+v: err = %v, want an *arbiter.Error", c.o, err)
			continue
		}
		if ae.Field != c.field || ae.Code != c.code || !strings.Contains(ae.Message, c.msg) {
			t.Errorf("%+v: %s %q %q, want %s %q containing %q", c.o, ae.Code, ae.Field, ae.Message, c.code, c.field, c.msg)
		}
	}
	// A round the viewer may not see is not found; the TDs see it.
	hidden := swissSnapshot(t)
	hidden.Rounds = hidden.Rounds[:2]
	_, err := export.Resolve(hidden, export.Options{Format: "markdown", What: "pairings", Round: 3})
	if arbiter.ErrorCode(err) != arbiter.ENOTFOUND || !strings.Contains(err.Error(), "not published yet") {
		t.Errorf("hidden round: %v", err)
	}
	// What the registration allows: entrants, the state post, calendars.
	for _, o := range []export.Options{{Format: "markdown", What: "entrants"}, {Format: "csv", What: "entrants"}, {Format: "markdown"}, {Format: "ics"}} {
		if _, err := export.Resolve(reg, o); err != nil {
			t.Errorf("in registration %+v: %v", o, err)
		}
	}
	// Defaults: the stage being played and its latest round.
	o, err := export.Resolve(s, export.Options{Format: "MARKDOWN", What: "Results"})
	if err != nil || o.Stage != 1 || o.Round != 3 || o.Format != "markdown" || o.What != "results" {
		t.Errorf("defaults: %+v, %v", o, err)
	}
	if got := export.Filename(s, o); got != "spring-open-s1r3-results.md" {
		t.Errorf("filename %s", got)
	}
}

func TestAvailable(t *testing.T) {
	t.Parallel()
	var got []string
	for _, o := range export.Available(swissSnapshot(t)) {
		got = append(got, o.Query())
	}
	want := []string{
		"format=markdown&what=state", "format=markdown&what=entrants", "format=csv&what=entrants", "format=ics",
		"format=trf&stage=1&trf-version=2026", "format=trf&stage=1&trf-version=2016",
		"format=markdown&stage=1&what=standings", "format=csv&stage=1&what=standings",
	}
	for r := 1; r <= 3; r++ {
		for _, f := range []string{"markdown", "csv"} {
			for _, w := range []string{"pairings", "results"} {
				want = append(want, "format="+f+"&round="+itoa(r)+"&stage=1&what="+w)
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("available:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
