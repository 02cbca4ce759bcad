package teamswiss

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/dutch"
)

// simOptions shape a random event.
type simOptions struct {
	teams, rounds int
	// secondary gives a team's secondary score for a round from its seed and
	// the set points it scored (nil: the set points).
	secondary func(seed int, setPoints arbiter.Points) arbiter.Points
	// doubleForfeitDraw scores a double forfeit as a draw (A5) instead of a
	// loss (R5).
	doubleForfeitDraw bool
}

// randomEvent returns an event with seeds and ratings, an optional club
// pair, random initial colour and bye value.
func randomEvent(rng *rand.Rand, o simOptions) *Event {
	ev := &Event{Points: DefaultPoints(), TotalRounds: o.rounds, InitialColour: White}
	if rng.IntN(2) == 0 {
		ev.InitialColour = Black
	}
	if rng.IntN(3) == 0 {
		ev.Points.Bye = ev.Points.Draw
	}
	for i := range o.teams {
		ev.Teams = append(ev.Teams, Team{ID: fmt.Sprintf("T%02d", i+1), Seed: i + 1})
	}
	if rng.IntN(2) == 0 {
		a, b := rng.IntN(o.teams), rng.IntN(o.teams)
		if a != b {
			ev.Forbidden = []ForbiddenGroup{{Teams: []string{ev.Teams[a].ID, ev.Teams[b].ID}}}
		}
	}
	return ev
}

// playRound records random results for p: mostly played matches (set
// points out of 720 as in R10), some forfeits and double forfeits.
func playRound(rng *rand.Rand, ev *Event, p *Pairing, o simOptions) {
	sec := func(id string, sp arbiter.Points) arbiter.Points {
		if o.secondary == nil {
			return sp
		}
		return o.secondary(ev.team(id).Seed, sp)
	}
	var ms []match
	for _, b := range p.Boards {
		m := match{home: b.Home, away: b.Away}
		switch x := rng.IntN(100); {
		case x < 4:
			m.res = Forfeit
			m.homeMP, m.homeSec, m.awaySec = 100, 72000, 0
			if rng.IntN(2) == 0 {
				m.homeMP, m.homeSec, m.awaySec = 0, 0, 72000
			}
			m.awayMP = 100 - m.homeMP
		case x < 8:
			m.res = DoubleForfeit
			if o.doubleForfeitDraw {
				m.homeMP, m.awayMP = 50, 50
			}
		default:
			sp := arbiter.Points(rng.IntN(721)) * 100
			switch {
			case sp > 36000:
				m.homeMP = 100
			case sp == 36000:
				m.homeMP, m.awayMP = 50, 50
			default:
				m.awayMP = 100
			}
			m.homeSec, m.awaySec = sp, 72000-sp
		}
		m.homeSec, m.awaySec = sec(m.home, m.homeSec), sec(m.away, m.awaySec)
		ms = append(ms, m)
	}
	ev.addRound(p.Bye, ms...)
	if p.Bye != "" {
		r := &ev.team(p.Bye).Rounds
		(*r)[len(*r)-1].Secondary = sec(p.Bye, 36000)
	}
	// A few teams withdraw for the rest of the event.
	for i := range ev.Teams {
		if rng.IntN(40) == 0 {
			ev.Teams[i].Withdrawn = true
		}
	}
}

// TestPropertyRandomEvents pairs random 10-20-team events over 5-8 rounds
// and checks the absolute rules on every round.
func TestPropertyRandomEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	failed, rounds, byes, withdrawn, forfeits := 0, 0, 0, 0, 0
	const events = 60
	for e := range events {
		o := simOptions{teams: 10 + rng.IntN(11), rounds: 5 + rng.IntN(4), doubleForfeitDraw: e%2 == 1}
		ev := randomEvent(rng, o)
		for r := 1; r <= o.rounds; r++ {
			p, err := Pair(ev)
			if arbiter.ErrorCode(err) == arbiter.ENOPAIRING {
				failed++
				break
			}
			if err != nil {
				t.Fatalf("event %d round %d: %v", e, r, err)
			}
			checkRound(t, fmt.Sprintf("event %d round %d", e, r), ev, p)
			rounds++
			if p.Bye != "" {
				byes++
			}
			for _, tm := range ev.Teams {
				withdrawn += b2i(tm.Withdrawn)
				for _, rd := range tm.Rounds {
					forfeits += b2i(rd.Result == Forfeit || rd.Result == DoubleForfeit)
				}
			}
			playRound(rng, ev, p, o)
		}
	}
	// The generator must exercise what the checks are about.
	if rounds < events*5 || byes < 50 || withdrawn < 50 || forfeits < 50 {
		t.Errorf("weak sample: %d rounds, %d byes, %d withdrawn team-rounds, %d forfeited team-rounds", rounds, byes, withdrawn, forfeits)
	}
	t.Logf("%d rounds paired, %d byes, %d withdrawn team-rounds, %d forfeited team-rounds seen", rounds, byes, withdrawn, forfeits)
	// A complete pairing exists in practice at these sizes; a rare failure
	// (C3 plus forbidden pairs late in a small field) would show here.
	if failed > 0 {
		t.Errorf("%d of %d events hit a round without a valid pairing", failed, events)
	}
}

