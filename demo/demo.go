// Package demo simulates complete events through the application layer
// (package app): a TD creates an event of a preset, entrants register and
// are approved, and every round is paired, published, scheduled (time
// offers, RKCC lineups), played with random but legal match sheets,
// confirmed and closed, with the exceptional paths a real event meets (a
// disputed result, a no-show, a match without offers, an unplayed match
// that becomes a double forfeit, an appeal, a disqualification, stage
// transitions with ties left to the TDs, a knockout tie that goes to
// armageddon with sealed bids). docs/demo.md describes each preset's run.
//
// Everything is deterministic for a seed: the names, ratings, results and
// the fake clock, which walks through the event's calendar as the
// Service's Now. It backs `arbiter demo` and the demo data of
// `arbiter serve --demo` (SeedAll).
package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/standings"
)

// Options say what to simulate.
type Options struct {
	// Preset is a built-in format: rkcc-team-three-tc, antichess-team-cup
	// or acwc-2023.
	Preset string
	// Entrants is the number of players or teams approved.
	Entrants int
	// Seed makes the run reproducible: the same seed gives the same event.
	Seed int64
	// StopAfter stops the simulation once a round ("s1r3": stage 1,
	// round 3) or a whole stage (by name, e.g. "swiss") is closed, leaving
	// the event mid-way. Empty runs the event to its end.
	StopAfter string
	// Slug of the event; empty means "demo-PRESET-SEED".
	Slug string
	// Start is the first round's start (UTC); zero means Monday
	// 2026-01-05 00:00 UTC, valid for every preset's calendar.
	Start time.Time
	// Progress, when set, is called after each match gets its final
	// result, with the matches done and the (estimated) total.
	Progress func(done, total int)
}

// Summary is what a run produced.
type Summary struct {
	Slug     string `json:"slug"`
	Preset   string `json:"preset"`
	Status   string `json:"status"` // the event's status at the end
	Entrants int    `json:"entrants"`
	// Stopped names where StopAfter stopped the run ("" when complete).
	Stopped string        `json:"stopped,omitempty"`
	Stages  []StageResult `json:"stages"`
	// Bracket lists the knockout matches by round and board.
	Bracket []arbiter.Match `json:"bracket,omitempty"`
	// Final is the knockout final (nil before it is played or without a
	// knockout).
	Final  *arbiter.Match `json:"final,omitempty"`
	Counts Counts         `json:"counts"`
	// Notes say which parts of the lifecycle were not possible and why
	// (the rulebook or the application layer does not support them).
	Notes []string `json:"notes,omitempty"`
}

// StageResult is a stage's final (or current) standings; a pool stage has
// one table per pool, a knockout none (see Summary.Bracket).
type StageResult struct {
	Name   string         `json:"name"`
	Kind   string         `json:"kind"`
	Tables []PoolTable    `json:"tables,omitempty"`
	Rounds int            `json:"rounds"`
	Played int            `json:"rounds_closed"`
	Seeds  []string       `json:"seeds,omitempty"`
	Pools  []arbiter.Pool `json:"pools,omitempty"`
}

// PoolTable is the standings of one pool ("" for a stage without pools).
type PoolTable struct {
	Pool  string          `json:"pool,omitempty"`
	Table standings.Table `json:"table"`
}

// Counts summarise the run.
type Counts struct {
	Matches int `json:"matches"` // paired matches, byes excluded
	Byes    int `json:"byes"`
	// Unplayed counts the matches left unplayed at a deadline, which take
	// their rulebook's result there: DoubleForfeits (R5), Held for the
	// TDs (A5: nobody offered, both at fault), or W14's draw.
	Unplayed       int `json:"unplayed"`
	DoubleForfeits int `json:"double_forfeits"` // made by CloseRound at the deadline (R5)
	Held           int `json:"held"`            // held for the TDs at the deadline (A5)
	// Forfeits counts the matches finally not played over the board:
	// forfeit wins, double forfeits, full draws, awarded pairings.
	Forfeits     int `json:"forfeits"`
	Disputes     int `json:"disputes"`
	Appeals      int `json:"appeals"`
	Sanctions    int `json:"sanctions"`
	Armageddons  int `json:"armageddons"`
	TieOrders    int `json:"tie_orders"`   // stage cuts ordered by the TDs (drawing of lots)
	Negotiations int `json:"negotiations"` // matches whose start time was agreed by offers
	Lineups      int `json:"lineups"`      // lineups submitted (RKCC set lineups, R7)
}

