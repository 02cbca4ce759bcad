package web

import (
	"net/http"

	"arbiter"
)

// publicEntrant is an entrant as anyone may see it: the TDs' reason for
// a rejection, who registered it and TD-entered values stay out.
type publicEntrant struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	Name       string   `json:"name"`
	Player     string   `json:"player,omitempty"`
	Rating     int      `json:"rating,omitempty"`
	Seed       int      `json:"seed,omitempty"`
	Status     string   `json:"status"`
	Captain    string   `json:"captain,omitempty"`
	Members    []string `json:"members,omitempty"`
	Boards     []string `json:"boards,omitempty"`
	Substitute string   `json:"substitute,omitempty"`
}

func publicOf(e arbiter.Entrant) publicEntrant {
	return publicEntrant{ID: e.ID, Kind: e.Kind, Name: e.Name, Player: e.Player, Rating: e.Rating, Seed: e.Seed, Status: e.Status,
		Captain: e.Captain, Members: e.Members, Boards: e.Boards, Substitute: e.Substitute}
}

// entrantMatch is one of an entrant's matches, from its side.
type entrantMatch struct {
	ID        string      `json:"id"`
	Stage     int         `json:"stage"` // 1-based
	StageName string      `json:"stage_name"`
	Round     int         `json:"round"`
	RoundID   string      `json:"round_id"`
	Pool      string      `json:"pool,omitempty"`
	Format    string      `json:"format,omitempty"`
	Opponent  entrantLink `json:"opponent"` // empty for a bye
	Colour    string      `json:"colour,omitempty"`
	Status    string      `json:"status"`
	Scheduled stamp       `json:"-"`
	sideResult
}

// entrantMatches lists id's public matches in round order.
func (v *eventView) entrantMatches(id string) []entrantMatch {
	out := []entrantMatch{}
	for _, m := range v.Matches {
		if m.Home != id && m.Away != id {
			continue
		}
		em := entrantMatch{ID: m.ID, Stage: m.Stage + 1, Round: m.Round, RoundID: roundID(m.Stage, m.Round), Pool: m.Pool, Format: m.Format,
			Status: m.Status, Scheduled: stampOf(m.ScheduledAt), sideResult: resultFor(m, id)}
		if m.Stage < len(v.Ev.Stages) {
			em.StageName = v.Ev.Stages[m.Stage].Name
		}
		if !m.IsBye() {
			em.Colour, em.Opponent = "white", entrantLink{m.Away, v.name(m.Away)}
			if m.Away == id {
				em.Colour, em.Opponent = "black", entrantLink{m.Home, v.name(m.Home)}
			}
		}
		out = append(out, em)
	}
	return out
}

// entrantsData is the list of entrants.
type entrantsData struct {
	Ev       arbiter.Event
	Nav      []navLink
	Team     bool
	Entrants []publicEntrant
}

// entrantsPage lists the event's entrants: by seed once registration has
// closed, with rating, status and, for teams, captain and members.
func (s *Server) entrantsPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := entrantsData{Ev: v.Ev, Nav: v.nav("Entrants")}
	for _, e := range v.Entrants {
		d.Team = d.Team || e.Kind == arbiter.EntrantTeam
		d.Entrants = append(d.Entrants, publicOf(e))
	}
	s.render(w, r, http.StatusOK, "entrants", page{Title: "Entrants: " + v.Ev.Name, Nav: "home", Live: liveURL(v.Ev.Slug), Data: d})
}

// entrantData is the page of one player or team.
type entrantData struct {
	Ev        arbiter.Event
	Nav       []navLink
	E         publicEntrant
	Matches   []entrantMatch
	Sanctions []sanctionRow
}

// sanctionRow is a sanction as the public see it: the TDs' reason stays
// on the TD console.
type sanctionRow struct {
	Kind, Player, Rule string
	At                 stamp
}

// entrantPage shows a player or a team: details, the team's members and
// board order, and every public match with its result from their side.
func (s *Server) entrantPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, err := s.loadEvent(ctx, r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	e, ok := v.byID[r.PathValue("id")]
	if !ok {
		s.fail(w, r, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no entrant %q", v.Ev.Slug, r.PathValue("id")))
		return
	}
	d := entrantData{Ev: v.Ev, Nav: v.nav(""), E: publicOf(*e), Matches: v.entrantMatches(e.ID)}
	sanctions, err := s.app.Sanctions(ctx, v.Ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, sn := range sanctions {
		if sn.Entrant == e.ID {
			d.Sanctions = append(d.Sanctions, sanctionRow{Kind: sn.Kind, Player: sn.Player, Rule: sn.Rule, At: stampOf(sn.At)})
		}
	}
	s.render(w, r, http.StatusOK, "entrant", page{Title: e.Name, Nav: "home", Live: liveURL(v.Ev.Slug), Data: d})
}

// apiEntrants lists the event's entrants (public fields).
func (s *Server) apiEntrants(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := make([]publicEntrant, 0, len(v.Entrants))
	for _, e := range v.Entrants {
		out = append(out, publicOf(e))
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"entrants": out})
}

// apiEntrant answers one entrant with its public matches.
func (s *Server) apiEntrant(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	e, ok := v.byID[r.PathValue("id")]
	if !ok {
		s.apiFail(w, r, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no entrant %q", v.Ev.Slug, r.PathValue("id")))
		return
	}
	s.writeJSON(w, r, http.StatusOK, struct {
		Entrant publicEntrant  `json:"entrant"`
		Matches []entrantMatch `json:"matches"`
	}{publicOf(*e), v.entrantMatches(e.ID)})
}
