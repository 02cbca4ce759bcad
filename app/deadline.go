package app

import (
	"context"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/sqlstore"
)

// BringForward moves the current round's deadline earlier once all its
// matches are finished (A4), so that the next pairings can follow at once;
// every later round moves earlier by the same amount. Refused, naming the
// clause, where the rulebook does not allow it. TD only.
func (s *Service) BringForward(ctx context.Context, a arbiter.Actor, slug string, newEnd time.Time) (arbiter.Round, error) {
	var rd arbiter.Round
	if err := checkTimes("end", s.now(), newEnd); err != nil {
		return rd, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "bring a deadline forward"); err != nil {
			return err
		}
		rounds, err := stageRounds(ctx, tx, st, st.ev.Stage)
		if err != nil {
			return err
		}
		if len(rounds) == 0 || rounds[len(rounds)-1].Status != arbiter.RoundPublished {
			return arbiter.RuleError("app.round", "no published round is open")
		}
		rd = rounds[len(rounds)-1]
		all := true
		for _, id := range rd.Matches {
			m, err := docMatch.get(ctx, tx, st, id)
			if err != nil {
				return err
			}
			all = all && m.Status == arbiter.MatchFinal
		}
		rules, err := calendarRules(st.f)
		if err != nil {
			return err
		}
		cal := calendar.Calendar{Rules: rules}
		seq := 0
		for _, w := range st.ev.Calendar {
			cal.Rounds = append(cal.Rounds, calendar.Round{Seq: w.Seq, Stage: w.Stage, Number: w.Number,
				Window: calendar.Window{Start: w.Start, End: w.End}, OfferDeadline: w.OfferDeadline, Weekend: w.Weekend})
			if w.Stage == rd.Stage && w.Number == rd.Number {
				seq = w.Seq
			}
		}
		moved, err := cal.BringForward(seq, newEnd, all, s.now())
		if err != nil {
			return err
		}
		for i, r := range moved.Rounds {
			w := &st.ev.Calendar[i]
			w.Start, w.End, w.OfferDeadline, w.Weekend = r.Start, r.End, r.OfferDeadline, r.Weekend
		}
		ch := change(a, "round.bring_forward", "A4: all matches finished", false)
		if err := st.save(ctx, tx, ch); err != nil {
			return err
		}
		rd.End = moved.Rounds[seq-1].End
		rd.Version, err = docRound.update(ctx, tx, ch, st, rd.ID, rd.Version, rd)
		return err
	})
	return rd, err
}
