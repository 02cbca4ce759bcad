package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
)

// Who plays a team match: each side's player of every board (antichess
// team cup, A12-A14) or set (RKCC, R7-R9), as the viewer may see them.
//
// Disclosure. The rulebooks say when lineups are due, not when the other
// side learns them:
//   - RKCC R7: the lineup (who plays each time control, who sits out) is
//     sent to the TDs before the round starts; without one the previous
//     round's plays. A side's lineup is shown to its own captain and
//     members and to the TDs at any time, and to everyone else (the
//     opponent included) from the round start, its deadline: nobody can
//     then pick their own lineup knowing the other's. What is shown is the
//     lineup in force now, so the one-time late correction (R7.1, within
//     24 h of the start) and the wild card (R9) show once made.
//   - Antichess A12/A14: the TDs fix the board order, the captain submits
//     the final list and substitutions are announced before the pairings.
//     The match keeps each team's board list as it stood when the round
//     was paired, so it is fixed before anyone can see the match (the
//     pairings of a round are public once the TDs publish it): the board
//     lists are public with the match.
//
// The rule is applied here only: the match pages, the API and the CLI's
// 'event lineup' all get what LineupVisible allows.

// MatchLineups is who plays a team match, as the viewer may see it.
type MatchLineups struct {
	// Kind is "boards" (board lineups, A12-A16) or "sets" (set lineups,
	// R7-R9).
	Kind string `json:"kind"`
	// Seq is the match's round numbered over the whole event (as the
	// captain's page numbers lineups).
	Seq int `json:"seq"`
	// Deadline is when set lineups are due and become public: the round
	// start (R7). Zero for board lineups.
	Deadline time.Time `json:"deadline,omitzero"`
	// Labels name the rows, as the result's parts or sets name them:
	// "board 1", … or the sets' time controls ("3+2", …).
	Labels []string   `json:"labels"`
	Home   LineupSide `json:"home"`
	Away   LineupSide `json:"away"`
	// Before: the deadline has not passed (the page says so).
	Before bool `json:"-"`
}

// LineupSide is one side's players of a team match.
type LineupSide struct {
	// Status is "paired" (boards: the list as paired), "submitted" (sets:
	// the lineup sent for this round), "carried" (sets: an earlier round's
	// lineup plays by default, R7; FromSeq names that round), "none" (no
	// lineup, or boards the TDs have not ranked) or "hidden" (not disclosed
	// to the viewer before VisibleFrom).
	Status string `json:"status"`
	// Players has one entry per label; nil unless the status is paired,
	// submitted or carried.
	Players []string `json:"players,omitempty"`
	// SitsOut lists the members named for no set (sets, R7).
	SitsOut     []string  `json:"sits_out,omitempty"`
	FromSeq     int       `json:"from_seq,omitempty"`
	VisibleFrom time.Time `json:"visible_from,omitzero"`
	// Team is the side's name, for the page.
	Team string `json:"-"`
}

// SitsOutText is the members sitting out, for the page.
func (s LineupSide) SitsOutText() string {
	switch {
	case s.Status == "hidden":
		return "hidden"
	case len(s.SitsOut) == 0:
		return "–"
	}
	return strings.Join(s.SitsOut, ", ")
}

// HasNotes tells whether the page has a note under the table: the
// deadline still to come, or a side hidden, carried or without a lineup.
func (ml *MatchLineups) HasNotes() bool {
	return ml.Before || slices.ContainsFunc(ml.Sides(), func(s LineupSide) bool { return s.Status != "paired" && s.Status != "submitted" })
}

// Sides are the two sides in order, for the page's notes.
func (ml *MatchLineups) Sides() []LineupSide { return []LineupSide{ml.Home, ml.Away} }

// Known tells whether the side's players are shown.
func (s LineupSide) Known() bool { return s.Players != nil }

// player is the side's player on row i, "" when not known.
func (s LineupSide) player(i int) string {
	if i < 0 || i >= len(s.Players) {
		return ""
	}
	return s.Players[i]
}

// LineupRow is one row of the page's lineup table.
type LineupRow struct {
	Label, Home, Away string
}

// Rows are the table's rows: a player's name, "hidden" or "–".
func (ml *MatchLineups) Rows() []LineupRow {
	cell := func(s LineupSide, i int) string {
		switch {
		case s.Status == "hidden":
			return "hidden"
		case s.player(i) == "":
			return "–"
		}
		return s.player(i)
	}
	var out []LineupRow
	for i, l := range ml.Labels {
		out = append(out, LineupRow{Label: l, Home: cell(ml.Home, i), Away: cell(ml.Away, i)})
	}
	return out
}

// HasSitsOut tells whether the table shows who sits out (R7: set
// lineups name them).
func (ml *MatchLineups) HasSitsOut() bool { return ml.Kind == "sets" }

