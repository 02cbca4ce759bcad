package browsertest

import (
	"context"
	"slices"
	"testing"
	"time"

	"arbiter"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
	"arbiter/web"
)

// TestTDSeesLichessImport (ACWC preset, W2; docs/lichess.md): p01 and
// p07 played two games on (the fake) Lichess themselves, one in the
// format's 1+2 and one in 3+0; the import (through app, as a job would)
// counts the first and flags the second. The local TD follows the
// console's link to the match's review page and reads the last import:
// when it ran, what it found, why the sheet was not entered, and each
// finding with a link to its game.
func TestTDSeesLichessImport(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC))
	seedACWC(t, s) // p01 v p07 on board 1; the clock on Monday 10:00
	fl := lichesstest.Start(t, lichesstest.Options{Seed: 1, Now: s.clock.Now, AutoUsers: true})
	fl.AddToken("lip_org", "organiser", lichesstest.AllScopes...)
	s.App.SetLichess(fl.Client(t, "lip_org", lichesstest.NewClock(s.clock.Now())))
	game := func(id string, at time.Time, clock lichess.Clock) lichess.Game {
		return lichess.Game{ID: id, Rated: true, Variant: lichess.VariantAntichess, Status: "variantEnd", Winner: "white",
			White: lichess.GamePlayer{UserID: "p01"}, Black: lichess.GamePlayer{UserID: "p07"}, Clock: &clock, CreatedAt: at}
	}
	mon := time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC)
	fl.AddGames(game("BrwGame1", mon, lichess.Clock{Initial: 60, Increment: 2}), game("BrwGame2", mon.Add(10*time.Minute), lichess.Clock{Initial: 180}))
	s.clock.Set(mon.Add(time.Hour))
	_, err := s.App.ImportMatch(context.Background(), arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}, "wc", "s1r1b1")
	noErr(t, err)

	td := s.tab(t, "td", "")
	td.signInTD("/events/wc/td")
	td.click(`a[href="/events/wc/td/matches/s1r1b1"]`)
	if h := td.text("#import-h"); h != "Imported from Lichess" {
		t.Fatalf("heading %q%s", h, td.where())
	}
	if got, want := td.text(`[data-test="lichess-import"]`), "Imported Mon 20 Mar 2023 11:00 UTC: 2 games found; not entered: the TD looks at the findings first."; got != want {
		t.Fatalf("import %q, want %q%s", got, want, td.where())
	}
	// ACWC's match is 10 games of 1+2 (W2): the 3+0 game is left out and
	// nine are missing.
	want := []string{"game BrwGame2 was played in 3+0, which is not a clock of this pair's parts (BrwGame2)",
		"1+2: p01 v p07: Lichess shows 1 of the 10 games in 1+2"}
	if got := td.texts(`[data-test="import-finding"]`); !slices.Equal(got, want) {
		t.Fatalf("findings %q,\nwant %q%s", got, want, td.where())
	}
	if !td.has(`[data-test="import-finding"] a[href="https://lichess.org/BrwGame2"]`) {
		t.Fatalf("no link to the 3+0 game%s", td.where())
	}
}
