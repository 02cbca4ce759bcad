package teamswiss

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"arbiter"
)

// Bad input is an EINVALID error naming the field; nothing is paired.
func TestBadInput(t *testing.T) {
	base := func() *Event {
		ev := newEvent(5, "a", "b", "c", "d")
		ev.addRound("", won("a", "c", 400, 320), lost("d", "b", 200, 520))
		return ev
	}
	tests := []struct {
		name  string
		edit  func(*Event)
		field string
		text  string
	}{
		{"no teams", func(ev *Event) { ev.Teams = nil }, "teams", "no teams"},
		{"points order", func(ev *Event) { ev.Points.Draw = 100 }, "points", "win > draw > loss"},
		{"bye above a win", func(ev *Event) { ev.Points.Bye = 200 }, "points.bye", "between"},
		{"no round left", func(ev *Event) { ev.TotalRounds = 1 }, "total_rounds", "no round to pair"},
		{"no lot", func(ev *Event) { ev.InitialColour = "" }, "initial_colour", "white or black"},
		{"empty id", func(ev *Event) { ev.Teams[2].ID = "" }, "teams[2].id", "needs an id"},
		{"duplicate id", func(ev *Event) { ev.Teams[1].ID = "a" }, "teams[1].id", "listed twice"},
		{"missing round", func(ev *Event) { ev.Teams[3].Rounds = nil }, "teams[3].rounds", "every team lists every paired round"},
		{"seed out of range", func(ev *Event) { ev.Teams[0].Seed = 9 }, "teams[0].seed", "1..4"},
		{"some seeds only", func(ev *Event) { ev.Teams[1].Seed = 0 }, "teams[1].seed", "1..4"},
		{"seed twice", func(ev *Event) { ev.Teams[1].Seed = 1 }, "teams[1].seed", "two teams"},
		{"unknown result", func(ev *Event) { ev.Teams[0].Rounds[0].Result = "won" }, "teams[0].rounds[0].result", "want played"},
		{"unknown opponent", func(ev *Event) { ev.Teams[0].Rounds[0].Opponent = "z" }, "teams[0].rounds[0].opponent", `no team "z"`},
		{"self", func(ev *Event) { ev.Teams[0].Rounds[0].Opponent = "a" }, "teams[0].rounds[0].opponent", "itself"},
		{"one-sided", func(ev *Event) { ev.Teams[2].Rounds[0].Opponent = "d" }, "teams[0].rounds[0].opponent", `team "c"'s round 1 says opponent "d"`},
		{"results disagree", func(ev *Event) { ev.Teams[2].Rounds[0].Result = Forfeit }, "teams[0].rounds[0].opponent", "(forfeit)"},
		{"both won", func(ev *Event) { ev.Teams[2].Rounds[0].MatchPoints = 100 }, "teams[0].rounds[0].match_points", "won/lost or drawn"},
		{"odd match points", func(ev *Event) { ev.Teams[0].Rounds[0].MatchPoints = 75 }, "teams[0].rounds[0].match_points", "win, draw or loss"},
		{"both White", func(ev *Event) { ev.Teams[2].Rounds[0].White = true }, "teams[0].rounds[0].white", "exactly one"},
		{"drawn forfeit", func(ev *Event) {
			for _, i := range []int{0, 2} {
				ev.Teams[i].Rounds[0].Result, ev.Teams[i].Rounds[0].MatchPoints = Forfeit, 50
			}
		}, "teams[0].rounds[0].match_points", "forfeited match"},
		{"uneven double forfeit", func(ev *Event) {
			ev.Teams[0].Rounds[0].Result, ev.Teams[2].Rounds[0].Result = DoubleForfeit, DoubleForfeit
		}, "teams[0].rounds[0].match_points", "same loss"},
		{"bye with opponent", func(ev *Event) {
			ev.Teams[1].Rounds[0] = Round{Result: Bye, Opponent: "d", MatchPoints: 100}
		}, "teams[1].rounds[0].opponent", "no opponent"},
		{"bye value", func(ev *Event) {
			ev.Teams[1].Rounds[0] = Round{Result: Bye, MatchPoints: 50}
			ev.Teams[3].Rounds[0] = Round{Result: Absent}
		}, "teams[1].rounds[0].match_points", "bye is worth 1"},
		{"forbidden single", func(ev *Event) { ev.Forbidden = []ForbiddenGroup{{Teams: []string{"a"}}} }, "forbidden[0].teams", "at least two"},
		{"forbidden unknown", func(ev *Event) { ev.Forbidden = []ForbiddenGroup{{Teams: []string{"a", "q"}}} }, "forbidden[0].teams[1]", `no team "q"`},
		{"forbidden rounds", func(ev *Event) {
			ev.Forbidden = []ForbiddenGroup{{Teams: []string{"a", "b"}, FirstRound: 3, LastRound: 2}}
		}, "forbidden[0]", "3..2"},
	}
	if _, err := Pair(base()); err != nil {
		t.Fatalf("base event: %v", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := base()
			tc.edit(ev)
			p, err := Pair(ev)
			var ae *arbiter.Error
			if p != nil || err == nil || arbiter.ErrorCode(err) != arbiter.EINVALID {
				t.Fatalf("Pair = %v, %v; want an %s error", p, err, arbiter.EINVALID)
			}
			ae = err.(*arbiter.Error)
			if ae.Field != tc.field || !strings.Contains(ae.Message, tc.text) || ae.Rule == "" {
				t.Errorf("error %q (field %q, rule %q); want field %q and text %q", err, ae.Field, ae.Rule, tc.field, tc.text)
			}
			if _, oerr := Order(ev); oerr == nil {
				t.Errorf("Order accepted what Pair rejects")
			}
		})
	}
}

