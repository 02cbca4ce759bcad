// Package challongetest is a fake Challonge API v1 for tests, written
// from Challonge's documentation (api.challonge.com/v1/documents), not
// from package challonge: JSON only (".json" paths; anything else is 406
// "Requested format is not supported"), the api_key parameter (query or
// form) or HTTP basic auth, 401 for a wrong key, 404 for an unknown
// tournament or match, 422 with {"errors": [...]} for validation errors.
//
// It holds single-elimination tournaments: participants added (one or in
// bulk, all or none, seeds bumping the others) until the tournament
// starts; starting makes the bracket with standard seeding (1 v N,
// byes to the top seeds, no match for a bye) and an optional third-place
// match; a match's update takes scores_csv and winner_id (a winner needs
// scores; it must be one of the two players), completes the match and
// moves the winner (and a semifinal's loser) on; changing a completed
// match's winner resets the matches that branch from it.
package challongetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running fake. URL is the API's base (".../v1").
type Server struct {
	URL string
	Key string

	mu       sync.Mutex
	tours    map[string]*Tournament
	nextID   int64
	requests []string
	// FailNext, when above 0, answers that many of the next requests
	// with 500, for retry tests.
	FailNext int
}

// Tournament is the fake's state of one tournament (read it under Lock).
type Tournament struct {
	ID           int64
	URL, Name    string
	State        string // pending, underway, complete
	ThirdPlace   bool
	Participants []*Participant // in seed order
	Matches      []*Match
}

// Participant is one participant.
type Participant struct {
	ID         int64
	Name, Misc string
	Seed       int
}

// Match is one match; a player ID of 0 is not known yet.
type Match struct {
	ID                   int64
	Identifier           string
	Round                int
	Player1ID, Player2ID int64
	WinnerID, LoserID    int64
	ScoresCSV            string
	State                string // pending, open, complete
	// next/nextLoser: where the winner (loser) goes, and as player 1 or 2.
	next, nextLoser         *Match
	nextSlot, nextLoserSlot int
	updatedAt               time.Time
}

// New starts a fake that accepts key; it stops when the test ends.
func New(t testing.TB, key string) *Server {
	s := &Server{Key: key, tours: map[string]*Tournament{}, nextID: 1000}
	hs := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(hs.Close)
	s.URL = hs.URL + "/v1"
	return s
}

// AddTournament creates a pending single-elimination tournament.
func (s *Server) AddTournament(url, name string, thirdPlace bool) *Tournament {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	t := &Tournament{ID: s.nextID, URL: url, Name: name, State: "pending", ThirdPlace: thirdPlace}
	s.tours[url] = t
	s.tours[strconv.FormatInt(t.ID, 10)] = t
	return t
}

// Requests lists the requests served, "METHOD /path" (no query).
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Do runs fn on tournament url under the server's lock.
func (s *Server) Do(url string, fn func(t *Tournament)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.tours[url])
}

type apiError struct {
	status int
	msgs   []string
}

func fail(status int, msgs ...string) *apiError { return &apiError{status, msgs} }

var routes = []struct {
	method string
	re     *regexp.Regexp
	fn     func(s *Server, t *Tournament, m []string, r *http.Request) (any, *apiError)
}{
	{"GET", regexp.MustCompile(`^/v1/tournaments/([^/]+)$`), (*Server).showTournament},
	{"GET", regexp.MustCompile(`^/v1/tournaments/([^/]+)/participants$`), (*Server).participants},
	{"POST", regexp.MustCompile(`^/v1/tournaments/([^/]+)/participants$`), (*Server).createParticipant},
	{"POST", regexp.MustCompile(`^/v1/tournaments/([^/]+)/participants/bulk_add$`), (*Server).bulkAdd},
	{"POST", regexp.MustCompile(`^/v1/tournaments/([^/]+)/start$`), (*Server).start},
	{"GET", regexp.MustCompile(`^/v1/tournaments/([^/]+)/matches$`), (*Server).matches},
	{"PUT", regexp.MustCompile(`^/v1/tournaments/([^/]+)/matches/(\d+)$`), (*Server).updateMatch},
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	out, e := s.route(r)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if e != nil {
		w.WriteHeader(e.status)
		json.NewEncoder(w).Encode(map[string][]string{"errors": e.msgs})
		return
	}
	json.NewEncoder(w).Encode(out)
}

