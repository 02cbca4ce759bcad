package web

import (
	"context"

	"arbiter"
	"arbiter/format"
)

// eventNow is the top of a running event's page: where the event stands
// now, so that a visitor need not open three pages to find out.
type eventNow struct {
	Round *nowRound
	// Leaders are the entrants ranked first in the standings of the
	// stage being played after its last completed round (one per pool;
	// several when the first place is shared); none before a round is
	// completed or in a knockout stage.
	Leaders []nowLeader
	After   int // the round the leaders stand after
	// Results are the latest final results: those of the round being
	// played, or of the round before while it has none.
	Results      []nowResult
	ResultsRound int // the round (Seq) of Results
}

// nowRound is the latest round with public pairings.
type nowRound struct {
	ID       string
	Seq, Of  int // its place in the calendar, and the calendar's length
	Stage    string
	Playing  bool // published: being played; else completed
	Deadline stamp
	Final    int // matches with a final result (byes aside)
	Total    int
}

type nowLeader struct {
	Pool    string
	Entrant entrantLink
	Score   string
	Shared  bool
}

type nowResult struct {
	MatchID string
	Line    string // "Team 01 – Team 02: 348–228, Team 01 won"
}

// maxNowResults keeps the box short; the round page has them all.
const maxNowResults = 6

// nowOf reads where a running event stands; nil for an event not
// running (registration shows its calendar, a finished one its podium).
func (s *Server) nowOf(ctx context.Context, v *eventView) *eventNow {
	if v.Ev.Status != arbiter.EventRunning || len(v.Rounds) == 0 {
		return nil
	}
	n := &eventNow{}
	last := v.Rounds[len(v.Rounds)-1]
	r := &nowRound{ID: last.ID, Of: len(v.Ev.Calendar), Playing: last.Status == arbiter.RoundPublished,
		Deadline: deadlineStamp(deadlineOf(last.End))}
	for _, w := range v.Ev.Calendar {
		if w.Stage == last.Stage && w.Number == last.Number {
			r.Seq = w.Seq
		}
	}
	if last.Stage < len(v.Ev.Stages) {
		r.Stage = v.Ev.Stages[last.Stage].Name
	}
	n.Round = r
	seqOf := map[string]int{}
	for _, w := range v.Ev.Calendar {
		seqOf[roundID(w.Stage, w.Number)] = w.Seq
	}
	// The latest final results, newest round first.
	for i := len(v.Rounds) - 1; i >= 0 && len(n.Results) == 0; i-- {
		rd := v.Rounds[i]
		for _, m := range v.Matches {
			if m.Stage != rd.Stage || m.Round != rd.Number || m.IsBye() {
				continue
			}
			if rd.ID == last.ID {
				r.Total++
			}
			if m.Status != arbiter.MatchFinal {
				continue
			}
			if rd.ID == last.ID {
				r.Final++
			}
			if len(n.Results) < maxNowResults {
				home, away := v.name(m.Home), v.name(m.Away)
				n.Results = append(n.Results, nowResult{MatchID: m.ID, Line: home + " – " + away + ": " + matchLine(m, home, away)})
			}
			n.ResultsRound = seqOf[rd.ID]
		}
	}
	n.Leaders, n.After = s.leadersOf(ctx, v)
	return n
}

// leadersOf are the first-ranked entrants of the stage being played.
// The box is a summary: a table that cannot be read leaves it out
// rather than failing the page (the standings page shows the error).
func (s *Server) leadersOf(ctx context.Context, v *eventView) ([]nowLeader, int) {
	ev := v.Ev
	if ev.Stage >= len(ev.Stages) || ev.Stages[ev.Stage].Kind == format.Knockout {
		return nil, 0
	}
	sg := ev.Stages[ev.Stage]
	pools := []string{""}
	if sg.Kind == format.Pool {
		pools = pools[:0]
		for _, p := range sg.Pools {
			pools = append(pools, p.Name)
		}
	}
	var out []nowLeader
	after := 0
	for _, p := range pools {
		t, err := s.reads.standings(ctx, s.app, ev.Slug, ev.Stage, p, 0)
		if err != nil || t.After == 0 {
			return nil, 0
		}
		after = t.After
		for _, row := range t.Rows {
			if row.Rank != 1 {
				break
			}
			name := row.Name
			if name == "" {
				name = v.name(row.ID)
			}
			out = append(out, nowLeader{Pool: p, Entrant: entrantLink{row.ID, name}, Score: row.Score.String(), Shared: row.Shared})
		}
	}
	return out, after
}
