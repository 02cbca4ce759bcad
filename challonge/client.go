// Package challonge is a small client of Challonge's API v1
// (https://api.challonge.com/v1/documents): a tournament, its
// participants (index, bulk add), starting it, its matches (index) and a
// match's scores (scores_csv) and winner. Push (push.go) brings a bracket
// decided elsewhere into a Challonge tournament. Package challongetest is
// a fake Challonge for tests, following the same documentation.
//
// The API key comes from a file or the CHALLONGE_API_KEY environment
// variable (KeyFrom); it is sent as the documented api_key parameter,
// never logged. Errors are *Error with the HTTP status and Challonge's
// messages; Temporary tells the ones worth retrying (5xx, 429, network).
package challonge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultBaseURL is Challonge's API v1.
const DefaultBaseURL = "https://api.challonge.com/v1"

// KeyEnv is the environment variable KeyFrom reads.
const KeyEnv = "CHALLONGE_API_KEY"

// Client calls the API. The zero value is not usable: use New.
type Client struct {
	BaseURL string
	key     string
	HTTP    *http.Client
}

// New returns a client with the API key key on DefaultBaseURL.
func New(key string) *Client {
	return &Client{BaseURL: DefaultBaseURL, key: key, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// KeyFrom reads the API key from file (its first line, trimmed) or, when
// file is "", from $CHALLONGE_API_KEY. No key is an error naming both.
func KeyFrom(file string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("challonge: reading the API key: %w", err)
		}
		key, _, _ := strings.Cut(string(b), "\n")
		if key = strings.TrimSpace(key); key == "" {
			return "", fmt.Errorf("challonge: the API key file %s is empty", file)
		}
		return key, nil
	}
	if key := strings.TrimSpace(os.Getenv(KeyEnv)); key != "" {
		return key, nil
	}
	return "", fmt.Errorf("challonge: no API key: give a key file or set $%s", KeyEnv)
}

// Tournament is a tournament's record (the fields the push reads).
type Tournament struct {
	ID                  int64  `json:"id"`
	Name                string `json:"name"`
	URL                 string `json:"url"`
	TournamentType      string `json:"tournament_type"`
	State               string `json:"state"` // pending, underway, awaiting_review, complete, ...
	HoldThirdPlaceMatch bool   `json:"hold_third_place_match"`
	ParticipantsCount   int    `json:"participants_count"`
}

// Participant is a participant's record.
type Participant struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Seed   int    `json:"seed"`
	Misc   string `json:"misc"`
	Active bool   `json:"active"`
}

// NewParticipant is one participant to add: Misc is free text only the
// API sees (Arbiter puts the entrant's ID there).
type NewParticipant struct {
	Name string
	Seed int
	Misc string
}

// Match is a match's record. A missing player is 0.
type Match struct {
	ID         int64  `json:"id"`
	Identifier string `json:"identifier"`
	Round      int    `json:"round"`
	State      string `json:"state"` // pending, open, complete
	Player1ID  int64  `json:"player1_id"`
	Player2ID  int64  `json:"player2_id"`
	WinnerID   int64  `json:"winner_id"`
	LoserID    int64  `json:"loser_id"`
	ScoresCSV  string `json:"scores_csv"`
}

// Error is an answer other than 2xx, or a failure to get one.
type Error struct {
	Method, Path string
	Status       int      // 0 when no answer came
	Messages     []string // Challonge's "errors"
	Err          error    // the transport's error
}

func (e *Error) Error() string {
	what := fmt.Sprintf("challonge: %s %s", e.Method, e.Path)
	switch {
	case e.Status == 0:
		return what + ": " + e.Err.Error()
	case len(e.Messages) > 0:
		return fmt.Sprintf("%s: %d: %s", what, e.Status, strings.Join(e.Messages, "; "))
	}
	return fmt.Sprintf("%s: %d %s", what, e.Status, http.StatusText(e.Status))
}

func (e *Error) Unwrap() error { return e.Err }

// Temporary tells whether trying again later may succeed: no answer, a
// server error or rate limiting. A 401, 404 or 422 will fail again.
func (e *Error) Temporary() bool {
	return e.Status == 0 || e.Status >= 500 || e.Status == http.StatusTooManyRequests
}

// Temporary reports whether err is a *Error worth retrying.
func Temporary(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Temporary()
}

