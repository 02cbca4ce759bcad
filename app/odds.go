package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"arbiter"
	"arbiter/odds"
	"arbiter/score"
	"arbiter/sqlstore"
)

// Odds is an event's chances estimated by simulating the rest of it
// (package odds), with the event state they start from.
type Odds struct {
	*odds.Result
	Event string `json:"event"`
	// State names the event's state the simulation started from (its
	// latest change); the same state, options and seed give the same
	// answer.
	State      string    `json:"state"`
	ComputedAt time.Time `json:"computed_at"`
	// Stale says the event changed since: a new simulation is running and
	// replaces this answer when done.
	Stale bool `json:"stale,omitempty"`
}

// OddsRequest says what to simulate; the zero value is the default (the
// number of runs the event's size allows in a few seconds, seed 1).
type OddsRequest struct {
	Sims  int
	Seed  uint64
	Fixed []odds.Fixed
	// NoWait returns nil at once when nothing is cached yet for the
	// request (the simulation starts in the background) instead of
	// waiting for it.
	NoWait bool
	// Unbounded lifts the bound on Sims for the event's size
	// (odds.AffordableSims): for the operator at the command line.
	Unbounded bool
}

// MaxOddsSims bounds the runs one request may ask for.
const MaxOddsSims = 100_000

// DefaultOddsSeed is the seed when a request gives none, so that the
// standings page shows the same figures until a result changes.
const DefaultOddsSeed = 1

func (r OddsRequest) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%d", r.Sims, r.Seed)
	for _, f := range r.Fixed {
		fmt.Fprintf(&b, "|%s/%s/%s=%s", f.Match, f.Home, f.Away, f.Result)
	}
	return b.String()
}

// Odds returns the event's chances to qualify, reach each later band and
// win, with what-if for each entrant's next match. Answers are cached per
// event state and request: the same state answers at once; after a change
// the previous answer comes back at once marked Stale while a new
// simulation runs in the background (the cache also watches the events it
// was asked about, so a new result starts one without waiting for the
// next read). With nothing cached the call waits for the simulation,
// unless req.NoWait. Public: the standings are.
func (s *Service) Odds(ctx context.Context, slug string, req OddsRequest) (*Odds, error) {
	if req.Sims < 0 || req.Sims > MaxOddsSims {
		return nil, arbiter.FieldError("sims", "odds.sims", "between 1 and %d runs, got %d", MaxOddsSims, req.Sims)
	}
	if req.Seed == 0 {
		req.Seed = DefaultOddsSeed
	}
	var state string
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if st.ev.Status == arbiter.EventRegistration {
			return arbiter.RuleError("registration", "event %s has no standings to simulate before registration closes", slug)
		}
		l, err := sqlstore.LatestChange(ctx, tx, st.row.ID)
		state = l.String()
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.odds().get(ctx, s, slug, req, state)
}

// OddsInput is the pure input of the simulation for the event as it
// stands now, and the state it was read at.
func (s *Service) OddsInput(ctx context.Context, slug string) (*odds.Input, string, error) {
	var in *odds.Input
	var state string
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if st.ev.Status == arbiter.EventRegistration {
			return arbiter.RuleError("registration", "event %s has no standings to simulate before registration closes", slug)
		}
		l, err := sqlstore.LatestChange(ctx, tx, st.row.ID)
		if err != nil {
			return err
		}
		state = l.String()
		in = &odds.Input{Format: st.f, Event: st.ev, Sheets: map[string]*score.Sheet{}}
		es, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.Status == arbiter.EntrantApproved || e.Status == arbiter.EntrantRemoved {
				in.Entrants = append(in.Entrants, e)
			}
		}
		if in.Matches, err = docMatch.list(ctx, tx, st); err != nil {
			return err
		}
		reports, err := docReport.list(ctx, tx, st)
		if err != nil {
			return err
		}
		sheets := map[string]*arbiter.Sheet{}
		for _, r := range reports {
			sheets[r.ID] = r.Sheet
		}
		for _, m := range in.Matches {
			if sh := sheets[m.Report]; m.Status == arbiter.MatchFinal && m.Report != "" && sh != nil {
				in.Sheets[m.ID] = sh
			}
		}
		fbs, err := docForbidden.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, f := range fbs {
			if !f.Removed {
				in.Forbidden = append(in.Forbidden, odds.Forbidden{Stage: f.Stage, Entrants: f.Entrants})
			}
		}
		return nil
	})
	return in, state, err
}

// simulate reads the event and runs the simulation for req (Sims 0:
// odds.SuggestedSims).
func (s *Service) simulate(ctx context.Context, slug string, req OddsRequest) (*Odds, error) {
	in, state, err := s.OddsInput(ctx, slug)
	if err != nil {
		return nil, err
	}
	in.Fixed = req.Fixed
	sims := req.Sims
	c := s.odds()
	c.mu.Lock()
	fallback := c.sims
	c.mu.Unlock()
	switch {
	case sims == 0 && fallback > 0:
		sims = fallback
	case sims == 0:
		sims = odds.SuggestedSims(in)
	case !req.Unbounded && sims > odds.AffordableSims(in):
		return nil, arbiter.FieldError("sims", "odds.sims", "at most %d runs for this event as it stands (about a minute of computing)", odds.AffordableSims(in))
	}
	res, err := odds.Run(in, odds.Options{Sims: sims, Seed: req.Seed})
	if err != nil {
		return nil, err
	}
	return &Odds{Result: res, Event: slug, State: state, ComputedAt: s.now()}, nil
}