// checkRound checks p against the event's history: every present team
// exactly once, withdrawn teams never, one PAB exactly when the number of
// present teams is odd and never twice nor after a forfeit win, no rematch of
// a played match, forbidden pairs apart, and colour differences within 2
// (3 for topscorers in the last round, C.04.3 C3).
func checkRound(t *testing.T, where string, ev *Event, p *Pairing) {
	t.Helper()
	seen := map[string]int{}
	present := 0
	for _, tm := range ev.Teams {
		if !tm.Withdrawn {
			present++
		}
	}
	for _, b := range p.Boards {
		seen[b.Home]++
		seen[b.Away]++
	}
	if p.Bye != "" {
		seen[p.Bye]++
	}
	if (p.Bye != "") != (present%2 == 1) {
		t.Errorf("%s: bye %q with %d present teams", where, p.Bye, present)
	}
	for _, tm := range ev.Teams {
		want := 1
		if tm.Withdrawn {
			want = 0
		}
		if seen[tm.ID] != want {
			t.Errorf("%s: team %q (withdrawn %v) appears %d times", where, tm.ID, tm.Withdrawn, seen[tm.ID])
		}
	}
	if p.Bye != "" {
		for r, rd := range ev.team(p.Bye).Rounds {
			if rd.Result == Bye || (rd.Result == Forfeit && rd.MatchPoints == ev.Points.Win) {
				t.Errorf("%s: PAB to %q, who had a %s in round %d", where, p.Bye, rd.Result, r+1)
			}
		}
	}
	last := len(ev.Teams[0].Rounds)+1 == ev.TotalRounds
	for _, b := range p.Boards {
		h, a := ev.team(b.Home), ev.team(b.Away)
		for r, rd := range h.Rounds {
			if rd.Opponent == a.ID && rd.Result == Played {
				t.Errorf("%s: rematch %s-%s of round %d", where, h.ID, a.ID, r+1)
			}
		}
		for _, fg := range ev.Forbidden {
			if contains(fg.Teams, h.ID) && contains(fg.Teams, a.ID) {
				t.Errorf("%s: forbidden pair %s-%s", where, h.ID, a.ID)
			}
		}
		for _, side := range []struct {
			tm    *Team
			white bool
		}{{h, true}, {a, false}} {
			cd, score := 0, arbiter.Points(0)
			for _, rd := range side.tm.Rounds {
				score += rd.MatchPoints
				if rd.Result == Played {
					cd += b2i(rd.White) - b2i(!rd.White)
				}
			}
			cd += b2i(side.white) - b2i(!side.white)
			topscorer := score*2 > arbiter.Points(len(side.tm.Rounds))*ev.Points.Win
			if cd > 2 || cd < -2 {
				if !last || !topscorer || cd > 3 || cd < -3 {
					t.Errorf("%s: team %q gets colour difference %d (last round %v, topscorer %v)", where, side.tm.ID, cd, last, topscorer)
				}
			}
		}
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestConsistencyWithDutch: when the secondary score orders every
// scoregroup as the seeds do, the team pairing is exactly the Dutch engine's
// pairing of the teams with their seeds as pairing numbers.
func TestConsistencyWithDutch(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2026))
	compared := 0
	defer func() {
		if compared < 150 {
			t.Errorf("only %d rounds compared", compared)
		}
	}()
	for e := range 40 {
		o := simOptions{teams: 4 + rng.IntN(17), rounds: 5 + rng.IntN(4), doubleForfeitDraw: e%2 == 0}
		n := o.teams
		if e%3 == 0 {
			// No secondary score at all: the seeds decide.
			o.secondary = func(int, arbiter.Points) arbiter.Points { return 0 }
		} else {
			// Every round adds more for a better seed, so the totals are
			// distinct and in seed order.
			o.secondary = func(seed int, _ arbiter.Points) arbiter.Points { return arbiter.Points(n + 1 - seed) }
		}
		ev := randomEvent(rng, o)
		for r := 1; r <= o.rounds; r++ {
			got, err := Pair(ev)
			want, werr := pairDirect(ev)
			where := fmt.Sprintf("event %d round %d", e, r)
			if (err == nil) != (werr == nil) {
				t.Fatalf("%s: teamswiss err %v, dutch err %v", where, err, werr)
			}
			if err != nil {
				break
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s: teamswiss differs from the Dutch engine on seeds (-dutch +teamswiss):\n%s", where, d)
			}
			compared++
			playRound(rng, ev, got, o)
		}
	}
}

