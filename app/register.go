package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/sqlstore"
)

// Register enters a player or a team. A player registers themself (role
// player, Player = their name), a captain their team (role captain,
// Captain = their name); a TD may register anyone. The entrant waits for
// a TD's approval.
func (s *Service) Register(ctx context.Context, a arbiter.Actor, slug string, e arbiter.Entrant) (arbiter.Entrant, error) {
	if err := requireActor(a); err != nil {
		return e, err
	}
	if err := checkEntrantText(&e); err != nil {
		return e, err
	}
	queued := false
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRegistration {
			return arbiter.RuleError("registration", "registration of %s is closed", slug)
		}
		td, err := isTD(ctx, tx, st, a)
		if err != nil {
			return err
		}
		if !td {
			if err := registrationOpen(st.f, st.ev.Start, s.now()); err != nil {
				return err
			}
		}
		me := normUser(a.Name)
		switch {
		case td:
		case st.f.Entrant == format.Individual && a.Role == arbiter.RolePlayer && normUser(e.Player) == me:
		case st.f.Entrant == format.Team && a.Role == arbiter.RoleCaptain && normUser(e.Captain) == me:
		default:
			return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may register only themself (a player) or their own team (its captain)", a)
		}
		if err := normaliseEntrant(st.f, &e); err != nil {
			return err
		}
		others, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, o := range others {
			if !entered(o) {
				continue
			}
			for _, u := range e.Users() {
				if slices.Contains(o.Users(), u) {
					rule := "app.register"
					if st.f.Entrant == format.Team {
						rule = "A11" // one team per player
					}
					return arbiter.RuleError(rule, "%s is already entered (in %s)", u, o.Name)
				}
			}
		}
		if err := checkBans(ctx, tx, st, e.Users()); err != nil {
			return err
		}
		if e.Kind == arbiter.EntrantTeam {
			if err := checkSeparated(ctx, tx, st, e.Name, e.Users()); err != nil {
				return err
			}
		}
		e.Status, e.RegisteredBy, e.RegisteredAt, e.Seed, e.Reason = arbiter.EntrantPending, me, s.now(), 0, ""
		e.Version, err = docEntrant.create(ctx, tx, change(a, "entrant.register", "", false), st, e.ID, e)
		if err != nil {
			return err
		}
		queued, err = s.lichessOnEntry(ctx, tx, st, e.ID)
		return err
	})
	if err == nil && !queued && e.Kind == arbiter.EntrantTeam && s.accounts != nil {
		// No job queue: A11 on Lichess's data at once, for the TDs who
		// approve (the outcome is stored; a failure to reach Lichess
		// leaves it "unknown").
		_, _ = s.CheckTeamRules(ctx, arbiter.Actor{Name: "arbiter", Role: arbiter.RoleSystem}, slug, e.ID, TeamRulesRequest{})
	}
	return e, err
}

// lichessOnEntry queues a new entrant's checks on Lichess in the entry's
// transaction: A2/W1 eligibility (job_eligibility.go) and the ratings,
// Lichess team and A11 histories (job_ratings.go). It reports whether the
// ratings job was queued.
func (s *Service) lichessOnEntry(ctx context.Context, tx *sqlstore.Tx, st *state, entrantID string) (bool, error) {
	if err := s.eligibilityOnRegistration(ctx, tx, st, entrantID); err != nil {
		return false, err
	}
	return s.ratingsOnRegistration(ctx, tx, st, entrantID)
}

