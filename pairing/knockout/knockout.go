// Package knockout builds single-elimination brackets: standard seeding
// (1 and 2 in opposite halves, 1-4 in different quarters, ...), byes for
// the top seeds when the field is not a power of two, an optional
// third-place match, winners advancing round by round, and the "players
// below move up" rule for withdrawals (ACWC W17). It also fills pools from
// a ranked list by a placement pattern (ACWC W8) and seeds a knockout
// across pools (pool winners against the other pool's runner-up, W10).
//
// Everything is data-driven: field sizes, patterns and how many advance
// are parameters; nothing here knows a rulebook's numbers. Entrants are
// identified by their seed, a 1-based rank in the list the bracket was
// built from; callers map seeds to players or teams.
package knockout

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"arbiter"
)

// MaxEntrants bounds a bracket (4096 slots, 12 rounds).
const MaxEntrants = 4096

// Kinds of Source.
const (
	FromSeed   = "seed"   // a seed placed directly (first round)
	FromBye    = "bye"    // nobody: the other side advances without play
	FromWinner = "winner" // the winner of an earlier match
	FromLoser  = "loser"  // the loser of an earlier match (third-place match)
)

// Source says who fills one side of a match: a seed, a bye, or the winner
// or loser of a feeder match. Renderers draw the bracket's lines from it.
type Source struct {
	Kind  string `json:"kind"`
	Seed  int    `json:"seed,omitempty"`  // for FromSeed
	Match string `json:"match,omitempty"` // feeder match ID for FromWinner / FromLoser
}

func (s Source) String() string {
	switch s.Kind {
	case FromSeed:
		return fmt.Sprintf("seed %d", s.Seed)
	case FromWinner:
		return "winner of " + s.Match
	case FromLoser:
		return "loser of " + s.Match
	default:
		return "bye"
	}
}

// Match is one tie of the bracket. Home is the upper line of the bracket
// (the better seed in the first round). HomeSeed / AwaySeed are the seeds
// once known (0: not yet known, or a bye). Winner is 0 until decided;
// Walkover marks a win without play (bye or withdrawn opponent).
type Match struct {
	ID         string `json:"id"`
	Round      int    `json:"round"`
	Slot       int    `json:"slot"` // 1-based, top to bottom; the third-place match follows the final
	ThirdPlace bool   `json:"third_place,omitempty"`
	Home       Source `json:"home"`
	Away       Source `json:"away"`
	HomeSeed   int    `json:"home_seed,omitempty"`
	AwaySeed   int    `json:"away_seed,omitempty"`
	Winner     int    `json:"winner,omitempty"`
	Walkover   bool   `json:"walkover,omitempty"`
	Next       string `json:"next,omitempty"`       // match the winner goes to ("" for the final)
	NextLoser  string `json:"next_loser,omitempty"` // match the loser goes to (semifinals -> third place)
}

// Loser returns the seed that lost a decided, played match (0 otherwise).
func (m *Match) Loser() int {
	if m.Winner == 0 || m.Walkover {
		return 0
	}
	if m.Winner == m.HomeSeed {
		return m.AwaySeed
	}
	return m.HomeSeed
}

// Ready reports whether both sides are known and the match is undecided.
func (m *Match) Ready() bool {
	return m.Winner == 0 && m.HomeSeed != 0 && m.AwaySeed != 0
}

// Round is one round of a bracket. Name is "Final", "Semifinals",
// "Quarterfinals" or "Round of N".
type Round struct {
	Number  int     `json:"number"`
	Name    string  `json:"name"`
	Matches []Match `json:"matches"`
}

// Bracket is a single-elimination bracket. Slots is the power of two the
// first round is drawn on (Slots-Entrants byes). Withdrawn lists the seeds
// removed by Withdraw, in order.
type Bracket struct {
	Entrants  int     `json:"entrants"`
	Slots     int     `json:"slots"`
	Rounds    []Round `json:"rounds"`
	Withdrawn []int   `json:"withdrawn,omitempty"`
}

// Options tune New.
type Options struct {
	// ThirdPlace adds a match between the semifinal losers, played in the
	// final's round. It needs at least 4 entrants.
	ThirdPlace bool
}

// SeedOrder returns the standard seeding of a bracket of the given size (a
// power of two): the seed on each line from top to bottom, so that lines
// 2i-1 and 2i meet in the first round. It is built by doubling: each seed s
// of the half-size order is followed by its partner 2k+1-s (k the new size),
// which keeps 1 and 2 in opposite halves, 1-4 in different quarters, etc.
// Size 8 gives 1 8 4 5 2 7 3 6.
func SeedOrder(size int) ([]int, error) {
	if size < 2 || size > MaxEntrants || size&(size-1) != 0 {
		return nil, arbiter.FieldError("slots", "knockout.slots", "a bracket has a power-of-two size from 2 to %d, got %d", MaxEntrants, size)
	}
	order := []int{1}
	for k := 2; k <= size; k *= 2 {
		next := make([]int, 0, k)
		for _, s := range order {
			next = append(next, s, k+1-s)
		}
		order = next
	}
	return order, nil
}

