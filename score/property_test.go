package score

import (
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
)

// randomParts plays every part of m with random results; when the match
// ends once decided (W4), play stops at the first game that takes a side
// past the threshold. It returns the sheet parts and the games played.
func randomParts(r *rand.Rand, m *format.Match, thr arbiter.Points, running *[2]arbiter.Points) ([]PartSheet, int) {
	var out []PartSheet
	played := 0
	for _, p := range m.Parts {
		win, draw := p.PerGame()
		var res []string
		for range p.Games {
			if !m.PlayAllGames && (running[0] >= thr || running[1] >= thr) {
				break
			}
			switch r.IntN(3) {
			case 0:
				res = append(res, "1")
				running[0] += win
			case 1:
				res = append(res, "0")
				running[1] += win
			default:
				res = append(res, "=")
				running[0] += draw
				running[1] += draw
			}
			played++
		}
		if len(res) > 0 {
			out = append(out, PartSheet{TC: p.TC.String(), Results: res})
		}
	}
	return out, played
}

// TestPlayedMatchHandsOutMaxPoints: a match with no forfeits and all its
// games played gives out exactly MaxPoints between the two sides, for
// every stage and match variant of every preset.
func TestPlayedMatchHandsOutMaxPoints(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 12))
	for _, name := range format.Presets() {
		f := preset(t, name)
		for _, st := range f.Stages {
			variants := []string{""}
			if st.Final != nil {
				variants = append(variants, "final")
			}
			if st.ThirdPlaceMatch != nil {
				variants = append(variants, "third_place")
			}
			for _, v := range variants {
				m := st.MatchFor(v)
				for _, size := range f.TeamSizes() {
					full := 0
					for range 150 {
						sh := &Sheet{Home: "H", Away: "A", Match: v}
						thr, _ := m.WinThreshold(size)
						var running [2]arbiter.Points
						played := 0
						switch m.Kind {
						case format.TeamBoards:
							for b := 1; b <= size; b++ {
								parts, n := randomParts(r, m, thr, &running)
								sh.Boards = append(sh.Boards, BoardSheet{Board: b, Parts: parts})
								played += n
							}
						case format.TeamSets:
							sh.Sets, played = randomParts(r, m, thr, &running)
						default:
							sh.Parts, played = randomParts(r, m, thr, &running)
						}
						ms, err := Score(f, st.Name, sh, Options{})
						if e, ok := err.(*arbiter.Error); ok && strings.HasPrefix(e.Field, "tie") {
							sh.Tie = &TieSheet{}
							if m.Tie[0].Kind == format.TieArmageddon {
								sh.Tie.Armageddon = &ArmageddonSheet{HomeBid: 60, AwayBid: 90, Result: "="}
							} else {
								sh.Tie.Games = strings.Fields(strings.Repeat("1 ", m.Tie[len(m.Tie)-2].Games))
							}
							ms, err = Score(f, st.Name, sh, Options{})
						}
						if err != nil {
							t.Fatalf("%s/%s/%s: %v", name, st.Name, v, err)
						}
						sum := ms.HomePoints + ms.AwayPoints
						total := 0
						for _, p := range m.Parts {
							total += p.Games
						}
						total *= len(sh.Boards) + btoi(len(sh.Boards) == 0)
						if played == total {
							full++
							if sum != m.MaxPoints(size) {
								t.Fatalf("%s/%s/%s: %v + %v = %v, want MaxPoints %v", name, st.Name, v, ms.HomePoints, ms.AwayPoints, sum, m.MaxPoints(size))
							}
						}
						if ms.HomePoints != running[0] || ms.AwayPoints != running[1] {
							t.Fatalf("%s/%s/%s: totals %v-%v, the games add up to %v-%v", name, st.Name, v, ms.HomePoints, ms.AwayPoints, running[0], running[1])
						}
						mp := m.MatchPoints
						if got := ms.Standings.A.MatchPoints + ms.Standings.B.MatchPoints; got != mp.Win+mp.Loss && got != 2*mp.Draw {
							t.Fatalf("%s/%s/%s: match points %v", name, st.Name, v, got)
						}
						if st.Kind == format.Knockout && ms.Winner == "" && !(len(m.Tie) == 0 && ms.Result == TieUnresolved) {
							t.Fatalf("%s/%s/%s: knockout without a winner", name, st.Name, v)
						}
					}
					if full == 0 {
						t.Errorf("%s/%s/%s: no fully played sample", name, st.Name, v)
					}
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