func (s *Server) route(r *http.Request) (any, *apiError) {
	if s.FailNext > 0 {
		s.FailNext--
		return nil, fail(http.StatusInternalServerError, "Something went wrong on our end.")
	}
	path, ok := strings.CutSuffix(r.URL.Path, ".json")
	if !ok {
		return nil, fail(http.StatusNotAcceptable, "Requested format is not supported - request JSON or XML only (this fake speaks JSON)")
	}
	if err := r.ParseForm(); err != nil {
		return nil, fail(http.StatusUnprocessableEntity, "malformed parameters")
	}
	key := r.Form.Get("api_key")
	if _, pw, ok := r.BasicAuth(); ok && key == "" {
		key = pw
	}
	if key != s.Key {
		return nil, fail(http.StatusUnauthorized, "Unauthorized (Invalid API key or insufficient permissions)")
	}
	for _, rt := range routes {
		m := rt.re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		if rt.method != r.Method {
			continue
		}
		t := s.tours[m[1]]
		if t == nil {
			return nil, fail(http.StatusNotFound, "Object not found within your account scope")
		}
		return rt.fn(s, t, m, r)
	}
	return nil, fail(http.StatusNotFound, "Object not found within your account scope")
}

func stamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	v := t.UTC().Format(time.RFC3339)
	return &v
}

func (t *Tournament) json() map[string]any {
	return map[string]any{"tournament": map[string]any{"id": t.ID, "name": t.Name, "url": t.URL, "tournament_type": "single elimination",
		"state": t.State, "hold_third_place_match": t.ThirdPlace, "participants_count": len(t.Participants)}}
}

func (p *Participant) json() map[string]any {
	return map[string]any{"participant": map[string]any{"id": p.ID, "name": p.Name, "seed": p.Seed, "misc": nullable(p.Misc), "active": true}}
}

func (m *Match) json() map[string]any {
	id := func(v int64) any {
		if v == 0 {
			return nil
		}
		return v
	}
	return map[string]any{"match": map[string]any{"id": m.ID, "identifier": m.Identifier, "round": m.Round, "state": m.State,
		"player1_id": id(m.Player1ID), "player2_id": id(m.Player2ID), "winner_id": id(m.WinnerID), "loser_id": id(m.LoserID),
		"scores_csv": m.ScoresCSV, "updated_at": stamp(m.updatedAt)}}
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *Server) showTournament(t *Tournament, _ []string, _ *http.Request) (any, *apiError) {
	return t.json(), nil
}

func (s *Server) participants(t *Tournament, _ []string, _ *http.Request) (any, *apiError) {
	out := []any{}
	for _, p := range t.Participants {
		out = append(out, p.json())
	}
	return out, nil
}

func (s *Server) createParticipant(t *Tournament, _ []string, r *http.Request) (any, *apiError) {
	seed := 0
	if v := r.Form.Get("participant[seed]"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fail(http.StatusUnprocessableEntity, "Seed must be an integer")
		}
		seed = n
	}
	added, e := s.add(t, []newParticipant{{r.Form.Get("participant[name]"), seed, r.Form.Get("participant[misc]")}})
	if e != nil {
		return nil, e
	}
	return added[0].json(), nil
}

type newParticipant struct {
	name string
	seed int
	misc string
}

func (s *Server) bulkAdd(t *Tournament, _ []string, r *http.Request) (any, *apiError) {
	names := r.Form["participants[][name]"]
	seeds := r.Form["participants[][seed]"]
	miscs := r.Form["participants[][misc]"]
	if len(names) == 0 || (len(seeds) > 0 && len(seeds) != len(names)) || (len(miscs) > 0 && len(miscs) != len(names)) {
		return nil, fail(http.StatusUnprocessableEntity, "every participant needs a name (and, if any has one, a seed and misc)")
	}
	var ps []newParticipant
	for i, n := range names {
		p := newParticipant{name: n}
		if len(seeds) > 0 {
			v, err := strconv.Atoi(seeds[i])
			if err != nil {
				return nil, fail(http.StatusUnprocessableEntity, "Seed must be an integer")
			}
			p.seed = v
		}
		if len(miscs) > 0 {
			p.misc = miscs[i]
		}
		ps = append(ps, p)
	}
	added, e := s.add(t, ps)
	if e != nil {
		return nil, e
	}
	out := []any{}
	for _, p := range added {
		out = append(out, p.json())
	}
	return out, nil
}