// Slots returns the bracket size for n entrants: the smallest power of two >= n.
func Slots(n int) int {
	if n <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(n-1))
}

// RoundName names a round by the number of its (main) matches.
func RoundName(matches int) string {
	switch matches {
	case 1:
		return "Final"
	case 2:
		return "Semifinals"
	case 4:
		return "Quarterfinals"
	default:
		return fmt.Sprintf("Round of %d", 2*matches)
	}
}

// MatchID is the ID of the match in a round's slot: "R2-M3". The
// third-place match is "R<final round>-3P".
func MatchID(round, slot int) string { return fmt.Sprintf("R%d-M%d", round, slot) }

func thirdPlaceID(round int) string { return fmt.Sprintf("R%d-3P", round) }

// New builds the bracket for seeds 1..entrants with standard seeding.
// Seeds above the field are byes, so the byes fall to the top seeds; their
// first-round matches are decided at once (walkover) and the seeds already
// stand in the second round.
func New(entrants int, opt Options) (*Bracket, error) {
	if entrants < 2 || entrants > MaxEntrants {
		return nil, arbiter.FieldError("entrants", "knockout.entrants", "a knockout needs 2 to %d entrants, got %d", MaxEntrants, entrants)
	}
	if opt.ThirdPlace && entrants < 4 {
		return nil, arbiter.FieldError("third_place", "knockout.third_place", "a third-place match needs at least 4 entrants, got %d", entrants)
	}
	slots := Slots(entrants)
	order, err := SeedOrder(slots)
	if err != nil {
		return nil, err
	}
	b := &Bracket{Entrants: entrants, Slots: slots}
	nRounds := bits.Len(uint(slots)) - 1
	for r := 1; r <= nRounds; r++ {
		count := slots >> r
		rd := Round{Number: r, Name: RoundName(count), Matches: make([]Match, count)}
		for i := range rd.Matches {
			m := &rd.Matches[i]
			m.ID, m.Round, m.Slot = MatchID(r, i+1), r, i+1
			if r == 1 {
				m.Home = seedSource(order[2*i], entrants)
				m.Away = seedSource(order[2*i+1], entrants)
			} else {
				m.Home = Source{Kind: FromWinner, Match: MatchID(r-1, 2*i+1)}
				m.Away = Source{Kind: FromWinner, Match: MatchID(r-1, 2*i+2)}
			}
			if r < nRounds {
				m.Next = MatchID(r+1, i/2+1)
			}
		}
		b.Rounds = append(b.Rounds, rd)
	}
	if opt.ThirdPlace {
		last := &b.Rounds[nRounds-1]
		semis := b.Rounds[nRounds-2].Matches
		for i := range semis {
			semis[i].NextLoser = thirdPlaceID(nRounds)
		}
		last.Matches = append(last.Matches, Match{
			ID: thirdPlaceID(nRounds), Round: nRounds, Slot: 2, ThirdPlace: true,
			Home: Source{Kind: FromLoser, Match: semis[0].ID},
			Away: Source{Kind: FromLoser, Match: semis[1].ID},
		})
	}
	first := b.Rounds[0].Matches
	for i := range first {
		first[i].HomeSeed, first[i].AwaySeed = first[i].Home.Seed, first[i].Away.Seed
	}
	for i := range first { // only once every line is filled: settle looks at neighbours
		b.settle(&first[i])
	}
	return b, nil
}

func seedSource(s, entrants int) Source {
	if s > entrants {
		return Source{Kind: FromBye}
	}
	return Source{Kind: FromSeed, Seed: s}
}

// Match returns the match with the given ID, or nil. IDs encode their
// position ("R<round>-M<slot>", "R<round>-3P"), so the look-up is direct;
// the ID stored in the match is still compared, so a hand-edited bracket
// never returns the wrong match.
func (b *Bracket) Match(id string) *Match {
	rest, ok := strings.CutPrefix(id, "R")
	rs, tail, ok2 := strings.Cut(rest, "-")
	r, err := strconv.Atoi(rs)
	if !ok || !ok2 || err != nil || r < 1 || r > len(b.Rounds) {
		return nil
	}
	ms := b.Rounds[r-1].Matches
	slot := len(ms)
	if tail != "3P" {
		ss, ok := strings.CutPrefix(tail, "M")
		if slot, err = strconv.Atoi(ss); !ok || err != nil {
			return nil
		}
	}
	if slot < 1 || slot > len(ms) || ms[slot-1].ID != id {
		return nil
	}
	return &ms[slot-1]
}