// PlayerOf returns the players of the row labelled label.
func (ml *MatchLineups) PlayerOf(label string) (home, away string) {
	if ml == nil {
		return "", ""
	}
	i := slices.Index(ml.Labels, label)
	return ml.Home.player(i), ml.Away.player(i)
}

// LineupVisible tells whether the viewer with roles sees team id's set
// lineup for a round whose lineups are due at deadline: its own captain
// and members and the TDs always, anyone else from the deadline on (a
// deadline not known keeps it hidden from them). R7.
func LineupVisible(roles Roles, id string, deadline, now time.Time) bool {
	if roles.TD || slices.Contains(roles.Captain, id) || slices.Contains(roles.Member, id) {
		return true
	}
	return !deadline.IsZero() && !now.Before(deadline)
}

// windowOf is the calendar window of the match's round (zero if none).
func (st *state) windowOf(stage, number int) arbiter.RoundWindow {
	var w arbiter.RoundWindow
	for _, x := range st.ev.Calendar {
		if x.Stage == stage && x.Number == number {
			w = x
		}
	}
	return w
}

// windowBySeq is the calendar window of round seq over the whole event.
func (st *state) windowBySeq(seq int) arbiter.RoundWindow {
	for _, x := range st.ev.Calendar {
		if x.Seq == seq {
			return x
		}
	}
	return arbiter.RoundWindow{}
}

// matchLineups finds who plays a team match for the viewer: nil for
// individual matches, byes, and board matches whose teams were not ranked.
func matchLineups(ctx context.Context, q sqlstore.Queryer, st *state, v viewer, m arbiter.Match, home, away arbiter.Entrant, now time.Time) (*MatchLineups, error) {
	if st.f.Entrant == "individual" || m.IsBye() || m.Stage >= len(st.f.Stages) {
		return nil, nil
	}
	ml := &MatchLineups{}
	w := st.windowOf(m.Stage, m.Round)
	ml.Seq = w.Seq
	switch st.f.Lineups {
	case format.LineupBoards:
		n := max(len(m.HomeBoards), len(m.AwayBoards))
		if n == 0 {
			return nil, nil
		}
		ml.Kind = "boards"
		for b := 1; b <= n; b++ {
			ml.Labels = append(ml.Labels, fmt.Sprintf("board %d", b))
		}
		ml.Home, ml.Away = pairedSide(m.HomeBoards), pairedSide(m.AwayBoards)
	case format.LineupSets:
		ml.Kind, ml.Deadline = "sets", w.Start
		for _, p := range st.f.Stages[m.Stage].MatchFor(m.Format).Parts {
			ml.Labels = append(ml.Labels, p.TC.String())
		}
		for _, side := range []struct {
			e   arbiter.Entrant
			out *LineupSide
		}{{home, &ml.Home}, {away, &ml.Away}} {
			ls, err := setSide(ctx, q, st, v, side.e, w, now)
			if err != nil {
				return nil, err
			}
			*side.out = ls
		}
	default:
		return nil, nil
	}
	ml.Home.Team, ml.Away.Team = entrantName(home), entrantName(away)
	ml.Before = ml.Kind == "sets" && now.Before(ml.Deadline)
	return ml, nil
}

func entrantName(e arbiter.Entrant) string {
	if e.Name != "" {
		return e.Name
	}
	if e.ID == "" {
		return "–"
	}
	return e.ID
}

// pairedSide is a team's board list as paired.
func pairedSide(boards []string) LineupSide {
	if len(boards) == 0 {
		return LineupSide{Status: "none"}
	}
	return LineupSide{Status: "paired", Players: slices.Clone(boards)}
}

// setSide is one team's set lineup for the match's round (R7): its own,
// or the latest earlier one, which plays by default.
func setSide(ctx context.Context, q sqlstore.Queryer, st *state, v viewer, e arbiter.Entrant, w arbiter.RoundWindow, now time.Time) (LineupSide, error) {
	if !LineupVisible(v.roles, e.ID, w.Start, now) {
		return LineupSide{Status: "hidden", VisibleFrom: w.Start}, nil
	}
	if w.Seq == 0 {
		return LineupSide{Status: "none"}, nil
	}
	l, from, err := lineupOf(ctx, q, st, e.ID, w.Seq)
	switch arbiter.ErrorCode(err) {
	case "":
	case arbiter.ENOTFOUND, arbiter.ERULE: // no lineup for this round or any earlier one
		return LineupSide{Status: "none"}, nil
	default:
		return LineupSide{}, err
	}
	ls := LineupSide{Status: "submitted", Players: l.Sets}
	if ls.Players == nil {
		ls.Players = []string{}
	}
	if from != w.Seq {
		ls.Status, ls.FromSeq = "carried", from
	}
	for _, u := range e.Users() {
		if !slices.Contains(l.Sets, strings.ToLower(strings.TrimSpace(u))) {
			ls.SitsOut = append(ls.SitsOut, u)
		}
	}
	return ls, nil
}
