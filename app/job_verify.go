package app

import (
	"context"
	"encoding/json"
	"time"

	"arbiter"
	"arbiter/jobs"
)

// VerifyJob checks a match's games on Lichess (R6, W2, W4) in the
// background, when a TD asks.
type VerifyJob struct {
	EventSlug string `json:"event"`
	Match     string `json:"match"`
	By        string `json:"by,omitempty"` // the TD who asked
}

func (VerifyJob) Kind() string    { return "verify" }
func (j VerifyJob) Key() string   { return "verify:" + j.EventSlug + ":" + j.Match }
func (j VerifyJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: VerifyJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{Repeatable: true, Timeout: 5 * time.Minute}, s.runVerifyJob)
		},
		what: func(args json.RawMessage) string {
			var j VerifyJob
			json.Unmarshal(args, &j)
			return "Verification of match " + j.Match + " on Lichess"
		},
	})
}

func (s *Service) runVerifyJob(ctx context.Context, j *jobs.Job[VerifyJob]) error {
	_, err := s.VerifyMatch(asJob(ctx), jobActor(j.Args.By), j.Args.EventSlug, j.Args.Match)
	return jobError(err)
}

// RequestVerification asks for a match's games to be checked on Lichess.
// TD only. With a job queue the check is a job (see RequestEligibility);
// without one it runs at once.
func (s *Service) RequestVerification(ctx context.Context, a arbiter.Actor, slug, matchID string) (Job, error) {
	if s.queue == nil {
		v, err := s.VerifyMatch(ctx, a, slug, matchID)
		return Job{Info: jobs.Info{Kind: VerifyJob{}.Kind(), State: jobs.Done}, What: "Verification of match " + v.Match + " on Lichess", Outcome: v.Summary()}, err
	}
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "check a match's games on Lichess"); err != nil {
		return Job{}, err
	}
	m, _, err := matchInRound(ctx, s.DB, st, matchID)
	if err != nil {
		return Job{}, err
	}
	j, _, err := s.enqueue(ctx, nil, VerifyJob{EventSlug: slug, Match: m.ID, By: normUser(a.Name)})
	return j, err
}

// VerificationJob is the latest verification job of a match, nil when
// none was asked for.
func (s *Service) VerificationJob(ctx context.Context, slug, matchID string) (*Job, error) {
	if s.queue == nil {
		return nil, nil
	}
	infos, err := s.queue.List(ctx, jobs.Filter{Event: slug, Key: VerifyJob{EventSlug: slug, Match: matchID}.Key(), Limit: 1})
	if err != nil || len(infos) == 0 {
		return nil, err
	}
	j := jobOf(infos[0])
	return &j, nil
}
