package app

import (
	"context"
	"errors"
	"fmt"

	"arbiter"
	"arbiter/sqlstore"
)

// Scheduler is the actor that closes rounds at their deadlines (role
// system); the audit log names it.
var Scheduler = arbiter.Actor{Name: "scheduler", Role: arbiter.RoleSystem}

// CloseDueRounds closes, in every running event, the published round whose
// deadline has passed (per s.Now), exactly as CloseRound does for the
// scheduler: unplayed matches become double forfeits, the appeal window
// opens. It returns the rounds it closed, each with its event's slug.
//
// It is idempotent and safe to run from several processes against one
// database: each event is checked and closed in one transaction, so one
// process closes the round and the others find it closed (nothing to do)
// or lose the race with ECONFLICT, which is skipped, not an error. An
// error in one event does not stop the others; the errors are joined.
func (s *Service) CloseDueRounds(ctx context.Context) ([]arbiter.Round, error) {
	rows, err := sqlstore.ListEvents(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	var closed []arbiter.Round
	var errs []error
	for _, row := range rows {
		if row.Status != arbiter.EventRunning {
			continue
		}
		var rd arbiter.Round
		due := false
		err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			due = false // the transaction may be retried
			st, err := load(ctx, tx, row.Slug)
			if err != nil {
				return err
			}
			if st.ev.Status != arbiter.EventRunning {
				return nil
			}
			rounds, err := stageRounds(ctx, tx, st, st.ev.Stage)
			if err != nil {
				return err
			}
			if len(rounds) == 0 {
				return nil
			}
			if last := rounds[len(rounds)-1]; last.Status != arbiter.RoundPublished || s.now().Before(last.End) {
				return nil
			}
			rd, err = s.closeCurrent(ctx, tx, st, Scheduler)
			due = err == nil
			return err
		})
		switch {
		case arbiter.ErrorCode(err) == arbiter.ECONFLICT:
			// Another process closed it (or changed the event) first.
		case err != nil:
			errs = append(errs, fmt.Errorf("event %s: %w", row.Slug, err))
		case due:
			rd.Event = row.Slug
			closed = append(closed, rd)
		}
	}
	return closed, errors.Join(errs...)
}
