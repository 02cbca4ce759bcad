package app

import (
	"context"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// Standings ranks a stage (0-based index) with the stage's tiebreaks from
// the format, after its last completed (closed) round: a round still being
// played changes nothing, so publishing a round moves no score or
// tiebreak. A match of a completed round still without a final result (a
// dispute) is left out, so its entrants count as absent in that round.
// A pool stage is ranked pool by pool: use PoolStandings.
func (s *Service) Standings(ctx context.Context, slug string, stage int) (standings.Table, error) {
	return s.PoolStandings(ctx, slug, stage, "")
}

// PoolStandings ranks one pool of a pool stage ("" for other stages),
// after its last completed round.
func (s *Service) PoolStandings(ctx context.Context, slug string, stage int, pool string) (standings.Table, error) {
	t, err := s.StandingsAfter(ctx, slug, stage, pool, 0)
	return t.Table, err
}

// StageTable is a stage's (or pool's) standings after a completed round.
type StageTable struct {
	standings.Table
	// After is the stage's round the table stands after (0: no round of
	// the stage is completed yet); Completed is how many are completed.
	After     int `json:"after"`
	Completed int `json:"completed"`
}

// StandingsAfter ranks a stage (or one pool) after its completed round
// number after (1-based within the stage); 0 means the last completed
// round. A round not completed yet is refused: its results may change.
func (s *Service) StandingsAfter(ctx context.Context, slug string, stage int, pool string, after int) (StageTable, error) {
	var out StageTable
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		out, err = stageTableAfter(ctx, tx, st, stage, pool, after)
		return err
	})
	return out, err
}

// stageTable is the stage's table after its last completed round.
func stageTable(ctx context.Context, q sqlstore.Queryer, st *state, stage int, pool string) (standings.Table, error) {
	t, err := stageTableAfter(ctx, q, st, stage, pool, 0)
	return t.Table, err
}

func stageTableAfter(ctx context.Context, q sqlstore.Queryer, st *state, stage int, pool string, after int) (StageTable, error) {
	var out StageTable
	t, err := computeTable(ctx, q, st, stage, pool, &after, &out.Completed)
	out.Table, out.After = t, after
	return out, err
}

// computeTable ranks the stage's rounds up to *after (0: the last
// completed one, which it stores there) and counts the completed rounds.
func computeTable(ctx context.Context, q sqlstore.Queryer, st *state, stage int, pool string, after, completed *int) (standings.Table, error) {
	if st.ev.Status == arbiter.EventRegistration {
		return standings.Table{}, arbiter.RuleError("registration", "event %s has no standings before registration closes", st.ev.Slug)
	}
	if stage < 0 || stage >= len(st.ev.Stages) {
		return standings.Table{}, arbiter.FieldError("stage", "app.stage", "no stage %d (the event has %d)", stage+1, len(st.ev.Stages))
	}
	entrants, err := stageEntrants(ctx, q, st, stage)
	if err != nil {
		return standings.Table{}, err
	}
	rounds, err := stageRounds(ctx, q, st, stage)
	if err != nil {
		return standings.Table{}, err
	}
	for _, rd := range rounds {
		if rd.Status == arbiter.RoundClosed && rd.Number == *completed+1 {
			*completed = rd.Number
		}
	}
	sg := st.ev.Stages[stage]
	switch {
	case *after < 0 || *after > sg.Rounds:
		return standings.Table{}, arbiter.FieldError("after", "app.standings", "stage %s has rounds 1 to %d, not %d", sg.Name, sg.Rounds, *after)
	case *after > *completed:
		return standings.Table{}, arbiter.RuleError("app.standings", "round %d of stage %s is not completed yet (completed: %d): its results may still change", *after, sg.Name, *completed)
	case *after == 0:
		*after = *completed
	}
	var counted []arbiter.Round
	for _, rd := range rounds {
		if rd.Number <= *after {
			counted = append(counted, rd)
		}
	}
	matches, err := roundMatches(ctx, q, st, counted)
	if err != nil {
		return standings.Table{}, err
	}
	teamSize := 1
	if ts := st.f.TeamSize(st.ev.Entrants); ts != nil {
		teamSize = *ts
	}
	t, err := standings.EventStage(st.ev.Stages, stage, entrants, matches, pool, st.f.Stages[stage].Match.Scoring(teamSize))
	if err != nil || sg.Kind != format.Knockout {
		return t, err
	}
	// A knockout ranks by its bracket, not by match points.
	return knockoutTable(ctx, q, st, stage, *after, t)
}

// Audit returns the event's audit log, oldest first; TD only.
func (s *Service) Audit(ctx context.Context, a arbiter.Actor, slug string, f sqlstore.AuditFilter) ([]sqlstore.AuditEntry, error) {
	var out []sqlstore.AuditEntry
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "read the audit log"); err != nil {
			return err
		}
		out, err = sqlstore.Audit(ctx, tx, st.row.ID, f)
		return err
	})
	return out, err
}
