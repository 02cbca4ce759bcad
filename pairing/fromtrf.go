package pairing

import (
	"fmt"
	"sort"
	"strings"

	"arbiter"
	"arbiter/trf"
)

// FromTRF converts a parsed TRF file into the state before pairing the next
// round, with the conventions of bbpPairings' -p mode: the round to pair is
// the one after the last round in which anybody was paired; a player with an
// entry in that round's column (e.g. "0000 - H", "0000 - Z"), listed in XXZ,
// or given a 240 bye for that round is not paired; players who never took part
// in a pairing and have such an entry are left out entirely.
func FromTRF(f *trf.File) (*Tournament, error) {
	idx := map[int]int{}
	for i, p := range f.Players {
		if _, dup := idx[p.ID]; dup {
			return nil, arbiter.FieldError(fmt.Sprintf("players[%d].id", i), "TRF 001", "pairing number %d is repeated", p.ID)
		}
		idx[p.ID] = i
	}
	// Determine the number of rounds played.
	length := make([]int, len(f.Players)) // last non-blank round (1-based)
	participated := make([]bool, len(f.Players))
	played := 0
	for i, p := range f.Players {
		for r, rd := range p.Rounds {
			if blankRound(rd) {
				continue
			}
			length[i] = r + 1
			played = max(played, r)
			if paired(rd) {
				participated[i] = true
				played = max(played, r+1)
			}
		}
	}
	complete := len(f.Players) > 0
	for i := range f.Players {
		if length[i] <= played {
			complete = false
		}
	}
	if complete {
		played++
	}
	total := f.TotalRounds
	if total == 0 {
		return nil, arbiter.FieldError("XXR", "TRF XXR/142", "the total number of rounds must be given")
	}
	if played > total-1 {
		return nil, arbiter.FieldError("XXR", "TRF XXR/142", "%d rounds already played but the tournament has %d", played, total)
	}
	absent := map[int]bool{}
	for _, id := range f.Absent {
		absent[id] = true
	}
	for _, b := range f.Byes {
		if b.Round == played+1 {
			for _, id := range b.IDs {
				absent[id] = true
			}
		}
	}
	// Valid players, in pairing-number order.
	order := make([]int, 0, len(f.Players))
	for i := range f.Players {
		everPaired := false
		for r, rd := range f.Players[i].Rounds {
			if r < played && paired(rd) {
				everPaired = true
			}
		}
		// Never paired and absent in the round to pair, however the
		// absence is written (round column, XXZ, 240): left out, so that
		// such players do not count for the pairing numbers whose parity
		// gives the initial colour (C.04.3 5.2.5).
		if (length[i] <= played && !absent[f.Players[i].ID]) || participated[i] || everPaired {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Players[order[a]].ID < f.Players[order[b]].ID })
	t := &Tournament{PlayedRounds: played, TotalRounds: total}
	ps := f.PointSystem
	t.Points = PointSystem{Win: ps.Win, Draw: ps.Draw, Loss: ps.Loss, ZeroBye: ps.ZeroBye, ForfeitLoss: ps.ForfeitLoss, PairingBye: ps.PAB}
	local := map[int]int{} // ID -> index in t.Players
	for _, i := range order {
		local[f.Players[i].ID] = len(t.Players)
		t.Players = append(t.Players, Player{ID: f.Players[i].ID})
	}
	for _, i := range order {
		fp := &f.Players[i]
		p := &t.Players[local[fp.ID]]
		p.Absent = length[i] > played || absent[fp.ID]
		p.Games = make([]Game, played)
		for r := 0; r < played; r++ {
			g := Game{Opponent: -1}
			if r < len(fp.Rounds) {
				var err error
				g, err = gameOf(fp.Rounds[r], local)
				if err != nil {
					return nil, arbiter.FieldError(fmt.Sprintf("player %d round %d", fp.ID, r+1), "TRF 001", "%v", err)
				}
			}
			p.Games[r] = g
		}
	}
	// Pair consistency.
	for pi := range t.Players {
		p := &t.Players[pi]
		for r, g := range p.Games {
			if !g.Played {
				continue
			}
			og := t.Players[g.Opponent].Games[r]
			if !og.Played || og.Opponent != pi || og.Colour == g.Colour {
				return nil, arbiter.FieldError(fmt.Sprintf("player %d round %d", p.ID, r+1), "TRF 001",
					"the game contradicts the entry of player %d", t.Players[g.Opponent].ID)
			}
		}
	}
	if err := accelerations(f, t, local); err != nil {
		return nil, err
	}
	// Scores: recomputed from the games; the file's total may include the
	// acceleration of the round to pair.
	for _, i := range order {
		fp := &f.Players[i]
		p := &t.Players[local[fp.ID]]
		var sum arbiter.Points
		for _, g := range p.Games {
			sum += t.Points.For(g)
		}
		var acc arbiter.Points
		if played < len(p.Accelerations) {
			acc = p.Accelerations[played]
		}
		if fp.Points != sum && fp.Points-acc != sum {
			return nil, arbiter.FieldError(fmt.Sprintf("player %d points", fp.ID), "TRF 001 cols 81-84",
				"points %s do not match the results (%s)", fp.Points, sum)
		}
		p.Score = sum
	}
	for _, fb := range f.ForbiddenPairs {
		g := ForbiddenGroup{FirstRound: fb.FirstRound, LastRound: fb.LastRound}
		for _, id := range fb.IDs {
			if j, ok := local[id]; ok {
				g.Players = append(g.Players, j)
			}
		}
		t.Forbidden = append(t.Forbidden, g)
	}
	switch f.InitialColour {
	case 'w', 'W':
		t.InitialColour = White
	case 'b', 'B':
		t.InitialColour = Black
	default:
		t.InitialColour = inferInitialColour(t)
	}
	if t.InitialColour == NoColour {
		return nil, arbiter.FieldError("XXC", "TRF XXC/152", "the initial colour is not given and cannot be inferred")
	}
	return t, nil
}

