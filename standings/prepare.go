package standings

import (
	"fmt"

	"arbiter"
)

// kind classifies one entrant's round for the tiebreak rules.
type kind uint8

const (
	kPlayed        kind = iota // game/match played over the board
	kForfeitWin                // C.07 16.2.2
	kForfeitLoss               // C.07 16.2.4 (a VUR)
	kDoubleForfeit             // both sides: forfeit loss (a VUR) [C.07 interpretation]
	kFullDraw                  // unplayed, scored as a draw by rule; scheduled opponent known
	kPAB                       // pairing-allocated bye, 16.2.1
	kFullBye                   // requested full-point bye, 16.2.1
	kHalfBye                   // requested bye, 16.2.3 / 16.2.5 (a VUR)
	kZeroBye                   // requested bye or absent, 16.2.3 / 16.2.5 (a VUR)
)

// hasOpponent reports a scheduled opponent (a forfeit or a played game).
func (k kind) hasOpponent() bool { return k <= kFullDraw }

// vur reports a voluntary unplayed round (C.07 16.1.2).
func (k kind) vur() bool {
	return k == kForfeitLoss || k == kDoubleForfeit || k == kHalfBye || k == kZeroBye
}

// requestedBye reports C.07 16.1.1.
func (k kind) requestedBye() bool { return k == kHalfBye || k == kZeroBye }

// forfeitLike reports the unplayed rounds whose 2026 dummy is capped by the
// scheduled opponent's adjusted score (16.4.1).
func (k kind) forfeitLike() bool {
	return k == kForfeitWin || k == kForfeitLoss || k == kDoubleForfeit || k == kFullDraw
}

// Score bases: index into rd.pts.
const (
	bPrimary   = 0
	bSecondary = 1
)

// rd is one entrant's round.
type rd struct {
	kind    kind
	opp     int32             // scheduled opponent's index, -1 if none
	pts     [2]arbiter.Points // own primary and secondary score
	against [2]arbiter.Points // opponent's primary and secondary score in this match
	sets    int32
	games   int32
	black   bool // had Black (kept as a bool so that rd holds no pointer: no GC work)
}

// state is the validated, indexed input.
type state struct {
	in      *Input
	sc      Scoring
	opts    Options
	n       int                 // entrants
	nr      int                 // rounds played (len(in.Rounds))
	total   int                 // N of 16.4.2
	rounds  [][]rd              // [entrant][round]
	score   [2][]arbiter.Points // final score per basis
	adj     [2][]arbiter.Points // 16.3 adjusted score per basis
	index   map[string]int
	edition string
}

// gameInRR reports whether, under pre-determined pairings, the round counts
// as a game against the scheduled opponent (C.07 15.2).
func (s *state) counts(x rd) bool {
	if x.opp < 0 {
		return false
	}
	return x.kind == kPlayed || s.opts.RoundRobin && x.kind.hasOpponent()
}

func (s *state) draw(b int) arbiter.Points {
	if b == bSecondary {
		return s.sc.SecondaryDraw
	}
	return s.sc.Draw
}

func (s *state) win(b int) arbiter.Points {
	if b == bSecondary {
		return s.sc.SecondaryWin
	}
	return s.sc.Win
}

// prepare validates the input and builds the per-entrant round table.
// Every error names the JSON path of the field and the rule.
func prepare(in *Input, opts Options) (*state, error) {
	s := &state{in: in, sc: in.Scoring.OrDefault(), opts: opts, n: len(in.Entrants), nr: len(in.Rounds)}
	switch opts.Edition {
	case "", Edition2026:
		s.edition = Edition2026
	case Edition2024:
		s.edition = Edition2024
	default:
		return nil, arbiter.FieldError("edition", "standings.edition", "unknown C.07 edition %q (want 2024 or 2026)", opts.Edition)
	}
	if sc := s.sc; sc.Win <= 0 || sc.Draw < sc.Loss || sc.Win < sc.Draw || sc.SecondaryWin <= 0 {
		return nil, arbiter.FieldError("scoring", "standings.scoring", "want win > 0 and win >= draw >= loss, got %v/%v/%v", sc.Win, sc.Draw, sc.Loss)
	}
	s.total = opts.TotalRounds
	if s.total < s.nr {
		s.total = s.nr
	}
	s.index = make(map[string]int, s.n)
	for i, e := range in.Entrants {
		f := func() string { return fmt.Sprintf("entrants[%d]", i) } // built only for errors
		if e.ID == "" {
			return nil, arbiter.FieldError(f()+".id", "standings.entrant-id", "entrant id is empty")
		}
		if _, dup := s.index[e.ID]; dup {
			return nil, arbiter.FieldError(f()+".id", "standings.entrant-id", "duplicate entrant id %q", e.ID)
		}
		if e.Seed < 0 {
			return nil, arbiter.FieldError(f()+".seed", "standings.seed", "seed %d is negative", e.Seed)
		}
		s.index[e.ID] = i
	}
	s.rounds = make([][]rd, s.n)
	flat := make([]rd, s.n*s.nr)
	for i := range s.rounds {
		s.rounds[i] = flat[i*s.nr : (i+1)*s.nr : (i+1)*s.nr]
		for r := range s.rounds[i] {
			s.rounds[i][r] = rd{kind: kZeroBye, opp: -1} // absent unless a result says otherwise
		}
	}
	seen := make([]int32, s.n) // last round+1 in which the entrant appeared
	for r, results := range in.Rounds {
		for k := range results {
			if err := s.addResult(r, k, &results[k], seen); err != nil {
				return nil, err
			}
		}
	}
	for b := 0; b < 2; b++ {
		s.score[b] = make([]arbiter.Points, s.n)
		s.adj[b] = make([]arbiter.Points, s.n)
	}
	for i := range s.rounds {
		s.computeScores(i, s.rounds[i])
	}
	return s, nil
}

