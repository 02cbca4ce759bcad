package app

import (
	"context"

	"arbiter"
	"arbiter/challonge"
	"arbiter/export"
)

// PushChallonge brings the event's knockout bracket (stage, 1-based; 0
// for the knockout stage) and its decided results into the Challonge
// tournament t (RKCC R10: set scores times the time control's factor
// are entered into Challonge). TD only; it may run again at any time and
// sends only what Challonge lacks (challonge.Push).
//
// Nothing calls it on a schedule yet: once the job queue exists, a job
// runs it after each knockout result is final and retries the errors
// challonge.Temporary reports (a 5xx, rate limiting, no answer).
func (s *Service) PushChallonge(ctx context.Context, a arbiter.Actor, slug string, stage int, c *challonge.Client, t string) (challonge.Report, error) {
	if err := requireActor(a); err != nil {
		return challonge.Report{}, err
	}
	snap, err := s.ExportSnapshot(ctx, a.Name, slug, "")
	if err != nil {
		return challonge.Report{}, err
	}
	if !snap.TD || a.Role != arbiter.RoleTD {
		return challonge.Report{}, arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD of %s may push its bracket to Challonge (you act as %s)", slug, a)
	}
	o, err := export.Resolve(snap, export.Options{Format: export.Challonge, Stage: stage})
	if err != nil {
		return challonge.Report{}, err
	}
	b := export.ChallongeBracketOf(snap, o.Stage-1)
	var in challonge.Bracket
	for _, p := range b.Participants {
		in.Participants = append(in.Participants, challonge.NewParticipant{Name: p.Name, Seed: p.Seed, Misc: p.ID})
	}
	for _, m := range b.Matches {
		r := challonge.Result{Round: m.Round, Home: m.Home, Away: m.Away, Winner: m.Winner}
		for _, sc := range m.Scores {
			r.Scores = append(r.Scores, [2]string{sc.Home.String(), sc.Away.String()})
		}
		in.Results = append(in.Results, r)
	}
	rep, err := challonge.Push(ctx, c, t, in)
	if err != nil {
		code := arbiter.EINVALID
		if challonge.Temporary(err) {
			code = arbiter.EUNAVAILABLE
		}
		return rep, &arbiter.Error{Code: code, Message: err.Error(), Err: err}
	}
	return rep, nil
}
