package web

import (
	"errors"
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
	// Sizes says how many players a team fields when the format's team
	// size depends on the number of teams ("3 or 4"); "" otherwise.
	Sizes    string
	SignedIn bool
	Form     registerForm
}

// registerForm is what was typed, kept when the form is refused so the
// user corrects it instead of typing it again.
type registerForm struct {
	Name, Substitute, Rating string
	Members                  []string // one per member field
	Error, Field             string   // the refusal and the field it names
}

// Member is the value typed in member field i.
func (f registerForm) Member(i int) string {
	if i < len(f.Members) {
		return f.Members[i]
	}
	return ""
}

func (s *Server) registerPage(w http.ResponseWriter, r *http.Request) {
	if currentUser(r) == nil {
		if _, err := s.app.Event(r.Context(), r.PathValue("slug")); err != nil {
			s.fail(w, r, err)
			return
		}
		s.signInFirst(w, r)
		return
	}
	d, err := s.registerView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.renderRegister(w, r, http.StatusOK, d)
}

func (s *Server) renderRegister(w http.ResponseWriter, r *http.Request, status int, d registerData) {
	s.render(w, r, status, "register", page{Title: "Register: " + d.Ev.Name, Nav: "me", Data: d})
}

// registerView reads the registration page of the signed-in user.
func (s *Server) registerView(r *http.Request) (registerData, error) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	ev, err := s.app.Event(ctx, slug)
	if err != nil {
		return registerData{}, err
	}
	f, err := s.app.Format(ctx, slug)
	if err != nil {
		return registerData{}, err
	}
	d := registerData{Ev: ev, F: f, Team: f.Entrant == "team", Open: ev.Status == arbiter.EventRegistration, SignedIn: true}
	d.MemberSlots, d.Sizes = memberSlots(f)
	roles, err := s.rolesOf(r, slug)
	if err != nil {
		return d, err
	}
	es, err := s.app.Entrants(ctx, slug)
	if err != nil {
		return d, err
	}
	for _, e := range es {
		if slices.Contains(roles.Player, e.ID) || slices.Contains(roles.Captain, e.ID) || slices.Contains(roles.Member, e.ID) {
			d.Mine = append(d.Mine, e)
		}
	}
	return d, nil
}

// memberSlots are the member fields of the team form: the largest team
// the format fields, less the captain, who is a member already (A11).
// sizes lists the team sizes when they depend on the number of teams
// (A9: 4 boards, 3 with fewer than 10 teams).
func memberSlots(f *format.Format) (slots []int, sizes string) {
	all := f.TeamSizes()
	most := slices.Max(all)
	if most < 2 {
		most = 2
	}
	for i := 0; i < most-1; i++ {
		slots = append(slots, i)
	}
	if len(all) > 1 {
		var ws []string
		for _, n := range all {
			ws = append(ws, strconv.Itoa(n))
		}
		sizes = strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
	}
	return slots, sizes
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
	form := registerForm{Name: r.PostFormValue("name"), Substitute: r.PostFormValue("substitute"),
		Rating: r.PostFormValue("rating"), Members: r.PostForm["member"]}
	e, role, err := registration(f.Entrant == "team", u.LichessUsername, form.Name, form.Members, form.Substitute, form.Rating)
	var got arbiter.Entrant
	if err == nil {
		got, err = s.app.Register(r.Context(), arbiter.Actor{Name: u.LichessUsername, Role: role}, slug, e)
	}
	switch {
	case err == nil:
		s.setFlash(w, r, false, "Registered "+entrantName(got)+": a TD approves the registration.")
		http.Redirect(w, r, localPath(back), http.StatusSeeOther)
		return
	case arbiter.ErrorCode(err) == arbiter.EINTERNAL || arbiter.RetryAfter(err) > 0:
		s.fail(w, r, err)
		return
	}
	// Refused: the page again, with what was typed and the reason next
	// to the field it names.
	d, verr := s.registerView(r)
	if verr != nil {
		s.fail(w, r, verr)
		return
	}
	form.Error = userMessage(err)
	var ae *arbiter.Error
	if errors.As(err, &ae) {
		form.Field = ae.Field
	}
	d.Form = form
	s.renderRegister(w, r, httpStatus(arbiter.ErrorCode(err)), d)
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
