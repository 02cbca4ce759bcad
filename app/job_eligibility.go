package app

import (
	"context"
	"encoding/json"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
)

// EligibilityJob checks an entrant's players on Lichess (A2, W1) in the
// background: when a TD asks, and right after registration.
type EligibilityJob struct {
	EventSlug string `json:"event"`
	Entrant   string `json:"entrant"`
	By        string `json:"by,omitempty"` // the TD who asked; "" when registration did
}

func (EligibilityJob) Kind() string    { return "eligibility" }
func (j EligibilityJob) Key() string   { return "eligibility:" + j.EventSlug + ":" + j.Entrant }
func (j EligibilityJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: EligibilityJob{}.Kind(),
		// A check may be asked for again once the last one is over.
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{Repeatable: true, Timeout: 5 * time.Minute}, s.runEligibilityJob)
		},
		what: func(args json.RawMessage) string {
			var j EligibilityJob
			json.Unmarshal(args, &j)
			return "Eligibility check of " + j.Entrant
		},
	})
}

func (s *Service) runEligibilityJob(ctx context.Context, j *jobs.Job[EligibilityJob]) error {
	_, err := s.CheckEligibility(asJob(ctx), jobActor(j.Args.By), j.Args.EventSlug, j.Args.Entrant)
	return jobError(err)
}

// RequestEligibility asks for an entrant's eligibility check on Lichess
// (A2, W1). TD only. With a job queue (OpenJobs) the check is a job and
// the answer says it is queued (or already queued or running); without
// one it runs at once and the answer is done, with its outcome.
func (s *Service) RequestEligibility(ctx context.Context, a arbiter.Actor, slug, entrantID string) (Job, error) {
	if s.queue == nil {
		c, err := s.CheckEligibility(ctx, a, slug, entrantID)
		return Job{Info: jobs.Info{Kind: EligibilityJob{}.Kind(), State: jobs.Done}, What: "Eligibility check of " + c.Entrant, Outcome: c.Summary()}, err
	}
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "check an entrant's eligibility on Lichess"); err != nil {
		return Job{}, err
	}
	e, err := docEntrant.get(ctx, s.DB, st, normUser(entrantID))
	if err != nil {
		return Job{}, err
	}
	j, _, err := s.enqueue(ctx, nil, EligibilityJob{EventSlug: slug, Entrant: e.ID, By: normUser(a.Name)})
	return j, err
}

// eligibilityOnRegistration enqueues the check of a new entrant in the
// registration's transaction, when the format has eligibility rules and
// the service a queue.
func (s *Service) eligibilityOnRegistration(ctx context.Context, tx *sqlstore.Tx, st *state, entrantID string) error {
	if st.f.Eligibility == "" {
		return nil
	}
	_, _, err := s.enqueue(ctx, tx, EligibilityJob{EventSlug: st.ev.Slug, Entrant: entrantID})
	return err
}

// EligibilityJobs maps each entrant to its latest eligibility job.
func (s *Service) EligibilityJobs(ctx context.Context, slug string) (map[string]Job, error) {
	latest, err := s.latestJobs(ctx, slug)
	if err != nil {
		return nil, err
	}
	out := map[string]Job{}
	for _, j := range latest {
		var a EligibilityJob
		if j.Kind == a.Kind() && json.Unmarshal(j.Args, &a) == nil {
			out[a.Entrant] = j
		}
	}
	return out, nil
}

// EligibilityOf returns the last eligibility check of an entrant, nil
// when it was never checked: what a TD's queued check produced. TD only.
func (s *Service) EligibilityOf(ctx context.Context, a arbiter.Actor, slug, entrantID string) (*EligibilityCheck, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	if err := requireTD(ctx, s.DB, st, a, "see an entrant's eligibility check"); err != nil {
		return nil, err
	}
	return optional(docEligibility.get(ctx, s.DB, st, normUser(entrantID)))
}