// oddsCache holds the answers by event and request. One simulation runs
// at a time in the process (they use every core already).
type oddsCache struct {
	mu      sync.Mutex
	entries map[string]*oddsEntry // by slug, then request key
	run     sync.Mutex            // one simulation at a time
	// watch is how often an event read recently is checked for changes;
	// keep how long after the last read it is watched.
	watch, keep time.Duration
	// sims are the runs of a request that names none (0:
	// odds.SuggestedSims); set before the first request (SetOddsSims).
	sims int
}

type oddsEntry struct {
	slug    string
	req     OddsRequest
	odds    *Odds
	err     error  // the last simulation's error, for errState
	errAt   string // the state that gave err
	running string // the state being simulated ("" when none)
	done    chan struct{}
	read    time.Time // last read (real time: the watch is real time)
	watched bool      // a check is scheduled
}

// maxOddsEntries bounds the cached requests (what-if requests with fixed
// results each take one); the least recently read go first.
const maxOddsEntries = 64

func (s *Service) odds() *oddsCache {
	s.oddsOnce.Do(func() {
		s.oddsC = &oddsCache{entries: map[string]*oddsEntry{}, watch: 5 * time.Second, keep: 15 * time.Minute}
	})
	return s.oddsC
}

// SetOddsWatch sets how often the odds cache checks the events it was
// asked about for changes, and for how long after the last read (tests).
func (s *Service) SetOddsWatch(every, keep time.Duration) {
	c := s.odds()
	c.mu.Lock()
	c.watch, c.keep = every, keep
	c.mu.Unlock()
}

// SetOddsSims sets the runs of a simulation whose request names none,
// such as the standings page's (0, the default, is odds.SuggestedSims:
// about 4 s of CPU time). The test fixtures of packages web and
// web/browsertest lower it so that every standings page a test opens
// does not cost a full simulation; call it before the first request.
func (s *Service) SetOddsSims(n int) {
	c := s.odds()
	c.mu.Lock()
	c.sims = n
	c.mu.Unlock()
}

func (c *oddsCache) get(ctx context.Context, s *Service, slug string, req OddsRequest, state string) (*Odds, error) {
	key := slug + "|" + req.key()
	c.mu.Lock()
	e := c.entries[key]
	if e == nil {
		c.evict()
		e = &oddsEntry{slug: slug, req: req}
		c.entries[key] = e
	}
	e.read = time.Now()
	if e.odds != nil && e.odds.State == state {
		o := e.odds
		c.mu.Unlock()
		return o, nil
	}
	if e.err != nil && e.errAt == state {
		err := e.err
		c.mu.Unlock()
		return nil, err
	}
	if e.running == "" {
		c.start(s, e, state)
	}
	if e.odds != nil {
		stale := *e.odds
		stale.Stale = true
		c.mu.Unlock()
		return &stale, nil
	}
	done := e.done
	c.mu.Unlock()
	if req.NoWait {
		return nil, nil
	}
	select {
	case <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.odds == nil {
		return nil, e.err
	}
	return e.odds, nil
}

// start runs a simulation of e in the background; c.mu is held.
func (c *oddsCache) start(s *Service, e *oddsEntry, state string) {
	e.running, e.done = state, make(chan struct{})
	done := e.done
	go func() {
		c.run.Lock()
		o, err := s.simulate(context.Background(), e.slug, e.req)
		c.run.Unlock()
		c.mu.Lock()
		defer c.mu.Unlock()
		if err != nil {
			e.err, e.errAt = err, state
		} else {
			e.odds, e.err = o, nil
		}
		e.running = ""
		close(done)
		c.schedule(s, e)
	}()
}

// schedule checks e's event for a change after c.watch while it was read
// within c.keep; c.mu is held.
func (c *oddsCache) schedule(s *Service, e *oddsEntry) {
	if e.watched || c.watch <= 0 || time.Since(e.read) > c.keep {
		return
	}
	e.watched = true
	time.AfterFunc(c.watch, func() {
		state, err := s.oddsState(e.slug)
		c.mu.Lock()
		defer c.mu.Unlock()
		e.watched = false
		if err != nil || c.entries[e.slug+"|"+e.req.key()] != e {
			return // the event is gone or the entry evicted: stop watching
		}
		if e.running == "" && (e.odds == nil || e.odds.State != state) && !(e.err != nil && e.errAt == state) {
			c.start(s, e, state)
			return
		}
		c.schedule(s, e)
	})
}

// oddsState reads an event's state token.
func (s *Service) oddsState(slug string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var state string
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		row, err := sqlstore.GetEventBySlug(ctx, tx, slug)
		if err != nil {
			return err
		}
		l, err := sqlstore.LatestChange(ctx, tx, row.ID)
		state = l.String()
		return err
	})
	return state, err
}

// evict drops the least recently read idle entries beyond the bound;
// c.mu is held.
func (c *oddsCache) evict() {
	for len(c.entries) >= maxOddsEntries {
		keys := make([]string, 0, len(c.entries))
		for k, e := range c.entries {
			if e.running == "" {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return
		}
		oldest := slices.MinFunc(keys, func(a, b string) int { return c.entries[a].read.Compare(c.entries[b].read) })
		delete(c.entries, oldest)
	}
}
