package lichesstest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"arbiter/lichess"
)

// control answers the fake's own endpoints, for a TD rehearsing a round
// with `arbiter lichess fake` (not part of the Lichess API):
//
//	GET  /_fake/pending                 the games waiting for a result
//	POST /_fake/finish?result=R[&id=ID] finish one game, or every pending one;
//	                                    R is random (seeded), white, black, draw,
//	                                    aborted or nostart; an open challenge naming
//	                                    nobody also needs &white=NAME&black=NAME
//	GET  /_fake/messages                the inbox messages sent
//	GET  /_fake/log                     every API request answered
//	POST /_fake/player?name=N[&perf=antichess&games=1500&rating=1900]
//	POST /_fake/token?user=N&scopes=a,b  (prints the token)
//	POST /_fake/team?id=ID&members=a,b  a public team led by its first member
//	GET  /_fake/team-messages?id=ID     the updates sent to a team (pm-all)
func (f *Fake) control(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	reply := func(v any) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(v)
	}
	switch r.Method + " " + r.URL.Path {
	case "GET /_fake/pending":
		reply(f.Pending())
	case "GET /_fake/messages":
		reply(f.Messages())
	case "GET /_fake/log":
		reply(f.Log())
	case "POST /_fake/finish":
		var script func(Pending) Result
		switch q.Get("result") {
		case "random", "":
			script = f.Random
		case "white":
			script = func(Pending) Result { return WhiteWins }
		case "black":
			script = func(Pending) Result { return BlackWins }
		case "draw":
			script = func(Pending) Result { return Drawn }
		case "aborted":
			script = func(Pending) Result { return Aborted }
		case "nostart":
			script = func(Pending) Result { return Unplayed }
		default:
			http.Error(w, "result: want random, white, black, draw, aborted or nostart", http.StatusBadRequest)
			return
		}
		if id := q.Get("id"); id != "" {
			var players []string
			if q.Get("white") != "" {
				players = []string{q.Get("white"), q.Get("black")}
			}
			f.mu.Lock()
			res := script(Pending{ID: id, Settings: f.settingsOf(id)})
			err := f.finishLocked(id, res, players...)
			f.mu.Unlock()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			reply([]string{id})
			return
		}
		done, err := f.FinishAll(script)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(done)
	case "POST /_fake/player":
		games, _ := strconv.Atoi(q.Get("games"))
		rating, _ := strconv.Atoi(q.Get("rating"))
		if q.Get("name") == "" {
			http.Error(w, "name: required", http.StatusBadRequest)
			return
		}
		f.AddPlayer(q.Get("name"), orDefault(q.Get("perf"), "antichess"), max(games, 1500), max(rating, 1500))
		reply(map[string]bool{"ok": true})
	case "POST /_fake/token":
		if q.Get("user") == "" {
			http.Error(w, "user: required", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		tok := "lip_" + f.newID() + f.newID()
		f.mu.Unlock()
		f.AddToken(tok, q.Get("user"), splitList(q.Get("scopes"))...)
		reply(map[string]string{"token": tok, "scopes": strings.Join(f.Scopes(tok), ",")})
	case "POST /_fake/team":
		members := splitList(q.Get("members"))
		if q.Get("id") == "" || len(members) == 0 {
			http.Error(w, "id and members: required (the first member leads the team)", http.StatusBadRequest)
			return
		}
		f.AddTeam(q.Get("id"), orDefault(q.Get("name"), q.Get("id")), false, members...)
		reply(map[string]bool{"ok": true})
	case "GET /_fake/team-messages":
		reply(f.TeamMessages(q.Get("id")))
	default:
		http.Error(w, "not a control endpoint: see `arbiter lichess fake --help`", http.StatusNotFound)
	}
}

// settingsOf is the game settings of a challenge or game (for scripts).
func (f *Fake) settingsOf(id string) (s lichess.GameSettings) {
	if ch := f.challenges[id]; ch != nil {
		return ch.Settings
	}
	if g := f.games[id]; g != nil {
		return lichess.GameSettings{Rated: g.Rated, Clock: g.Clock, Days: g.Days, Variant: g.Variant}
	}
	return s
}