// The JSON form uses the documented names.
func TestEventJSON(t *testing.T) {
	const doc = `{
  "points": {"win": 1, "draw": 0.5, "loss": 0, "bye": 1},
  "total_rounds": 5,
  "initial_colour": "black",
  "forbidden": [{"teams": ["c", "d"]}],
  "teams": [
    {"id": "a", "seed": 1, "rounds": [{"opponent": "c", "white": true, "result": "played", "match_points": 1, "secondary": 400}]},
    {"id": "b", "seed": 2, "rounds": [{"opponent": "d", "result": "forfeit", "match_points": 1, "secondary": 720}]},
    {"id": "c", "seed": 3, "rounds": [{"opponent": "a", "result": "played", "match_points": 0, "secondary": 320}]},
    {"id": "d", "seed": 4, "rounds": [{"opponent": "b", "result": "forfeit", "match_points": 0, "secondary": 0}], "withdrawn": true},
    {"id": "e", "seed": 5, "rounds": [{"result": "bye", "match_points": 1, "secondary": 360}]}
  ]
}`
	var ev Event
	if err := json.Unmarshal([]byte(doc), &ev); err != nil {
		t.Fatal(err)
	}
	// 1 MP: b (720), a (400), e (360); c on 0; d withdrawn last.
	order, err := Order(&ev)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range order {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "b a e c d" {
		t.Errorf("order %q, want %q", got, "b a e c d")
	}
	p, err := Pair(&ev)
	if err != nil {
		t.Fatal(err)
	}
	// Top bracket {b, a, e}: a cannot float (a-c was played), b and e both
	// downfloated in round 1 (forfeit win, PAB: C.04.3 1.4.3), so the first
	// candidate b-a stands and e meets c. b has no colour history and a
	// wants Black; c (Black) wants White, e has no history.
	out, _ := json.Marshal(p)
	const want = `{"round":2,"boards":[{"home":"b","away":"a"},{"home":"c","away":"e"}]}`
	if string(out) != want {
		t.Errorf("pairing %s, want %s", out, want)
	}
}

// Decode names the JSON path of unknown fields and wrong types, and applies
// Pair's checks.
func TestDecode(t *testing.T) {
	const good = `{"points": {"win": 1, "draw": 0.5, "loss": 0, "bye": 1}, "total_rounds": 5, "initial_colour": "white",
  "teams": [{"id": "a", "rounds": []}, {"id": "b", "rounds": []}]}`
	ev, err := Decode(strings.NewReader(good))
	if err != nil || len(ev.Teams) != 2 || ev.Points != DefaultPoints() {
		t.Fatalf("Decode = %+v, %v", ev, err)
	}
	for _, tc := range []struct{ doc, field string }{
		{strings.Replace(good, `"rounds": []}]`, `"rounds": [], "colour": 1}]`, 1), "teams[1].colour"},
		{strings.Replace(good, `"total_rounds": 5`, `"total_rounds": "5"`, 1), "total_rounds"},
		{strings.Replace(good, `"id": "b"`, `"id": "a"`, 1), "teams[1].id"},
	} {
		ev, err := Decode(strings.NewReader(tc.doc))
		var ae *arbiter.Error
		if ev != nil || !errors.As(err, &ae) || ae.Code != arbiter.EINVALID || ae.Field != tc.field {
			t.Errorf("Decode(%s) = %v, %v; want an %s error on %s", tc.doc, ev, err, arbiter.EINVALID, tc.field)
		}
	}
}
