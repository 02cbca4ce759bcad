package odds

import (
	"math"
	"math/rand/v2"
	"testing"

	"arbiter"
	"arbiter/format"
)

var acwcPoints = format.MatchPoints{Win: 100, Draw: 50, Loss: 0}

// matchings lists every way to pair the players (one sits out, -1, when
// they are odd in number).
func matchings(players []int) [][][2]int {
	if len(players) == 0 {
		return [][][2]int{nil}
	}
	var out [][][2]int
	if len(players)%2 == 1 {
		for i, bye := range players {
			rest := append(append([]int(nil), players[:i]...), players[i+1:]...)
			for _, m := range matchings(rest) {
				out = append(out, append([][2]int{{bye, -1}}, m...))
			}
		}
		return out
	}
	a := players[0]
	for i := 1; i < len(players); i++ {
		rest := append(append([]int(nil), players[1:i]...), players[i+1:]...)
		for _, m := range matchings(rest) {
			out = append(out, append([][2]int{{a, players[i]}}, m...))
		}
	}
	return out
}

// truth enumerates every pairing of the free rounds and every result of
// every match: can each player still make the places (ties in its
// favour), can it still miss them (ties against it)?
func truth(g *group) (canMake, canMiss []bool) {
	n := len(g.ids)
	canMake, canMiss = make([]bool, n), make([]bool, n)
	var players []int
	for i := range n {
		players = append(players, i)
	}
	ms := matchings(players)
	var rounds func(sc []arbiter.Points, left int)
	judge := func(sc []arbiter.Points) {
		for x := range n {
			ahead, level := 0, 0
			for y := range n {
				switch {
				case y == x:
				case sc[y] > sc[x]:
					ahead++
				case sc[y] == sc[x]:
					level++
				}
			}
			if ahead < g.places {
				canMake[x] = true
			}
			if ahead+level >= g.places {
				canMiss[x] = true
			}
		}
	}
	// results plays every result of the matches from k on.
	var results func(sc []arbiter.Points, ms [][2]int, k int, then func([]arbiter.Points))
	results = func(sc []arbiter.Points, ms [][2]int, k int, then func([]arbiter.Points)) {
		if k == len(ms) {
			then(sc)
			return
		}
		a, b := ms[k][0], ms[k][1]
		if b < 0 {
			sc[a] += g.mp.Win
			results(sc, ms, k+1, then)
			sc[a] -= g.mp.Win
			return
		}
		for _, split := range [][2]arbiter.Points{{g.mp.Win, g.mp.Loss}, {g.mp.Draw, g.mp.Draw}, {g.mp.Loss, g.mp.Win}} {
			sc[a] += split[0]
			sc[b] += split[1]
			results(sc, ms, k+1, then)
			sc[a] -= split[0]
			sc[b] -= split[1]
		}
	}
	rounds = func(sc []arbiter.Points, left int) {
		if left == 0 {
			judge(sc)
			return
		}
		for _, m := range ms {
			results(sc, m, 0, func(sc []arbiter.Points) { rounds(sc, left-1) })
		}
	}
	sc := append([]arbiter.Points(nil), g.score...)
	known := append(append([][2]int(nil), g.pairs...), g.multi...)
	results(sc, known, 0, func(sc []arbiter.Points) { rounds(sc, g.free) })
	return canMake, canMiss
}

// randomGroup is a small field: scores in half points, maybe a paired
// round, maybe rounds still to pair, maybe matches of a round robin.
func randomGroup(rng *rand.Rand) *group {
	n := 3 + rng.IntN(4)
	g := &group{mp: acwcPoints, places: 1 + rng.IntN(n-1)}
	for i := range n {
		g.ids = append(g.ids, string(rune('a'+i)))
		g.entrant = append(g.entrant, i)
		g.score = append(g.score, arbiter.Points(rng.IntN(7))*50)
		g.active = append(g.active, true)
	}
	switch rng.IntN(3) {
	case 0: // a paired round, then maybe free rounds
		perm := rng.Perm(n)
		for i := 0; i+1 < n; i += 2 {
			g.pairs = append(g.pairs, [2]int{perm[i], perm[i+1]})
		}
		g.free = rng.IntN(2)
	case 1: // free rounds only
		g.free = 1 + rng.IntN(2)
	default: // a round robin's last matches
		for range 1 + rng.IntN(6) {
			a, b := rng.IntN(n), rng.IntN(n)
			if a != b {
				g.multi = append(g.multi, [2]int{a, b})
			}
		}
	}
	return g
}

