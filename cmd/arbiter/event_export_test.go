package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/sqlstore"
)

// repairEveryRound exports the TRF of the event's Swiss stage through the
// CLI, as the TD would, and runs `arbiter pair --dutch FILE -c` on it: the
// Dutch engine must re-pair every round exactly as Arbiter paired it.
func repairEveryRound(t *testing.T, db, slug string, rounds int, extra ...string) string {
	t.Helper()
	args := append([]string{"event", "export", slug, "--db", db, "--format", "trf", "--as", "nobody"}, extra...)
	code, out, errOut := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("export %v: exit %d: %s", extra, code, errOut)
	}
	file := filepath.Join(t.TempDir(), slug+".trf")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, check, errOut := runCLI(t, "", "pair", "--dutch", file, "-c")
	var want strings.Builder
	for r := 1; r <= rounds; r++ {
		fmt.Fprintf(&want, "round %d: ok\n", r)
	}
	if code != 0 || check != want.String() {
		t.Fatalf("pair -c on the export %v: exit %d\n%s%s\nthe file:\n%s", extra, code, check, errOut, out)
	}
	return out
}

// TestExportTRFDemoEvents: for the demo ACWC events (the one preset with
// an individual Swiss), even and odd fields (pairing-allocated byes),
// with their no-shows (forfeits, W14 full draws, double forfeits) and
// the disqualification, every round re-pairs from the exported TRF, in
// TRF-2026 and TRF-2016, whole or cut after a round.
func TestExportTRFDemoEvents(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		entrants int
		seed     int
		stop     string
		rounds   int
	}{{14, 7, "qualification", 5}, {15, 1, "qualification", 5}, {17, 3, "qualification", 6}, {13, 11, "s1r3", 3}} {
		t.Run(fmt.Sprintf("%d-seed%d", c.entrants, c.seed), func(t *testing.T) {
			t.Parallel()
			db := testDB(t)
			code, _, errOut := runCLI(t, "", "demo", "acwc-2023", "--entrants", fmt.Sprint(c.entrants), "--seed", fmt.Sprint(c.seed),
				"--db", db, "--stop-after", c.stop)
			if code != 0 {
				t.Fatalf("demo: %s", errOut)
			}
			slug := fmt.Sprintf("demo-acwc-2023-%d", c.seed)
			out := repairEveryRound(t, db, slug, c.rounds)
			repairEveryRound(t, db, slug, c.rounds, "--trf-version", "2016")
			repairEveryRound(t, db, slug, 2, "--round", "2")
			// What the demo put in: a bye with an odd field, a forfeit.
			if c.entrants%2 == 1 && !strings.Contains(out, "0000 - U") {
				t.Errorf("an odd field without a pairing-allocated bye:\n%s", out)
			}
		})
	}
}

