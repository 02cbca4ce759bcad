package trf

import (
	"fmt"

	"arbiter"
)

// complement maps a result to the one the opponent must have.
var complement = map[byte]byte{
	'1': '0', '0': '1', '=': '=',
	'W': 'L', 'L': 'W', 'D': 'D',
	'+': '-', '-': '+', ' ': ' ',
}

// Validate checks what Parse does not: every opponent exists, and the two
// sides of each game agree (each names the other, colours are opposite,
// results complement each other; a double forfeit is '-' on both sides).
// The error is an EINVALID *arbiter.Error whose Field is "line L col C" of
// the first inconsistent round field (line 0 for players built in code).
func (f *File) Validate() error {
	lines := f.playerLines001()
	index := make(map[int]int, len(f.Players))
	for i, p := range f.Players {
		index[p.ID] = i
	}
	for i, p := range f.Players {
		for r, x := range p.Rounds {
			if x.Opponent == 0 {
				continue
			}
			field := fmt.Sprintf("line %d col %d", lines[i], 92+10*r)
			rule := fmt.Sprintf("TRF 001 round %d", r+1)
			j, ok := index[x.Opponent]
			if !ok {
				return arbiter.FieldError(field, rule, "player %d's opponent %d has no 001 record", p.ID, x.Opponent)
			}
			if x.Opponent == p.ID {
				return arbiter.FieldError(field, rule, "player %d is paired against itself", p.ID)
			}
			y := f.Players[j].Round(r + 1)
			if y.Opponent != p.ID {
				return arbiter.FieldError(field, rule, "player %d meets %d in round %d, but %d's entry names %d", p.ID, x.Opponent, r+1, x.Opponent, y.Opponent)
			}
			if !(x.Colour == 'w' && y.Colour == 'b' || x.Colour == 'b' && y.Colour == 'w' || x.Colour == '-' && y.Colour == '-') {
				return arbiter.FieldError(field, rule, "players %d and %d have colours %c and %c in round %d", p.ID, x.Opponent, x.Colour, y.Colour, r+1)
			}
			if c, ok := complement[x.Result]; !ok || (c != y.Result && !(x.Result == '-' && y.Result == '-')) {
				return arbiter.FieldError(field, rule, "players %d and %d have results %q and %q in round %d", p.ID, x.Opponent, x.Result, y.Result, r+1)
			}
		}
	}
	return nil
}

// playerLines001 returns the input line of each player (0 when unknown).
func (f *File) playerLines001() []int {
	out := make([]int, len(f.Players))
	i := 0
	for _, r := range f.Records {
		if r.Known && r.ID == "001" && i < len(out) {
			out[i] = r.Line
			i++
		}
	}
	if i != len(out) { // players added or removed in code: positions unknown
		clear(out)
	}
	return out
}
