package odds

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// smallSwiss is a format of an 8-player, 4-round Swiss whose top 4 play a
// knockout: the ACWC's match (10 games of 1+2, ended once decided) and
// Swiss tiebreaks.
const smallSwiss = `{
  "name": "small-swiss", "title": "Small Swiss", "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "deadline": {"day": "sunday", "time": "23:59"}},
  "stages": [
    {"name": "swiss", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 4}, "advance": {"fixed": 4},
     "tiebreaks": ["cumulative", "wins_vs_tied", "median_buchholz"],
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
       "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "knockout", "kind": "knockout", "pairing": "bracket", "seeding": "standings",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
       "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss",
       "tie": [{"kind": "armageddon"}]}}
  ],
  "armageddon": {"black": "3+0", "black_draw_odds": true, "equal_bids": "coin_flip"}
}`

func smallEvent(tb testing.TB) *Input {
	tb.Helper()
	f, err := format.Load(strings.NewReader(smallSwiss))
	if err != nil {
		tb.Fatal(err)
	}
	ev := arbiter.Event{Slug: "small", Status: arbiter.EventRunning, Format: f.Name, Entrants: 8, InitialColour: "white",
		Stages: []arbiter.Stage{
			{Name: "swiss", Kind: "swiss", Pairing: "dutch", Entrants: 8, Rounds: 4, Advance: 4, Tiebreak: f.Stages[0].Tiebreaks},
			{Name: "knockout", Kind: "knockout", Pairing: "bracket", Entrants: 4, Rounds: 2},
		}}
	in := &Input{Format: f, Event: ev}
	for i := range 8 {
		// Ratings close enough that every result of the last round is
		// likely enough to be sampled.
		in.Entrants = append(in.Entrants, arbiter.Entrant{ID: string(rune('a' + i)), Name: string(rune('A' + i)),
			Rating: 2000 - 40*i, Seed: i + 1, Kind: arbiter.EntrantPlayer, Status: arbiter.EntrantApproved})
	}
	return in
}

// matchClasses are the exact chances that a 10-game match ends in a home
// win, a draw or an away win under the game model (the early end does not
// change who wins): every split of the 10 games into wins, draws and
// losses, weighted by the multinomial.
func matchClasses(g gameOdds) [3]float64 {
	loss := 1 - g.win - g.draw
	var out [3]float64
	fact := func(n int) float64 {
		f := 1.0
		for i := 2; i <= n; i++ {
			f *= float64(i)
		}
		return f
	}
	for w := 0; w <= 10; w++ {
		for d := 0; w+d <= 10; d++ {
			l := 10 - w - d
			p := fact(10) / (fact(w) * fact(d) * fact(l)) * math.Pow(g.win, float64(w)) * math.Pow(g.draw, float64(d)) * math.Pow(loss, float64(l))
			switch pts := 2*w + d; {
			case pts > 10:
				out[0] += p
			case pts == 10:
				out[1] += p
			default:
				out[2] += p
			}
		}
	}
	return out
}

// enumerationSeed plays the first three rounds into a state where the
// last round decides much: several players between 5% and 95%.
var enumerationSeed uint64 = 5