// Tournament returns tournament t (its ID or URL, e.g. "rkcc_winter").
func (c *Client) Tournament(ctx context.Context, t string) (Tournament, error) {
	var out struct {
		Tournament Tournament `json:"tournament"`
	}
	err := c.do(ctx, http.MethodGet, "tournaments/"+url.PathEscape(t), nil, &out)
	return out.Tournament, err
}

// Participants lists t's participants.
func (c *Client) Participants(ctx context.Context, t string) ([]Participant, error) {
	var out []struct {
		Participant Participant `json:"participant"`
	}
	if err := c.do(ctx, http.MethodGet, "tournaments/"+url.PathEscape(t)+"/participants", nil, &out); err != nil {
		return nil, err
	}
	ps := make([]Participant, len(out))
	for i, p := range out {
		ps[i] = p.Participant
	}
	return ps, nil
}

// BulkAddParticipants adds participants to t before it starts; Challonge
// adds all or none.
func (c *Client) BulkAddParticipants(ctx context.Context, t string, ps []NewParticipant) ([]Participant, error) {
	form := url.Values{}
	for _, p := range ps {
		form.Add("participants[][name]", p.Name)
		form.Add("participants[][seed]", strconv.Itoa(p.Seed))
		form.Add("participants[][misc]", p.Misc)
	}
	var out []struct {
		Participant Participant `json:"participant"`
	}
	if err := c.do(ctx, http.MethodPost, "tournaments/"+url.PathEscape(t)+"/participants/bulk_add", form, &out); err != nil {
		return nil, err
	}
	added := make([]Participant, len(out))
	for i, p := range out {
		added[i] = p.Participant
	}
	return added, nil
}

// Start starts t: Challonge makes the bracket's matches from the seeds.
func (c *Client) Start(ctx context.Context, t string) (Tournament, error) {
	var out struct {
		Tournament Tournament `json:"tournament"`
	}
	err := c.do(ctx, http.MethodPost, "tournaments/"+url.PathEscape(t)+"/start", url.Values{}, &out)
	return out.Tournament, err
}

// Matches lists t's matches.
func (c *Client) Matches(ctx context.Context, t string) ([]Match, error) {
	var out []struct {
		Match Match `json:"match"`
	}
	if err := c.do(ctx, http.MethodGet, "tournaments/"+url.PathEscape(t)+"/matches", nil, &out); err != nil {
		return nil, err
	}
	ms := make([]Match, len(out))
	for i, m := range out {
		ms[i] = m.Match
	}
	return ms, nil
}

// UpdateMatch sets a match's scores ("3-1,3-2", player 1 first) and,
// when winner is not 0, its winner (a participant ID): the match is then
// complete and the winner advances.
func (c *Client) UpdateMatch(ctx context.Context, t string, match int64, scoresCSV string, winner int64) (Match, error) {
	form := url.Values{"match[scores_csv]": {scoresCSV}}
	if winner != 0 {
		form.Set("match[winner_id]", strconv.FormatInt(winner, 10))
	}
	var out struct {
		Match Match `json:"match"`
	}
	err := c.do(ctx, http.MethodPut, "tournaments/"+url.PathEscape(t)+"/matches/"+strconv.FormatInt(match, 10), form, &out)
	return out.Match, err
}

// do sends one request: path gets ".json", the key goes in the query of
// a GET and in the form body otherwise, and a 2xx answer decodes into out.
func (c *Client) do(ctx context.Context, method, path string, form url.Values, out any) error {
	u := strings.TrimRight(c.BaseURL, "/") + "/" + path + ".json"
	var body io.Reader
	if form != nil {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		f.Set("api_key", c.key)
		body = strings.NewReader(f.Encode())
	} else {
		u += "?" + url.Values{"api_key": {c.key}}.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return &Error{Method: method, Path: path, Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return &Error{Method: method, Path: path, Err: redact(err, c.key)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return &Error{Method: method, Path: path, Err: err}
	}
	if resp.StatusCode/100 != 2 {
		e := &Error{Method: method, Path: path, Status: resp.StatusCode}
		var msg struct {
			Errors []string `json:"errors"`
		}
		if json.Unmarshal(b, &msg) == nil {
			e.Messages = msg.Errors
		}
		return e
	}
	if err := json.Unmarshal(b, out); err != nil {
		return &Error{Method: method, Path: path, Status: resp.StatusCode, Err: fmt.Errorf("decoding the answer: %w", err)}
	}
	return nil
}

// redact removes the key from a transport error (which quotes the URL).
func redact(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "REDACTED"))
}