// normaliseEntrant checks an entrant against the format and fills its ID.
func normaliseEntrant(f *format.Format, e *arbiter.Entrant) error {
	switch f.Entrant {
	case format.Individual:
		if e.Kind == "" {
			e.Kind = arbiter.EntrantPlayer
		}
		if e.Kind != arbiter.EntrantPlayer {
			return arbiter.FieldError("kind", "format.entrant", "%s is an individual event: register players", f.Name)
		}
		e.Player = normUser(e.Player)
		if e.Player == "" {
			return arbiter.FieldError("player", "app.register", "no player given")
		}
		if len(e.Members) > 0 || e.Captain != "" || e.Substitute != "" {
			return arbiter.FieldError("members", "format.entrant", "a player entrant has no captain, members or substitute")
		}
		e.ID = e.Player
		if e.Name == "" {
			e.Name = e.Player
		}
	case format.Team:
		if e.Kind == "" {
			e.Kind = arbiter.EntrantTeam
		}
		if e.Kind != arbiter.EntrantTeam {
			return arbiter.FieldError("kind", "format.entrant", "%s is a team event: register teams", f.Name)
		}
		if strings.TrimSpace(e.Name) == "" {
			return arbiter.FieldError("name", "app.register", "a team needs a name")
		}
		e.ID = teamID(e.Name)
		if e.ID == "" {
			return arbiter.FieldError("name", "app.register", "team name %q has no letters or digits", e.Name)
		}
		e.Captain = normUser(e.Captain)
		e.Substitute = normUser(e.Substitute)
		seen := map[string]bool{}
		for i, m := range e.Members {
			m = normUser(m)
			if m == "" || seen[m] {
				return arbiter.FieldError(fmt.Sprintf("members[%d]", i), "app.register", "member %q is empty or listed twice", e.Members[i])
			}
			seen[m] = true
			e.Members[i] = m
		}
		if e.Substitute != "" && seen[e.Substitute] {
			return arbiter.FieldError("substitute", "A14", "the substitute %s is also a member", e.Substitute)
		}
		// The field's size is not known yet: any size of the format's
		// bands is accepted here; approval and the close of registration
		// check the size for the number of teams (A9).
		sizes := f.TeamSizes()
		lo, hi := slices.Min(sizes), slices.Max(sizes)
		if len(e.Members) < lo || len(e.Members) > hi {
			return arbiter.FieldError("members", teamSizeClause(f), "a team has %d to %d members, got %d", lo, hi, len(e.Members))
		}
		if f.Team.Substitutes != nil && *f.Team.Substitutes == 0 && e.Substitute != "" {
			return arbiter.FieldError("substitute", "format.team.substitutes", "this format allows no substitute")
		}
		if f.Team.Captain && (e.Captain == "" || !seen[e.Captain]) {
			return arbiter.FieldError("captain", "A11", "a team names a captain among its members")
		}
		for i, b := range e.Boards {
			e.Boards[i] = normUser(b)
		}
	default:
		return arbiter.Errorf(arbiter.EINTERNAL, "format %s has unknown entrant kind %q", f.Name, f.Entrant)
	}
	if e.Rating < 0 {
		return arbiter.FieldError("rating", "app.register", "a rating is not negative")
	}
	return nil
}

// teamID is a slug of a team's name: lower-case letters and digits, other
// runs become '-'.
func teamID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// Approve accepts a pending (or rejected) entrant; TD only. expect is the
// entrant version the TD reviewed (0: the current one).
func (s *Service) Approve(ctx context.Context, a arbiter.Actor, slug, id string, expect int64) (arbiter.Entrant, error) {
	return s.decideEntrant(ctx, a, slug, id, expect, arbiter.EntrantApproved, "")
}

// Reject refuses an entrant with a reason; TD only.
func (s *Service) Reject(ctx context.Context, a arbiter.Actor, slug, id, reason string, expect int64) (arbiter.Entrant, error) {
	if err := requireReason(reason, "a rejection"); err != nil {
		return arbiter.Entrant{}, err
	}
	return s.decideEntrant(ctx, a, slug, id, expect, arbiter.EntrantRejected, reason)
}

func (s *Service) decideEntrant(ctx context.Context, a arbiter.Actor, slug, id string, expect int64, status, reason string) (arbiter.Entrant, error) {
	var e arbiter.Entrant
	if err := checkExpect(expect); err != nil {
		return e, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "approve or reject entrants"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRegistration {
			return arbiter.RuleError("registration", "registration of %s is closed", slug)
		}
		e, err = docEntrant.get(ctx, tx, st, strings.ToLower(id))
		if err != nil {
			return err
		}
		if e.Status == status {
			return arbiter.Errorf(arbiter.ECONFLICT, "entrant %s is already %s", e.ID, status)
		}
		if status == arbiter.EntrantApproved {
			// A9: the team must field the players the format asks for
			// with this approval's number of teams.
			n, err := approvedCount(ctx, tx, st)
			if err != nil {
				return err
			}
			if err := checkTeamSize(st.f, e, n+1, true); err != nil {
				return err
			}
		}
		e.Status, e.Reason = status, reason
		action := "entrant.approve"
		if status == arbiter.EntrantRejected {
			action = "entrant.reject"
		}
		e.Version, err = docEntrant.update(ctx, tx, change(a, action, reason, false), st, e.ID, expected(expect, e.Version), e)
		return err
	})
	return e, err
}

// approvedCount is the number of entrants approved so far.
func approvedCount(ctx context.Context, q sqlstore.Queryer, st *state) (int, error) {
	es, err := docEntrant.list(ctx, q, st)
	n := 0
	for _, e := range es {
		if e.Status == arbiter.EntrantApproved {
			n++
		}
	}
	return n, err
}

// Entrants lists the event's entrants: by seed once registration closed,
// by ID before.
func (s *Service) Entrants(ctx context.Context, slug string) ([]arbiter.Entrant, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	es, err := docEntrant.list(ctx, s.DB, st)
	if err != nil {
		return nil, err
	}
	sortBySeed(es)
	return es, nil
}

