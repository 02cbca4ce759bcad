package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/format"
)

// registerData is the registration page: the form while registration is
// open and the user's existing registrations with their status.
type registerData struct {
	Ev          arbiter.Event
	F           *format.Format
	Team        bool // a team event: a captain registers a team
	Open        bool
	Mine        []arbiter.Entrant
	MemberSlots []int // the member fields of the team form
	SignedIn    bool
}

func (s *Server) registerPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
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
	if currentUser(r) == nil {
		s.signInFirst(w, r)
		return
	}
	d := registerData{Ev: ev, F: f, Team: f.Entrant == "team", Open: ev.Status == arbiter.EventRegistration, SignedIn: true, MemberSlots: []int{0, 1, 2, 3, 4}}
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
	for _, e := range es {
		if slices.Contains(roles.Player, e.ID) || slices.Contains(roles.Captain, e.ID) || slices.Contains(roles.Member, e.ID) {
			d.Mine = append(d.Mine, e)
		}
	}
	s.render(w, r, http.StatusOK, "register", page{Title: "Register: " + ev.Name, Nav: "me", Data: d})
}

// registration builds the entrant to register from the form or API
// fields: a team (name, members, substitute) registered by its captain,
// or the user themself as a player.
func registration(team bool, me, name string, members []string, substitute, rating string) (arbiter.Entrant, string, error) {
	e := arbiter.Entrant{}
	if v := strings.TrimSpace(rating); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 4000 {
			return e, "", arbiter.FieldError("rating", "web.rating", "rating must be a whole number from 0 to 4000")
		}
		e.Rating = n
	}
	if !team {
		e.Player = me
		return e, arbiter.RolePlayer, nil
	}
	e.Name, e.Captain, e.Substitute = strings.TrimSpace(name), me, strings.TrimSpace(substitute)
	if e.Name == "" {
		return e, "", arbiter.FieldError("name", "web.team", "give the team's name")
	}
	for _, m := range members {
		if m = strings.TrimSpace(m); m != "" {
			e.Members = append(e.Members, m)
		}
	}
	// The captain is a member (A11); the form need not repeat them.
	if !slices.ContainsFunc(e.Members, func(m string) bool { return strings.EqualFold(m, me) }) {
		e.Members = append([]string{me}, e.Members...)
	}
	return e, arbiter.RoleCaptain, nil
}

func (s *Server) registerPost(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	back := "/events/" + slug + "/register"
	f, err := s.app.Format(r.Context(), slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	u := currentUser(r)
	if u == nil {
		s.signInFirst(w, r)
		return
	}
	_ = r.ParseForm()
	e, role, err := registration(f.Entrant == "team", u.LichessUsername, r.PostFormValue("name"), r.PostForm["member"],
		r.PostFormValue("substitute"), r.PostFormValue("rating"))
	if err != nil {
		role = arbiter.RolePlayer
	}
	s.act(w, r, role, back, func(a arbiter.Actor) (string, error) {
		if err != nil {
			return "", err
		}
		got, err := s.app.Register(r.Context(), a, slug, e)
		if err != nil {
			return "", err
		}
		return "Registered " + entrantName(got) + ": a TD approves the registration.", nil
	})
}

type apiRegisterIn struct {
	Name       string   `json:"name,omitempty"`
	Members    []string `json:"members,omitempty"`
	Substitute string   `json:"substitute,omitempty"`
	Rating     *int     `json:"rating,omitempty"`
}

func (s *Server) apiRegister(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiActorAs(w, r, arbiter.RolePlayer)
	if !ok {
		return
	}
	slug := r.PathValue("slug")
	var in apiRegisterIn
	if err := decodeJSON(r, &in); err != nil {
		s.apiFail(w, r, err)
		return
	}
	f, err := s.app.Format(r.Context(), slug)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	rating := ""
	if in.Rating != nil {
		rating = strconv.Itoa(*in.Rating)
	}
	e, role, err := registration(f.Entrant == "team", a.Name, in.Name, in.Members, in.Substitute, rating)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	a.Role = role
	got, err := s.app.Register(r.Context(), a, slug, e)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusCreated, got)
}