// Ready returns the matches that can be played now: both sides known, no winner.
func (b *Bracket) Ready() []*Match {
	var out []*Match
	for r := range b.Rounds {
		for i := range b.Rounds[r].Matches {
			if m := &b.Rounds[r].Matches[i]; m.Ready() {
				out = append(out, m)
			}
		}
	}
	return out
}

// Champion returns the winner of the final (0 while undecided).
func (b *Bracket) Champion() int {
	return b.Match(MatchID(len(b.Rounds), 1)).Winner
}

// SetWinner records the winner of a match and advances them (and sends the
// loser of a semifinal to the third-place match). A recorded result may be
// corrected as long as the matches it fed are undecided.
func (b *Bracket) SetWinner(id string, seed int) error {
	m := b.Match(id)
	if m == nil {
		return arbiter.Errorf(arbiter.ENOTFOUND, "no match %q in the bracket", id)
	}
	if m.HomeSeed == 0 || m.AwaySeed == 0 {
		if m.Walkover {
			return arbiter.Errorf(arbiter.ECONFLICT, "match %s was decided without play (seed %d advanced)", id, m.Winner)
		}
		return arbiter.Errorf(arbiter.ECONFLICT, "match %s is not ready: %s v %s not both known", id, m.Home, m.Away)
	}
	if seed != m.HomeSeed && seed != m.AwaySeed {
		return arbiter.FieldError("winner", "knockout.winner", "seed %d does not play in %s (%d v %d)", seed, id, m.HomeSeed, m.AwaySeed)
	}
	if m.Winner == seed {
		return nil
	}
	if m.Winner != 0 {
		for _, next := range []string{m.Next, m.NextLoser} {
			if n := b.Match(next); n != nil && n.Winner != 0 && !n.Walkover {
				return arbiter.Errorf(arbiter.ECONFLICT, "cannot change the winner of %s: %s is already decided", id, next)
			}
		}
	}
	m.Winner, m.Walkover = seed, false
	b.advance(m)
	return nil
}

// advance copies a decided match's winner (and loser) into the matches it feeds.
func (b *Bracket) advance(m *Match) {
	b.place(m.Next, FromWinner, m.ID, m.Winner)
	b.place(m.NextLoser, FromLoser, m.ID, m.Loser())
}

// place puts seed (0 for "nobody") on the side of match `to` fed by the
// given kind of result of match `from`, then settles `to`.
func (b *Bracket) place(to, kind, from string, seed int) {
	n := b.Match(to)
	if n == nil {
		return
	}
	switch {
	case n.Home.Kind == kind && n.Home.Match == from:
		n.HomeSeed = seed
	case n.Away.Kind == kind && n.Away.Match == from:
		n.AwaySeed = seed
	default:
		return
	}
	b.resettle(n)
}

// resettle undoes a walkover decided on old information (and what it fed)
// and decides the match again from what is known now.
func (b *Bracket) resettle(n *Match) {
	if n.Walkover {
		n.Winner, n.Walkover = 0, false
		b.place(n.Next, FromWinner, n.ID, 0)
		b.place(n.NextLoser, FromLoser, n.ID, 0)
	}
	b.settle(n)
}

// settle decides a match without play when a side is certain to stay
// empty: a bye, or a feeder that produced nobody (a bye match has no loser).
func (b *Bracket) settle(m *Match) {
	if m.Winner != 0 {
		return
	}
	homeEmpty, awayEmpty := b.empty(m.Home, m.HomeSeed), b.empty(m.Away, m.AwaySeed)
	switch {
	case homeEmpty && awayEmpty:
		// nobody comes out; the matches fed learn that they get nobody
		b.place(m.Next, FromWinner, m.ID, 0)
		b.place(m.NextLoser, FromLoser, m.ID, 0)
	case homeEmpty && m.AwaySeed != 0:
		m.Winner, m.Walkover = m.AwaySeed, true
		b.advance(m)
	case awayEmpty && m.HomeSeed != 0:
		m.Winner, m.Walkover = m.HomeSeed, true
		b.advance(m)
	}
}

// empty reports whether a side is known to stay without an entrant: a
// bye; a first-round seed that withdrew with no one to move up; a decided
// feeder that left the side empty (a walkover has no loser, a withdrawal
// may leave no one to move up); a feeder that can produce nobody.
func (b *Bracket) empty(s Source, seed int) bool {
	if seed != 0 {
		return false
	}
	if s.Kind == FromBye || s.Kind == FromSeed {
		return true
	}
	f := b.Match(s.Match)
	if f == nil || f.Winner != 0 {
		return true
	}
	return f.noEntrants(b)
}

// noEntrants reports whether a match is known to produce nobody.
func (m *Match) noEntrants(b *Bracket) bool {
	return m.Winner == 0 && b.empty(m.Home, m.HomeSeed) && b.empty(m.Away, m.AwaySeed)
}
