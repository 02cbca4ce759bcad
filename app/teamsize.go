package app

import (
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
)

// Team size and board count come from the format (A9: 4 boards, 3 with
// fewer than 10 teams; R3: one player per set), never from a rulebook's
// constants: a custom format of 4 boards plays 4 boards whatever its
// number of teams.

// teamSize is the number of players a team fields in a match when n teams
// play (format team.size), 0 for an individual event or a band left to
// the TDs.
func teamSize(f *format.Format, n int) int {
	if ts := f.TeamSize(n); ts != nil {
		return *ts
	}
	return 0
}

// teamSizeClause is the rule cited for a team of the wrong size: the
// format's clause (A9, R3), else its field.
func teamSizeClause(f *format.Format) string {
	return orField(f.Clauses.TeamSize, "format.team.size")
}

// checkTeamSize refuses a team that cannot field the format's players for
// n teams: fewer members than boards (or sets), or (unless only the
// minimum is checked: an approval, while more teams may still come and
// the size go up, A9) more players than boards plus the format's
// substitutes. The substitute (A14) is counted as the extra player, never
// as one of the boards.
func checkTeamSize(f *format.Format, e arbiter.Entrant, n int, minOnly bool) error {
	size := teamSize(f, n)
	if e.Kind != arbiter.EntrantTeam || size == 0 {
		return nil
	}
	if len(e.Members) < size {
		return arbiter.RuleError(teamSizeClause(f), "%s has %s; with %d teams each team fields %d players", e.Name, arbiter.Count(len(e.Members), "member"), n, size)
	}
	if s := f.Team.Substitutes; s != nil && !minOnly && len(e.Users()) > size+*s {
		return arbiter.RuleError(teamSizeClause(f), "%s has %d players; with %d teams a team has %d players and at most %s", e.Name, len(e.Users()), n, size, arbiter.Count(*s, "substitute"))
	}
	return nil
}

// boardRules are the board-lineup rules of a running event (A9, A14):
// the format's team size for its teams, and its substitutes on top.
func boardRules(st *state) lineup.AntichessRules {
	b := teamSize(st.f, st.ev.Entrants)
	if b == 0 {
		return lineup.RulesAntichess(st.ev.Entrants)
	}
	subs := 1
	if s := st.f.Team.Substitutes; s != nil {
		subs = *s
	}
	return lineup.AntichessRules{Boards: b, MaxMembers: b + subs}
}

// setRules are the set-lineup rules of the format (R7): one player per set
// of the stage's match format, however many sets it has.
func setRules(f *format.Format) lineup.RKCCRules {
	r := lineup.RulesRKCC()
	if n := len(f.Stages[0].Match.Parts); n > 0 && slices.ContainsFunc(f.Stages, func(s format.Stage) bool { return s.Match.Kind == format.TeamSets }) {
		r.Sets = n
	}
	return r
}
