package odds

import (
	"strconv"

	"arbiter/format"
	"arbiter/score"
)

// The compact sheet (see play.go) as a cache key and as a match sheet.

// countKey writes the cache key of a compact sheet: its two-byte prefix,
// then for each unit the number of parts and each part's wins, draws and
// losses, then the tie data as it is.
func countKey(key, b []byte) []byte {
	key = append(key, b[0], b[1])
	var w, d, l, parts byte
	unitAt := len(key)
	key = append(key, 0)
	flush := func() {
		key = append(key, w, d, l)
		w, d, l = 0, 0, 0
		parts++
	}
	i := 2
	for ; i < len(b) && b[i] != bTie; i++ {
		switch b[i] {
		case bWin:
			w++
		case bDraw:
			d++
		case bLoss:
			l++
		case bPart:
			flush()
		case bUnit:
			flush()
			key[unitAt] = parts
			parts, unitAt = 0, len(key)
			key = append(key, 0)
		}
	}
	flush()
	key[unitAt] = parts
	return append(key, b[i:]...)
}

var tokens = map[byte]string{bWin: tokWin, bDraw: tokDraw, bLoss: tokLoss}

// sheetOf turns the compact sheet back into a match sheet.
func sheetOf(k *matchKind, b []byte) *score.Sheet {
	b = b[2:]
	regular, tie := b, []byte(nil)
	for i, c := range b {
		if c == bTie {
			regular, tie = b[:i], b[i+1:]
			break
		}
	}
	sh := &score.Sheet{}
	var units [][]score.PartSheet
	cur := []score.PartSheet{{TC: k.tcNames[0]}}
	for _, c := range regular {
		switch c {
		case bPart:
			cur = append(cur, score.PartSheet{TC: k.tcNames[len(cur)]})
		case bUnit:
			units = append(units, cur)
			cur = []score.PartSheet{{TC: k.tcNames[0]}}
		default:
			p := &cur[len(cur)-1]
			p.Results = append(p.Results, tokens[c])
		}
	}
	units = append(units, cur)
	switch k.mf.Kind {
	case format.TeamBoards:
		for i, u := range units {
			sh.Boards = append(sh.Boards, score.BoardSheet{Board: i + 1, Parts: u})
		}
	case format.TeamSets:
		sh.Sets = units[0]
	default:
		sh.Parts = units[0]
	}
	if tie != nil {
		t := &score.TieSheet{}
		for i := 0; i < len(tie); i++ {
			c := tie[i]
			switch {
			case c == bCapt:
				if d := tie[i+1]; d != bNoAdv {
					t.CaptainsBoard = int(d - '0')
				}
				i++
			case c == bArma:
				a := &score.ArmageddonSheet{HomeBid: 200, AwayBid: 100, Result: tokens[tie[i+2]]}
				if tie[i+1] == 'h' {
					a.HomeBid, a.AwayBid = 100, 200 // the lower bid plays White
				}
				t.Armageddon = a
				i += 2
			default:
				t.Games = append(t.Games, tokens[c])
			}
		}
		sh.Tie = t
	}
	return sh
}

// itoa is strconv.Itoa, short.
func itoa(i int) string { return strconv.Itoa(i) }
