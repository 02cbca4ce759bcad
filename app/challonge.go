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
// The push job (job_challonge.go) runs it after each knockout result is
// final and when a TD asks, retrying the errors challonge.Temporary
// reports (a 5xx, rate limiting, no answer): they are EUNAVAILABLE, the
// others EINVALID.
func (s *Service) PushChallonge(ctx context.Context, a arbiter.Actor, slug string, stage int, c *challonge.Client, t string) (challonge.Report, error) {
	in, err := s.challongeBracket(ctx, a, slug, stage)
	if err != nil {
		return challonge.Report{}, err
	}
	return pushBracket(ctx, c, t, in)
}

// challongeBracket is the knockout bracket as Challonge takes it, for a
// TD of the event or the system in a job.
func (s *Service) challongeBracket(ctx context.Context, a arbiter.Actor, slug string, stage int) (challonge.Bracket, error) {
	var in challonge.Bracket
	if err := requireActor(a); err != nil {
		return in, err
	}
	system := a.Role == arbiter.RoleSystem && ctx.Value(jobKey{}) != nil
	viewer := a.Name
	if system {
		viewer = "" // decided results are public
	}
	snap, err := s.ExportSnapshot(ctx, viewer, slug, "")
	if err != nil {
		return in, err
	}
	if !system && (!snap.TD || a.Role != arbiter.RoleTD) {
		return in, arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD of %s may push its bracket to Challonge (you act as %s)", slug, a)
	}
	o, err := export.Resolve(snap, export.Options{Format: export.Challonge, Stage: stage})
	if err != nil {
		return in, err
	}
	b := export.ChallongeBracketOf(snap, o.Stage-1)
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
	return in, nil
}

// pushBracket pushes in to tournament t: a temporary failure is
// EUNAVAILABLE (worth retrying), any other EINVALID.
func pushBracket(ctx context.Context, c *challonge.Client, t string, in challonge.Bracket) (challonge.Report, error) {
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
