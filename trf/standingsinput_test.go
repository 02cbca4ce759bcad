package trf_test

import (
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/standings"
	"arbiter/trf"
)

func parseTRF(t *testing.T, text string) *trf.File {
	t.Helper()
	f, err := trf.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const trfHead = "012 Test\n042 2024/08/01\nXXR 2\n"

// line001 lays out an 001 record: start number, name, rating, points and
// rounds as "opp colour result" (e.g. "2 w 1", "0 - H").
func line001(id int, name string, rating int, points string, rounds ...string) string {
	b := []byte(strings.Repeat(" ", 91+10*len(rounds)))
	put := func(col int, s string) { copy(b[col-1:], s) } // 1-based columns
	put(1, "001")
	put(5, fmt.Sprintf("%4d", id))
	put(15, name)
	put(49, fmt.Sprintf("%4d", rating))
	put(81, fmt.Sprintf("%4s", points))
	for r, x := range rounds {
		var opp int
		var c, res string
		fmt.Sscanf(x, "%d %s %s", &opp, &c, &res)
		put(92+10*r, fmt.Sprintf("%4d", opp))
		put(97+10*r, c)
		put(99+10*r, res)
	}
	return string(b) + "\n"
}

func TestStandingsInputMapping(t *testing.T) {
	// Round 1: 1 beats 2 with standings.White, 3 gets the PAB. Round 2: 1 forfeits to
	// 3, 2 has a half-point bye.
	f := parseTRF(t, trfHead+
		line001(1, "A", 2000, "1.0", "2 w 1", "3 b -")+
		line001(2, "B", 1900, "0.5", "1 b 0", "0 - H")+
		line001(3, "C", 1800, "2.0", "0 - U", "1 w +"))
	in, err := trf.StandingsInput(f)
	if err != nil {
		t.Fatal(err)
	}
	P := arbiter.Point
	want := [][]standings.Result{
		{{A: standings.Side{ID: "1", MatchPoints: P, Secondary: P, GamesWon: 1, Colour: standings.White}, B: standings.Side{ID: "2", Colour: standings.Black}, Decision: standings.Played},
			{A: standings.Side{ID: "3", MatchPoints: P, Secondary: P}, Decision: standings.PairingBye}},
		{{A: standings.Side{ID: "1", Colour: standings.Black}, B: standings.Side{ID: "3", MatchPoints: P, Secondary: P, Colour: standings.White}, Decision: standings.ForfeitLoss},
			{A: standings.Side{ID: "2", MatchPoints: P / 2, Secondary: P / 2}, Decision: standings.HalfBye}},
	}
	if len(in.Rounds) != 2 {
		t.Fatalf("rounds %d", len(in.Rounds))
	}
	for r := range want {
		if len(in.Rounds[r]) != len(want[r]) {
			t.Fatalf("round %d: %+v", r+1, in.Rounds[r])
		}
		for k := range want[r] {
			if in.Rounds[r][k] != want[r][k] {
				t.Errorf("round %d result %d: %+v, want %+v", r+1, k, in.Rounds[r][k], want[r][k])
			}
		}
	}
	if e := in.Entrants[1]; e.ID != "2" || e.Rating != 1900 || e.Seed != 2 || e.Name != "B" {
		t.Errorf("entrant %+v", e)
	}
	if o := trf.StandingsOptions(f); o.Edition != standings.Edition2024 || o.TotalRounds != 2 || o.RoundRobin {
		t.Errorf("options %+v", o)
	}
}

func TestStandingsInputErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{line001(1, "A", 2000, "1.0", "2 w 1") + line001(2, "B", 1900, "0.0", "0 - Z"), "does not list 1"},
		{line001(1, "A", 2000, "1.0", "2 w 1") + line001(2, "B", 1900, "1.0", "1 b 1"), "do not match"},
		{line001(1, "A", 2000, "1.0", "9 w 1"), "unknown opponent 9"},
	} {
		_, err := trf.StandingsInput(parseTRF(t, trfHead+c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) || arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("error %v, want EINVALID with %q", err, c.want)
		}
	}
}