// The exact check never claims what some pairing and results of the rest
// contradict: checked against every pairing of every free round and every
// result of every match, on random small fields. It also reports how
// often it decides what the brute force can decide.
func TestExactIsSound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 1))
	decided, decidable := 0, 0
	for trial := range 400 {
		g := randomGroup(rng)
		if g.free == 2 && len(g.ids) > 5 {
			g.free = 1 // 6 players, 2 free rounds: too many to enumerate quickly
		}
		canMake, canMiss := truth(g)
		var em, es []bool
		if len(g.multi) > 0 && g.free == 0 {
			em, es = g.enumerate()
		}
		for x := range g.ids {
			c, e := g.clinched(x), g.eliminated(x)
			if c && canMiss[x] {
				t.Fatalf("trial %d: %s clinched but can miss: %+v", trial, g.ids[x], g)
			}
			if e && canMake[x] {
				t.Fatalf("trial %d: %s eliminated but can make it: %+v", trial, g.ids[x], g)
			}
			if em != nil && (em[x] != canMake[x] || es[x] != canMiss[x]) {
				t.Fatalf("trial %d: enumeration %v/%v, brute force %v/%v", trial, em[x], es[x], canMake[x], canMiss[x])
			}
			if !canMiss[x] || !canMake[x] {
				decidable++
				if c || e {
					decided++
				}
			}
		}
	}
	t.Logf("the relaxed check decides %d of %d decidable cases", decided, decidable)
	if decided < decidable/2 {
		t.Errorf("the check decides only %d of %d decidable cases", decided, decidable)
	}
}

// With one round left and paired, the check is exact: each player's
// verdict is the brute force's.
func TestExactLastRoundPaired(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 300 {
		n := 2 * (2 + rng.IntN(3))
		g := &group{mp: acwcPoints, places: 1 + rng.IntN(n-1)}
		for i := range n {
			g.ids = append(g.ids, string(rune('a'+i)))
			g.entrant = append(g.entrant, i)
			g.score = append(g.score, arbiter.Points(rng.IntN(6))*50)
			g.active = append(g.active, true)
		}
		perm := rng.Perm(n)
		for i := 0; i < n; i += 2 {
			g.pairs = append(g.pairs, [2]int{perm[i], perm[i+1]})
		}
		canMake, canMiss := truth(g)
		for x := range g.ids {
			if g.clinched(x) != !canMiss[x] || g.eliminated(x) != !canMake[x] {
				t.Fatalf("trial %d: %s clinched %v eliminated %v, brute force can make %v can miss %v: %+v",
					trial, g.ids[x], g.clinched(x), g.eliminated(x), canMake[x], canMiss[x], g)
			}
		}
	}
}

// A hand case: the ACWC Swiss with one round to pair, top 2 advance.
// Match points a 4.5, b 4, c 3, d 2.5, e 2, f 1.5. Losing the last round,
// a stays on 4.5 and only b can reach it: clinched. b on 4 can be caught
// by c (4) while a stays ahead: open. Winning it, d reaches 3.5 with a
// and b already above: eliminated, as are e and f; c can reach 4, level
// with b if b loses: open.
func TestExactHandCase(t *testing.T) {
	t.Parallel()
	g := &group{mp: acwcPoints, places: 2, free: 1}
	for i, s := range []arbiter.Points{450, 400, 300, 250, 200, 150} {
		g.ids = append(g.ids, string(rune('a'+i)))
		g.entrant = append(g.entrant, i)
		g.score = append(g.score, s)
		g.active = append(g.active, true)
	}
	want := []string{Clinched, "", "", Eliminated, Eliminated, Eliminated}
	out := make([]string, 6)
	g.decide(out, nil)
	for i := range want {
		if out[i] != want[i] {
			t.Errorf("%s: %q, want %q", g.ids[i], out[i], want[i])
		}
	}
}

// In the knockout the bracket decides: after the semifinals the two
// losers cannot win the title, the finalists are still open, and a
// third-place match changes nothing of it.
func TestExactKnockout(t *testing.T) {
	t.Parallel()
	in := newEvent(t, "acwc-2023", 16)
	playTo(t, in, 2, 1, 4)
	res, err := Run(in, Options{Sims: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Bands) != 1 || res.Bands[0].ID != "title" {
		t.Fatalf("bands %+v", res.Bands)
	}
	losers := map[string]bool{}
	winners := map[string]bool{}
	for _, m := range in.Matches {
		if m.Stage == 2 && m.Round == 1 {
			switch m.Result.Result {
			case "home_win":
				winners[m.Home], losers[m.Away] = true, true
			case "away_win":
				winners[m.Away], losers[m.Home] = true, true
			}
		}
	}
	if len(losers) != 2 || len(winners) != 2 {
		t.Fatalf("semifinals: winners %v losers %v", winners, losers)
	}
	sum := 0.0
	for _, e := range res.Entrants {
		c := e.Bands[0]
		switch {
		case winners[e.Entrant]:
			if c.Exact != "" || c.P <= 0 || c.P >= 1 {
				t.Errorf("finalist %s: %+v", e.Entrant, c)
			}
			sum += c.P
		case c.Exact != Eliminated:
			t.Errorf("%s is out of the final but not eliminated: %+v", e.Entrant, c)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("the finalists' chances add up to %v", sum)
	}
}