// One round left, 8 players: every combination of the last round's four
// results is enumerated, the standings computed for each, and a tie
// across the cut shared by lot; the chances of the top 4 so obtained are
// the simulation's within its error.
func TestSimulationMatchesEnumeration(t *testing.T) {
	t.Parallel()
	in := smallEvent(t)
	playTo(t, in, 0, 3, enumerationSeed)
	p, err := prepare(in, Options{Sims: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.before(); err != nil {
		t.Fatal(err)
	}
	last := p.predicted
	if len(last) != 4 {
		t.Fatalf("the last round has %d matches, want 4", len(last))
	}
	rate := p.rates["1+2"].Rate
	exact := map[string]float64{}
	ids := p.stageIDs(0, nil)
	for c := range 81 {
		prob := 1.0
		round := make([]arbiter.Match, len(last))
		copy(round, last)
		k := c
		for i := range round {
			m := &round[i]
			cls := matchClasses(oddsOf(p.rating(m.Home), p.rating(m.Away), rate))
			r := k % 3
			k /= 3
			prob *= cls[r]
			o := &arbiter.Outcome{Decision: "played"}
			switch r {
			case 0:
				o.Result, o.Home, o.Away = "home_win", arbiter.SideScore{MatchPoints: 100, Points: 600, GamesWon: 6}, arbiter.SideScore{Points: 400, GamesWon: 4}
			case 1:
				o.Result, o.Home, o.Away = "draw", arbiter.SideScore{MatchPoints: 50, Points: 500, GamesWon: 5}, arbiter.SideScore{MatchPoints: 50, Points: 500, GamesWon: 5}
			default:
				o.Result, o.Home, o.Away = "away_win", arbiter.SideScore{Points: 400, GamesWon: 4}, arbiter.SideScore{MatchPoints: 100, Points: 600, GamesWon: 6}
			}
			m.Result, m.Status = o, arbiter.MatchFinal
		}
		rounds := append(append([][]arbiter.Match(nil), p.played...), round)
		tbl, err := standings.EventStage(p.ev.Stages, 0, p.entrantsOf(ids), rounds, "", p.f.Stages[0].Match.Scoring(1))
		if err != nil {
			t.Fatal(err)
		}
		// The top 4; a group tied across the cut shares its places.
		for lo := 0; lo < len(tbl.Rows); {
			hi := lo + 1
			for hi < len(tbl.Rows) && tbl.Rows[hi].Rank == tbl.Rows[lo].Rank {
				hi++
			}
			in := max(0, min(hi, 4)-lo)
			for _, r := range tbl.Rows[lo:hi] {
				exact[r.ID] += prob * float64(in) / float64(hi-lo)
			}
			lo = hi
		}
	}
	const sims = 20000
	res, err := Run(in, Options{Sims: sims, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bands[0].ID != "knockout" {
		t.Fatalf("first band %s", res.Bands[0].ID)
	}
	sum := 0.0
	for _, e := range res.Entrants {
		want, got := exact[e.Entrant], e.Qualify
		sum += want
		sigma := math.Sqrt(want*(1-want)/sims) + 1.0/sims
		t.Logf("%s: simulated %.4f, enumerated %.4f (%s)", e.Entrant, got, want, e.Bands[0].Exact)
		if math.Abs(got-want) > 4*sigma {
			t.Errorf("%s: simulated %.4f, enumerated %.4f (4 sigma = %.4f)", e.Entrant, got, want, 4*sigma)
		}
		if e.Bands[0].Exact == Clinched && want < 1-1e-12 || e.Bands[0].Exact == Eliminated && want > 1e-12 {
			t.Errorf("%s: exact check %s, enumeration %v", e.Entrant, e.Bands[0].Exact, want)
		}
	}
	if math.Abs(sum-4) > 1e-9 {
		t.Errorf("enumerated chances add up to %v", sum)
	}
}

// The exact verdicts agree with every run: a clinched entrant reaches the
// band in all of them, an eliminated one in none; so do the verdicts after
// each result of the next match with the runs that had that result.
func TestExactAgreesWithRuns(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 3))
	cases := []struct {
		preset        string
		n             int
		stage, rounds int
	}{
		{"acwc-2023", 24, 0, 5},
		{"acwc-2023", 24, 0, 6},
		{"acwc-2023", 16, 1, 7},
		{"acwc-2023", 16, 1, 9},
		{"antichess-team-cup", 12, 0, 6},
		{"rkcc-team-three-tc", 8, 0, 4},
	}
	for _, c := range cases {
		in := newEvent(t, c.preset, c.n)
		playTo(t, in, c.stage, c.rounds, rng.Uint64())
		p, err := prepare(in, Options{Sims: 300, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.before(); err != nil {
			t.Fatal(err)
		}
		tl, err := p.simulateAll()
		if err != nil {
			t.Fatal(err)
		}
		ex := p.exact(nil, nil, false)
		decided := 0
		for i, e := range p.ents {
			for b := range p.bands {
				switch ex[i][b] {
				case Clinched:
					decided++
					if tl.bands[i][b] != tl.runs {
						t.Errorf("%s %d/%d: %s clinched %s but reached it in %d of %d runs", c.preset, c.stage, c.rounds, e.ID, p.bands[b].ID, tl.bands[i][b], tl.runs)
					}
				case Eliminated:
					decided++
					if tl.bands[i][b] != 0 {
						t.Errorf("%s %d/%d: %s eliminated from %s but reached it in %d runs", c.preset, c.stage, c.rounds, e.ID, p.bands[b].ID, tl.bands[i][b])
					}
				}
			}
		}
		// The same after each result of the next match.
		nexts := p.nextMatches()
		for i, e := range p.ents {
			nx := nexts[i]
			if nx == nil {
				continue
			}
			id := p.nextMatchID(i, nx)
			if id == "" {
				continue
			}
			for k, res := range []string{Win, Draw, Loss} {
				ct := tl.cond[i][k]
				if ct.runs == 0 {
					continue
				}
				ex := p.exactIf(i, id, res, nx.Predicted)
				for b := range p.bands {
					switch ex[b] {
					case Clinched:
						decided++
						if ct.bands[b] != ct.runs {
							t.Errorf("%s: after a %s %s clinched %s but reached it in %d of %d runs", c.preset, res, e.ID, p.bands[b].ID, ct.bands[b], ct.runs)
						}
					case Eliminated:
						decided++
						if ct.bands[b] != 0 {
							t.Errorf("%s: after a %s %s is out of %s but reached it in %d runs", c.preset, res, e.ID, p.bands[b].ID, ct.bands[b])
						}
					}
				}
			}
		}
		t.Logf("%s stage %d after round %d: %d verdicts", c.preset, c.stage, c.rounds, decided)
	}
}
