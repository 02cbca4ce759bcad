package lineup

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"arbiter"
)

// Antichess team cup lineups (A9, A12-A16). The team's playing members sit
// on boards ordered by rating, with interchanges the TDs allow among
// comparable players; an optional fifth member may replace a comparable
// player, announced before the next pairings (in the knockout only after
// winning the current match before the next opponent is known); the
// captain may not sit out in the knockout; the captain changes at most once
// (effective from the next round) and is never a TD or comm-banned.

// Member is a team member as the lineup rules see them.
type Member struct {
	Name       string
	Rating     int
	CommBanned bool // a full Lichess communication ban (A16)
	TD         bool // a tournament director of the event (A13)
}

// Pair is an unordered pair of members the TDs declared comparable in
// strength (A12 board interchanges, A14 fifth-member substitutions).
type Pair [2]string

// Comparable is the TDs' list of comparable pairs.
type Comparable []Pair

// Allows reports whether x and y may trade places.
func (c Comparable) Allows(x, y string) bool {
	for _, p := range c {
		if (p[0] == x && p[1] == y) || (p[0] == y && p[1] == x) {
			return true
		}
	}
	return false
}

// AntichessRules are the team-cup lineup parameters.
type AntichessRules struct {
	Boards     int // A9: 4, or 3 with fewer than 10 teams
	MaxMembers int // A14: one optional substitute on top of the boards
}

// RulesAntichess returns the team-cup rules for an event with the given
// number of teams (A9: boards of 4, or 3 when fewer than 10 teams).
func RulesAntichess(teams int) AntichessRules {
	b := 4
	if teams < 10 {
		b = 3
	}
	return AntichessRules{Boards: b, MaxMembers: b + 1}
}

// CaptainTerm is a captain and the first round they lead.
type CaptainTerm struct {
	Name string
	From int // round Seq; 1 for the registered captain
}

// Team is an antichess team's lineup record. Treat it as a value.
type Team struct {
	Members []Member
	// Captains holds the captain terms in order; the first is the
	// registered captain from round 1.
	Captains []CaptainTerm
	// Changes counts the team's own captain changes (A13: one).
	Changes int
	// RemovedByTD lists captains the TDs removed (A16); a later change of
	// the team may not bring one back.
	RemovedByTD []string
	// Boards are the playing members from board 1 down.
	Boards []string
	// Comparable is the TDs' list of comparable pairs (A12, A14).
	Comparable Comparable
}

func (t Team) clone() Team {
	t.Members = slices.Clone(t.Members)
	t.Captains = slices.Clone(t.Captains)
	t.RemovedByTD = slices.Clone(t.RemovedByTD)
	t.Boards = slices.Clone(t.Boards)
	t.Comparable = slices.Clone(t.Comparable)
	return t
}

func (t Team) member(name string) (Member, bool) {
	for _, m := range t.Members {
		if m.Name == name {
			return m, true
		}
	}
	return Member{}, false
}

// CaptainAt returns the captain for round seq.
func (t Team) CaptainAt(seq int) string {
	c := ""
	for _, term := range t.Captains {
		if term.From <= seq {
			c = term.Name
		}
	}
	return c
}

// RankByRating is the TDs' initial board order (A12): rating descending;
// equal ratings by name so the order is deterministic.
func RankByRating(members []Member) []string {
	ms := slices.Clone(members)
	slices.SortStableFunc(ms, func(a, b Member) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Name, b.Name))
	})
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// Validate checks the team's composition and captaincy: boards filled
// from distinct members (A9), at most one substitute (A14), a captain who
// is a member, neither a TD (A13) nor comm-banned (A16), and at most one TD
// in the team (A13).
func (r AntichessRules) Validate(t Team) error {
	if n := len(t.Members); n < r.Boards || n > r.MaxMembers {
		return arbiter.FieldError("members", "A9", "a team has %d to %d members, got %d", r.Boards, r.MaxMembers, n)
	}
	tds := 0
	for i, m := range t.Members {
		if m.Name == "" {
			return arbiter.FieldError(fmt.Sprintf("members[%d].name", i), "A9", "member %d has no name", i+1)
		}
		if slices.IndexFunc(t.Members, func(o Member) bool { return o.Name == m.Name }) != i {
			return arbiter.FieldError(fmt.Sprintf("members[%d].name", i), "A11", "%s is listed twice; a player can be on one board only", m.Name)
		}
		if m.TD {
			tds++
		}
	}
	if tds > 1 {
		return arbiter.FieldError("members", "A13", "no two tournament directors may be in the same team")
	}
	if len(t.Boards) != r.Boards {
		return arbiter.FieldError("boards", "A9", "the team plays %d boards, got %d", r.Boards, len(t.Boards))
	}
	for i, b := range t.Boards {
		if _, ok := t.member(b); !ok {
			return arbiter.FieldError(fmt.Sprintf("boards[%d]", i), "A12", "%s is not a member of the team", b)
		}
		if slices.Index(t.Boards, b) != i {
			return arbiter.FieldError(fmt.Sprintf("boards[%d]", i), "A11", "%s is on two boards", b)
		}
	}
	if len(t.Captains) == 0 || t.Captains[0].From != 1 {
		return arbiter.FieldError("captain", "A11", "the team names its captain when it registers")
	}
	for i, c := range t.Captains {
		m, ok := t.member(c.Name)
		field := fmt.Sprintf("captains[%d]", i)
		switch {
		case !ok:
			return arbiter.FieldError(field, "A11", "captain %s is not a member of the team", c.Name)
		case m.TD:
			return arbiter.FieldError(field, "A13", "%s is a tournament director and cannot be the captain", c.Name)
		case m.CommBanned:
			return arbiter.FieldError(field, "A16", "%s has a communication ban and cannot be the captain", c.Name)
		}
	}
	return nil
}

