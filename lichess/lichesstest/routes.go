package lichesstest

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/lichess"
)

// table is every endpoint the fake implements, with the path templates,
// scopes and parameters of the API document (TestFakeMatchesOpenAPI
// checks them against it).
func (f *Fake) table() []route {
	ndj := []string{}
	return []route{
		{method: "GET", path: "/api/user/{username}", query: []string{"trophies", "profile", "rank", "fideId"}, h: hUser},
		{method: "POST", path: "/api/users", query: []string{"profile", "rank"}, body: "text", h: hUsers},
		{method: "GET", path: "/api/account", auth: true, h: hAccount},
		{method: "GET", path: "/api/user/{username}/rating-history", h: hRatingHistory},
		{method: "GET", path: "/api/team/{teamId}", h: hTeam},
		{method: "GET", path: "/api/team/{teamId}/users", scopes: []string{lichess.ScopeTeamRead}, handlerScopes: true,
			query: []string{"full"}, h: hTeamUsers},
		{method: "GET", path: "/api/team/of/{username}", h: hTeamsOf},
		{method: "GET", path: "/api/games/user/{username}", query: gamesQuery, h: hGamesOfUser},
		{method: "GET", path: "/game/export/{gameId}", query: exportQuery, h: hExportGame},
		{method: "POST", path: "/api/games/export/_ids", query: exportQuery, body: "text", h: hExportIDs},
		{method: "POST", path: "/api/challenge/open", form: openForm, body: "form", h: hOpenChallenge},
		{method: "POST", path: "/api/challenge/{username}", scopes: []string{lichess.ScopeChallengeWrite, "bot:play", "board:play"},
			form: directForm, body: "form", h: hChallenge},
		{method: "GET", path: "/api/challenge/{challengeId}/show", scopes: []string{lichess.ScopeChallengeRead}, h: hShowChallenge},
		{method: "POST", path: "/api/challenge/{challengeId}/cancel", scopes: []string{lichess.ScopeChallengeWrite, "bot:play", "board:play"},
			query: []string{"opponentToken"}, h: hCancelChallenge},
		{method: "POST", path: "/api/challenge/{gameId}/start-clocks", scopes: []string{lichess.ScopeChallengeWrite},
			query: []string{"token1", "token2"}, h: hStartClocks},
		{method: "GET", path: "/api/bulk-pairing", scopes: []string{lichess.ScopeChallengeBulk}, h: hListBulks},
		{method: "POST", path: "/api/bulk-pairing", scopes: []string{lichess.ScopeChallengeBulk}, form: bulkForm, body: "form", h: hCreateBulk},
		{method: "GET", path: "/api/bulk-pairing/{id}", scopes: []string{lichess.ScopeChallengeBulk}, h: hShowBulk},
		{method: "DELETE", path: "/api/bulk-pairing/{id}", scopes: []string{lichess.ScopeChallengeBulk}, h: hCancelBulk},
		{method: "POST", path: "/api/bulk-pairing/{id}/start-clocks", scopes: []string{lichess.ScopeChallengeBulk}, h: hStartBulkClocks},
		{method: "GET", path: "/api/bulk-pairing/{id}/games", scopes: []string{lichess.ScopeChallengeBulk},
			query: append(ndj, exportQuery...), h: hBulkGames},
		{method: "POST", path: "/inbox/{username}", scopes: []string{lichess.ScopeMsgWrite}, form: []string{"text"}, body: "form", h: hInbox},
		{method: "POST", path: "/team/{teamId}/pm-all", scopes: []string{lichess.ScopeTeamLead}, form: []string{"message"}, body: "form", h: hTeamPMAll},
		{method: "POST", path: "/api/token/test", body: "text", h: hTokenTest},
		{method: "POST", path: "/api/token", form: []string{"grant_type", "code", "code_verifier", "redirect_uri", "client_id"},
			body: "form", h: hOAuthToken},
	}
}

// Message is a private message sent through the fake's inbox (or by a
// bulk pairing to its players).
type Message struct {
	From, To string // user ids
	Text     string
	At       time.Time
}

// Messages returns every message sent, oldest first.
func (f *Fake) Messages() []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tick()
	return slices.Clone(f.messages)
}