// TestExportTRFByesForfeitsWithdrawals runs an event through package app
// with everything the TRF must carry: nine players (a bye every round),
// a forfeit each round, a full draw without play, matches left unplayed
// (double forfeits at the deadline), a withdrawal after round 2 and a
// forbidden pairing declared after round 1 and lifted after round 3. The
// exported TRF re-pairs every round.
func TestExportTRFByesForfeitsWithdrawals(t *testing.T) {
	t.Parallel()
	// The ACWC-style Swiss of event_test.go, with ACWC's sanctions (W17).
	data := []byte(strings.Replace(eventFormat, `"min_entrants": 8,`, `"min_entrants": 8, "sanctions": "acwc",`, 1))
	ctx := context.Background()
	path := testDB(t)
	db, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2023, 3, 12, 9, 0, 0, 0, time.UTC)
	svc := app.New(db, func() time.Time { return now })
	td := arbiter.Actor{Name: "td", Role: arbiter.RoleTD}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = svc.CreateEvent(ctx, td, app.NewEvent{Slug: "spring", Format: data, Start: time.Date(2023, 3, 21, 10, 0, 0, 0, time.UTC)})
	must(err)
	for i := 1; i <= 9; i++ {
		p := fmt.Sprintf("p%d", i)
		_, err := svc.Register(ctx, arbiter.Actor{Name: p, Role: arbiter.RolePlayer}, "spring", arbiter.Entrant{Kind: arbiter.EntrantPlayer, Player: p, Rating: 2500 - 10*i})
		must(err)
		_, err = svc.Approve(ctx, td, "spring", p, 0)
		must(err)
	}
	ev, err := svc.CloseRegistrationWith(ctx, td, "spring", app.CloseOptions{InitialColour: "black", Reason: "lot drawn on stream"})
	must(err)
	rounds := ev.Stages[0].Rounds // 9 players: floor(log2 9) + 2 = 5 (W5)
	summaries := []string{"6-4", "forfeit:home", "forfeit:full_draw", "", "4.5-5.5", "5-5", "forfeit:away"}
	var forbid app.Forbidden
	for r := 1; r <= rounds; r++ {
		rd, ms, err := svc.PairRound(ctx, td, "spring")
		must(err)
		_, err = svc.PublishRound(ctx, td, "spring")
		must(err)
		now = rd.Start.Add(time.Hour)
		for i, m := range ms {
			s := summaries[(i+r)%len(summaries)]
			if m.IsBye() || s == "" {
				continue // "": unplayed, a double forfeit at the deadline
			}
			_, err := svc.OverrideResult(ctx, td, "spring", m.ID, app.ResultInput{Summary: s}, "result from the players' forum post", 0)
			must(err)
		}
		now = rd.End
		_, err = svc.CloseRound(ctx, td, "spring")
		must(err)
		now = now.Add(time.Hour)
		switch r {
		case 1:
			forbid, err = svc.Forbid(ctx, td, "spring", app.ForbidRequest{Stage: 0, Entrants: []string{"p1", "p2"}, Reason: "same club"})
			must(err)
		case 2:
			_, _, err = svc.Sanction(ctx, td, "spring", app.SanctionRequest{Entrant: "p9", Kind: "withdrawal", Reason: "withdrew by mail"})
			must(err)
		case 3:
			_, err = svc.RemoveForbidden(ctx, td, "spring", forbid.ID, "the club split")
			must(err)
		}
		now = now.Add(time.Hour)
	}
	out := repairEveryRound(t, path, "spring", rounds)
	for _, want := range []string{"\n152 B\n", "\n260   2   3    1    2\n", "0000 - U", "0000 - Z", " - D ", " w + ", " b - "} {
		if !strings.Contains(out, want) {
			t.Errorf("the TRF lacks %q:\n%s", want, out)
		}
	}
	// p9 withdrew after round 2: rounds 3-5 are zero-point byes.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "001    9") && !strings.HasSuffix(l, "0000 - Z  0000 - Z  0000 - Z") {
			t.Errorf("p9's line: %s", l)
		}
	}
	// Every round up to each one re-pairs too (the file as it stood).
	for r := 1; r < rounds; r++ {
		repairEveryRound(t, path, "spring", r, "--round", fmt.Sprint(r))
	}
}

// TestExportCLIErrors: options that do not fit name the flag at fault.
func TestExportCLIErrors(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	if code, _, errOut := runCLI(t, "", "demo", "acwc-2023", "--entrants", "12", "--db", db, "--stop-after", "s1r2"); code != 0 {
		t.Fatal(errOut)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--format", "pdf"}, 3, `arbiter event: --format: unknown format "pdf"`},
		{[]string{"--format", "trf", "--what", "standings"}, 3, "--what: trf holds a whole Swiss stage: what does not apply to it"},
		{[]string{"--format", "markdown", "--what", "standings", "--round", "2"}, 3, "--round: standings count every round so far"},
		{[]string{"--format", "markdown", "--what", "pairings", "--round", "3"}, 1, "--round: round 3 of stage 1 (qualification) is not published yet"},
		{[]string{"--format", "trf", "--stage", "2"}, 3, "--stage: trf needs a swiss stage; stage 2 (candidates) is a pool"},
		{[]string{"--format", "csv", "--trf-version", "2016"}, 3, "--trf-version: trf-version goes with format trf"},
		{[]string{"--format", "ics", "--player", "nobody"}, 3, "--player: nobody plays for no entrant"},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"event", "export", "demo-acwc-2023-1", "--db", db}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	code, out, _ := runCLI(t, "", "event", "export", "demo-acwc-2023-1", "--db", db, "--format", "markdown", "--what", "pairings", "--base-url", "https://arbiter.example/")
	if code != 0 || !strings.Contains(out, "](https://arbiter.example/events/demo-acwc-2023-1/matches/s1r2b1)") {
		t.Errorf("pairings post: exit %d\n%s", code, out)
	}
}
