package lichess_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/internal/testshared"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// The bundled OpenAPI document (shared/lichess-api) is the source of
// truth for every request the client sends and every answer the fake
// gives. These tests fail when either drifts from it.

var (
	specOnce sync.Once
	spec     map[string]any
	specErr  error
)

func openAPI(t *testing.T) map[string]any {
	t.Helper()
	specOnce.Do(func() {
		var b []byte
		b, specErr = os.ReadFile(testshared.Path(t, "lichess-api", "lichess-api.bundled.yaml"))
		if specErr != nil {
			return
		}
		var v any
		v, specErr = parseYAML(string(b))
		spec, _ = v.(map[string]any)
	})
	if specErr != nil {
		t.Fatal(specErr)
	}
	return spec
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func list(v any) []any         { l, _ := v.([]any); return l }
func str(v any) string         { s, _ := v.(string); return s }

// resolve follows a $ref into components.
func resolve(doc map[string]any, s map[string]any) map[string]any {
	for s != nil && s["$ref"] != nil {
		var cur any = doc
		for _, p := range strings.Split(strings.TrimPrefix(str(s["$ref"]), "#/"), "/") {
			cur = obj(cur)[p]
		}
		s = obj(cur)
	}
	return s
}

// operation finds the document's path template matching an escaped
// request path (a literal segment beats a parameter) and its operation.
func operation(doc map[string]any, method, escaped string) (string, map[string]any) {
	segs := strings.Split(strings.TrimPrefix(escaped, "/"), "/")
	best, bestLit := "", -1
	for tpl := range obj(doc["paths"]) {
		ts := strings.Split(strings.TrimPrefix(tpl, "/"), "/")
		if len(ts) != len(segs) {
			continue
		}
		lit, ok := 0, true
		for i, s := range ts {
			if strings.HasPrefix(s, "{") {
				ok = ok && segs[i] != ""
			} else if s == segs[i] {
				lit++
			} else {
				ok = false
			}
		}
		if ok && lit > bestLit {
			best, bestLit = tpl, lit
		}
	}
	if best == "" {
		return "", nil
	}
	return best, obj(obj(obj(doc["paths"])[best])[strings.ToLower(method)])
}

func paramNames(doc, op map[string]any, in string) (names, required []string) {
	for _, p := range list(op["parameters"]) {
		p := resolve(doc, obj(p))
		if str(p["in"]) == in {
			names = append(names, str(p["name"]))
			if str(p["required"]) == "true" {
				required = append(required, str(p["name"]))
			}
		}
	}
	return names, required
}

// properties collects the property names of a schema through allOf,
// oneOf and anyOf.
func properties(doc, s map[string]any) []string {
	s = resolve(doc, s)
	var out []string
	for k := range obj(s["properties"]) {
		out = append(out, k)
	}
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		for _, sub := range list(s[k]) {
			out = append(out, properties(doc, obj(sub))...)
		}
	}
	return out
}

func scopesOf(op map[string]any) []string {
	var out []string
	for _, sec := range list(op["security"]) {
		for _, sc := range list(obj(sec)["OAuth2"]) {
			out = append(out, str(sc))
		}
	}
	return out
}

// exchange is one request and its answer, as seen on the wire.
type exchange struct {
	method, escaped, contentType, accept string
	query                                url.Values
	body                                 []byte
	status                               int
	respType                             string
	resp                                 []byte
}

// wire runs the fake behind a recorder of every exchange.
type wire struct {
	mu  sync.Mutex
	all []exchange
}

func (w *wire) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		w.mu.Lock()
		w.all = append(w.all, exchange{method: r.Method, escaped: r.URL.EscapedPath(), contentType: r.Header.Get("Content-Type"),
			accept: r.Header.Get("Accept"), query: r.URL.Query(), body: body, status: rec.Code,
			respType: rec.Header().Get("Content-Type"), resp: rec.Body.Bytes()})
		w.mu.Unlock()
		for k, v := range rec.Header() {
			rw.Header()[k] = v
		}
		rw.WriteHeader(rec.Code)
		rw.Write(rec.Body.Bytes())
	})
}