func blankRound(rd trf.Round) bool {
	return rd.Opponent == 0 && (rd.Colour == '-' || rd.Colour == ' ' || rd.Colour == 0) && (rd.Result == ' ' || rd.Result == 0)
}

func paired(rd trf.Round) bool {
	r := upper(rd.Result)
	return rd.Opponent != 0 || r == 'U' || r == '+'
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func gameOf(rd trf.Round, local map[int]int) (Game, error) {
	g := Game{Opponent: -1}
	if rd.Opponent != 0 {
		j, ok := local[rd.Opponent]
		if !ok {
			return g, fmt.Errorf("unknown opponent %d", rd.Opponent)
		}
		g.Opponent = j
	}
	switch rd.Colour {
	case 'w', 'W':
		g.Colour = White
	case 'b', 'B':
		g.Colour = Black
	}
	res := upper(rd.Result)
	switch res {
	case 'D', '=', 'H':
		g.Outcome = Draw
	case '+', 'W', '1', 'F', 'U':
		g.Outcome = Win
	case '-', 'L', '0', 'Z', ' ', 0:
		g.Outcome = Loss
	default:
		return g, fmt.Errorf("unknown result code %q", rd.Result)
	}
	g.Played = g.Opponent >= 0 && g.Colour != NoColour && !strings.ContainsRune("+-HFUZ ", rune(res)) && res != 0
	g.Paired = g.Opponent >= 0 || res == 'U' || res == '+'
	return g, nil
}

// accelerations fills Player.Accelerations from XXA, 250 records or the Baku
// method named in record 192.
func accelerations(f *trf.File, t *Tournament, local map[int]int) error {
	manual := len(f.Accelerations) > 0 || len(f.AccelerationRanges) > 0
	for _, a := range f.Accelerations {
		if j, ok := local[a.Player]; ok {
			t.Players[j].Accelerations = append([]arbiter.Points(nil), a.Points...)
		}
	}
	for _, ar := range f.AccelerationRanges {
		for id := ar.FirstID; id <= ar.LastID; id++ {
			j, ok := local[id]
			if !ok {
				continue
			}
			acc := t.Players[j].Accelerations
			for len(acc) < ar.LastRound {
				acc = append(acc, 0)
			}
			for r := ar.FirstRound; r <= ar.LastRound; r++ {
				acc[r-1] = ar.GamePoints
			}
			t.Players[j].Accelerations = acc
		}
	}
	if manual || !strings.HasSuffix(strings.ToUpper(strings.TrimSpace(f.TournamentCode)), "_BAKU") {
		return nil
	}
	ps := t.Points
	if ps.Loss != 0 || 2*ps.Draw != ps.Win {
		return arbiter.FieldError("192", "Baku acceleration", "the point system is inconsistent with Baku acceleration")
	}
	if len(f.Players) == 0 {
		return nil
	}
	ids := make([]int, 0, len(f.Players))
	for _, p := range f.Players {
		ids = append(ids, p.ID)
	}
	sort.Ints(ids)
	lastRank := (len(ids) - 1) / 2
	lastRound := (t.TotalRounds - 1) / 2
	lastFull := lastRound / 2
	for rank := 0; rank <= lastRank; rank++ {
		j, ok := local[ids[rank]]
		if !ok {
			continue
		}
		var acc []arbiter.Points
		for r := 0; r <= lastRound && r <= t.PlayedRounds; r++ {
			if r <= lastFull {
				acc = append(acc, ps.Win)
			} else {
				acc = append(acc, ps.Draw)
			}
		}
		t.Players[j].Accelerations = acc
	}
	return nil
}

// inferInitialColour recovers the colour drawn for round 1 from the first
// round in which colours were given: the first-ranked player taking part got
// the initial colour, and colours alternate with rank.
func inferInitialColour(t *Tournament) Colour {
	minRound := -1
	for _, p := range t.Players {
		for r, g := range p.Games {
			if g.Colour != NoColour && (minRound < 0 || r < minRound) {
				minRound = r
			}
		}
	}
	if minRound < 0 {
		return NoColour
	}
	result, eff := NoColour, 0
	for _, p := range t.Players { // already in pairing-number order
		took := false
		for r := 0; r <= minRound && r < len(p.Games); r++ {
			if p.Games[r].Paired {
				took = true
			}
		}
		if took {
			if result == NoColour {
				c := p.Games[minRound].Colour
				if eff&1 == 1 {
					c = c.Invert()
				}
				result = c
			}
			eff++
		}
	}
	return result
}