func sortBySeed(es []arbiter.Entrant) {
	slices.SortStableFunc(es, func(a, b arbiter.Entrant) int {
		switch {
		case a.Seed == b.Seed:
			return strings.Compare(a.ID, b.ID)
		case a.Seed == 0:
			return 1
		case b.Seed == 0:
			return -1
		}
		return a.Seed - b.Seed
	})
}

// sizingClause names the rule that refuses an event of n entrants: the
// clause the format carries (A9: at least 10 teams; W6: 12 advance from the
// Swiss; R2: 4 advance), else the format's field.
func sizingClause(f *format.Format, n int) string {
	if f.MinEntrants > 0 && n < f.MinEntrants {
		return orField(f.Clauses.MinEntrants, "format.min_entrants")
	}
	return orField(f.Clauses.Sizing, "format.stages")
}

// orField is the clause when the format names one, else the field path.
func orField(clause, field string) string {
	if clause != "" {
		return clause
	}
	return field
}

// CloseRegistration ends registration: no entrant may still be pending,
// the format sizes every stage for the approved entrants (refused below
// the minimum, naming the clause), entrants are seeded by rating (then
// name) and the calendar of every round is computed. The top seed's
// round-1 colour is white, not drawn (kept for callers with fixed
// expectations, such as tests); every user-facing path (CLI, demo) uses
// CloseRegistrationWith, which draws it by lot. TD only.
func (s *Service) CloseRegistration(ctx context.Context, a arbiter.Actor, slug string) (arbiter.Event, error) {
	return s.closeRegistration(ctx, a, slug, CloseOptions{}, false)
}

// CloseOptions are the TDs' choices when closing registration.
type CloseOptions struct {
	// InitialColour, when set ("white" or "black"), is the top seed's
	// round-1 colour chosen by the TDs (e.g. from a lot drawn in public)
	// instead of Arbiter's lot; Reason is then required and audited.
	InitialColour string
	Reason        string
	// AllowPast closes registration even when round 1's deadline has
	// already passed (the scheduler then closes it at once as unplayed).
	AllowPast bool
}

// CloseRegistrationWith is CloseRegistration with the TDs' options; without
// a TD-given colour the top seed's round-1 colour is drawn by lot from the
// SHA-256 of the slug and the close instant (recorded on the Event and in
// the audit entry so that anyone can recompute it).
func (s *Service) CloseRegistrationWith(ctx context.Context, a arbiter.Actor, slug string, o CloseOptions) (arbiter.Event, error) {
	return s.closeRegistration(ctx, a, slug, o, true)
}

