package format

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
)

const minimal = `{
  "name": "mini",
  "title": "Mini",
  "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "deadline": {"day": "sunday", "time": "23:59"}},
  "stages": [
    {"name": "s", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 5}, "advance": {"fixed": 4},
     "tiebreaks": ["buchholz/c1"],
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k", "kind": "knockout", "pairing": "bracket", "seeding": "standings",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}}
  ]
}`

func TestLoadMinimal(t *testing.T) {
	f, err := Load(strings.NewReader(strings.Replace(minimal, `"tiebreaks": ["buchholz/c1"]`, `"tiebreaks": ["buchholz/c1"], "tiebreak_edition": "2024"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Stages[0].TiebreakEdition != "2024" {
		t.Errorf("edition %q", f.Stages[0].TiebreakEdition)
	}
	if f.Stages[0].Match.Parts[0].TC != (TimeControl{BaseSeconds: 60, IncrementSeconds: 2}) {
		t.Errorf("tc %+v", f.Stages[0].Match.Parts[0].TC)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ old, new, field, rule string }{
		{`"1+2", "games": 10`, `"1+x", "games": 10`, "stages[0].match.parts[0].tc", "format.tc"},
		{`"title": "Mini",`, `"title": "Mini", "colour": 1,`, "colour", "format.unknown_field"},
		{`"title": "Mini",`, `"title": "Mini", "eligibility": "rkcc",`, "eligibility", "format.eligibility"},
		{`"games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, `"games": 10, "win": 1, "draw": 0.5, "bonus": 1}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, "stages[0].match.parts[0].bonus", "format.unknown_field"},
		{`"games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, `"games": "ten", "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, "stages[0].match.parts[0].games", "format.type"},
		{`"rounds": {"fixed": 5}`, `"rounds": {"fixed": 5, "log2": {"mul": 1, "add": 2}}`, "stages[0].rounds", "format.count"},
		{`"rounds": {"fixed": 5}, `, ``, "stages[0].rounds", "format.stage.rounds"},
		{`"kind": "swiss"`, `"kind": "ladder"`, "stages[0].kind", "format.stage.kind"},
		{`"pairing": "dutch"`, `"pairing": "berger"`, "stages[0].pairing", "format.stage.pairing"},
		{`"tiebreaks": ["buchholz/c1"]`, `"tiebreaks": ["buchholz/c1", "luck"]`, "stages[0].tiebreaks[1]", "format.tiebreak"},
		{`"tiebreaks": ["buchholz/c1"]`, `"tiebreaks": ["buchholz/c1"], "tiebreak_edition": "2019"`, "stages[0].tiebreak_edition", "format.tiebreak"},
		{`"entrant": "individual"`, `"entrant": "club"`, "entrant", "format.entrant"},
		{`"entrant": "individual"`, `"entrant": "team"`, "team", "format.team"},
		{`"day": "sunday"`, `"day": "Sun"`, "calendar.deadline.day", "format.calendar"},
		{`"time": "23:59"`, `"time": "24:00"`, "calendar.deadline.time", "format.calendar"},
		{`"win": 1, "draw": 0.5}`, `"win": 1, "draw": 0.4}`, "stages[0].match.parts[0].draw", "format.part.points"},
		{`"win": 1, "draw": 0.5}`, `"factor": 0.05}`, "stages[0].match.parts[0].factor", "format.part.points"},
		{`"win": 1, "draw": 0.5}`, `"win": 1, "draw": 0.5, "factor": 2}`, "stages[0].match.parts[0].factor", "format.part.points"},
		{`"advance": {"fixed": 4},`, ``, "stages[0].advance", "format.stage.advance"},
		{`"seeding": "standings"`, `"seeding": "random"`, "stages[1].seeding", "format.stage.seeding"},
		{`"seeding": "standings"`, `"seeding": "cross_pool"`, "stages[1].seeding", "format.stage.seeding"},
		{`"double_forfeit": "loss"}},
    {"name": "k"`, `"double_forfeit": "loss", "tie": [{"kind": "armageddon"}]}},
    {"name": "k"`, "stages[0].match.tie", "format.match.tie"},
		{`"name": "k", "kind": "knockout", "pairing": "bracket", "seeding": "standings",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"`,
			`"name": "k", "kind": "knockout", "pairing": "bracket", "seeding": "standings",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss", "tie": [{"kind": "armageddon"}]`,
			"stages[1].match.tie[0].kind", "format.armageddon"},
		{`"name": "k"`, `"name": "s"`, "stages[1].name", "format.stage.name"},
		{`"name": "mini"`, `"name": "Mini Cup"`, "name", "format.name"},
		{`"kind": "individual", "parts"`, `"kind": "team_boards", "parts"`, "stages[0].match.kind", "format.match.kind"},
		{`"double_forfeit": "loss"}},
    {"name": "k"`, `"double_forfeit": "win"}},
    {"name": "k"`, "stages[0].match.double_forfeit", "format.match.double_forfeit"},
		{`"stages": [`, `"stages": 5, "x": [`, "stages", "format.type"},
		{`"title": "Mini",`, `"title": "Mini", "lichess": {"games": "off", "team": "Lichess Antichess"},`, "lichess.team", "format.lichess"},
		{`"time": "23:59"}}`, `"time": "23:59"}, "appeals": "always"}`, "calendar.appeals", "format.appeals"},
		{`"time": "23:59"}}`, `"time": "23:59"}, "appeals": "window"}`, "calendar.appeal_hours", "format.appeals"},
		{`"time": "23:59"}}`, `"time": "23:59"}, "appeals": "td_discretion", "appeal_hours": 24}`, "calendar.appeal_hours", "format.appeals"},
	} {
		doc := strings.Replace(minimal, c.old, c.new, 1)
		if doc == minimal {
			t.Fatalf("test case %q does not apply", c.old)
		}
		f, err := Load(strings.NewReader(doc))
		var e *arbiter.Error
		if f != nil || !errors.As(err, &e) || e.Field != c.field || e.Rule != c.rule || e.Code != arbiter.EINVALID {
			t.Errorf("%s -> %s: got %v (%#v), want field %s rule %s", c.old, c.new, err, e, c.field, c.rule)
		}
	}
	if _, err := Load(strings.NewReader("{\n  \"name\": ,\n}")); err == nil || !strings.Contains(err.Error(), "2:") {
		t.Errorf("syntax error must give line:column, got %v", err)
	}
}

func TestLoadPoolErrors(t *testing.T) {
	f := mustPreset(t, "acwc-2023")
	f.Stages[1].Pools[1].Places[0] = 12 // duplicate with upper's 12
	err := f.Validate()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Field != "stages[1].pools[1].places[0]" || e.Rule != "format.stage.pools" {
		t.Errorf("got %v", err)
	}
	f = mustPreset(t, "rkcc-team-three-tc")
	f.Stages[0].Match.Parts = f.Stages[0].Match.Parts[:2]
	if err := f.Validate(); !errors.As(err, &e) || e.Field != "stages[0].match.parts" || e.Rule != "format.match.sets" {
		t.Errorf("got %v", err)
	}
}

// Counts, games and points have bounds: a log2 count is never below its
// add (its value for 1 entrant), so "add": -5 would give -4 rounds to 2
// players and is refused; huge values that could overflow the totals are
// refused too.
func TestLoadBounds(t *testing.T) {
	for _, c := range []struct{ old, new, field, rule string }{
		{`"rounds": {"fixed": 5}`, `"rounds": {"log2": {"mul": 1, "add": -5}}`, "stages[0].rounds.log2.add", "format.count"},
		{`"rounds": {"fixed": 5}`, `"rounds": {"log2": {"mul": 1, "add": 0}}`, "stages[0].rounds.log2.add", "format.count"},
		{`"rounds": {"fixed": 5}`, `"rounds": {"log2": {"mul": 1001, "add": 1}}`, "stages[0].rounds.log2.mul", "format.count"},
		{`"rounds": {"fixed": 5}`, `"rounds": {"fixed": 100001}`, "stages[0].rounds.fixed", "format.count"},
		{`"advance": {"fixed": 4}`, `"advance": {"steps": [{"max": 9, "value": 4}, {"min": 10, "value": 1}]}`, "stages[0].advance.steps[1].value", "format.steps"},
		{`"games": 10, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, `"games": 1001, "win": 1, "draw": 0.5}],
               "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, "stages[0].match.parts[0].games", "format.part.games"},
		{`"win": 1, "draw": 0.5}`, `"win": 10000.01, "draw": 5000.005}`, "stages[0].match.parts[0].draw", "format.value"},
		{`"win": 1, "draw": 0.5}`, `"win": 20000, "draw": 10000}`, "stages[0].match.parts[0].win", "format.part.points"},
		{`"win": 1, "draw": 0.5}`, `"factor": 10002}`, "stages[0].match.parts[0].factor", "format.part.points"},
		{`"match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, `"match_points": {"win": 1000000, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "k"`, "stages[0].match.match_points", "format.match_points"},
	} {
		doc := strings.Replace(minimal, c.old, c.new, 1)
		if doc == minimal {
			t.Fatalf("test case %q does not apply", c.old)
		}
		f, err := Load(strings.NewReader(doc))
		var e *arbiter.Error
		if f != nil || !errors.As(err, &e) || e.Field != c.field || e.Rule != c.rule || e.Code != arbiter.EINVALID {
			t.Errorf("%s: got %v, want field %s rule %s", c.new, err, c.field, c.rule)
		}
	}
	// The bounds themselves load; W5's log2 with add 2 gives 3 rounds to 2 players.
	for _, ok := range []string{`"rounds": {"fixed": 100000}`, `"rounds": {"log2": {"mul": 1000, "add": 1}}`} {
		if _, err := Load(strings.NewReader(strings.Replace(minimal, `"rounds": {"fixed": 5}`, ok, 1))); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestPresetAppeals: RKCC has the 24 h window of R5; the antichess cup and
// ACWC leave disputes to the TDs (antichess §1, ACWC §1), no fixed window.
func TestPresetAppeals(t *testing.T) {
	for _, c := range []struct {
		preset, mode string
		hours        int
	}{
		{"rkcc-team-three-tc", AppealsWindow, 24},
		{"antichess-team-cup", AppealsTDDiscretion, 0},
		{"acwc-2023", AppealsTDDiscretion, 0},
	} {
		f := mustPreset(t, c.preset)
		if got := f.Calendar.AppealMode(); got != c.mode || f.Calendar.AppealHours != c.hours {
			t.Errorf("%s: appeals %q, %d h; want %q, %d h", c.preset, got, f.Calendar.AppealHours, c.mode, c.hours)
		}
	}
}