func (s *state) addResult(r, k int, res *Result, seen []int32) error {
	f := func() string { return fmt.Sprintf("rounds[%d][%d]", r, k) } // built only for errors
	a, ok := s.index[res.A.ID]
	if !ok {
		return arbiter.FieldError(f()+".a.id", "standings.entrant-id", "unknown entrant id %q", res.A.ID)
	}
	b := -1
	if res.B.ID != "" {
		if b, ok = s.index[res.B.ID]; !ok {
			return arbiter.FieldError(f()+".b.id", "standings.entrant-id", "unknown entrant id %q", res.B.ID)
		}
		if a == b {
			return arbiter.FieldError(f()+".b.id", "standings.pairing", "entrant %q paired with itself", res.A.ID)
		}
	}
	var ka, kb kind
	switch res.Decision {
	case "", Played:
		if b < 0 {
			return arbiter.FieldError(f()+".b.id", "standings.pairing", "a played result needs two sides (use a bye decision for one side)")
		}
		ka, kb = kPlayed, kPlayed
	case ForfeitWin:
		ka, kb = kForfeitWin, kForfeitLoss
	case ForfeitLoss:
		ka, kb = kForfeitLoss, kForfeitWin
	case DoubleForfeit:
		ka, kb = kDoubleForfeit, kDoubleForfeit
	case FullDraw:
		ka, kb = kFullDraw, kFullDraw
	case PairingBye, FullBye, HalfBye, ZeroBye:
		if b >= 0 {
			return arbiter.FieldError(f()+".b.id", "standings.pairing", "decision %q has a single side; b must be empty", res.Decision)
		}
		switch res.Decision {
		case PairingBye:
			ka = kPAB
		case FullBye:
			ka = kFullBye
		case HalfBye:
			ka = kHalfBye
		default:
			ka = kZeroBye
		}
	default:
		return arbiter.FieldError(f()+".decision", "standings.decision", "unknown decision %q (want played, forfeit_win, forfeit_loss, double_forfeit, full_draw, pairing_bye, half_bye, zero_bye, full_bye)", res.Decision)
	}
	for _, c := range [2]Colour{res.A.Colour, res.B.Colour} {
		if c != NoColour && c != White && c != Black {
			return arbiter.FieldError(f()+".colour", "standings.colour", "colour %q must be \"w\", \"b\" or empty", c)
		}
	}
	if err := s.put(r, a, b, ka, &res.A, &res.B, seen); err != nil {
		return arbiter.FieldError(f()+".a", "standings.pairing", "%s", err.Error())
	}
	if b >= 0 {
		if err := s.put(r, b, a, kb, &res.B, &res.A, seen); err != nil {
			return arbiter.FieldError(f()+".b", "standings.pairing", "%s", err.Error())
		}
	}
	return nil
}

// put records entrant i's round r against o (−1 for none).
func (s *state) put(r, i, o int, k kind, own, other *Side, seen []int32) error {
	if seen[i] == int32(r+1) {
		return fmt.Errorf("entrant %q has two results in round %d", own.ID, r+1)
	}
	if own.SetsWon < 0 || own.GamesWon < 0 {
		return fmt.Errorf("sets_won and games_won of %q must not be negative", own.ID)
	}
	seen[i] = int32(r + 1)
	x := rd{kind: k, opp: int32(o), sets: int32(own.SetsWon), games: int32(own.GamesWon), black: own.Colour == Black}
	x.pts = [2]arbiter.Points{own.MatchPoints, own.Secondary}
	if o >= 0 {
		x.against = [2]arbiter.Points{other.MatchPoints, other.Secondary}
	}
	s.rounds[i][r] = x
	return nil
}

// computeScores sets the final and the Art. 16.3 adjusted scores of entrant i.
func (s *state) computeScores(i int, rounds []rd) {
	// A requested bye is 16.2.5 when every later round is a VUR (or none).
	onlyVURAfter := true
	for r := len(rounds) - 1; r >= 0; r-- {
		x := rounds[r]
		for b := 0; b < 2; b++ {
			s.score[b][i] += x.pts[b]
			if x.kind.requestedBye() && onlyVURAfter && !s.opts.RoundRobin {
				s.adj[b][i] += s.draw(b) // 16.3.2
			} else {
				s.adj[b][i] += x.pts[b] // 16.3.1
			}
		}
		if !x.kind.vur() {
			onlyVURAfter = false
		}
	}
}
