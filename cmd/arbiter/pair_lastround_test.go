package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter"
	"arbiter/trf"
)

// lastRoundFile writes an 8-player tournament of `rounds` played rounds
// (at most 3) with XXR = total. Rounds 1 and 2 are the Dutch pairings
// (XXC white1), worked out by hand from C.04.3:
//
//	round 1: S1 = {1,2,3,4}, S2 = {5,6,7,8}; odd pairing numbers take the
//	  initial colour (5.2.5): 1-5, 6-2, 3-7, 8-4; the Whites win.
//	round 2: 1 point {1,3,6,8}, all after White (mild preference for
//	  Black): 1-6 and 3-8, the higher ranked player gets his preference
//	  (5.2.4): 6-1, 8-3; 0 points {2,4,5,7}, all after Black: 2-5, 4-7.
//	  6, 8 and 2 win, 7 wins with Black.
//
// Before round 3, 6 and 8 have 2 points and White twice (absolute
// preference for Black, C.04.3 1.7). In the final round they are
// topscorers (more than half of the maximum, 1.8) and may meet (C3):
// 8-6 (equal colour differences, never a different colour: 5.2.4 gives
// the higher ranked 6 Black). 1 point {1,2,3,7}: S1 = {1,2}, S2 = {3,7}:
// 1-3 and 2-7 leave one mild preference unmet (three want White), as does
// every other pairing, so the first candidate stands: 1-3 (never a
// different colour, 1 is higher: White), 7-2 (7 absolute White).
// 0 points: 5-4 (5 absolute White). Round 3 as played: 8-6 draw, 1 wins,
// 7-2 draw, 4 wins.
//
// If another round followed, 6 and 8 would not be topscorers and could
// not meet: round 3 would be paired differently.
func lastRoundFile(t *testing.T, rounds, total int) string {
	t.Helper()
	type rd = trf.Round
	history := map[int][]rd{
		1: {{Opponent: 5, Colour: 'w', Result: '1'}, {Opponent: 6, Colour: 'b', Result: '0'}, {Opponent: 3, Colour: 'w', Result: '1'}},
		2: {{Opponent: 6, Colour: 'b', Result: '0'}, {Opponent: 5, Colour: 'w', Result: '1'}, {Opponent: 7, Colour: 'b', Result: '='}},
		3: {{Opponent: 7, Colour: 'w', Result: '1'}, {Opponent: 8, Colour: 'b', Result: '0'}, {Opponent: 1, Colour: 'b', Result: '0'}},
		4: {{Opponent: 8, Colour: 'b', Result: '0'}, {Opponent: 7, Colour: 'w', Result: '0'}, {Opponent: 5, Colour: 'b', Result: '1'}},
		5: {{Opponent: 1, Colour: 'b', Result: '0'}, {Opponent: 2, Colour: 'b', Result: '0'}, {Opponent: 4, Colour: 'w', Result: '0'}},
		6: {{Opponent: 2, Colour: 'w', Result: '1'}, {Opponent: 1, Colour: 'w', Result: '1'}, {Opponent: 8, Colour: 'b', Result: '='}},
		7: {{Opponent: 3, Colour: 'b', Result: '0'}, {Opponent: 4, Colour: 'b', Result: '1'}, {Opponent: 2, Colour: 'w', Result: '='}},
		8: {{Opponent: 4, Colour: 'w', Result: '1'}, {Opponent: 3, Colour: 'w', Result: '1'}, {Opponent: 6, Colour: 'w', Result: '='}},
	}
	f := &trf.File{Version: 2016, Name: "last round", TotalRounds: total, InitialColour: 'w', PointSystem: trf.DefaultPointSystem()}
	for id := 1; id <= 8; id++ {
		p := trf.Player{ID: id, Name: "Player" + string(rune('0'+id)), Rating: 2400 - 10*id, Rounds: history[id][:rounds]}
		for _, r := range p.Rounds {
			switch r.Result {
			case '1':
				p.Points += arbiter.Point
			case '=':
				p.Points += arbiter.Point / 2
			}
		}
		f.Players = append(f.Players, p)
	}
	path := filepath.Join(t.TempDir(), "t.trf")
	if err := os.WriteFile(path, []byte(f.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The final round is paired with the last-round rules, by -p and when -c
// re-pairs a finished tournament (which used to raise XXR to the rounds
// played plus one and so lost them).
func TestPairLastRoundRules(t *testing.T) {
	t.Parallel()
	const round3 = "4\n8 6\n1 3\n7 2\n5 4\n"
	code, stdout, stderr := runCLI(t, "", "pair", "--dutch", lastRoundFile(t, 2, 3), "-p")
	if code != 0 || stdout != round3 {
		t.Fatalf("-p before the final round: code=%d stderr=%q\ngot:\n%swant:\n%s", code, stderr, stdout, round3)
	}
	code, stdout, _ = runCLI(t, "", "pair", "--dutch", lastRoundFile(t, 2, 4), "-p")
	if code != 0 || stdout == round3 || strings.Contains(stdout, "8 6\n") {
		t.Fatalf("-p with a round to follow: 6 and 8 are not topscorers and must not meet: code=%d\n%s", code, stdout)
	}
	code, stdout, stderr = runCLI(t, "", "pair", "--dutch", lastRoundFile(t, 3, 3), "-c")
	if want := "round 1: ok\nround 2: ok\nround 3: ok\n"; code != 0 || stdout != want {
		t.Fatalf("-c on the finished tournament: code=%d stderr=%q\ngot:\n%swant:\n%s", code, stderr, stdout, want)
	}
	// Announced with a fourth round, round 3 was not the final one: the
	// check must then find that round 3 differs.
	code, stdout, _ = runCLI(t, "", "pair", "--dutch", lastRoundFile(t, 3, 4), "-c")
	if code != 1 || !strings.Contains(stdout, "round 3: differs") || !strings.Contains(stdout, "round 2: ok") {
		t.Fatalf("-c with XXR 4: code=%d\n%s", code, stdout)
	}
}
