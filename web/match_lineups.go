package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
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

// matchLineups is who plays a team match, as the viewer may see it.
type matchLineups struct {
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
	Home   lineupSide `json:"home"`
	Away   lineupSide `json:"away"`
	// Before: the deadline has not passed (the page says so).
	Before bool `json:"-"`
}

// lineupSide is one side's players of a team match.
type lineupSide struct {
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
func (s lineupSide) SitsOutText() string {
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
func (ml *matchLineups) HasNotes() bool {
	return ml.Before || slices.ContainsFunc(ml.Sides(), func(s lineupSide) bool { return s.Status != "paired" && s.Status != "submitted" })
}

// Sides are the two sides in order, for the page's notes.
func (ml *matchLineups) Sides() []lineupSide { return []lineupSide{ml.Home, ml.Away} }

// Known tells whether the side's players are shown.
func (s lineupSide) Known() bool { return s.Players != nil }

// player is the side's player on row i, "" when not known.
func (s lineupSide) player(i int) string {
	if i < 0 || i >= len(s.Players) {
		return ""
	}
	return s.Players[i]
}

// lineupRow is one row of the page's lineup table.
type lineupRow struct {
	Label, Home, Away string
}

// Rows are the table's rows: a player's name, "hidden" or "–".
func (ml *matchLineups) Rows() []lineupRow {
	cell := func(s lineupSide, i int) string {
		switch {
		case s.Status == "hidden":
			return "hidden"
		case s.player(i) == "":
			return "–"
		}
		return s.player(i)
	}
	var out []lineupRow
	for i, l := range ml.Labels {
		out = append(out, lineupRow{Label: l, Home: cell(ml.Home, i), Away: cell(ml.Away, i)})
	}
	return out
}

// HasSitsOut tells whether the table shows who sits out (R7: set
// lineups name them).
func (ml *matchLineups) HasSitsOut() bool { return ml.Kind == "sets" }

// playerOf returns the players of the row labelled label.
func (ml *matchLineups) playerOf(label string) (home, away string) {
	if ml == nil {
		return "", ""
	}
	i := slices.Index(ml.Labels, label)
	return ml.Home.player(i), ml.Away.player(i)
}

// scoreRow is one part, set or board of the result with its players.
type scoreRow struct {
	Label                  string
	Home, Away             arbiter.Points
	HomePlayer, AwayPlayer string
}

// lineupsOf finds who plays a team match for the viewer of d: nil for
// individual matches, byes, and board matches whose teams were not ranked.
func (s *Server) lineupsOf(ctx context.Context, d *matchData) (*matchLineups, error) {
	if d.Individual || d.M.IsBye() || d.M.Stage >= len(d.F.Stages) {
		return nil, nil
	}
	ml := &matchLineups{}
	var w arbiter.RoundWindow
	for _, x := range d.Ev.Calendar {
		if x.Stage == d.M.Stage && x.Number == d.M.Round {
			w = x
		}
	}
	ml.Seq = w.Seq
	switch d.F.Lineups {
	case format.LineupBoards:
		n := max(len(d.M.HomeBoards), len(d.M.AwayBoards))
		if n == 0 {
			return nil, nil
		}
		ml.Kind = "boards"
		for b := 1; b <= n; b++ {
			ml.Labels = append(ml.Labels, fmt.Sprintf("board %d", b))
		}
		ml.Home, ml.Away = pairedSide(d.M.HomeBoards), pairedSide(d.M.AwayBoards)
	case format.LineupSets:
		ml.Kind, ml.Deadline = "sets", w.Start
		for _, p := range d.F.Stages[d.M.Stage].MatchFor(d.M.Format).Parts {
			ml.Labels = append(ml.Labels, p.TC.String())
		}
		for _, side := range []struct {
			e   arbiter.Entrant
			out *lineupSide
		}{{d.Home, &ml.Home}, {d.Away, &ml.Away}} {
			ls, err := s.setSide(ctx, d, side.e, w)
			if err != nil {
				return nil, err
			}
			*side.out = ls
		}
	default:
		return nil, nil
	}
	ml.Home.Team, ml.Away.Team = entrantName(d.Home), entrantName(d.Away)
	ml.Before = ml.Kind == "sets" && d.Now.Before(ml.Deadline)
	return ml, nil
}

// pairedSide is a team's board list as paired.
func pairedSide(boards []string) lineupSide {
	if len(boards) == 0 {
		return lineupSide{Status: "none"}
	}
	return lineupSide{Status: "paired", Players: slices.Clone(boards)}
}

// lineupVisible tells whether the viewer with roles sees team id's set
// lineup for a round whose lineups are due at deadline: its own captain
// and members and the TDs always, anyone else from the deadline on (a
// deadline not known keeps it hidden from them).
func lineupVisible(roles app.Roles, id string, deadline, now time.Time) bool {
	if roles.TD || slices.Contains(roles.Captain, id) || slices.Contains(roles.Member, id) {
		return true
	}
	return !deadline.IsZero() && !now.Before(deadline)
}

// setSide is one team's set lineup for the match's round (R7): its own,
// or the latest earlier one, which plays by default.
func (s *Server) setSide(ctx context.Context, d *matchData, e arbiter.Entrant, w arbiter.RoundWindow) (lineupSide, error) {
	if !lineupVisible(d.Roles, e.ID, w.Start, d.Now) {
		return lineupSide{Status: "hidden", VisibleFrom: w.Start}, nil
	}
	if w.Seq == 0 {
		return lineupSide{Status: "none"}, nil
	}
	l, from, err := s.app.Lineup(ctx, d.Ev.Slug, e.ID, w.Seq)
	switch arbiter.ErrorCode(err) {
	case "":
	case arbiter.ENOTFOUND, arbiter.ERULE: // no lineup for this round or any earlier one
		return lineupSide{Status: "none"}, nil
	default:
		return lineupSide{}, err
	}
	ls := lineupSide{Status: "submitted", Players: l.Sets}
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

// scoreRows are the result's parts (or sets, or boards) with the players
// the viewer may see.
func scoreRows(parts []arbiter.PartResult, ml *matchLineups) []scoreRow {
	var out []scoreRow
	for _, p := range parts {
		h, a := ml.playerOf(p.TC)
		out = append(out, scoreRow{Label: p.TC, Home: p.Home, Away: p.Away, HomePlayer: h, AwayPlayer: a})
	}
	return out
}
