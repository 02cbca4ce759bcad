package web

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// openAPI is the part of the document the tests walk.
type openAPI struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		Parameters []struct {
			Name     string `json:"name"`
			In       string `json:"in"`
			Required bool   `json:"required"`
		} `json:"parameters"`
		Responses map[string]json.RawMessage `json:"responses"`
		Security  []map[string][]string      `json:"security"`
	} `json:"paths"`
	Components struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
	} `json:"components"`
}

func loadOpenAPI(t *testing.T, f *fixture) openAPI {
	t.Helper()
	res, body := f.do(t, "GET", "/api/openapi.json")
	wantStatus(t, res, body, 200)
	var doc openAPI
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("openapi.json is not valid JSON: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	// Every $ref points into the document.
	for _, ref := range strings.Split(body, `"$ref": "`)[1:] {
		ref = ref[:strings.IndexByte(ref, '"')]
		name, ok := strings.CutPrefix(ref, "#/components/schemas/")
		if ok {
			if _, found := doc.Components.Schemas[name]; !found {
				t.Errorf("dangling $ref %s", ref)
			}
		} else if ref != "#/components/responses/Error" {
			t.Errorf("unexpected $ref %s", ref)
		}
	}
	return doc
}

// fixturePath fills a documented path's parameters with the fixture's
// values.
func fixturePath(p string) string {
	return strings.NewReplacer("{name}", "antichess-team-cup", "{slug}", "atc", "{round}", "s1r1", "{id}", "team-01", "{match}", "s1r1b1", "{team}", "team-01").Replace(p)
}

// TestOpenAPIMatchesRoutes checks the document against apiRoutes in both
// directions, and that every documented answer is the real one.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	doc := loadOpenAPI(t, f)

	var registered, documented []string
	for _, rt := range allAPIRoutes() {
		m, p, ok := strings.Cut(rt.Pattern, " ")
		if !ok || m != strings.ToUpper(m) || m == "HEAD" {
			t.Errorf("route %q does not start with a method", rt.Pattern)
		}
		registered = append(registered, m+" "+p)
	}
	for p, ops := range doc.Paths {
		for m, op := range ops {
			documented = append(documented, strings.ToUpper(m)+" "+p)
			if m == "get" {
				continue
			}
			// A write that needs a session says so, documents the 401,
			// and answers it to a request without a session.
			if len(op.Security) == 0 {
				continue
			}
			if _, ok := op.Responses["401"]; !ok {
				t.Errorf("%s %s: response 401 undocumented", m, p)
			}
			wantAPIError(t, f, strings.ToUpper(m), fixturePath(p), 401, "unauthorized", "")
		}
	}
	slices.Sort(registered)
	slices.Sort(documented)
	if !slices.Equal(registered, documented) {
		t.Fatalf("registered %v\ndocumented %v", registered, documented)
	}

	for p, ops := range doc.Paths {
		op, ok := ops["get"]
		if !ok {
			continue
		}
		// Each path parameter in the template is declared, and no other.
		for _, prm := range op.Parameters {
			if prm.In == "path" && (!prm.Required || !strings.Contains(p, "{"+prm.Name+"}")) {
				t.Errorf("%s: path parameter %s", p, prm.Name)
			}
		}
		if strings.Count(p, "{") != countIn(op.Parameters, "path") {
			t.Errorf("%s: path parameters not all declared", p)
		}
		if len(op.Security) > 0 {
			wantAPIError(t, f, "GET", fixturePath(p), 401, "unauthorized", "")
			continue // checked with a session by the tests of its group
		}
		for _, code := range []string{"200", "405"} {
			if _, ok := op.Responses[code]; !ok {
				t.Errorf("%s: response %s undocumented", p, code)
			}
		}
		target := fixturePath(p)
		if p == "/api/events/{slug}/ranking" {
			// The fixture's event is running: no final ranking yet (its
			// 200 is TestAPIRanking's, on a finished event).
			wantAPIError(t, f, "GET", target, 422, "rule", "")
		} else {
			apiDo(t, f, "GET", target, 200, nil)
			apiDo(t, f, "HEAD", target, 200, nil)
		}
		if _, ok := ops["post"]; !ok {
			wantAPIError(t, f, "POST", target, 405, "method_not_allowed", "")
		}
		if _, ok := op.Responses["404"]; ok {
			bad := strings.NewReplacer("{name}", "zz", "{slug}", "zz", "{round}", "s9r9").Replace(p)
			wantAPIError(t, f, "GET", bad, 404, "not_found", "")
		}
		// Each query parameter with a documented 400 is checked with a
		// value no schema allows.
		for _, prm := range op.Parameters {
			if prm.In != "query" {
				continue
			}
			if _, ok := op.Responses["400"]; !ok {
				t.Errorf("%s: query %s without a documented 400", p, prm.Name)
				continue
			}
			wantAPIError(t, f, "GET", target+"?"+prm.Name+"=x", 400, "invalid", prm.Name)
		}
		// A 422 is a rule refusal: the standings after a round that is
		// not completed (the fixture has completed round 1 only).
		if _, ok := op.Responses["422"]; ok {
			switch p {
			case "/api/events/{slug}/standings":
				wantAPIError(t, f, "GET", target+"?after=2", 422, "rule", "")
			case "/api/events/{slug}/ranking":
			default:
				t.Errorf("%s: response 422 not exercised", p)
			}
		}
		// Every documented answer is documented; nothing undocumented
		// is answered here.
		for code := range op.Responses {
			if !slices.Contains([]string{"200", "400", "404", "405", "422"}, code) {
				t.Errorf("%s: response %s not exercised", p, code)
			}
		}
	}
}

func countIn(ps []struct {
	Name     string `json:"name"`
	In       string `json:"in"`
	Required bool   `json:"required"`
}, in string) int {
	n := 0
	for _, p := range ps {
		if p.In == in {
			n++
		}
	}
	return n
}
