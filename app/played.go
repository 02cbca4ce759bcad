package app

import (
	"context"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/sanction"
	"arbiter/sqlstore"
)

// playedFor maps each entrant to the players who have played for it in a
// published round (membership rules: a player who has played for a team
// stays with it, A11, R16). Who played is read from the records the format
// keeps: the teams' board lists as paired (A12), the set lineups (R7), and
// otherwise every member of the entrant. Byes and matches decided without
// play (double forfeits, forfeits) count for nobody; a match not yet
// decided counts, as its players may be playing it.
func playedFor(ctx context.Context, q sqlstore.Queryer, st *state) (map[string][]string, error) {
	rounds, err := docRound.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	add := func(id string, users []string) {
		for _, u := range users {
			if !slices.Contains(out[id], u) {
				out[id] = append(out[id], u)
			}
		}
	}
	entrants := map[string]arbiter.Entrant{}
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		entrants[e.ID] = e
	}
	books := map[string]*Lineups{}
	if st.f.Lineups == format.LineupSets {
		ls, err := docLineup.list(ctx, q, st)
		if err != nil {
			return nil, err
		}
		for i := range ls {
			books[ls[i].Entrant] = &ls[i]
		}
	}
	for _, rd := range rounds {
		if rd.Status == arbiter.RoundPaired {
			continue
		}
		w, _ := st.window(rd.Stage, rd.Number)
		for _, id := range rd.Matches {
			m, err := docMatch.get(ctx, q, st, id)
			if err != nil {
				return nil, err
			}
			if m.IsBye() || (m.Result != nil && m.Result.Decision != "played" && m.Result.Decision != "") {
				continue
			}
			for _, side := range []struct {
				id     string
				boards []string
			}{{m.Home, m.HomeBoards}, {m.Away, m.AwayBoards}} {
				e := entrants[side.id]
				switch {
				case len(side.boards) > 0:
					add(side.id, side.boards)
				case books[side.id] != nil:
					if l, _, err := books[side.id].Book.Effective(w.Seq); err == nil && len(l.Sets) > 0 {
						add(side.id, l.Sets)
					} else {
						add(side.id, e.Users())
					}
				default:
					add(side.id, e.Users())
				}
			}
		}
	}
	return out, nil
}

// removedPlayers lists the players removed from the event: members
// sanctioned out of their team and everyone of an entrant removed.
func removedPlayers(ctx context.Context, q sqlstore.Queryer, st *state) ([]string, error) {
	sanctions, err := docSanction.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, x := range sanctions {
		if x.Player != "" {
			out = append(out, x.Player)
		}
	}
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.Status == arbiter.EntrantRemoved {
			out = append(out, e.Users()...)
		}
	}
	return out, nil
}

// mayJoin refuses a player joining entrant id (a late entry, or a member
// added by a TD's edit) whom the membership rules keep out: removed from
// the event (R16 in RKCC, A15 in the antichess cup), entered with another
// entrant, or having played for another one (one team per player: A11,
// R14).
func mayJoin(st *state, id, player string, removed []string, es []arbiter.Entrant, played map[string][]string) error {
	rb, _ := sanctionRulebook(st.f)
	oneTeam := "app.register"
	if st.f.Entrant == format.Team {
		oneTeam = "A11"
		if rb == sanction.RKCC {
			oneTeam = "R14"
		}
	}
	if slices.Contains(removed, player) {
		rule := "app.register"
		switch {
		case rb == sanction.RKCC:
			rule = "R16"
		case rb == sanction.Antichess:
			rule = "A15"
		}
		return arbiter.RuleError(rule, "%s was removed from the event and may not play for any team", player)
	}
	for _, o := range es {
		if o.ID == id {
			continue
		}
		if entered(o) && slices.Contains(o.Users(), player) {
			return arbiter.RuleError(oneTeam, "%s is already entered (in %s)", player, o.Name)
		}
		if slices.Contains(played[o.ID], player) {
			return arbiter.RuleError(oneTeam, "%s has already played for %s in this event", player, o.Name)
		}
	}
	return nil
}
