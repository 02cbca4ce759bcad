package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// captainData is the captain's page of one team: roster, board order
// (formats with board lineups, A12-A16), the lineup of a round (formats
// with set lineups, R7-R9) and the forms only the captain may use.
type captainData struct {
	Ev        arbiter.Event
	F         *format.Format
	Team      arbiter.Entrant
	IsCaptain bool // the forms are shown to the team's captain only
	Users     []string

	// Board lineups (A12-A16): the TDs' ranking and the current boards;
	// Boards nil until the TDs ranked the team.
	BoardsMode bool
	Boards     *app.BoardTeam
	OffBoards  []string // members not on the boards (substitutes, A14)

	// Set lineups (R7-R9): round Seq with its deadline (the round start),
	// the lineup that plays it and the round it was submitted for (an
	// earlier round's lineup is the default, R7).
	SetsMode   bool
	Seq        int
	Seqs       []int
	Deadline   time.Time
	SetNames   []string
	Lineup     []string
	LineupFrom int
	Default    bool
	Knockout   bool
}

func captainURL(slug, id string) string { return "/events/" + slug + "/teams/" + id + "/captain" }

func (s *Server) captainPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug, id := r.PathValue("slug"), strings.ToLower(r.PathValue("team"))
	if currentUser(r) == nil {
		s.signInFirst(w, r)
		return
	}
	ev, err := s.app.Event(ctx, slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	f, err := s.app.Format(ctx, slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	roles, err := s.rolesOf(r, slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	es, err := s.app.Entrants(ctx, slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	i := slices.IndexFunc(es, func(e arbiter.Entrant) bool { return e.ID == id && e.Kind == arbiter.EntrantTeam })
	if i < 0 {
		s.fail(w, r, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no team %q", slug, id))
		return
	}
	d := captainData{Ev: ev, F: f, Team: es[i], IsCaptain: slices.Contains(roles.Captain, id), Users: es[i].Users()}
	if !d.IsCaptain && !roles.TD && !slices.Contains(roles.Member, id) {
		s.fail(w, r, arbiter.Errorf(arbiter.EFORBIDDEN, "only the captain and members of %s (and the TDs) see its captain's page", d.Team.Name))
		return
	}
	switch f.Lineups {
	case format.LineupBoards:
		d.BoardsMode = true
		bt, err := s.app.BoardsOf(ctx, ev.Slug, id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if d.Boards = bt; bt != nil {
			for _, u := range d.Users {
				if !slices.Contains(bt.Team.Boards, u) {
					d.OffBoards = append(d.OffBoards, u)
				}
			}
		}
	case format.LineupSets:
		if err := s.setLineups(r, &d); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "captain", page{Title: "Captain's page: " + d.Team.Name, Nav: "me", Data: d})
}

// setLineups fills the set-lineup part: the round asked for (?round=N),
// else the next round still to start.
func (s *Server) setLineups(r *http.Request, d *captainData) error {
	d.SetsMode = true
	if len(d.Ev.Calendar) == 0 {
		return nil
	}
	now := s.app.Now()
	d.Seq = len(d.Ev.Calendar)
	for _, w := range d.Ev.Calendar {
		d.Seqs = append(d.Seqs, w.Seq)
		if w.Start.After(now) && w.Seq < d.Seq {
			d.Seq = w.Seq
		}
	}
	if v := r.URL.Query().Get("round"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > len(d.Ev.Calendar) {
			return arbiter.FieldError("round", "web.round", "round must be a number from 1 to %d", len(d.Ev.Calendar))
		}
		d.Seq = n
	}
	w := d.Ev.Calendar[d.Seq-1]
	d.Deadline = w.Start
	if w.Stage < len(d.Ev.Stages) {
		d.Knockout = d.Ev.Stages[w.Stage].Kind == format.Knockout
	}
	if w.Stage < len(d.F.Stages) {
		for _, p := range d.F.Stages[w.Stage].MatchFor("").Parts {
			d.SetNames = append(d.SetNames, p.TC.String())
		}
	}
	l, from, err := s.app.Lineup(r.Context(), currentUser(r), d.Ev.Slug, d.Team.ID, d.Seq)
	switch {
	case err == nil:
		d.Lineup, d.LineupFrom, d.Default = l.Sets, from, from != d.Seq
	case arbiter.ErrorCode(err) == arbiter.EINTERNAL:
		return err
	}
	return nil
}

// teamAct runs a captain's form on the team's page.
func (s *Server) teamAct(w http.ResponseWriter, r *http.Request, fn func(a arbiter.Actor, slug, id string) (string, error)) {
	slug, id := r.PathValue("slug"), strings.ToLower(r.PathValue("team"))
	back := captainURL(slug, id)
	if v := r.PostFormValue("round"); v != "" {
		back += "?round=" + strconv.Itoa(atoiOr(v, 0))
	}
	s.act(w, r, arbiter.RoleCaptain, back, func(a arbiter.Actor) (string, error) { return fn(a, slug, id) })
}

func atoiOr(v string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return def
	}
	return n
}

// nonEmpty trims the values and drops the empty ones.
func nonEmpty(vals []string) []string {
	var out []string
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func (s *Server) boardsPost(w http.ResponseWriter, r *http.Request) {
	s.teamAct(w, r, func(a arbiter.Actor, slug, id string) (string, error) {
		_ = r.ParseForm()
		bt, err := s.app.SubmitBoards(r.Context(), a, slug, id, nonEmpty(r.PostForm["board"]))
		if err != nil {
			return "", err
		}
		return "Board order saved: " + strings.Join(bt.Team.Boards, ", ") + ".", nil
	})
}

// lineupSeq reads a round number (1-based over the event).
func lineupSeq(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return 0, arbiter.FieldError("round", "web.round", "round must be a round number (1, 2, ...)")
	}
	return n, nil
}

func (s *Server) lineupPost(w http.ResponseWriter, r *http.Request) {
	s.teamAct(w, r, func(a arbiter.Actor, slug, id string) (string, error) {
		seq, err := lineupSeq(r.PostFormValue("round"))
		if err != nil {
			return "", err
		}
		_ = r.ParseForm()
		if _, err := s.app.SubmitLineup(r.Context(), a, slug, id, seq, r.PostForm["set"]); err != nil {
			return "", err
		}
		return "Lineup for round " + strconv.Itoa(seq) + " saved.", nil
	})
}

func (s *Server) wildCardPost(w http.ResponseWriter, r *http.Request) {
	s.teamAct(w, r, func(a arbiter.Actor, slug, id string) (string, error) {
		seq, err := lineupSeq(r.PostFormValue("round"))
		if err != nil {
			return "", err
		}
		if _, err := s.app.WildCard(r.Context(), a, slug, id, seq, r.PostFormValue("x"), r.PostFormValue("y")); err != nil {
			return "", err
		}
		return "Wild card played for round " + strconv.Itoa(seq) + ".", nil
	})
}

func (s *Server) substitutionPost(w http.ResponseWriter, r *http.Request) {
	s.teamAct(w, r, func(a arbiter.Actor, slug, id string) (string, error) {
		in, out := strings.TrimSpace(r.PostFormValue("in")), strings.TrimSpace(r.PostFormValue("out"))
		if in == "" || out == "" {
			return "", arbiter.FieldError("in", "A14", "name the member coming in and the one going out")
		}
		if _, err := s.app.SubstituteBoard(r.Context(), a, slug, id, in, out); err != nil {
			return "", err
		}
		return in + " replaces " + out + " for the next round.", nil
	})
}

// The captain's API: the same actions as JSON.

func (s *Server) apiTeamAct(w http.ResponseWriter, r *http.Request, in any, fn func(a arbiter.Actor, slug, id string) (any, error)) {
	a, ok := s.apiActorAs(w, r, arbiter.RoleCaptain)
	if !ok {
		return
	}
	if err := decodeJSON(r, in); err != nil {
		s.apiFail(w, r, err)
		return
	}
	out, err := fn(a, r.PathValue("slug"), strings.ToLower(r.PathValue("team")))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

func (s *Server) apiBoards(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Boards []string `json:"boards"`
	}
	s.apiTeamAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		bt, err := s.app.SubmitBoards(r.Context(), a, slug, id, in.Boards)
		return map[string]any{"entrant": bt.Entrant, "boards": bt.Team.Boards, "td_order": bt.TDOrder}, err
	})
}

func (s *Server) apiLineup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Sets     []string  `json:"sets,omitempty"`
		WildCard *[]string `json:"wild_card,omitempty"` // two players to swap (R9)
	}
	s.apiTeamAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		seq, err := strconv.Atoi(r.PathValue("seq"))
		if err != nil || seq < 1 {
			return nil, arbiter.FieldError("seq", "web.round", "seq is a round number (1, 2, ...)")
		}
		var ls app.Lineups
		if in.WildCard != nil {
			if len(*in.WildCard) != 2 || in.Sets != nil {
				return nil, arbiter.FieldError("wild_card", "R9", "the wild card names the two players to swap, without sets")
			}
			ls, err = s.app.WildCard(r.Context(), a, slug, id, seq, (*in.WildCard)[0], (*in.WildCard)[1])
		} else {
			ls, err = s.app.SubmitLineup(r.Context(), a, slug, id, seq, in.Sets)
		}
		if err != nil {
			return nil, err
		}
		l, from, err := ls.Book.Effective(seq)
		return map[string]any{"entrant": ls.Entrant, "round": seq, "sets": l.Sets, "submitted_for": from}, err
	})
}

func (s *Server) apiSubstitution(w http.ResponseWriter, r *http.Request) {
	var in struct {
		In  string `json:"in"`
		Out string `json:"out"`
	}
	s.apiTeamAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		if strings.TrimSpace(in.In) == "" || strings.TrimSpace(in.Out) == "" {
			return nil, arbiter.FieldError("in", "A14", "name the member coming in (in) and the one going out (out)")
		}
		bt, err := s.app.SubstituteBoard(r.Context(), a, slug, id, in.In, in.Out)
		return map[string]any{"entrant": bt.Entrant, "boards": bt.Team.Boards}, err
	})
}