// add inserts participants, all or none (the documented rollback).
func (s *Server) add(t *Tournament, ps []newParticipant) ([]*Participant, *apiError) {
	if t.State != "pending" {
		return nil, fail(http.StatusUnprocessableEntity, "Participants can only be added until the tournament is started")
	}
	list := slices.Clone(t.Participants)
	var added []*Participant
	for _, np := range ps {
		name := strings.TrimSpace(np.name)
		if name == "" {
			return nil, fail(http.StatusUnprocessableEntity, "Name can't be blank")
		}
		if len(np.misc) > 255 {
			return nil, fail(http.StatusUnprocessableEntity, "Misc is too long (maximum is 255 characters)")
		}
		for _, p := range list {
			if strings.EqualFold(p.Name, name) {
				return nil, fail(http.StatusUnprocessableEntity, "Name has already been taken")
			}
		}
		s.nextID++
		p := &Participant{ID: s.nextID, Name: name, Misc: np.misc}
		at := len(list)
		if np.seed != 0 {
			if np.seed < 1 || np.seed > len(list)+1 {
				return nil, fail(http.StatusUnprocessableEntity, fmt.Sprintf("Seed must be between 1 and %d", len(list)+1))
			}
			at = np.seed - 1 // overwriting a seed bumps the others
		}
		list = slices.Insert(list, at, p)
		added = append(added, p)
	}
	for i, p := range list {
		p.Seed = i + 1
	}
	t.Participants = list
	return added, nil
}

func (s *Server) start(t *Tournament, _ []string, _ *http.Request) (any, *apiError) {
	if t.State != "pending" {
		return nil, fail(http.StatusUnprocessableEntity, "Tournament has already been started")
	}
	if len(t.Participants) < 2 {
		return nil, fail(http.StatusUnprocessableEntity, "Tournament needs at least 2 participants")
	}
	s.bracket(t)
	t.State = "underway"
	return t.json(), nil
}

// bracket makes the matches: slots in standard seeding order, no match
// for a bye (the seed waits in round 2), identifiers A, B, ... by round.
func (s *Server) bracket(t *Tournament) {
	n := len(t.Participants)
	size := 1
	for size < n {
		size *= 2
	}
	order := []int{1}
	for len(order) < size {
		var next []int
		for _, x := range order {
			next = append(next, x, 2*len(order)+1-x)
		}
		order = next
	}
	// feed[i] is who fills slot i of the current round: a player or a match.
	type feed struct {
		player int64
		match  *Match
	}
	cur := make([]feed, size)
	for i, seed := range order {
		if seed <= n {
			cur[i] = feed{player: t.Participants[seed-1].ID}
		}
	}
	var all []*Match
	var semis []*Match
	for round := 1; len(cur) > 1; round++ {
		var next []feed
		for i := 0; i < len(cur); i += 2 {
			a, b := cur[i], cur[i+1]
			if a.player == 0 && a.match == nil {
				next = append(next, b) // a bye: b waits for the next round
				continue
			}
			if b.player == 0 && b.match == nil {
				next = append(next, a)
				continue
			}
			s.nextID++
			m := &Match{ID: s.nextID, Round: round, Player1ID: a.player, Player2ID: b.player}
			for slot, f := range []feed{a, b} {
				if f.match != nil {
					f.match.next, f.match.nextSlot = m, slot+1
				}
			}
			all = append(all, m)
			next = append(next, feed{match: m})
		}
		if len(next) == 2 {
			for _, f := range next {
				if f.match != nil {
					semis = append(semis, f.match)
				}
			}
		}
		cur = next
	}
	if t.ThirdPlace && len(semis) == 2 {
		final := all[len(all)-1]
		s.nextID++
		third := &Match{ID: s.nextID, Round: final.Round}
		for i, sm := range semis {
			sm.nextLoser, sm.nextLoserSlot = third, i+1
		}
		all = append(all, third)
	}
	for i, m := range all {
		m.Identifier = identifier(i)
		m.refresh()
	}
	t.Matches = all
}