func hInbox(f *Fake, c *call) {
	to := f.userLocked(c.arg("username"), false)
	text := c.form.Get("text")
	switch {
	case to == nil || to.Disabled:
		c.error(400, "No such user: "+c.arg("username"))
	case strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > lichess.MaxMessageLength:
		c.error(400, "text: required, at most 8000 characters")
	case to.ID == c.token.UserID:
		c.error(400, "You cannot message yourself")
	default:
		f.messages = append(f.messages, Message{From: c.token.UserID, To: to.ID, Text: text, At: f.now()})
		c.ok()
	}
}

func hTokenTest(f *Fake, c *call) {
	toks := splitList(c.body)
	if len(toks) == 0 || len(toks) > lichess.MaxTestTokens {
		c.error(400, "Too many tokens: 1000 max")
		return
	}
	out := map[string]any{}
	for _, t := range toks {
		tok := f.tokens[t]
		if tok == nil {
			out[t] = nil
			continue
		}
		out[t] = map[string]any{"userId": tok.UserID, "scopes": strings.Join(tok.Scopes, ","), "expires": ms(tok.Expires)}
	}
	c.json(200, out)
}

// oauthCode is an authorization code waiting to be traded for a token.
type oauthCode struct {
	user, challenge, redirect string
	scopes                    []string
}

// serveExtra answers what is not the JSON API: the OAuth consent page
// (GET /oauth: a form asking whom to sign in as, as Lichess asks the
// user to accept) and the fake's control endpoints under /_fake/.
func (f *Fake) serveExtra(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/oauth" {
		f.control(w, r)
		return
	}
	q := r.URL.Query()
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" ||
		q.Get("redirect_uri") == "" || q.Get("client_id") == "" {
		http.Error(w, "want response_type=code, client_id, redirect_uri and an S256 code_challenge", http.StatusBadRequest)
		return
	}
	as := strings.TrimSpace(q.Get("as"))
	if as == "" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		consent.Execute(w, struct {
			Client string
			Scopes string
			Query  url.Values
		}{q.Get("client_id"), q.Get("scope"), q})
		return
	}
	f.mu.Lock()
	u := f.userLocked(as, false)
	code := f.newID() + f.newID()
	if u != nil {
		f.oauthCodes[code] = oauthCode{user: u.ID, challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"),
			scopes: strings.Fields(q.Get("scope"))}
	}
	f.mu.Unlock()
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	bq := back.Query()
	if u == nil {
		bq.Set("error", "access_denied")
	} else {
		bq.Set("code", code)
	}
	bq.Set("state", q.Get("state"))
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusSeeOther)
}

var consent = template.Must(template.New("oauth").Parse(`<!doctype html>
<title>Fake Lichess: sign in</title>
<h1>Fake Lichess</h1>
<p>{{.Client}} asks who you are{{if .Scopes}}, and for: {{.Scopes}}{{end}}.</p>
<form method="get" action="/oauth">
{{range $k, $v := .Query}}{{range $v}}<input type="hidden" name="{{$k}}" value="{{.}}">{{end}}{{end}}
<label>Sign in as <input name="as" autofocus required></label>
<button>Authorize</button>
</form>`))

func hOAuthToken(f *Fake, c *call) {
	code, ok := f.oauthCodes[c.form.Get("code")]
	delete(f.oauthCodes, c.form.Get("code"))
	sum := sha256.Sum256([]byte(c.form.Get("code_verifier")))
	switch {
	case c.form.Get("grant_type") != "authorization_code":
		c.json(400, map[string]string{"error": "unsupported_grant_type", "error_description": "want authorization_code"})
	case !ok || code.redirect != c.form.Get("redirect_uri"):
		c.json(400, map[string]string{"error": "invalid_grant", "error_description": "unknown or used code"})
	case base64.RawURLEncoding.EncodeToString(sum[:]) != code.challenge:
		c.json(400, map[string]string{"error": "invalid_grant", "error_description": "hash of code_verifier does not match code_challenge"})
	default:
		tok := "lio_" + f.newID() + f.newID()
		f.tokens[tok] = &token{UserID: code.user, Scopes: code.scopes}
		c.json(200, map[string]any{"token_type": "Bearer", "access_token": tok, "expires_in": 31536000})
	}
}
