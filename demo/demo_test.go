package demo_test

import (
	"time"

	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"arbiter"
	"arbiter/app"
	"arbiter/demo"
	"arbiter/format"
	"arbiter/score"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
	"arbiter/standings"
)

var ctx = context.Background()

// backends runs fn on SQLite always and on PostgreSQL when
// ARBITER_TEST_POSTGRES is set (a fresh schema per test).
func backends(t *testing.T, fn func(t *testing.T, db *sqlstore.DB)) {
	for _, b := range []struct {
		name string
		open func(testing.TB) *sqlstore.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(b.name, func(t *testing.T) { fn(t, b.open(t)) })
	}
}

// The smallest fields each preset runs with comfortably: RKCC's 8 teams
// (5 Swiss rounds, top 4), the antichess cup's minimum of 10 teams (A9),
// and 14 ACWC players so that the disqualified one is not among the 12
// who go on (W6).
var sizes = []struct {
	preset string
	n      int
}{{"rkcc-team-three-tc", 8}, {"antichess-team-cup", 10}, {"acwc-2023", 14}}

// presetRun is a full run of a preset with seed 7 and what its Progress
// calls looked like.
type presetRun struct {
	svc   *app.Service
	sum   demo.Summary
	err   error
	calls int
	bad   []string // progress calls out of range
}

func runPreset(db *sqlstore.DB, preset string, n int) *presetRun {
	r := &presetRun{svc: app.New(db, nil)}
	r.sum, r.err = demo.Run(ctx, r.svc, demo.Options{Preset: preset, Entrants: n, Seed: 7,
		Progress: func(done, total int) {
			r.calls++
			if done > total || done < 1 {
				r.bad = append(r.bad, fmt.Sprintf("progress %d/%d", done, total))
			}
		}})
	return r
}

// sqliteRuns are the seed-7 runs on SQLite, made once per test binary:
// TestDemoPresets checks them and TestDeterministic compares another run
// with the same seed against them (a full run of each preset fewer; about
// 1.5 s of CPU). Their databases live in sharedDir, outside any one
// test's lifetime.
var sqliteRuns = func() map[string]func() *presetRun {
	m := map[string]func() *presetRun{}
	for _, c := range sizes {
		m[c.preset] = sync.OnceValue(func() *presetRun {
			db, err := sqlstore.Open(ctx, storetest.NoSyncURI(filepath.Join(sharedDir, c.preset+".db")))
			if err != nil {
				return &presetRun{err: err}
			}
			return runPreset(db, c.preset, c.n)
		})
	}
	return m
}()

var sharedDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "demo-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestDemoPresets(t *testing.T) {
	t.Parallel()
	for _, c := range sizes {
		t.Run(c.preset, func(t *testing.T) {
			backends(t, func(t *testing.T, db *sqlstore.DB) {
				var r *presetRun
				if db.Dialect() == sqlstore.SQLite {
					r = sqliteRuns[c.preset]()
				} else {
					r = runPreset(db, c.preset, c.n)
				}
				svc, sum, err, calls := r.svc, r.sum, r.err, r.calls
				for _, b := range r.bad {
					t.Error(b)
				}
				if err != nil {
					t.Fatal(err)
				}
				if sum.Status != arbiter.EventFinished || sum.Final == nil || sum.Entrants != c.n || sum.Stopped != "" {
					t.Fatalf("summary: status %s, final %v, entrants %d", sum.Status, sum.Final, sum.Entrants)
				}
				if calls != sum.Counts.Matches+1 { // once per match, once at the end
					t.Errorf("progress called %d times for %d matches", calls, sum.Counts.Matches)
				}
				checkLifecycle(t, c.preset, sum)
				checkEvent(t, svc, sum)
				checkRanking(t, svc, c.preset, sum)
				checkReplay(t, svc, sum)
			})
		})
	}
}