// TD is the tournament director every demo event is run by.
var TD = arbiter.Actor{Name: "demo-td", Role: arbiter.RoleTD}

// defaultStart is a Monday 00:00 UTC: RKCC rounds begin then (R4), and the
// other presets' first pairings may be published then.
var defaultStart = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

// Run simulates an event of opts.Preset on svc and returns its summary.
// It sets svc.Now (and the store's clock) to its fake clock while it runs
// and restores them before returning. On an error the event stays in the
// store as far as it got.
func Run(ctx context.Context, svc *app.Service, opts Options) (Summary, error) {
	f, err := format.Preset(opts.Preset)
	if err != nil {
		return Summary{}, err
	}
	if opts.Entrants < 2 {
		return Summary{}, arbiter.FieldError("entrants", "demo.entrants", "a demo needs at least 2 entrants, got %d", opts.Entrants)
	}
	x, err := f.Explain(opts.Entrants)
	if err != nil {
		return Summary{}, err
	}
	if !x.Runs {
		return Summary{}, arbiter.FieldError("entrants", "demo.entrants", "%s cannot run with %d entrants: %s", f.Name, opts.Entrants, x.Reason)
	}
	if opts.Slug == "" {
		opts.Slug = "demo-" + opts.Preset + "-" + strconv.FormatUint(uint64(opts.Seed), 10)
	}
	if opts.Start.IsZero() {
		opts.Start = defaultStart
	}
	r := &runner{svc: svc, opts: opts, f: f,
		rng:  rand.New(rand.NewPCG(uint64(opts.Seed), 0x61726269746572)),
		sums: map[string]side{}, now: opts.Start.UTC().Add(-7 * 24 * time.Hour)}
	r.play = &play{rng: r.rng, seed: rand.NewChaCha8(seedBytes(opts.Seed))}
	oldNow, oldDBNow := svc.Now, svc.DB.Now
	svc.Now, svc.DB.Now = r.clock, r.clock
	defer func() { svc.Now, svc.DB.Now = oldNow, oldDBNow }()
	if err := r.run(ctx); err != nil {
		return Summary{}, fmt.Errorf("demo %s: %w", opts.Slug, err)
	}
	return r.summary(ctx)
}

func seedBytes(seed int64) [32]byte {
	var b [32]byte
	for i := range 8 {
		b[i] = byte(uint64(seed) >> (8 * i))
	}
	copy(b[8:], "arbiter demo armageddon")
	return b
}

// SeedAll loads one event of each preset, stopped in the middle of its
// first stage, for `arbiter serve --demo`. The events are placed in time
// so that the round after the simulated ones is the one running at now:
// visitors see a live event whose next deadline lies ahead, and the
// server's deadline job has nothing to close at once. Events whose slug
// ("demo-PRESET") already exists are left as they are, so a restarted
// server on the same database does not fail. Like Run it moves svc's
// clock while it works: call it before the server takes requests.
func SeedAll(ctx context.Context, svc *app.Service, now time.Time) error {
	sizes := map[string]int{"rkcc-team-three-tc": 8, "antichess-team-cup": 10, "acwc-2023": 16}
	for _, p := range format.Presets() {
		slug := "demo-" + p
		if _, err := svc.Event(ctx, slug); err == nil {
			continue
		} else if arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
			return err
		}
		n := sizes[p]
		if n == 0 {
			n = 8
		}
		f, err := format.Preset(p)
		if err != nil {
			return err
		}
		x, err := f.Explain(n)
		if err != nil {
			return err
		}
		stop, played := "", 0
		if len(x.Stages) > 0 && x.Stages[0].Rounds != nil {
			played = max(1, (*x.Stages[0].Rounds+1)/2)
			stop = fmt.Sprintf("s1r%d", played)
		}
		// Rounds are weekly: start `played` weeks before this week's Monday.
		monday := now.UTC().Truncate(24 * time.Hour)
		monday = monday.AddDate(0, 0, -((int(monday.Weekday()) + 6) % 7))
		start := monday.AddDate(0, 0, -7*played)
		if _, err := Run(ctx, svc, Options{Preset: p, Entrants: n, Seed: 1, Slug: slug, StopAfter: stop, Start: start}); err != nil {
			return err
		}
	}
	return nil
}

