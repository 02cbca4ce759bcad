package score

import (
	"math/rand/v2"
	"testing"

	"arbiter"
)

// BenchmarkScoreAntichessFinal scores a full 4-board, 5-part final (120 games).
func BenchmarkScoreAntichessFinal(b *testing.B) {
	f := preset(b, "antichess-team-cup")
	st := f.StageByName("knockout")
	m := st.MatchFor("final")
	r := rand.New(rand.NewPCG(1, 2))
	sh := &Sheet{Home: "H", Away: "A", Match: "final"}
	var running [2]arbiter.Points
	for board := 1; board <= 4; board++ {
		parts, _ := randomParts(r, m, 0, &running)
		sh.Boards = append(sh.Boards, BoardSheet{Board: board, Parts: parts})
	}
	if running[0] == running[1] {
		sh.Tie = &TieSheet{Games: Results{"1", "1", "1"}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Score(f, "knockout", sh, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