// pairDirect maps the event onto the Dutch engine the plain way (pairing
// number = seed, no re-ranking) and pairs it.
func pairDirect(ev *Event) (*Pairing, error) {
	idx := map[string]int{}
	for i, tm := range ev.Teams {
		idx[tm.ID] = i
	}
	pts := ev.Points
	initial := pairing.White
	if ev.InitialColour == Black {
		initial = pairing.Black
	}
	t := &pairing.Tournament{PlayedRounds: len(ev.Teams[0].Rounds), TotalRounds: ev.TotalRounds, InitialColour: initial,
		Points: pairing.PointSystem{Win: pts.Win, Draw: pts.Draw, Loss: pts.Loss, ZeroBye: pts.Loss, ForfeitLoss: pts.Loss, PairingBye: pts.Bye}}
	for _, tm := range ev.Teams {
		p := pairing.Player{ID: tm.Seed, Absent: tm.Withdrawn}
		for _, rd := range tm.Rounds {
			g := pairing.Game{Opponent: -1}
			switch rd.MatchPoints {
			case pts.Win:
				g.Outcome = pairing.Win
			case pts.Draw:
				g.Outcome = pairing.Draw
			}
			switch rd.Result {
			case Bye:
				g = pairing.Game{Opponent: -1, Outcome: pairing.Win, Paired: true}
			case Played:
				g.Opponent, g.Played, g.Paired, g.Colour = idx[rd.Opponent], true, true, pairing.Black
				if rd.White {
					g.Colour = pairing.White
				}
			case Forfeit, DoubleForfeit:
				g.Opponent, g.Paired = idx[rd.Opponent], true
			}
			p.Games = append(p.Games, g)
			p.Score += rd.MatchPoints
		}
		t.Players = append(t.Players, p)
	}
	for _, fg := range ev.Forbidden {
		g := pairing.ForbiddenGroup{FirstRound: fg.FirstRound, LastRound: fg.LastRound}
		for _, id := range fg.Teams {
			g.Players = append(g.Players, idx[id])
		}
		t.Forbidden = append(t.Forbidden, g)
	}
	pairs, err := dutch.Pair(t)
	if err != nil {
		return nil, err
	}
	out := &Pairing{Round: t.PlayedRounds + 1, Boards: []Board{}}
	for _, pr := range pairs {
		if pr.Black < 0 {
			out.Bye = ev.Teams[pr.White].ID
			continue
		}
		out.Boards = append(out.Boards, Board{Home: ev.Teams[pr.White].ID, Away: ev.Teams[pr.Black].ID})
	}
	return out, nil
}

// benchEvent plays a random event of n teams up to its last round.
func benchEvent(b *testing.B, n, rounds int) *Event {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	o := simOptions{teams: n, rounds: rounds}
	ev := randomEvent(rng, o)
	ev.Forbidden = nil
	for range rounds - 1 {
		p, err := Pair(ev)
		if err != nil {
			b.Fatal(err)
		}
		playRound(rng, ev, p, o)
	}
	return ev
}

// BenchmarkPairLastRound pairs the last round of a random team Swiss.
func BenchmarkPairLastRound(b *testing.B) {
	for _, size := range []struct{ teams, rounds int }{{20, 8}, {64, 9}} {
		b.Run(fmt.Sprintf("teams=%d/rounds=%d", size.teams, size.rounds), func(b *testing.B) {
			ev := benchEvent(b, size.teams, size.rounds)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Pair(ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
