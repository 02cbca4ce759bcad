package trf_test

import (
	"fmt"
	"strings"

	"arbiter/trf"
)

// Four players after round 1; player 4 has asked for a half-point bye in
// round 2 ("0000 - H" in the round-2 column), so a pairing engine pairs 1-3.
func ExampleFile_NextRound() {
	src := strings.Join([]string{
		"012 Club Swiss",
		"XXR 3",
		"XXC white1",
		"001    1      One                               2000                             1.0          3 w 1",
		"001    2      Two                               1900                             0.5          4 b =",
		"001    3      Three                             1800                             0.0          1 b 0",
		"001    4      Four                              1700                             0.5          2 w =  0000 - H",
	}, "\r\n")
	f, err := trf.Parse(strings.NewReader(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	next := f.NextRound()
	fmt.Println("played:", next.Played, "to pair:", next.Round, "of", f.TotalRounds)
	fmt.Printf("not paired: %v (bye %c)\n", next.Unavailable, next.Byes[4])
	p := f.Player(4)
	fmt.Println("player 4 after round 1:", p.ScoreAfter(f.PointSystem, next.Played), "with the bye:", p.Score(f.PointSystem))
	// Output:
	// played: 1 to pair: 2 of 3
	// not paired: [4] (bye H)
	// player 4 after round 1: 0.5 with the bye: 1
}

// A malformed line is reported with its position.
func ExampleParse_error() {
	_, err := trf.Parse(strings.NewReader("012 x\nXXR nine\n"))
	fmt.Println(err)
	// Output:
	// line 2 col 5: XXR number of rounds: want a whole number, found "nine"
}
