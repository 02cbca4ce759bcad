// Package app is Arbiter's application layer: the use cases of running an
// event (create, register, approve, close registration, pair, publish,
// report and confirm results, close rounds at their deadlines, appeals,
// standings), with every permission check in one place. It composes the
// pure packages (format, calendar, pairing, score, standings) with the
// store (sqlstore), so it behaves the same on SQLite and PostgreSQL.
//
// Every use case runs in one store transaction: it reads what it needs,
// checks the actor's role and the rules, and writes documents whose audit
// entries name the actor, the action and, for TD decisions, the reason.
// The views of the pages (MatchView, RoundView, BracketView) each read
// everything a page shows in one read transaction, for the user asking,
// and decide there what that user may see (viewer.go).
// Time comes from Service.Now, so deadlines are testable with a fake clock.
package app

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Document kinds in the store.
const (
	kindEvent    = "event"    // the event's plan: one document, id docID
	kindOfficial = "official" // a TD of the event, by user
	kindEntrant  = "entrant"
	kindRound    = "round"
	kindMatch    = "match"
	kindReport   = "report"
	kindAppeal   = "appeal"
	docID        = "doc"
)

// Service runs the use cases. Now is the clock for every rule that depends
// on time (deadlines, appeal windows); nil means time.Now.
type Service struct {
	DB  *sqlstore.DB
	Now func() time.Time

	// games finds games on Lichess for result verification; nil = not
	// available (SetGameSource).
	games GameSource
	// accounts reads Lichess accounts for eligibility checks; nil = not
	// available (SetAccountSource).
	accounts AccountSource
	// lichess creates games and imports results (SetLichess).
	lichess LichessAPI
	// organiser is the organiser's token as checked at start (SetOrganiser).
	organiser *lichess.Organiser
	// baseURL is the web app's address for links in messages (SetBaseURL).
	baseURL string
	// queue runs background jobs; nil = none (OpenJobs, jobs.go).
	queue *jobs.Queue
	// integrations: webhooks and Challonge (integrations.go).
	integrations integrations

	// oddsOnce makes oddsC, the cache of simulated chances (odds.go).
	oddsOnce sync.Once
	oddsC    *oddsCache
}

// New returns a Service on db whose clock (and the store's, so that audit
// timestamps agree with the rules) is now; nil means time.Now.
func New(db *sqlstore.DB, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	db.Now = now
	return &Service{DB: db, Now: now}
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now().UTC()
	}
	return s.Now().UTC()
}

// state is an event loaded inside a transaction.
type state struct {
	row sqlstore.Event
	ev  arbiter.Event
	f   *format.Format // shared with other loads of the same text: read only (format_cache.go)
}

func normUser(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

func change(a arbiter.Actor, action, reason string, override bool) sqlstore.Change {
	return sqlstore.Change{Actor: sqlstore.Actor{Name: normUser(a.Name), Role: a.Role}, Action: action, Reason: reason, Override: override}
}

// load reads an event by slug with its plan and format.
func load(ctx context.Context, q sqlstore.Queryer, slug string) (*state, error) {
	row, err := sqlstore.GetEventBySlug(ctx, q, slug)
	if err != nil {
		return nil, err
	}
	ev, v, err := docEvent.read(ctx, q, row.ID, docID)
	if err != nil {
		return nil, err
	}
	ev.ID, ev.Slug, ev.Name, ev.Status, ev.Version = row.ID, row.Slug, row.Name, row.Status, v
	f, err := loadFormat(row.Format)
	if err != nil {
		return nil, &arbiter.Error{Code: arbiter.EINTERNAL, Message: "stored format of event " + slug + " does not load", Err: err}
	}
	return &state{row: row, ev: ev, f: f}, nil
}

// save writes the plan and, when the status changed, the event row.
func (st *state) save(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change) error {
	v, err := docEvent.update(ctx, tx, ch, st, docID, st.ev.Version, st.ev)
	if err != nil {
		return err
	}
	st.ev.Version = v
	if st.row.Status != st.ev.Status {
		st.row.Status = st.ev.Status
		row, err := sqlstore.UpdateEvent(ctx, tx, ch, st.row)
		if err != nil {
			return err
		}
		st.row = row
	}
	return nil
}

// isTD reports whether the actor acts as a TD and is one of the event's TDs.
func isTD(ctx context.Context, q sqlstore.Queryer, st *state, a arbiter.Actor) (bool, error) {
	if a.Role != arbiter.RoleTD {
		return false, nil
	}
	o, _, err := docOfficial.read(ctx, q, st.row.ID, normUser(a.Name))
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return slices.Contains(o.Roles, arbiter.RoleTD), nil
}

// requireTD refuses anyone but a TD of the event.
func requireTD(ctx context.Context, q sqlstore.Queryer, st *state, a arbiter.Actor, what string) error {
	if err := requireActor(a); err != nil {
		return err
	}
	ok, err := isTD(ctx, q, st, a)
	if err != nil {
		return err
	}
	if !ok {
		return arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD of %s may %s (you act as %s)", st.ev.Slug, what, a)
	}
	return nil
}

func requireActor(a arbiter.Actor) error {
	if normUser(a.Name) == "" {
		return arbiter.Errorf(arbiter.EUNAUTHORIZED, "no actor: say who you are")
	}
	switch a.Role {
	case arbiter.RoleTD, arbiter.RoleCaptain, arbiter.RolePlayer, arbiter.RoleSystem:
		return nil
	}
	return arbiter.FieldError("role", "app.role", "unknown role %q (td, captain, player, system)", a.Role)
}

func requireReason(reason, what string) error {
	if strings.TrimSpace(reason) == "" {
		return arbiter.FieldError("reason", "app.reason", "%s needs a reason", what)
	}
	_, err := arbiter.CleanText("reason", reason, arbiter.MaxReason)
	return err
}

// expected is the version an update must find: the caller's when given
// (so a stale view is ECONFLICT), else the one just read.
func expected(caller, read int64) int64 {
	if caller > 0 {
		return caller
	}
	return read
}