// checkLifecycle: the exceptional paths the demo promises, where the
// rulebook and the application layer allow them.
func checkLifecycle(t *testing.T, preset string, s demo.Summary) {
	t.Helper()
	c := s.Counts
	if c.Unplayed != 1 || c.Disputes != 1 || c.Forfeits < 1 {
		t.Errorf("counts %+v: want one match unplayed at the deadline, one dispute and a no-show", c)
	}
	switch preset {
	case "rkcc-team-three-tc": // R5's double forfeit and appeal window; no armageddon (R11); R16 a member out; R7 lineups
		if c.DoubleForfeits != 1 || c.Appeals != 1 || c.Armageddons != 0 || c.Sanctions != 1 || c.Lineups < 8 {
			t.Errorf("rkcc counts %+v", c)
		}
	case "antichess-team-cup": // A5: the unplayed match held for the TDs; their call on the appeal (§1); A20's armageddon; A15 the captain's DQ puts the team out
		if c.Held != 1 || c.DoubleForfeits != 0 || c.Appeals != 1 || c.Armageddons < 1 || c.Sanctions != 1 || c.Negotiations == 0 {
			t.Errorf("antichess counts %+v", c)
		}
	case "acwc-2023": // W14: the unplayed match a draw (no offers); the TDs' call on the appeal (§1); W17 disqualification; W10/W11 armageddon
		if c.Held != 0 || c.DoubleForfeits != 0 || c.Appeals != 1 || c.Armageddons < 1 || c.Sanctions != 1 || c.Negotiations == 0 {
			t.Errorf("acwc counts %+v", c)
		}
	}
	if len(s.Notes) == 0 && preset != "acwc-2023" {
		t.Errorf("no note on the parts not simulated")
	}
}

// checkEvent checks the invariants of a finished event in the store.
func checkEvent(t *testing.T, svc *app.Service, s demo.Summary) {
	t.Helper()
	rounds, err := svc.Rounds(ctx, s.Slug)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := svc.Matches(ctx, s.Slug, "")
	if err != nil {
		t.Fatal(err)
	}
	byRound := map[string][]arbiter.Match{}
	for _, m := range ms {
		byRound[roundID(m)] = append(byRound[roundID(m)], m)
	}
	for _, rd := range rounds {
		if rd.Status != arbiter.RoundClosed {
			continue
		}
		if len(byRound[rd.ID]) != len(rd.Matches) {
			t.Errorf("round %s lists %d matches, the store has %d", rd.ID, len(rd.Matches), len(byRound[rd.ID]))
		}
		for _, m := range byRound[rd.ID] {
			if m.Status != arbiter.MatchFinal || m.Result == nil && m.Decision != "disregarded" {
				t.Errorf("closed round %s: match %s is %s with result %v", rd.ID, m.ID, m.Status, m.Result)
			}
		}
	}
	// Nobody is paired after their disqualification: neither a removed
	// entrant nor, where the team goes on (RKCC R16), the player.
	xs, err := svc.Sanctions(ctx, s.Slug)
	if err != nil {
		t.Fatal(err)
	}
	es, err := svc.Entrants(ctx, s.Slug)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, e := range es {
		status[e.ID] = e.Status
	}
	reports, err := svc.Reports(ctx, arbiter.NamedUser(demo.TD.Name), s.Slug, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		teamGoesOn := status[x.Entrant] == arbiter.EntrantApproved
		if !teamGoesOn && status[x.Entrant] != arbiter.EntrantRemoved {
			t.Errorf("sanctioned %s is %s", x.Entrant, status[x.Entrant])
		}
		later := 0
		for _, rd := range rounds {
			if !rd.PairedAt.After(x.At) {
				continue
			}
			later++
			for _, m := range byRound[rd.ID] {
				if !teamGoesOn && (m.Home == x.Entrant || m.Away == x.Entrant) {
					t.Errorf("%s, disqualified at %s, is paired in %s (paired %s)", x.Entrant, x.At, m.ID, rd.PairedAt)
				}
			}
		}
		if later == 0 {
			t.Errorf("no round was paired after the sanction of %s", x.Entrant)
		}
		if !teamGoesOn {
			continue
		}
		for _, rep := range reports {
			if !rep.At.After(x.At) {
				continue
			}
			sh := rep.Sheet
			if sh == nil {
				t.Fatalf("report %s: no sheet", rep.ID)
			}
			for _, p := range sheetPlayers(sh) {
				if p == x.Player {
					t.Errorf("%s plays in %s (report %s) after their disqualification", x.Player, rep.Match, rep.ID)
				}
			}
		}
	}
	for _, st := range s.Stages {
		for _, pt := range st.Tables {
			checkOrder(t, st.Name+"/"+pt.Pool, pt.Table)
		}
	}
}

// sheetPlayers lists the players a match sheet names.
func sheetPlayers(sh *score.Sheet) []string {
	var out []string
	for _, p := range append(slices.Clone(sh.Sets), sh.Parts...) {
		out = append(out, p.HomePlayer, p.AwayPlayer)
	}
	for _, b := range sh.Boards {
		out = append(out, b.HomePlayer, b.AwayPlayer)
	}
	return out
}