func identifier(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

func (m *Match) refresh() {
	switch {
	case m.WinnerID != 0:
		m.State = "complete"
	case m.Player1ID != 0 && m.Player2ID != 0:
		m.State = "open"
	default:
		m.State = "pending"
	}
}

func (s *Server) matches(t *Tournament, _ []string, r *http.Request) (any, *apiError) {
	state := r.Form.Get("state")
	pid, _ := strconv.ParseInt(r.Form.Get("participant_id"), 10, 64)
	out := []any{}
	for _, m := range t.Matches {
		if state != "" && state != "all" && m.State != state {
			continue
		}
		if pid != 0 && m.Player1ID != pid && m.Player2ID != pid {
			continue
		}
		out = append(out, m.json())
	}
	return out, nil
}

var scoresRe = regexp.MustCompile(`^-?\d+(\.\d+)?--?\d+(\.\d+)?$`)

func (s *Server) updateMatch(t *Tournament, p []string, r *http.Request) (any, *apiError) {
	id, _ := strconv.ParseInt(p[2], 10, 64)
	i := slices.IndexFunc(t.Matches, func(m *Match) bool { return m.ID == id })
	if i < 0 {
		return nil, fail(http.StatusNotFound, "Object not found within your account scope")
	}
	m := t.Matches[i]
	scores, hasScores := r.Form["match[scores_csv]"]
	winner := r.Form.Get("match[winner_id]")
	if winner != "" && (!hasScores || scores[0] == "") {
		return nil, fail(http.StatusUnprocessableEntity, "If you're updating winner_id, scores_csv must also be provided")
	}
	if m.Player1ID == 0 || m.Player2ID == 0 {
		return nil, fail(http.StatusUnprocessableEntity, "Match is not open: its players are not known yet")
	}
	if hasScores {
		for _, set := range strings.Split(scores[0], ",") {
			if !scoresRe.MatchString(strings.TrimSpace(set)) {
				return nil, fail(http.StatusUnprocessableEntity, fmt.Sprintf("Scores csv %q is not comma separated set scores, player 1 first (e.g. 1-3,3-0,3-2)", scores[0]))
			}
		}
		m.ScoresCSV = scores[0]
	}
	if winner != "" {
		if winner == "tie" {
			return nil, fail(http.StatusUnprocessableEntity, "A tie is only allowed in round robin and Swiss tournaments")
		}
		w, err := strconv.ParseInt(winner, 10, 64)
		if err != nil || (w != m.Player1ID && w != m.Player2ID) {
			return nil, fail(http.StatusUnprocessableEntity, "Winner must be one of the match's participants")
		}
		if m.WinnerID != 0 && m.WinnerID != w {
			reset(m) // a changed outcome resets the matches branching from it
		}
		m.WinnerID, m.LoserID = w, m.Player1ID+m.Player2ID-w
		if m.next != nil {
			m.next.set(m.nextSlot, m.WinnerID)
		}
		if m.nextLoser != nil {
			m.nextLoser.set(m.nextLoserSlot, m.LoserID)
		}
	}
	m.updatedAt = time.Now()
	m.refresh()
	return m.json(), nil
}

func (m *Match) set(slot int, player int64) {
	if slot == 1 {
		m.Player1ID = player
	} else {
		m.Player2ID = player
	}
	m.refresh()
}

// reset clears what m's old result decided further on.
func reset(m *Match) {
	for _, d := range []struct {
		to   *Match
		slot int
	}{{m.next, m.nextSlot}, {m.nextLoser, m.nextLoserSlot}} {
		if d.to == nil {
			continue
		}
		if d.to.WinnerID != 0 {
			reset(d.to)
			d.to.WinnerID, d.to.LoserID, d.to.ScoresCSV = 0, 0, ""
		}
		d.to.set(d.slot, 0)
	}
}