func (s *Service) closeRegistration(ctx context.Context, a arbiter.Actor, slug string, o CloseOptions, byLot bool) (arbiter.Event, error) {
	var ev arbiter.Event
	var colour, lot, reason string
	if o.InitialColour != "" {
		c, err := normColour(o.InitialColour)
		if err != nil {
			return ev, err
		}
		if strings.TrimSpace(o.Reason) == "" {
			return ev, arbiter.FieldError("reason", "C.04.3 5.2.5", "say why the TDs choose the initial colour instead of the lot")
		}
		if _, err := arbiter.CleanText("reason", o.Reason, arbiter.MaxReason); err != nil {
			return ev, err
		}
		colour, lot, reason = c, "TDs", fmt.Sprintf("initial colour %s chosen by the TDs: %s", c, strings.TrimSpace(o.Reason))
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "close registration"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRegistration {
			return arbiter.RuleError("registration", "registration of %s is already closed", slug)
		}
		all, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		var approved []arbiter.Entrant
		var pending []string
		for _, e := range all {
			switch e.Status {
			case arbiter.EntrantApproved:
				approved = append(approved, e)
			case arbiter.EntrantPending:
				pending = append(pending, e.ID)
			}
		}
		if len(pending) > 0 {
			return arbiter.RuleError("registration", "approve or reject every entrant first; pending: %s", strings.Join(pending, ", "))
		}
		n := len(approved)
		for _, e := range approved {
			if err := checkTeamSize(st.f, e, n, false); err != nil {
				return err
			}
		}
		x, err := st.f.Explain(n)
		if err != nil {
			return err
		}
		if !x.Runs {
			return arbiter.RuleError(sizingClause(st.f, n), "%s cannot start with %s: %s", st.f.Name, arbiter.Count(n, "entrant"), x.Reason)
		}
		rules, err := calendarRules(st.f)
		if err != nil {
			return err
		}
		var stages []arbiter.Stage
		var cal []calendar.Stage
		for _, se := range x.Stages {
			if se.Rounds == nil || se.Entrants == nil {
				return arbiter.RuleError("format.stages", "stage %s: its size is left to the TDs, which this version cannot record yet", se.Name)
			}
			stg := arbiter.Stage{Name: se.Name, Kind: se.Kind, Pairing: se.Pairing, Entrants: *se.Entrants, Rounds: *se.Rounds, Tiebreak: se.Tiebreaks}
			if se.Advance != nil {
				stg.Advance = *se.Advance
			}
			stages = append(stages, stg)
			cs := calendar.Stage{Name: se.Name, Rounds: *se.Rounds}
			// The break belongs to the stage it precedes (W13: before the
			// candidates and the semifinals, not before the final).
			cs.BreakBefore = time.Duration(se.BreakWeeksBefore) * calendar.Week
			cal = append(cal, cs)
		}
		c, err := calendar.Build(rules, st.ev.Start, cal)
		if err != nil {
			return err
		}
		if err := notPast("allow_past", "round 1's deadline", c.Rounds[0].End.Add(-time.Minute), s.now(), o.AllowPast); err != nil {
			return err
		}
		// Initial ranking: rating, then name (C.04.2 without titles).
		slices.SortStableFunc(approved, func(p, q arbiter.Entrant) int {
			if p.Rating != q.Rating {
				return q.Rating - p.Rating
			}
			return strings.Compare(p.ID, q.ID)
		})
		if colour == "" && !byLot {
			colour, lot = ColourWhite, "not drawn"
		}
		if colour == "" {
			colour, lot = drawInitialColour(st.ev.Slug, s.now())
			reason = fmt.Sprintf("initial colour %s by lot: %s", colour, lot)
		}
		ch := change(a, "registration.close", reason, o.InitialColour != "")
		for i := range approved {
			e := &approved[i]
			e.Seed = i + 1
			if e.Version, err = docEntrant.update(ctx, tx, change(a, "entrant.seed", "", false), st, e.ID, e.Version, *e); err != nil {
				return err
			}
		}
		st.ev.Status, st.ev.Entrants, st.ev.Stages, st.ev.Stage = arbiter.EventRunning, n, stages, 0
		st.ev.InitialColour, st.ev.InitialColourLot = colour, lot
		st.ev.Calendar = nil
		for _, r := range c.Rounds {
			st.ev.Calendar = append(st.ev.Calendar, arbiter.RoundWindow{Seq: r.Seq, Stage: r.Stage, Number: r.Number, Start: r.Start, End: r.End,
				OfferDeadline: r.OfferDeadline, Weekend: r.Weekend})
		}
		if err := st.save(ctx, tx, ch); err != nil {
			return err
		}
		ev = st.ev
		return nil
	})
	return ev, err
}

// SetTiebreakValue records a TD-entered tiebreak value of an entrant
// (td_value:<key>, e.g. W9's "previous_final"; higher is better). TD only.
func (s *Service) SetTiebreakValue(ctx context.Context, a arbiter.Actor, slug, entrantID, key string, v arbiter.Points) (arbiter.Entrant, error) {
	var e arbiter.Entrant
	key = strings.TrimSpace(key)
	if key == "" {
		return e, arbiter.FieldError("key", "app.tiebreak", "no key given (td_value:<key>)")
	}
	if err := checkTiebreakKey(key); err != nil {
		return e, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "enter tiebreak values"); err != nil {
			return err
		}
		for _, stg := range st.ev.Stages {
			if stg.Name == key {
				return arbiter.FieldError("key", "app.tiebreak", "td_value:%s is computed from the stage %s; it cannot be entered", key, key)
			}
		}
		e, err = docEntrant.get(ctx, tx, st, strings.ToLower(entrantID))
		if err != nil {
			return err
		}
		if e.Values == nil {
			e.Values = map[string]arbiter.Points{}
		}
		e.Values[key] = v
		e.Version, err = docEntrant.update(ctx, tx, change(a, "entrant.tiebreak_value", key, false), st, e.ID, e.Version, e)
		return err
	})
	return e, err
}

// registrationOpen refuses a registration after the time the format's
// calendar closes it (RKCC R8: Saturday 06:00 UTC before a Monday start).
// The TDs may still enter a late team or player themselves: an explicit,
// audited decision, as R8's "finalised by 23:59" leaves them time for.
func registrationOpen(f *format.Format, start, now time.Time) error {
	rules, err := calendar.RulesFromFormat(f)
	if err != nil || rules.RegistrationCloseBefore <= 0 {
		return nil // no such time in this format (a broken calendar is refused where it is built)
	}
	closes := start.Add(-rules.RegistrationCloseBefore)
	if now.Before(closes) {
		return nil
	}
	return arbiter.RuleError(orField(f.Clauses.Registration, "format.calendar.registration_close_hours_before"), "registration closed at %s (%d hours before the first round); ask the TDs to enter you",
		calendar.Format(closes), int(rules.RegistrationCloseBefore.Hours()))
}