// everyCall calls each exported method of the client once (the table
// must name them all: a new method fails the test until it is added).
func everyCall(t *testing.T) (*wire, map[string]bool) {
	t.Helper()
	clk := lichesstest.NewClock(time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC))
	f := lichesstest.New(lichesstest.Options{Seed: 1, Now: clk.Now})
	w := &wire{}
	srv := httptest.NewServer(w.handler(f))
	t.Cleanup(srv.Close)
	f.AddPlayer("alice", lichess.PerfAntichess, 1500, 2000)
	f.AddPlayer("bob", lichess.PerfAntichess, 1500, 1900)
	f.AddTeam("club", "Club", false, "alice", "bob")
	f.AddTeam("td-club", "TD Club", false, "td", "alice")
	f.AddToken("lip_td", "td", lichesstest.AllScopes...)
	f.AddToken("lip_alice", "alice", lichess.ScopeChallengeWrite)
	f.AddToken("lip_bob", "bob", lichess.ScopeChallengeWrite)
	f.SetHistory("alice", lichess.PerfAntichess, []lichess.RatingPoint{{Date: time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), Rating: 1990}})
	c, err := lichess.New(lichess.Options{BaseURL: srv.URL, Token: "lip_td", Time: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	settings := lichess.GameSettings{Rated: true, Clock: &lichess.Clock{Initial: 60, Increment: 2}, Variant: lichess.VariantAntichess,
		Rules: []string{lichess.RuleNoRematch}}
	var open *lichess.Challenge
	var bulk *lichess.BulkPairing
	drain := func(seq func(func(lichess.Game, error) bool)) error {
		for _, err := range seq {
			if err != nil {
				return err
			}
		}
		return nil
	}
	calls := []struct {
		name string
		call func() error
	}{
		{"User", func() error { _, err := c.User(ctx, "alice"); return err }},
		{"Users", func() error { _, err := c.Users(ctx, []string{"alice", "bob"}); return err }},
		{"Account", func() error { _, err := c.Account(ctx); return err }},
		{"UsersStatus", nil}, // not used by Arbiter: the fake does not serve it
		{"RatingHistory", func() error { _, err := c.RatingHistory(ctx, "alice"); return err }},
		{"PerfHistory", func() error { _, err := c.PerfHistory(ctx, "alice", lichess.PerfAntichess); return err }},
		{"Rating", func() error { _, err := c.Rating(ctx, "alice", lichess.PerfAntichess); return err }},
		{"PerfStats", nil},
		{"Crosstable", nil},
		{"Team", func() error { _, err := c.Team(ctx, "club"); return err }},
		{"TeamMembers", func() error {
			for _, err := range c.TeamMembers(ctx, "club") {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"TeamsOf", func() error { _, err := c.TeamsOf(ctx, "alice"); return err }},
		{"IsTeamMember", func() error { _, err := c.IsTeamMember(ctx, "club", "bob"); return err }},
		{"OpenChallenge", func() (err error) {
			open, err = c.OpenChallenge(ctx, lichess.OpenChallengeRequest{GameSettings: settings, Name: "ACWC · round 1 · game 1",
				Users: [2]string{"alice", "bob"}, ExpiresAt: clk.Now().Add(time.Hour)})
			return err
		}},
		{"ShowChallenge", func() error { _, err := c.ShowChallenge(ctx, open.ID); return err }},
		{"CreateChallenge", func() error {
			_, err := c.WithToken("lip_alice").CreateChallenge(ctx, "bob", lichess.ChallengeRequest{GameSettings: settings, Color: "white"})
			return err
		}},
		{"StartClocks", func() error {
			if err := f.Finish(open.ID, lichesstest.Playing); err != nil {
				return err
			}
			return c.StartClocks(ctx, open.ID, "lip_alice", "lip_bob")
		}},
		{"CancelChallenge", func() error {
			ch, err := c.OpenChallenge(ctx, lichess.OpenChallengeRequest{GameSettings: settings})
			if err != nil {
				return err
			}
			return c.CancelChallenge(ctx, ch.ID)
		}},
		{"CreateBulkPairing", func() (err error) {
			bulk, err = c.CreateBulkPairing(ctx, lichess.BulkPairingRequest{GameSettings: settings,
				Pairings: []lichess.Pairing{{WhiteToken: "lip_alice", BlackToken: "lip_bob"}},
				PairAt:   clk.Now().Add(time.Hour), StartClocksAt: clk.Now().Add(2 * time.Hour), Message: "Your game: {game}"})
			return err
		}},
		{"BulkPairing", func() error { _, err := c.BulkPairing(ctx, bulk.ID); return err }},
		{"BulkPairings", func() error { _, err := c.BulkPairings(ctx); return err }},
		{"CancelBulkPairing", func() error { return c.CancelBulkPairing(ctx, bulk.ID) }},
		{"StartBulkClocks", func() error {
			b, err := c.CreateBulkPairing(ctx, lichess.BulkPairingRequest{GameSettings: settings,
				Pairings: []lichess.Pairing{{WhiteToken: "lip_alice", BlackToken: "lip_bob"}}})
			if err != nil {
				return err
			}
			bulk = b
			return c.StartBulkClocks(ctx, b.ID)
		}},
		{"BulkPairingGames", func() error {
			f.FinishAll(func(lichesstest.Pending) lichesstest.Result { return lichesstest.WhiteWins })
			return drain(c.BulkPairingGames(ctx, bulk.ID))
		}},
		{"ExportGame", func() error { _, err := c.ExportGame(ctx, open.ID); return err }},
		{"ExportGames", func() error { return drain(c.ExportGames(ctx, []string{open.ID, bulk.Games[0].ID})) }},
		{"GamesByID", func() error { _, err := c.GamesByID(ctx, []string{open.ID}); return err }},
		{"GamesOfUser", func() error {
			rated := true
			return drain(c.GamesOfUser(ctx, "alice", lichess.GamesQuery{Since: clk.Now().Add(-time.Hour), Until: clk.Now().Add(time.Hour),
				Max: 10, Vs: "bob", Rated: &rated, PerfType: lichess.PerfAntichess, Ongoing: true}))
		}},
		{"GamesBetween", func() error {
			_, err := c.GamesBetween(ctx, "alice", "bob", clk.Now().Add(-time.Hour), clk.Now().Add(time.Hour), lichess.PerfAntichess)
			return err
		}},
		{"CountGames", func() error { _, err := c.CountGames(ctx, "bob", lichess.GamesQuery{}); return err }},
		{"SendMessage", func() error { return c.SendMessage(ctx, "alice", "Round 1: you play bob.") }},
		{"SendTeamMessage", func() error { return c.SendTeamMessage(ctx, "td-club", "Round 1 is published.") }},
		{"TestTokens", func() error { _, err := c.TestTokens(ctx, []string{"lip_td", "lip_nothing"}); return err }},
		{"CheckToken", func() error { _, err := c.CheckToken(ctx, "lip_alice"); return err }},
		{"WithToken", nil}, // no request
	}
	named := map[string]bool{}
	for _, cl := range calls {
		named[cl.name] = true
		if cl.call == nil {
			continue
		}
		if err := cl.call(); err != nil {
			t.Fatalf("%s: %v", cl.name, err)
		}
	}
	typ := reflect.TypeOf(c)
	for i := range typ.NumMethod() {
		if m := typ.Method(i).Name; !named[m] {
			t.Errorf("client method %s is not checked against the API document: add it to everyCall", m)
		}
	}
	return w, named
}

// TestClientMatchesOpenAPI: every request the client sends names a path,
// method, query and form parameters and content types the document has,
// with the required ones present, and asks for a media type the
// operation answers in.
func TestClientMatchesOpenAPI(t *testing.T) {
	doc := openAPI(t)
	w, _ := everyCall(t)
	seen := map[string]bool{}
	for _, ex := range w.all {
		tpl, op := operation(doc, ex.method, ex.escaped)
		name := ex.method + " " + ex.escaped
		if op == nil {
			t.Errorf("%s: no such operation in the API document (path %q)", name, tpl)
			continue
		}
		seen[ex.method+" "+tpl] = true
		names, required := paramNames(doc, op, "query")
		for k := range ex.query {
			if !slices.Contains(names, k) {
				t.Errorf("%s: query parameter %q is not in the document (%v)", name, k, names)
			}
		}
		for _, k := range required {
			if !ex.query.Has(k) {
				t.Errorf("%s: required query parameter %q missing", name, k)
			}
		}
		rb := obj(op["requestBody"])
		ct, _, _ := strings.Cut(ex.contentType, ";")
		switch {
		case len(ex.body) == 0 && str(rb["required"]) == "true":
			t.Errorf("%s: the document requires a body", name)
		case len(ex.body) > 0 && rb == nil:
			t.Errorf("%s: sends a body the operation does not take", name)
		case len(ex.body) > 0:
			media := obj(obj(rb["content"])[ct])
			if media == nil {
				t.Errorf("%s: content type %q not in %v", name, ct, keys(obj(rb["content"])))
				break
			}
			if ct == "application/x-www-form-urlencoded" {
				form, _ := url.ParseQuery(string(ex.body))
				props := properties(doc, obj(media["schema"]))
				for k := range form {
					if !slices.Contains(props, k) {
						t.Errorf("%s: form parameter %q is not in the document (%v)", name, k, props)
					}
				}
				for _, k := range list(resolve(doc, obj(media["schema"]))["required"]) {
					if !form.Has(str(k)) {
						t.Errorf("%s: required form parameter %q missing", name, k)
					}
				}
			}
		}
		if ex.status == http.StatusOK {
			if media := answers(doc, op); !slices.Contains(media, ex.accept) {
				t.Errorf("%s: asks for %q; the operation answers %v", name, ex.accept, media)
			}
		}
	}
	// Every operation the client uses was exercised.
	want := []string{"POST /api/challenge/open", "POST /api/bulk-pairing", "POST /api/games/export/_ids", "GET /api/games/user/{username}",
		"POST /inbox/{username}", "POST /team/{teamId}/pm-all", "POST /api/token/test", "GET /api/user/{username}/rating-history", "GET /api/team/of/{username}",
		"POST /api/users", "DELETE /api/bulk-pairing/{id}", "POST /api/bulk-pairing/{id}/start-clocks", "GET /api/bulk-pairing/{id}"}
	for _, op := range want {
		if !seen[op] {
			t.Errorf("%s was not exercised (seen %v)", op, keys(toAny(seen)))
		}
	}
}

// TestFakeAnswersMatchOpenAPI: every answer of the fake has the shape of
// the operation's response schema: types, enums, required properties,
// and no property the schema does not list.
func TestFakeAnswersMatchOpenAPI(t *testing.T) {
	doc := openAPI(t)
	w, _ := everyCall(t)
	n := 0
	for _, ex := range w.all {
		tpl, op := operation(doc, ex.method, ex.escaped)
		if op == nil || ex.status != http.StatusOK {
			continue
		}
		rt, _, _ := strings.Cut(ex.respType, ";")
		if !slices.Contains(answers(doc, op), rt) {
			t.Errorf("%s %s: answered %s, not in the document", ex.method, tpl, rt)
			continue
		}
		schema := responseSchema(op, rt)
		var values []any
		if rt == "application/x-ndjson" {
			for line := range strings.SplitSeq(strings.TrimSpace(string(ex.resp)), "\n") {
				var v any
				if err := json.Unmarshal([]byte(line), &v); err != nil {
					t.Fatalf("%s %s: %v", ex.method, tpl, err)
				}
				values = append(values, v)
			}
		} else {
			var v any
			if err := json.Unmarshal(ex.resp, &v); err != nil {
				t.Fatalf("%s %s: %v", ex.method, tpl, err)
			}
			values = append(values, v)
		}
		for _, v := range values {
			n++
			for _, p := range check(doc, schema, v, "") {
				t.Errorf("%s %s: %s", ex.method, tpl, p)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d answers checked", n)
	}
}

// TestFakeRoutesMatchOpenAPI: the fake's endpoints, parameters and
// scopes are the document's.
func TestFakeRoutesMatchOpenAPI(t *testing.T) {
	doc := openAPI(t)
	for _, r := range lichesstest.New(lichesstest.Options{}).Routes() {
		op := obj(obj(obj(doc["paths"])[r.Path])[strings.ToLower(r.Method)])
		name := r.Method + " " + r.Path
		if op == nil {
			t.Errorf("%s: not in the document", name)
			continue
		}
		q, _ := paramNames(doc, op, "query")
		for _, k := range r.Query {
			if !slices.Contains(q, k) {
				t.Errorf("%s: query parameter %q not in the document", name, k)
			}
		}
		if len(r.Form) > 0 {
			props := properties(doc, obj(obj(obj(obj(op["requestBody"])["content"])["application/x-www-form-urlencoded"])["schema"]))
			sort.Strings(props)
			f := slices.Sorted(slices.Values(r.Form))
			if !slices.Equal(f, props) {
				t.Errorf("%s: form parameters %v, the document has %v", name, f, props)
			}
		}
		if r.TextBody && obj(obj(op["requestBody"])["content"])["text/plain"] == nil {
			t.Errorf("%s: takes text/plain, the document does not", name)
		}
		if got, want := slices.Sorted(slices.Values(r.Scopes)), slices.Sorted(slices.Values(scopesOf(op))); !slices.Equal(got, want) {
			t.Errorf("%s: scopes %v, the document has %v", name, got, want)
		}
	}
}

// answers lists the media types an operation answers 200 in: its
// response content, and the Accept header's values where the document
// lists them there only (the export by ids).
func answers(doc, op map[string]any) []string {
	out := keys(obj(obj(obj(op["responses"])["200"])["content"]))
	for _, p := range list(op["parameters"]) {
		if p := resolve(doc, obj(p)); str(p["in"]) == "header" && str(p["name"]) == "Accept" {
			for _, e := range list(obj(p["schema"])["enum"]) {
				if !slices.Contains(out, str(e)) {
					out = append(out, str(e))
				}
			}
		}
	}
	return out
}

// responseSchema is the 200 schema for media type mt, or the only one
// the document gives when it files the answer under another type.
func responseSchema(op map[string]any, mt string) map[string]any {
	content := obj(obj(obj(op["responses"])["200"])["content"])
	if m := obj(content[mt]); m != nil {
		return obj(m["schema"])
	}
	for _, m := range content {
		return obj(obj(m)["schema"])
	}
	return nil
}

// flatten merges allOf into one schema: properties and required lists.
func flatten(doc, s map[string]any) map[string]any {
	s = resolve(doc, s)
	if len(list(s["allOf"])) == 0 {
		return s
	}
	out := map[string]any{}
	props := map[string]any{}
	var req []any
	for k, v := range s {
		if k != "allOf" {
			out[k] = v
		}
	}
	own := map[string]any{"properties": s["properties"], "required": s["required"]}
	for i, sub := range append([]any{own}, list(s["allOf"])...) {
		sub := obj(sub)
		if i > 0 {
			sub = flatten(doc, sub)
		}
		if sub == nil {
			continue
		}
		for k, v := range obj(sub["properties"]) {
			props[k] = v
		}
		req = append(req, list(sub["required"])...)
		for _, k := range []string{"type", "additionalProperties"} {
			if sub[k] != nil {
				out[k] = sub[k]
			}
		}
	}
	out["properties"], out["required"] = props, req
	return out
}

// check validates v against schema s, returning the problems.
func check(doc, s map[string]any, v any, at string) []string {
	s = flatten(doc, s)
	if s == nil {
		return nil
	}
	var out []string
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts := list(s[k]); len(alts) > 0 {
			ok := false
			for _, alt := range alts {
				if len(check(doc, obj(alt), v, at)) == 0 {
					ok = true
				}
			}
			if !ok {
				out = append(out, fmt.Sprintf("%s: %v matches none of the %s", orRoot(at), short(v), k))
			}
		}
	}
	if types := typesOf(s); len(types) > 0 && !slices.Contains(types, jsonType(v)) &&
		!(jsonType(v) == "integer" && slices.Contains(types, "number")) {
		return append(out, fmt.Sprintf("%s: %s %v, want %v", orRoot(at), jsonType(v), short(v), types))
	}
	if enum := list(s["enum"]); len(enum) > 0 && jsonType(v) == "string" && !slices.Contains(enum, any(v.(string))) {
		out = append(out, fmt.Sprintf("%s: %q not in %v", orRoot(at), v, enum))
	}
	if c := str(s["const"]); c != "" && v != c {
		out = append(out, fmt.Sprintf("%s: %v, want %q", orRoot(at), v, c))
	}
	switch v := v.(type) {
	case map[string]any:
		props := obj(s["properties"])
		for _, r := range list(s["required"]) {
			if _, ok := v[str(r)]; !ok {
				out = append(out, fmt.Sprintf("%s: required %q missing", orRoot(at), r))
			}
		}
		extra := obj(s["additionalProperties"])
		for k, val := range v {
			switch {
			case props[k] != nil:
				out = append(out, check(doc, obj(props[k]), val, at+"."+k)...)
			case extra != nil:
				out = append(out, check(doc, extra, val, at+"."+k)...)
			case props != nil || str(s["additionalProperties"]) == "false":
				out = append(out, fmt.Sprintf("%s: %q is not in the schema", orRoot(at), k))
			}
		}
	case []any:
		for i, item := range v {
			out = append(out, check(doc, obj(s["items"]), item, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return out
}

func typesOf(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, str(x))
		}
		return out
	}
	return nil
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		b = append(b[:80], "…"...)
	}
	return string(b)
}

func orRoot(at string) string {
	if at == "" {
		return "(answer)"
	}
	return strings.TrimPrefix(at, ".")
}

func keys(m map[string]any) []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	})
}

func toAny(m map[string]bool) map[string]any {
	out := map[string]any{}
	for k := range m {
		out[k] = true
	}
	return out
}
