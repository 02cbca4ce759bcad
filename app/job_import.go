package app

import (
	"context"
	"encoding/json"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
)

// ImportJob imports a match's result from Lichess (ImportMatch): when
// Arbiter's games of the match are over, an hour before the round's
// deadline for games the players made themselves, or when a TD asks.
// When says which (the key differs, so each runs once).
type ImportJob struct {
	EventSlug string `json:"event"`
	Match     string `json:"match"`
	When      string `json:"when,omitempty"` // "" after the games, "deadline", "td"
	By        string `json:"by,omitempty"`   // the TD who asked
}

func (ImportJob) Kind() string { return "lichess_import" }
func (j ImportJob) Key() string {
	k := "import:" + j.EventSlug + ":" + j.Match
	if j.When != "" {
		k += ":" + j.When
	}
	return k
}
func (j ImportJob) Event() string { return j.EventSlug }

// ConfirmJob makes a report from Lichess final at the end of its
// confirmation window unless something else happened to the match.
type ConfirmJob struct {
	EventSlug string    `json:"event"`
	Match     string    `json:"match"`
	Report    string    `json:"report"`
	At        time.Time `json:"at"`
}

func (ConfirmJob) Kind() string    { return "lichess_confirm" }
func (j ConfirmJob) Key() string   { return "confirm:" + j.EventSlug + ":" + j.Report }
func (j ConfirmJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: ImportJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{Repeatable: true, MaxAttempts: 8, Timeout: 5 * time.Minute}, s.runImportJob)
		},
		what: func(args json.RawMessage) string {
			var j ImportJob
			json.Unmarshal(args, &j)
			return "Import of match " + j.Match + " from Lichess"
		},
	})
	addJobKind(jobKind{
		name: ConfirmJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{}, func(ctx context.Context, j *jobs.Job[ConfirmJob]) error {
				return s.confirmLichessReport(ctx, j.Args.EventSlug, j.Args.Match, j.Args.Report)
			})
		},
		what: func(args json.RawMessage) string {
			var j ConfirmJob
			json.Unmarshal(args, &j)
			return "Result of match " + j.Match + " from Lichess made final if not disputed"
		},
	})
}

func (s *Service) runImportJob(ctx context.Context, j *jobs.Job[ImportJob]) error {
	st, err := load(ctx, s.DB, j.Args.EventSlug)
	if err != nil {
		return err
	}
	m, _, err := matchInRound(ctx, s.DB, st, j.Args.Match)
	if err != nil {
		return err
	}
	if j.Args.By == "" && m.Status != arbiter.MatchScheduled {
		return nil // a result came in meanwhile
	}
	_, err = s.ImportMatch(asJob(ctx), jobActor(j.Args.By), j.Args.EventSlug, j.Args.Match)
	return jobError(err)
}

// askImport enqueues a match's import (when: see ImportJob).
func (s *Service) askImport(ctx context.Context, st *state, matchID, when string) error {
	_, _, err := s.enqueue(ctx, nil, ImportJob{EventSlug: st.ev.Slug, Match: matchID, When: when})
	return err
}

// RequestImport asks for a match's games to be imported from Lichess.
// TD only. With a job queue it is a job; without one it runs at once.
func (s *Service) RequestImport(ctx context.Context, a arbiter.Actor, slug, matchID string) (Job, error) {
	if s.queue == nil {
		im, err := s.ImportMatch(ctx, a, slug, matchID)
		return Job{Info: jobs.Info{Kind: ImportJob{}.Kind(), State: jobs.Done}, What: "Import of match " + matchID + " from Lichess",
			Outcome: importSummary(im)}, err
	}
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "import a match's games from Lichess"); err != nil {
		return Job{}, err
	}
	m, _, err := matchInRound(ctx, s.DB, st, matchID)
	if err != nil {
		return Job{}, err
	}
	j, _, err := s.enqueue(ctx, nil, ImportJob{EventSlug: slug, Match: m.ID, When: "td", By: normUser(a.Name)})
	return j, err
}

// lichessHooks enqueue, in the transaction of the change, the jobs that
// run an event's games on Lichess: a published round's games where the
// format schedules no times, and the import an hour before its deadline;
// a match's (or board's) games at the start its players agreed.
func (s *Service) lichessHooks(ctx context.Context, tx *sqlstore.Tx, written []sqlstore.AuditEntry) error {
	states := map[string]*state{}
	stateOf := func(eventID string) (*state, error) {
		if st, ok := states[eventID]; ok {
			return st, nil
		}
		row, err := sqlstore.GetEvent(ctx, tx, eventID)
		if err != nil {
			return nil, err
		}
		st, err := load(ctx, tx, row.Slug)
		states[eventID] = st
		return st, err
	}
	for _, e := range written {
		if e.EventID == "" || e.After == nil || (e.Kind != kindRound && e.Kind != kindMatch && e.Kind != kindAppeal) {
			continue
		}
		st, err := stateOf(e.EventID)
		if err != nil {
			return err
		}
		if err := s.messageHooks(ctx, tx, st, e); err != nil { // messages.go
			return err
		}
		if !st.f.ImportsResults() {
			continue
		}
		switch e.Kind {
		case kindRound:
			var before, after arbiter.Round
			if decode(e.Before, &before) != nil || decode(e.After, &after) != nil ||
				before.Status == after.Status || after.Status != arbiter.RoundPublished {
				continue
			}
			if err := s.roundPublishedJobs(ctx, tx, st, after); err != nil {
				return err
			}
		case kindMatch:
			var before, after arbiter.Match
			if decode(e.Before, &before) != nil || decode(e.After, &after) != nil || !st.f.CreatesGames() {
				continue
			}
			if at := after.ScheduledAt; !at.IsZero() && !at.Equal(before.ScheduledAt) {
				if _, err := s.queue.Enqueue(ctx, tx, GamesJob{EventSlug: st.ev.Slug, Match: after.ID, At: at}, at); err != nil {
					return err
				}
			}
			for i, at := range after.BoardTimes {
				if !at.IsZero() && !at.Equal(agreedAt(&before, i+1)) {
					if _, err := s.queue.Enqueue(ctx, tx, GamesJob{EventSlug: st.ev.Slug, Match: after.ID, Board: i + 1, At: at}, at); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func (s *Service) roundPublishedJobs(ctx context.Context, tx *sqlstore.Tx, st *state, rd arbiter.Round) error {
	_, negotiated := negotiationRules(st.f)
	now := s.now()
	for _, id := range rd.Matches {
		m, err := docMatch.get(ctx, tx, st, id)
		if err != nil {
			return err
		}
		if m.IsBye() || m.Status != arbiter.MatchScheduled {
			continue
		}
		if st.f.CreatesGames() && !negotiated {
			if _, err := s.queue.Enqueue(ctx, tx, GamesJob{EventSlug: st.ev.Slug, Match: m.ID, At: now}, now); err != nil {
				return err
			}
		}
		if at := rd.End.Add(-time.Hour); at.After(now) {
			if _, err := s.queue.Enqueue(ctx, tx, ImportJob{EventSlug: st.ev.Slug, Match: m.ID, When: "deadline"}, at); err != nil {
				return err
			}
		}
	}
	return nil
}
