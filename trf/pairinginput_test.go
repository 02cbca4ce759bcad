package trf_test

import (
	"strings"
	"testing"

	"arbiter"
	"arbiter/pairing"
	"arbiter/trf"
)

func parsePairing(t *testing.T, text string) *trf.File {
	t.Helper()
	f, err := trf.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Round 1 played (1-2 won by pairing.White, 3 got the PAB); player 2 announced a
// half-point bye for round 2 ("0000 - H" in the round-2 column), so round 2
// is the round to pair and player 2 is not paired in it.
const twoRounds = `012 test
XXR 5
XXC white1
001    1      A                                 2000                             1.0          2 w 1
001    2      B                                 1900                             0.0          1 b 0  0000 - H
001    3      C                                 1800                             1.0       0000 - U
`

func TestPairingInputRoundToPairAndAbsence(t *testing.T) {
	tour, err := trf.PairingInput(parsePairing(t, twoRounds))
	if err != nil {
		t.Fatal(err)
	}
	if tour.PlayedRounds != 1 || tour.TotalRounds != 5 || tour.InitialColour != pairing.White {
		t.Fatalf("played %d total %d colour %v", tour.PlayedRounds, tour.TotalRounds, tour.InitialColour)
	}
	if tour.Players[1].Absent == false || tour.Players[0].Absent || tour.Players[2].Absent {
		t.Fatalf("absent flags: %v %v %v", tour.Players[0].Absent, tour.Players[1].Absent, tour.Players[2].Absent)
	}
	g := tour.Players[0].Games[0]
	if !g.Played || !g.Paired || g.Opponent != 1 || g.Colour != pairing.White || g.Outcome != pairing.Win {
		t.Fatalf("player 1 round 1: %+v", g)
	}
	bye := tour.Players[2].Games[0]
	if !bye.IsPAB() || bye.Played || tour.Points.For(bye) != arbiter.Point {
		t.Fatalf("player 3 round 1 should be a PAB worth 1: %+v", bye)
	}
	if tour.Players[2].Score != arbiter.Point {
		t.Fatalf("player 3 score %v", tour.Players[2].Score)
	}
}

func TestPairingInputRejectsWrongPoints(t *testing.T) {
	bad := strings.Replace(twoRounds, "1.0          2 w 1", "3.0          2 w 1", 1)
	_, err := trf.PairingInput(parsePairing(t, bad))
	if arbiter.ErrorCode(err) != arbiter.EINVALID || !strings.Contains(err.Error(), "player 1 points") {
		t.Fatalf("err = %v", err)
	}
}

func TestPairingInputInfersInitialColour(t *testing.T) {
	// Without XXC: the first-ranked player had pairing.Black in round 1.
	text := strings.Replace(strings.Replace(twoRounds, "XXC white1\n", "", 1), "2 w 1", "2 b 1", 1)
	text = strings.Replace(text, "1 b 0", "1 w 0", 1)
	tour, err := trf.PairingInput(parsePairing(t, text))
	if err != nil {
		t.Fatal(err)
	}
	if tour.InitialColour != pairing.Black {
		t.Fatalf("inferred %v, want black", tour.InitialColour)
	}
}
