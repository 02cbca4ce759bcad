package format

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"arbiter"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// brokenVariants are edits of the minimal format that must be rejected;
// as fuzz seeds they steer the fuzzer towards every validation branch.
var brokenVariants = [][2]string{
	{`"fixed": 5`, `"fixed": -5`},
	{`"fixed": 5`, `"fixed": 1e3`},
	{`"fixed": 5`, `"fixed": 99999999999999999999`},
	{`"rounds": {"fixed": 5}`, `"rounds": {"steps": [{"max": 3, "value": 2}, {"min": 5, "value": 3}]}`},
	{`"rounds": {"fixed": 5}`, `"rounds": {"log2": {"mul": -1, "add": 2}}`},
	{`"rounds": {"fixed": 5}`, `"rounds": null`},
	{`"1+2"`, `"¾+0"`},
	{`"1+2"`, `"1/0+2"`},
	{`"1+2"`, `"0+0"`},
	{`"win": 1, "draw": 0.5`, `"factor": 0.01`},
	{`"win": 1, "draw": 0.5`, `"win": 0.001, "draw": 0.0005`},
	{`"win": 1, "draw": 0.5`, `"win": 9e18, "draw": 4.5e18`},
	{`"games": 10`, `"games": 0`},
	{`"stages": [`, `"stages": [], "x": [`},
	{`"calendar": {`, `"calendar": {"negotiation": {"min_offers": 3, "offer_deadline": {}, "no_fault_result": "full_draw"}, `},
	{`"seeding": "standings"`, `"seeding": "standings", "third_place": true, "third_place_match": null`},
	{`"title": "Mini"`, `"title": "Mini", "title": 5`},
	{`{`, `[`},
	{`"entrant": "individual"`, `"entrant": "individual", "team": {"size": {"fixed": 2}}`},
}

// FuzzLoad: Load never panics; whatever loads validates and comes back
// unchanged through Write and Load; every error is an EINVALID
// *arbiter.Error that names a field.
func FuzzLoad(f *testing.F) {
	for _, name := range Presets() {
		data, err := presetFS.ReadFile("presets/" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2]) // truncated
	}
	f.Add([]byte(minimal))
	for _, v := range brokenVariants {
		f.Add([]byte(strings.Replace(minimal, v[0], v[1], 1)))
	}
	f.Add([]byte(""))
	f.Add([]byte("null"))
	f.Add([]byte("{} {}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, data)
	})
}

func checkLoad(t *testing.T, data []byte) {
	t.Helper()
	f, err := Load(bytes.NewReader(data))
	if err != nil {
		var e *arbiter.Error
		if !errors.As(err, &e) || e.Code != arbiter.EINVALID || e.Field == "" || e.Rule == "" {
			t.Fatalf("error %q is not an EINVALID *arbiter.Error with a field and a rule: %#v", err, err)
		}
		if f != nil {
			t.Fatal("Load returned a format and an error")
		}
		return
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("loaded format does not validate: %v", err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatalf("write: %v", err)
	}
	g, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("written format does not load: %v\n%s", err, buf.String())
	}
	if d := cmp.Diff(f, g, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("write/load changed the format (-loaded +reloaded):\n%s", d)
	}
	var again bytes.Buffer
	if err := Write(&again, g); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Fatalf("Write is not stable:\n%s\n---\n%s", buf.String(), again.String())
	}
	for _, n := range []int{0, 1, 2, 12, 64, 1 << 20} {
		x, err := f.Explain(n)
		if err != nil {
			t.Fatalf("explain %d: %v", n, err)
		}
		checkExplanation(t, x)
	}
}

// checkExplanation: whatever a loaded format says for n entrants is sane.
func checkExplanation(t *testing.T, x Explanation) {
	t.Helper()
	atLeast := func(what string, p *int, min int) {
		if p != nil && *p < min {
			t.Fatalf("%d entrants: %s %d, below %d", x.Entrants, what, *p, min)
		}
	}
	atLeast("team size", x.TeamSize, 1)
	atLeast("weeks", x.Weeks, 1)
	for _, s := range x.Stages {
		atLeast(s.Name+" rounds", s.Rounds, 1)
		atLeast(s.Name+" advance", s.Advance, 0)
		for _, m := range []*MatchExplanation{&s.Match, s.Final, s.ThirdMatch} {
			if m == nil {
				continue
			}
			if m.ThresholdUnit == UnitSets {
				if m.WinThreshold*2 <= arbiter.Points(len(m.Parts))*arbiter.Point || m.WinThreshold > arbiter.Points(len(m.Parts))*arbiter.Point {
					t.Fatalf("%s: %v sets decide a match of %d sets", s.Name, m.WinThreshold, len(m.Parts))
				}
			} else if m.MaxPoints <= 0 || m.WinThreshold*2 <= m.MaxPoints || m.WinThreshold > m.MaxPoints {
				t.Fatalf("%s: threshold %v of max %v", s.Name, m.WinThreshold, m.MaxPoints)
			}
		}
	}
}