func roundID(m arbiter.Match) string {
	return "s" + itoa(m.Stage+1) + "r" + itoa(m.Round)
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// checkOrder: each adjacent pair of rows is ordered by the primary score,
// then each tiebreak column in turn, higher first (package standings: every
// column is higher-is-better); rows sharing a rank have equal columns.
func checkOrder(t *testing.T, name string, tab standings.Table) {
	t.Helper()
	for i := 1; i < len(tab.Rows); i++ {
		a, b := tab.Rows[i-1], tab.Rows[i]
		ka := append([]arbiter.Points{a.Score}, a.Values...)
		kb := append([]arbiter.Points{b.Score}, b.Values...)
		c := 0
		for k := range ka {
			if ka[k] != kb[k] {
				c = 1
				if ka[k] < kb[k] {
					c = -1
				}
				break
			}
		}
		switch {
		case c < 0:
			t.Errorf("%s: row %d %s %v is above row %d %s %v", name, i, a.ID, ka, i+1, b.ID, kb)
		case b.Rank < a.Rank:
			t.Errorf("%s: rank %d after rank %d", name, b.Rank, a.Rank)
		case a.Rank == b.Rank && c != 0:
			t.Errorf("%s: %s and %s share rank %d but differ: %v / %v", name, a.ID, b.ID, a.Rank, ka, kb)
		}
	}
}

// checkReplay: the audit log replays to the records in the store, and a
// store rebuilt from the replayed records ranks every stage the same.
func checkReplay(t *testing.T, svc *app.Service, s demo.Summary) {
	t.Helper()
	row, err := sqlstore.GetEventBySlug(ctx, svc.DB, s.Slug)
	if err != nil {
		t.Fatal(err)
	}
	log, err := svc.Audit(ctx, demo.TD, s.Slug, sqlstore.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// Changes by action and the kind of record changed (one use case may
	// change several records).
	actions := map[string]int{}
	for _, e := range log {
		actions[e.Action+" "+e.Kind]++
	}
	// The antichess cup negotiates board by board (A5): 4 boards with 10 teams.
	boards := 1
	if s.Preset == "antichess-team-cup" {
		boards = 4
	}
	want := map[string]int{"result.dispute match": 1, "result.override match": 1,
		"armageddon.commit armageddon": 2 * s.Counts.Armageddons, "armageddon.reveal armageddon": 2 * s.Counts.Armageddons,
		"negotiation.propose negotiation": boards * s.Counts.Negotiations, "negotiation.accept negotiation": boards * s.Counts.Negotiations,
		"appeal.file appeal": s.Counts.Appeals, "appeal.accept appeal": s.Counts.Appeals,
		"lineup.submit lineup": s.Counts.Lineups, "result.accept_at_deadline match": 1}
	switch s.Preset {
	case "rkcc-team-three-tc": // R5
		want["result.double_forfeit match"] = 1
	case "antichess-team-cup": // A5: no automatic result; the TDs rule after the weekend, board by board; the unplayed match held
		want["negotiation.expire negotiation"] = boards
		want["negotiation.rule_fault negotiation"] = boards
		want["result.negotiation match"] = 1
		want["result.held match"] = 1
	case "acwc-2023": // W14: the match without offers and the unplayed one are draws, both forfeited a game
		want["negotiation.expire negotiation"] = 2
		want["result.negotiation match"] = 2
	}
	for a, n := range want {
		if actions[a] != n {
			t.Errorf("audit log has %d %s entries, want %d", actions[a], a, n)
		}
	}
	state, err := sqlstore.Replay(log)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	kinds := map[string]int{}
	var eventDoc json.RawMessage
	for k, r := range state {
		if k.EventID != row.ID {
			t.Fatalf("audit entry of another event: %+v", k)
		}
		if k.Kind == sqlstore.EventKind && k.ID == row.ID {
			eventDoc = r.Data
			continue
		}
		kinds[k.Kind]++
		cur, v, err := sqlstore.Get[json.RawMessage](ctx, svc.DB, row.ID, k.Kind, k.ID)
		if err != nil {
			t.Fatalf("replayed %s %s: %v", k.Kind, k.ID, err)
		}
		if v != r.Version || !sameJSON(t, cur, r.Data) {
			t.Errorf("%s %s: store has version %d %s, replay version %d %s", k.Kind, k.ID, v, cur, r.Version, r.Data)
		}
	}
	for kind, n := range kinds {
		recs, err := sqlstore.List[json.RawMessage](ctx, svc.DB, row.ID, kind)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != n {
			t.Errorf("%d %s records in the store, %d replayed", len(recs), kind, n)
		}
	}
	var ev sqlstore.Event
	if err := json.Unmarshal(eventDoc, &ev); err != nil {
		t.Fatalf("replayed event: %v", err)
	}
	if ev.Slug != row.Slug || ev.Status != row.Status || !sameJSON(t, ev.Format, row.Format) {
		t.Errorf("replayed event %s %s differs from the store's %s %s", ev.Slug, ev.Status, row.Slug, row.Status)
	}

	// Rebuild a store from the replay alone and rank every stage again.
	db2 := storetest.SQLite(t)
	err = db2.Tx(ctx, func(tx *sqlstore.Tx) error {
		ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "replay", Role: arbiter.RoleSystem}, Action: "replay.load"}
		row2, err := sqlstore.CreateEvent(ctx, tx, ch, sqlstore.Event{Slug: ev.Slug, Name: ev.Name, Status: ev.Status, Format: ev.Format})
		if err != nil {
			return err
		}
		for k, r := range state {
			if k.Kind == sqlstore.EventKind && k.ID == row.ID {
				continue
			}
			if _, err := sqlstore.Create(ctx, tx, ch, row2.ID, k.Kind, k.ID, r.Data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("rebuild from the replay: %v", err)
	}
	svc2 := app.New(db2, nil)
	for si, st := range s.Stages {
		for _, pt := range st.Tables {
			got, err := svc2.PoolStandings(ctx, s.Slug, si, pt.Pool)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, pt.Table) {
				t.Errorf("stage %s %s: standings from the replayed records differ:\n%+v\nwant\n%+v", st.Name, pt.Pool, got.Rows, pt.Table.Rows)
			}
		}
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// TestDeterministic: the same seed gives the same event, another seed
// another one.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	run := func(preset string, n int, seed int64) demo.Summary {
		s, err := demo.Run(ctx, app.New(storetest.SQLite(t), nil), demo.Options{Preset: preset, Entrants: n, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range sizes {
		if c.preset == "acwc-2023" {
			continue // its full run is the slowest; its first stage below
		}
		// The first run with seed 7 is TestDemoPresets' (sqliteRuns).
		first := sqliteRuns[c.preset]()
		if first.err != nil {
			t.Fatal(first.err)
		}
		a, b := first.sum, run(c.preset, c.n, 7)
		if !reflect.DeepEqual(tables(a), tables(b)) || !reflect.DeepEqual(bracket(a), bracket(b)) {
			t.Errorf("%s: two runs with seed 7 differ", c.preset)
		}
		if c.preset != "rkcc-team-three-tc" {
			continue
		}
		if o := run(c.preset, c.n, 12); reflect.DeepEqual(tables(a), tables(o)) {
			t.Errorf("%s: seeds 7 and 12 give the same standings", c.preset)
		}
	}
	opts := demo.Options{Preset: "acwc-2023", Entrants: 14, Seed: 11, StopAfter: "qualification"}
	a, err := demo.Run(ctx, app.New(storetest.SQLite(t), nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := demo.Run(ctx, app.New(storetest.SQLite(t), nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tables(a), tables(b)) {
		t.Error("acwc-2023: two runs with seed 11 differ")
	}
}

func tables(s demo.Summary) []standings.Table {
	var out []standings.Table
	for _, st := range s.Stages {
		for _, pt := range st.Tables {
			out = append(out, pt.Table)
		}
	}
	return out
}

func bracket(s demo.Summary) []string {
	var out []string
	for _, m := range s.Bracket {
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}

func TestStopAfter(t *testing.T) {
	t.Parallel()
	svc := app.New(storetest.SQLite(t), nil)
	s, err := demo.Run(ctx, svc, demo.Options{Preset: "acwc-2023", Entrants: 14, Seed: 3, StopAfter: "s1r2"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != arbiter.EventRunning || s.Stopped != "s1r2" || s.Stages[0].Played != 2 || s.Stages[1].Played != 0 || s.Final != nil {
		t.Fatalf("stopped run: %+v", s)
	}
	// The event goes on through the application layer from there.
	if _, _, err := svc.PairRound(ctx, demo.TD, s.Slug); err != nil {
		t.Fatalf("pairing round 3 after the demo: %v", err)
	}
	_, err = demo.Run(ctx, svc, demo.Options{Preset: "acwc-2023", Entrants: 14, Seed: 4, StopAfter: "s9r1"})
	if arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Fatalf("unknown stop: %v", err)
	}
}

func TestBadOptions(t *testing.T) {
	t.Parallel()
	svc := app.New(storetest.SQLite(t), nil)
	for _, c := range []struct {
		opts demo.Options
		code string
	}{
		{demo.Options{Preset: "no-such-preset", Entrants: 8}, arbiter.ENOTFOUND},
		{demo.Options{Preset: "acwc-2023", Entrants: 1}, arbiter.EINVALID},
		{demo.Options{Preset: "antichess-team-cup", Entrants: 9}, arbiter.EINVALID}, // A9: at least 10 teams
	} {
		if _, err := demo.Run(ctx, svc, c.opts); arbiter.ErrorCode(err) != c.code {
			t.Errorf("%+v: got %v, want code %s", c.opts, err, c.code)
		}
	}
	evs, err := svc.ListEvents(ctx)
	if err != nil || len(evs) != 0 {
		t.Fatalf("refused runs left events: %v %v", evs, err)
	}
}

func TestSeedAll(t *testing.T) {
	t.Parallel()
	svc := app.New(storetest.SQLite(t), nil)
	now := time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC) // a Wednesday
	if err := demo.SeedAll(ctx, svc, now); err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedAll(ctx, svc, now); err != nil { // again: the events exist, nothing to do
		t.Fatal(err)
	}
	// The seeded events are live at now: every simulated round is over,
	// the next one's window holds now, and the deadline job closes nothing.
	svc.Now = func() time.Time { return now }
	if closed, err := svc.CloseDueRounds(ctx); err != nil || len(closed) != 0 {
		t.Fatalf("CloseDueRounds at now = %v, %v; want nothing to close", closed, err)
	}
	evs, err := svc.ListEvents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != len(format.Presets()) {
		t.Fatalf("%d events, want one per preset", len(evs))
	}
	for _, ev := range evs {
		if ev.Status != arbiter.EventRunning || ev.Stage != 0 {
			t.Errorf("%s is %s in stage %d, want running in its first stage", ev.Slug, ev.Status, ev.Stage)
		}
		rounds, err := svc.Rounds(ctx, ev.Slug)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(rounds); n == 0 || n >= ev.Stages[0].Rounds {
			t.Errorf("%s has %d of %d first-stage rounds, want the middle", ev.Slug, n, ev.Stages[0].Rounds)
		}
		for _, r := range rounds {
			if !r.End.Before(now) && !r.End.Equal(now) {
				t.Errorf("%s round %s ends %v, after now %v", ev.Slug, r.ID, r.End, now)
			}
		}
		if next := len(rounds); next < len(ev.Calendar) {
			w := ev.Calendar[next]
			if now.Before(w.Start.Add(-7*24*time.Hour)) || !now.Before(w.End) {
				t.Errorf("%s next round window %v..%v does not hold now %v", ev.Slug, w.Start, w.End, now)
			}
		}
	}
}

// checkRanking: the finished event has a final ranking of every entrant;
// the final decides 1st and 2nd (the demo's final), the third-place match
// 3rd and 4th (A18, W11), or, in the RKCC (R2: no third-place match), the
// semifinal losers ordered by the Swiss; nobody shares one of those four.
func checkRanking(t *testing.T, svc *app.Service, preset string, s demo.Summary) {
	t.Helper()
	ps, err := svc.Ranking(ctx, s.Slug)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != s.Entrants {
		t.Fatalf("ranking of %d entrants, want %d", len(ps), s.Entrants)
	}
	third := "third_place"
	if preset == "rkcc-team-three-tc" {
		third = "knockout_round"
	}
	for i, want := range []string{"final", "final", third, third} {
		if ps[i].Rank != i+1 || ps[i].Shared || ps[i].DecidedBy != want {
			t.Errorf("place %d: %+v, want decided by %s", i+1, ps[i], want)
		}
	}
	f := s.Final
	winner, loser := f.Home, f.Away
	if f.Result.Result == "away_win" {
		winner, loser = loser, winner
	}
	if ps[0].Entrant != winner || ps[1].Entrant != loser {
		t.Errorf("1st %s and 2nd %s, the final was won by %s against %s", ps[0].Entrant, ps[1].Entrant, winner, loser)
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].Rank < ps[i-1].Rank || ps[i].Rank != i+1 && !ps[i].Shared {
			t.Errorf("place %d after %d: %+v", ps[i].Rank, ps[i-1].Rank, ps[i])
		}
	}
}
