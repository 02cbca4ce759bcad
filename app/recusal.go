package app

import (
	"context"
	"slices"

	"arbiter"
	"arbiter/sqlstore"
)

// recusalClause is the antichess rulebook's "Situations involving a TD"
// clause; Arbiter applies it in every format, as plain fairness: a TD who
// is also a player takes no part in a decision about their own case.
const recusalClause = "A23"

// involves reports whether user plays for e: the player of an individual
// entrant, or a captain, member or substitute of a team. Every status
// counts, since a withdrawn or removed entrant still has a stake.
func involves(e arbiter.Entrant, user string) bool {
	return user != "" && (e.Captain == user || slices.Contains(e.Users(), user))
}

// requireNotOwnEntrant refuses a TD's decision about entrant e when the
// TD plays for it (A23).
func requireNotOwnEntrant(st *state, a arbiter.Actor, e arbiter.Entrant, what string) error {
	if involves(e, normUser(a.Name)) {
		return arbiter.RuleError(recusalClause, "%s plays for %s in %s and may not %s about it: another TD must decide", normUser(a.Name), e.ID, st.ev.Slug, what)
	}
	return nil
}

// requireNotOwnMatch refuses a TD's decision about match m when the TD
// plays for either side (A23).
func requireNotOwnMatch(ctx context.Context, q sqlstore.Queryer, st *state, a arbiter.Actor, m *arbiter.Match, what string) error {
	me := normUser(a.Name)
	for _, id := range []string{m.Home, m.Away} {
		if id == "" {
			continue
		}
		e, err := docEntrant.get(ctx, q, st, id)
		if err != nil {
			return err
		}
		if involves(e, me) {
			return arbiter.RuleError(recusalClause, "%s plays for %s in match %s and may not %s: another TD must decide", me, e.ID, m.ID, what)
		}
	}
	return nil
}
