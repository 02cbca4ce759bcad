package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/app"
	"arbiter/jobs"
)

// Background jobs on the TD console: the Lichess checks a TD asked for (or
// a registration started) run in the background; the console lists the
// event's queued, running and failed ones, each failed one with a retry
// button, and shows each entrant's latest eligibility job beside its check.

// tdJobRow is a job with its state in words (jobState) and whether a TD
// may retry it now: failed, or queued after a failure (to try at once).
type tdJobRow struct {
	J        app.Job
	State    string
	Retry    bool
	Finished bool // done or failed
}

func jobRow(j app.Job) tdJobRow {
	return tdJobRow{J: j, State: jobState(j), Retry: j.State == jobs.Failed || j.State == jobs.Queued && j.Attempt > 0,
		Finished: j.State == jobs.Done || j.State == jobs.Failed}
}

// consoleJobs fills the console's jobs.
func (s *Server) consoleJobs(ctx context.Context, d *tdConsoleData, a arbiter.Actor) error {
	js, err := s.app.EventJobs(ctx, a, d.Ev.Slug, jobs.Queued, jobs.Running, jobs.Failed)
	if err != nil {
		return err
	}
	for _, j := range js {
		d.Jobs = append(d.Jobs, jobRow(j))
	}
	latest, err := s.app.EligibilityJobs(ctx, d.Ev.Slug)
	if err != nil {
		return err
	}
	d.EligibilityJobs = map[string]tdJobRow{}
	for id, j := range latest {
		d.EligibilityJobs[id] = jobRow(j)
	}
	return nil
}

// jobState says in plain words where a job stands, for a TD.
func jobState(j app.Job) string {
	switch j.State {
	case jobs.Queued:
		if j.Attempt > 0 {
			return fmt.Sprintf("queued: try %d of %d at %s", j.Attempt+1, j.MaxAttempts, utcTime(j.RunAt))
		}
		return "queued"
	case jobs.Running:
		return "running"
	case jobs.Failed:
		return fmt.Sprintf("failed after %d tries", j.Attempt)
	}
	return string(j.State)
}

// queuedMessage is the flash after a TD's request: queued, or (without a
// queue) done with its outcome.
func queuedMessage(j app.Job) string {
	switch {
	case j.State == jobs.Done && j.Outcome != "":
		return j.What + ": " + j.Outcome + "."
	case j.Duplicate:
		return j.What + " is already " + string(j.State) + "; the outcome shows here when it is done."
	}
	return j.What + " queued; the outcome shows here when it is done."
}

// tdRetryJob runs a failed job again.
func (s *Server) tdRetryJob(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"#jobs", func(a arbiter.Actor) (string, error) {
		id, err := jobID(r.PathValue("id"))
		if err != nil {
			return "", err
		}
		j, err := s.app.RetryJob(r.Context(), a, slug, id)
		return j.What + ": tried again.", err
	})
}

func jobID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, arbiter.FieldError("id", "web.job", "a job is named by a positive number, not %q", s)
	}
	return id, nil
}

// apiJobs lists the event's jobs: ?state=pending (queued or running),
// failed, done or all (the default).
func (s *Server) apiJobs(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	var states []jobs.State
	switch st := strings.TrimSpace(r.URL.Query().Get("state")); st {
	case "", "all":
	case "pending":
		states = []jobs.State{jobs.Queued, jobs.Running}
	case "failed":
		states = []jobs.State{jobs.Failed}
	case "done":
		states = []jobs.State{jobs.Done}
	default:
		s.apiFail(w, r, arbiter.FieldError("state", "web.job", "state must be pending, failed, done or all, not %q", st))
		return
	}
	js, err := s.app.EventJobs(r.Context(), a, r.PathValue("slug"), states...)
	if js == nil {
		js = []app.Job{}
	}
	s.apiAnswer(w, r, http.StatusOK, js, err)
}

// apiJob answers one of the event's jobs.
func (s *Server) apiJob(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	id, err := jobID(r.PathValue("id"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	j, err := s.app.EventJob(r.Context(), a, r.PathValue("slug"), id)
	s.apiAnswer(w, r, http.StatusOK, j, err)
}

// apiRetryJob runs a failed job again.
func (s *Server) apiRetryJob(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	id, err := jobID(r.PathValue("id"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	j, err := s.app.RetryJob(r.Context(), a, r.PathValue("slug"), id)
	s.apiAnswer(w, r, http.StatusOK, j, err)
}

// apiQueued answers a TD's request for a Lichess check run as a job: 202
// with the job. (Without a queue the check ran at once and the caller
// answers it as before.)
func (s *Server) apiQueued(w http.ResponseWriter, r *http.Request, j app.Job, err error) {
	s.apiAnswer(w, r, http.StatusAccepted, j, err)
}

// apiEligibility answers an entrant's last eligibility check (404 when
// never checked), which a queued check writes when it is done.
func (s *Server) apiEligibility(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	c, err := s.app.EligibilityOf(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	if err == nil && c == nil {
		err = arbiter.Errorf(arbiter.ENOTFOUND, "%s has not been checked on Lichess yet", r.PathValue("id"))
	}
	s.apiAnswer(w, r, http.StatusOK, c, err)
}
