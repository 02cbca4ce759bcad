package lichesstest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// The cost of a round on Lichess with the client's real pacing (one
// request at a time, a second between request starts, a minute after a
// 429), measured on a virtual clock against the fake, which answers at
// once: the pacing is what counts. paced-s/op is the time the client
// spends, requests/op what it asks.
//
//	go test -run '^$' -bench Round -benchtime 1x ./lichess/lichesstest/

type round struct {
	name      string
	matches   int
	boards    int // pairs of players per match
	games     int // games per pair
	clock     lichess.Clock
	variant   string
	bulkGames int // games per bulk pairing (each player once): the pairs of the round
}

var (
	acwcRound = round{name: "ACWC 40 players", matches: 20, boards: 1, games: 10, clock: lichess.Clock{Initial: 60, Increment: 2},
		variant: lichess.VariantAntichess}
	cupRound = round{name: "antichess cup 12 teams", matches: 6, boards: 4, games: 18, clock: lichess.Clock{Initial: 0, Increment: 2},
		variant: lichess.VariantAntichess}
)

type measure struct {
	requests int
	paced    time.Duration
}

// setupRound seeds the players (p<match>-<board>h / a) and the tokens.
func setupRound(b *testing.B, r round) (*lichesstest.Fake, *lichess.Client, *lichesstest.Clock) {
	clk := lichesstest.NewClock(time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC))
	f := lichesstest.Start(b, lichesstest.Options{Seed: 1, Now: clk.Now})
	for m := range r.matches {
		for bd := range r.boards {
			for _, side := range []string{"h", "a"} {
				name := fmt.Sprintf("p%d-%d%s", m, bd, side)
				f.AddPlayer(name, lichess.PerfAntichess, 1500, 1800)
				f.AddToken("lip_"+name, name, lichess.ScopeChallengeWrite)
			}
		}
	}
	f.AddToken("lip_org", "organiser", lichesstest.AllScopes...)
	c, err := lichess.New(lichess.Options{BaseURL: f.URL, Token: "lip_org", Time: clk})
	if err != nil {
		b.Fatal(err)
	}
	return f, c, clk
}

// step runs fn and measures what it cost.
func step(f *lichesstest.Fake, clk *lichesstest.Clock, fn func() error) (measure, error) {
	n, t := len(f.Log()), clk.Now()
	err := fn()
	return measure{requests: len(f.Log()) - n, paced: clk.Now().Sub(t)}, err
}

func pair(m, bd int) [2]string {
	return [2]string{fmt.Sprintf("p%d-%dh", m, bd), fmt.Sprintf("p%d-%da", m, bd)}
}

// openChallenges creates every game of the round as an open challenge.
func openChallenges(ctx context.Context, c *lichess.Client, r round) ([]string, error) {
	var ids []string
	for g := range r.games {
		for m := range r.matches {
			for bd := range r.boards {
				p := pair(m, bd)
				if g%2 == 1 {
					p[0], p[1] = p[1], p[0]
				}
				ch, err := c.OpenChallenge(ctx, lichess.OpenChallengeRequest{
					GameSettings: lichess.GameSettings{Rated: true, Clock: &r.clock, Variant: r.variant, Rules: []string{lichess.RuleNoRematch}},
					Name:         fmt.Sprintf("round 1 · match %d · board %d · game %d", m+1, bd+1, g+1), Users: p})
				if err != nil {
					return nil, err
				}
				ids = append(ids, ch.ID)
			}
		}
	}
	return ids, nil
}

// bulkPairings creates the round's games as bulk pairings, one per game
// number (a player is paired once per bulk with a real-time clock).
func bulkPairings(ctx context.Context, c *lichess.Client, r round) ([]string, error) {
	var ids []string
	for g := range r.games {
		var pairs []lichess.Pairing
		for m := range r.matches {
			for bd := range r.boards {
				p := pair(m, bd)
				if g%2 == 1 {
					p[0], p[1] = p[1], p[0]
				}
				pairs = append(pairs, lichess.Pairing{WhiteToken: "lip_" + p[0], BlackToken: "lip_" + p[1]})
			}
		}
		bp, err := c.CreateBulkPairing(ctx, lichess.BulkPairingRequest{Pairings: pairs,
			GameSettings: lichess.GameSettings{Rated: true, Clock: &r.clock, Variant: r.variant}})
		if err != nil {
			return nil, err
		}
		for _, bg := range bp.Games {
			ids = append(ids, bg.ID)
		}
	}
	return ids, nil
}

func benchRound(b *testing.B, r round, create func(context.Context, *lichess.Client, round) ([]string, error)) {
	ctx := context.Background()
	var mc, mi, mu measure
	for b.Loop() {
		f, c, clk := setupRound(b, r)
		var ids []string
		var err error
		if mc, err = step(f, clk, func() (err error) { ids, err = create(ctx, c, r); return err }); err != nil {
			b.Fatal(err)
		}
		if _, err := f.FinishAll(f.Random); err != nil {
			b.Fatal(err)
		}
		clk.Advance(time.Hour)
		// Import the games Arbiter created, by id (300 a request).
		mi, err = step(f, clk, func() error {
			gs, err := c.GamesByID(ctx, ids)
			if err == nil && len(gs) != len(ids) {
				err = fmt.Errorf("%d of %d games", len(gs), len(ids))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		// Or find them through the players' export, one request a pair.
		mu, err = step(f, clk, func() error {
			for m := range r.matches {
				for bd := range r.boards {
					p := pair(m, bd)
					gs, err := c.GamesBetween(ctx, p[0], p[1], clk.Now().Add(-24*time.Hour), clk.Now(), lichess.PerfAntichess)
					if err != nil {
						return err
					}
					if len(gs) != r.games {
						return fmt.Errorf("%v: %d games", p, len(gs))
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range f.Log() {
			if q.Status != 200 {
				b.Fatalf("%s %s answered %d: the pacing broke Lichess's rule", q.Method, q.Path, q.Status)
			}
		}
	}
	b.ReportMetric(float64(mc.requests), "create-requests/op")
	b.ReportMetric(mc.paced.Seconds(), "create-paced-s/op")
	b.ReportMetric(float64(mi.requests), "import-by-id-requests/op")
	b.ReportMetric(mi.paced.Seconds(), "import-by-id-paced-s/op")
	b.ReportMetric(float64(mu.requests), "import-by-user-requests/op")
	b.ReportMetric(mu.paced.Seconds(), "import-by-user-paced-s/op")
}

func BenchmarkRoundACWCOpenChallenges(b *testing.B) { benchRound(b, acwcRound, openChallenges) }
func BenchmarkRoundACWCBulk(b *testing.B)           { benchRound(b, acwcRound, bulkPairings) }
func BenchmarkRoundCupOpenChallenges(b *testing.B)  { benchRound(b, cupRound, openChallenges) }
func BenchmarkRoundCupBulk(b *testing.B)            { benchRound(b, cupRound, bulkPairings) }
