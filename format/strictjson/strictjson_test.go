package strictjson

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
)

type inner struct {
	N    int            `json:"n"`
	P    arbiter.Points `json:"p"`
	Tags []string       `json:"tags"`
}

type outer struct {
	Name  string  `json:"name"`
	Items []inner `json:"items"`
	Opt   *inner  `json:"opt,omitempty"`
	On    bool    `json:"on"`
}

func TestDecode(t *testing.T) {
	var o outer
	err := Decode(strings.NewReader(`{"name": "x", "items": [{"n": 1, "p": 7.5, "tags": ["a"]}], "opt": {"n": 2}, "on": true}`), &o, "t")
	if err != nil || o.Items[0].P != arbiter.P(7.5) || o.Opt.N != 2 || !o.On {
		t.Fatalf("%v %+v", err, o)
	}
	for _, c := range []struct{ doc, field, rule string }{
		{`{"name": "x", "items": [{}, {"m": 1}]}`, "items[1].m", "t.unknown_field"},
		{`{"items": [{"n": 1.5}]}`, "items[0].n", "t.type"},
		{`{"items": [{"p": "x"}]}`, "items[0].p", "t.type"},
		{`{"items": [{"p": "7.5"}]}`, "items[0].p", "t.type"},
		{`{"items": [{"p": 7.555}]}`, "items[0].p", "t.value"},
		{`{"items": [{"tags": "a"}]}`, "items[0].tags", "t.type"},
		{`{"opt": {"tags": [1]}}`, "opt.tags[0]", "t.type"},
		{`{"on": "yes"}`, "on", "t.type"},
		{`{"name": 3}`, "name", "t.type"},
		{`{"name": "x"} {}`, "1:15", "t.syntax"},
		{`{"name": "x"`, "1:13", "t.syntax"},
		{"", "1:1", "t.syntax"},
		{" \n ", "2:2", "t.syntax"},
		{"{\n\"name\": }", "2:9", "t.syntax"},
		{`[]`, "$", "t.type"},
		{`{"": 1}`, `[""]`, "t.unknown_field"},
		{`{"opt": {"a.b": 1}}`, `opt["a.b"]`, "t.unknown_field"},
	} {
		var o outer
		err := Decode(strings.NewReader(c.doc), &o, "t")
		var e *arbiter.Error
		if !errors.As(err, &e) || e.Field != c.field || e.Rule != c.rule {
			t.Errorf("%s: got %v (%#v), want %s %s", c.doc, err, e, c.field, c.rule)
		}
	}
}

// Fields of embedded structs are promoted, as encoding/json promotes them,
// and keys match exactly: a key in other letter case is unknown.
func TestDecodeEmbeddedAndCase(t *testing.T) {
	type Base struct {
		Summary string `json:"summary"`
		N       int    `json:"n"`
	}
	type req struct {
		Base
		Reason string `json:"reason"`
		N      string `json:"n"` // the outer field wins
	}
	var r req
	if err := Decode(strings.NewReader(`{"summary": "2-1", "reason": "why", "n": "x"}`), &r, "api"); err != nil || r.Summary != "2-1" || r.Reason != "why" || r.N != "x" {
		t.Fatalf("%v %+v", err, r)
	}
	for _, doc := range []string{`{"SUMMARY": "2-1"}`, `{"Reason": "x"}`} {
		var e *arbiter.Error
		if err := Decode(strings.NewReader(doc), &req{}, "api"); !errors.As(err, &e) || e.Rule != "api.unknown_field" {
			t.Errorf("%s: %v, want api.unknown_field", doc, err)
		}
	}
}