// runner is one simulation's state.
type runner struct {
	svc  *app.Service
	opts Options
	f    *format.Format
	rng  *rand.Rand
	play *play
	now  time.Time
	// sums are the entrants as the games see them, by entrant ID.
	sums map[string]side
	// captains maps an entrant to the user who acts for it.
	actors map[string]arbiter.Actor

	ev               arbiter.Event
	done             int
	total            int
	counts           Counts
	notes            []string
	stopped          string
	forcedArmageddon bool
	sanctioned       bool
	noNegotiation    bool
	noLineups        bool
}

func (r *runner) clock() time.Time { return r.now }

// at moves the clock forward to t (never back).
func (r *runner) at(t time.Time) {
	if t.After(r.now) {
		r.now = t
	}
}

func (r *runner) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *runner) progress() {
	r.done++
	if r.done > r.total {
		r.total = r.done
	}
	if r.opts.Progress != nil {
		r.opts.Progress(r.done, r.total)
	}
}

func (r *runner) run(ctx context.Context) error {
	slug := r.opts.Slug
	if _, err := r.svc.CreateEvent(ctx, TD, app.NewEvent{Slug: slug, Preset: r.opts.Preset, Start: r.opts.Start,
		Name: fmt.Sprintf("%s (demo, seed %d)", r.f.Title, r.opts.Seed)}); err != nil {
		return err
	}
	if err := r.register(ctx); err != nil {
		return err
	}
	r.at(r.opts.Start.Add(-time.Hour))
	ev, err := r.svc.CloseRegistrationWith(ctx, TD, slug, app.CloseOptions{}) // round-1 colour by lot
	if err != nil {
		return err
	}
	r.ev = ev
	if err := r.checkStop(); err != nil {
		return err
	}
	r.total = r.estimate()
	for si := range ev.Stages {
		stage := r.ev.Stages[si]
		for n := 1; n <= stage.Rounds; n++ {
			if err := r.round(ctx, si, n); err != nil {
				return err
			}
			if r.opts.StopAfter == roundID(si, n) || (n == stage.Rounds && r.opts.StopAfter == stage.Name) {
				r.stopped = r.opts.StopAfter
				return nil
			}
		}
		if si+1 < len(ev.Stages) {
			if err := r.advance(ctx); err != nil {
				return err
			}
		}
	}
	if r.opts.Progress != nil {
		r.opts.Progress(r.done, r.done) // the estimate counted knockout byes
	}
	if !r.forcedArmageddon && r.hasArmageddon() {
		r.note("no knockout match reached armageddon")
	}
	return nil
}

func roundID(stage, number int) string { return fmt.Sprintf("s%dr%d", stage+1, number) }

// checkStop refuses a StopAfter that names no round or stage of the event.
func (r *runner) checkStop() error {
	s := r.opts.StopAfter
	if s == "" {
		return nil
	}
	var valid []string
	for si, st := range r.ev.Stages {
		if st.Name == s {
			return nil
		}
		valid = append(valid, st.Name)
		for n := 1; n <= st.Rounds; n++ {
			if roundID(si, n) == s {
				return nil
			}
		}
		valid = append(valid, fmt.Sprintf("%s..%s", roundID(si, 1), roundID(si, st.Rounds)))
	}
	return arbiter.FieldError("stop_after", "demo.stop_after", "%q is no round or stage of this event (%v)", s, valid)
}

// estimate is the number of matches the event will have, byes excluded
// (the knockout's byes and a Swiss bye make it a little high).
func (r *runner) estimate() int {
	total := 0
	for si, st := range r.ev.Stages {
		switch st.Kind {
		case format.Knockout:
			total += st.Entrants - 1
			if r.f.Stages[si].ThirdPlace {
				total++
			}
		case format.Pool:
			for _, p := range r.f.Stages[si].Pools {
				total += st.Rounds * (len(p.Places) / 2)
			}
		default:
			total += st.Rounds * (st.Entrants / 2)
		}
	}
	return total
}

func (r *runner) hasArmageddon() bool {
	for _, st := range r.f.Stages {
		for _, m := range []*format.Match{&st.Match, st.Final, st.ThirdPlaceMatch} {
			if m == nil {
				continue
			}
			for _, t := range m.Tie {
				if t.Kind == format.TieArmageddon {
					return true
				}
			}
		}
	}
	return false
}

// Slugs are the events SeedAll creates: "demo-" and each preset's name.
func Slugs() []string {
	var out []string
	for _, p := range format.Presets() {
		out = append(out, "demo-"+p)
	}
	return out
}
