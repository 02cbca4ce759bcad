package web

import (
	"context"
	"net/http"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// crossTable is the crosstable of a Swiss or round-robin stage, or of one
// pool of a pool stage: the standings' rows with every round's opponent,
// colour and result.
type crossTable struct {
	Pool      string               `json:"pool,omitempty"`
	Rounds    []int                `json:"rounds"` // the round numbers of the columns
	Tiebreaks []standings.Tiebreak `json:"tiebreaks"`
	Rows      []crossRow           `json:"rows"`
}

type crossRow struct {
	// Pos is the row's place in the table (1-based, unique); the cells
	// name opponents by it. Rank is the standings' rank, which ties share
	// when Shared.
	Pos    int              `json:"pos"`
	Rank   int              `json:"rank"`
	Shared bool             `json:"shared,omitempty"`
	ID     string           `json:"id"`
	Name   string           `json:"name"`
	Score  arbiter.Points   `json:"score"`
	Values []arbiter.Points `json:"values"`
	Cells  []crossCell      `json:"cells"`
}

// crossCell is one entrant's round: empty Match when it was not paired.
type crossCell struct {
	Round    int    `json:"round"`
	Match    string `json:"match,omitempty"`
	Opponent string `json:"opponent,omitempty"` // entrant ID; empty for a bye
	// OppPos is the opponent's row in this table (0 when the opponent is
	// not ranked in it).
	OppPos  int    `json:"opponent_pos,omitempty"`
	OppName string `json:"-"`
	// Colour is white or black: the home side plays White (in team
	// matches, White on board 1).
	Colour string `json:"colour,omitempty"`
	sideResult
}

// Bye reports whether the entrant had a bye in this round.
func (c crossCell) Bye() bool { return c.Match != "" && c.Opponent == "" }

// ColourLetter is w or b.
func (c crossCell) ColourLetter() string {
	if c.Colour == "" {
		return ""
	}
	return c.Colour[:1]
}

// Label is the cell spelled out for screen readers, which would
// otherwise read "10w1" letter by letter.
func (c crossCell) Label() string {
	l := "Round " + itoa(c.Round) + ": "
	switch {
	case c.Match == "":
		return l + "not paired"
	case c.Opponent == "":
		l += "bye"
	default:
		l += "against " + c.OppName + ", " + c.Colour
	}
	l += ", " + c.Word
	if c.Score != "" {
		l += " " + c.Score
	}
	if c.Note != "" {
		l += " (" + c.Note + ")"
	}
	return l
}

// crosstables builds the crosstables of stage si: one, or one per pool.
func (s *Server) crosstables(ctx context.Context, v *eventView, si int) ([]crossTable, error) {
	sg := v.Ev.Stages[si]
	pools := []string{""}
	if sg.Kind == format.Pool {
		pools = pools[:0]
		for _, p := range sg.Pools {
			pools = append(pools, p.Name)
		}
	}
	var rounds []int
	for _, rd := range v.Rounds {
		if rd.Stage == si {
			rounds = append(rounds, rd.Number)
		}
	}
	slices.Sort(rounds)
	var out []crossTable
	for _, pool := range pools {
		t, err := s.app.PoolStandings(ctx, v.Ev.Slug, si, pool)
		if err != nil {
			return nil, err
		}
		out = append(out, v.crosstable(t, si, pool, rounds))
	}
	return out, nil
}

func (v *eventView) crosstable(t standings.Table, si int, pool string, rounds []int) crossTable {
	ct := crossTable{Pool: pool, Rounds: rounds, Tiebreaks: t.Tiebreaks, Rows: []crossRow{}}
	if ct.Rounds == nil {
		ct.Rounds = []int{}
	}
	pos := map[string]int{}
	for i, r := range t.Rows {
		pos[r.ID] = i + 1
	}
	col := map[int]int{}
	for i, n := range rounds {
		col[n] = i
	}
	for i, r := range t.Rows {
		row := crossRow{Pos: i + 1, Rank: r.Rank, Shared: r.Shared, ID: r.ID, Name: v.name(r.ID), Score: r.Score, Values: r.Values,
			Cells: make([]crossCell, len(rounds))}
		for j, n := range rounds {
			row.Cells[j] = crossCell{Round: n}
		}
		ct.Rows = append(ct.Rows, row)
	}
	for _, m := range v.Matches {
		if m.Stage != si || m.Pool != pool {
			continue
		}
		j, ok := col[m.Round]
		if !ok {
			continue
		}
		for _, side := range []string{m.Home, m.Away} {
			p := pos[side]
			if side == "" || p == 0 {
				continue
			}
			c := crossCell{Round: m.Round, Match: m.ID, sideResult: resultFor(m, side)}
			if !m.IsBye() {
				c.Colour = "white"
				c.Opponent = m.Away
				if side == m.Away {
					c.Colour, c.Opponent = "black", m.Home
				}
				c.OppPos, c.OppName = pos[c.Opponent], v.name(c.Opponent)
			}
			ct.Rows[p-1].Cells[j] = c
		}
	}
	return ct
}

// crosstableData is the crosstable page.
type crosstableData struct {
	Ev     arbiter.Event
	Nav    []navLink
	Tabs   stageTabs
	Stage  stageRef
	Tables []crossTable
	Notice string
}

var crossKinds = []string{format.Swiss, format.RoundRobin, format.Pool}

// crosstablePage shows the crosstable of a Swiss, round-robin or pool
// stage (?stage=N; default the stage being played, else the first such
// stage). A stage of another kind, or one not started, gets a notice.
func (s *Server) crosstablePage(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := crosstableData{Ev: v.Ev, Nav: v.nav("Crosstable")}
	for _, sg := range v.stageKinds() {
		if slices.Contains(crossKinds, sg.Kind) {
			d.Tabs.Stages = append(d.Tabs.Stages, sg)
		}
	}
	ref, ok, err := v.pickStage(r, crossKinds...)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Stage, d.Tabs.Current = ref, ref
	switch {
	case !ok && ref.Name != "":
		d.Notice = "Stage " + ref.Name + " is a " + words(ref.Kind) + ": it has no crosstable."
	case !ok:
		d.Notice = "This event has no Swiss, round-robin or pool stage, so it has no crosstable."
	case len(v.Ev.Stages) == 0:
		d.Notice = "Registration is open: the crosstable starts once it closes and the first round is published."
	case len(v.stageEntrants(ref.Index)) == 0:
		d.Notice = "Stage " + ref.Name + " has not started: its entrants are known once the stage before it ends."
	default:
		if d.Tables, err = s.crosstables(r.Context(), v, ref.Index); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "crosstable", page{Title: "Crosstable: " + v.Ev.Name, Nav: "home", Live: liveURL(v.Ev.Slug), Data: d})
}

// apiCrosstable answers the crosstables of a stage (?stage=N as on the
// page); a stage without one has no tables.
func (s *Server) apiCrosstable(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	ref, ok, err := v.pickStage(r, crossKinds...)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := struct {
		Stage  int          `json:"stage,omitempty"`
		Kind   string       `json:"kind,omitempty"`
		Tables []crossTable `json:"tables"`
	}{Tables: []crossTable{}}
	if ref.Name != "" {
		out.Stage, out.Kind = ref.Number(), ref.Kind
	}
	if ok && len(v.Ev.Stages) > 0 && len(v.stageEntrants(ref.Index)) > 0 {
		if out.Tables, err = s.crosstables(r.Context(), v, ref.Index); err != nil {
			s.apiFail(w, r, err)
			return
		}
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// liveURL is the event's server-sent events stream (live.go).
func liveURL(slug string) string { return "/events/" + slug + "/live" }