// CheckOrder checks the captain's final board list against the TDs' order
// (A12): the same players, and every player off their TD-given board sits
// on the board of a player the TDs declared comparable to them.
func CheckOrder(tdOrder, final []string, comparable Comparable) error {
	if len(final) != len(tdOrder) {
		return arbiter.FieldError("boards", "A12", "the list has %d boards, the TDs' order %d", len(final), len(tdOrder))
	}
	for i, p := range final {
		if !slices.Contains(tdOrder, p) || slices.Index(final, p) != i {
			return arbiter.FieldError(fmt.Sprintf("boards[%d]", i), "A12", "%s is not one of the team's ranked players, or is listed twice", p)
		}
		if p != tdOrder[i] && !comparable.Allows(p, tdOrder[i]) {
			return arbiter.RuleError("A12", "%s may not play board %d ahead of %s: the TDs did not allow that interchange", p, i+1, tdOrder[i])
		}
	}
	return nil
}

// ChangeCaptain makes name the captain from round current+1 on (A13: the
// change takes effect for future rounds). byTD marks a TD-ordered
// replacement (A16), which does not use the team's one change; the team's
// own change may not reinstate a captain the TDs removed.
func (r AntichessRules) ChangeCaptain(t Team, name string, current int, byTD bool) (Team, error) {
	m, ok := t.member(name)
	cur := t.CaptainAt(current + 1)
	switch {
	case !ok:
		return t, arbiter.FieldError("captain", "A13", "%s is not a member of the team", name)
	case name == cur:
		return t, arbiter.FieldError("captain", "A13", "%s is already the captain", name)
	case m.TD:
		return t, arbiter.RuleError("A13", "%s is a tournament director and cannot be the captain", name)
	case m.CommBanned:
		return t, arbiter.RuleError("A16", "%s has a communication ban and cannot be the captain", name)
	case !byTD && t.Changes >= 1:
		return t, arbiter.RuleError("A13", "the team has already changed its captain once")
	case !byTD && slices.Contains(t.RemovedByTD, name):
		return t, arbiter.RuleError("A16", "the TDs removed %s as captain", name)
	}
	out := t.clone()
	out.Captains = slices.DeleteFunc(out.Captains, func(c CaptainTerm) bool { return c.From > current })
	out.Captains = append(out.Captains, CaptainTerm{Name: name, From: current + 1})
	if byTD {
		out.RemovedByTD = append(out.RemovedByTD, cur)
	} else {
		out.Changes++
	}
	return out, nil
}

// SubContext is what the substitution rule needs to know about the time.
type SubContext struct {
	Round        int       // the round Seq the change is for
	NextPairings time.Time // when that round's pairings are to be published
	Knockout     bool      // that round is a knockout round
	// For the knockout (A14.1): the team's current match is finished and
	// won, and the next opponent is not yet known.
	MatchFinished, MatchWon, OpponentKnown bool
}

// Substitute lets member in (not on a board) replace out (on a board) for
// the round in ctx, on out's board (A14). The two must be comparable (the
// TDs' list); the change must be announced before the next pairings; in
// the knockout only once the current match is won and before the next
// opponent is known (A14.1); the captain may sit out only outside the
// knockout (A15).
func (r AntichessRules) Substitute(t Team, in, out string, ctx SubContext, now time.Time) (Team, error) {
	if _, ok := t.member(in); !ok {
		return t, arbiter.FieldError("in", "A14", "%s is not a member of the team", in)
	}
	if slices.Contains(t.Boards, in) {
		return t, arbiter.FieldError("in", "A14", "%s already plays on a board", in)
	}
	i := slices.Index(t.Boards, out)
	if i < 0 {
		return t, arbiter.FieldError("out", "A14", "%s does not play on a board", out)
	}
	switch {
	case !now.Before(ctx.NextPairings):
		return t, arbiter.RuleError("A14", "changes must be announced before the next pairings are released")
	case ctx.Knockout && (!ctx.MatchFinished || !ctx.MatchWon):
		return t, arbiter.RuleError("A14", "in the knockout the lineup may change only once the team has finished and won its match")
	case ctx.Knockout && ctx.OpponentKnown:
		return t, arbiter.RuleError("A14", "in the knockout the lineup may change only before the next opponent is known")
	case ctx.Knockout && out == t.CaptainAt(ctx.Round):
		return t, arbiter.RuleError("A15", "the captain cannot sit out in the knockout stage")
	case !t.Comparable.Allows(in, out):
		return t, arbiter.RuleError("A14", "%s may replace only players of similar strength, and the TDs did not approve %s for %s", in, in, out)
	}
	o := t.clone()
	o.Boards[i] = in
	return o, nil
}
