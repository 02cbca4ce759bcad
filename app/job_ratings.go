package app

import (
	"context"
	"encoding/json"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
)

// RatingsJob fetches an entrant's Lichess data right after registration
// (ratings.go): its players' ratings in the format's perf, their Lichess
// team membership where the format names a team, and, for A11's team
// rules, the board-4 players' rating histories (CheckTeamRules).
type RatingsJob struct {
	EventSlug string `json:"event"`
	Entrant   string `json:"entrant"`
	By        string `json:"by,omitempty"` // the TD who asked; "" when registration did
}

func (RatingsJob) Kind() string    { return "ratings" }
func (j RatingsJob) Key() string   { return "ratings:" + j.EventSlug + ":" + j.Entrant }
func (j RatingsJob) Event() string { return j.EventSlug }

// RatingsRefreshJob refreshes every rating of an event (a TD's click).
type RatingsRefreshJob struct {
	EventSlug string `json:"event"`
	By        string `json:"by,omitempty"`
}

func (RatingsRefreshJob) Kind() string    { return "ratings_refresh" }
func (j RatingsRefreshJob) Key() string   { return "ratings_refresh:" + j.EventSlug }
func (j RatingsRefreshJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: RatingsJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{Repeatable: true, Timeout: 5 * time.Minute}, s.runRatingsJob)
		},
		what: func(args json.RawMessage) string {
			var j RatingsJob
			json.Unmarshal(args, &j)
			return "Ratings of " + j.Entrant + " from Lichess"
		},
	})
	addJobKind(jobKind{
		name: RatingsRefreshJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{Repeatable: true, Timeout: 10 * time.Minute}, s.runRatingsRefreshJob)
		},
		what: func(args json.RawMessage) string {
			var j RatingsRefreshJob
			json.Unmarshal(args, &j)
			return "Refresh of every rating of " + j.EventSlug + " from Lichess"
		},
	})
}

func (s *Service) runRatingsJob(ctx context.Context, j *jobs.Job[RatingsJob]) error {
	ctx = asJob(ctx)
	a := jobActor(j.Args.By)
	st, err := load(ctx, s.DB, j.Args.EventSlug)
	if err != nil {
		return jobError(err)
	}
	var ferr error
	if st.f.RatingPerf() != "" || st.f.LichessTeam() != "" {
		_, ferr = s.FetchRatings(ctx, a, j.Args.EventSlug, j.Args.Entrant)
	}
	if teamRulesApply(st.f) && arbiter.ErrorCode(ferr) != arbiter.EUNAVAILABLE {
		// A11 with the board-4 players' rating histories fetched now (and
		// the ratings just stored to rank the team, when they were).
		if _, err := s.CheckTeamRules(ctx, systemJob, j.Args.EventSlug, j.Args.Entrant, TeamRulesRequest{}); err != nil {
			return jobError(err)
		}
	}
	return jobError(ferr)
}

func (s *Service) runRatingsRefreshJob(ctx context.Context, j *jobs.Job[RatingsRefreshJob]) error {
	_, err := s.RefreshRatings(asJob(ctx), jobActor(j.Args.By), j.Args.EventSlug)
	return jobError(err)
}

// ratingsOnRegistration enqueues the Lichess data of a new entrant in the
// registration's transaction, where the format asks Lichess for ratings,
// a team membership or A11's histories and the service has a queue (the
// process that runs it has the Lichess client: serve, jobs run). It
// reports whether it did.
func (s *Service) ratingsOnRegistration(ctx context.Context, tx *sqlstore.Tx, st *state, entrantID string) (bool, error) {
	if st.f.RatingPerf() == "" && st.f.LichessTeam() == "" && !teamRulesApply(st.f) {
		return false, nil
	}
	_, ok, err := s.enqueue(ctx, tx, RatingsJob{EventSlug: st.ev.Slug, Entrant: entrantID})
	return ok, err
}

// RequestRatingsRefresh asks for every rating of the event to be fetched
// again from Lichess. TD only. With a job queue it is a job; without one
// it runs at once and the answer says what it found.
func (s *Service) RequestRatingsRefresh(ctx context.Context, a arbiter.Actor, slug string) (Job, error) {
	if s.queue == nil {
		r, err := s.RefreshRatings(ctx, a, slug)
		return Job{Info: jobs.Info{Kind: RatingsRefreshJob{}.Kind(), State: jobs.Done}, What: "Refresh of every rating of " + slug + " from Lichess", Outcome: r.Summary()}, err
	}
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "refresh the ratings from Lichess"); err != nil {
		return Job{}, err
	}
	if st.f.RatingPerf() == "" {
		return Job{}, arbiter.RuleError("format.lichess.perf", "format %s names no Lichess rating (lichess.perf): its ratings are typed", st.f.Name)
	}
	j, _, err := s.enqueue(ctx, nil, RatingsRefreshJob{EventSlug: slug, By: normUser(a.Name)})
	return j, err
}
