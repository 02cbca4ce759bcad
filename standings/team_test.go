package standings

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"arbiter"
	"arbiter/internal/testshared"
)

// loadHeldTeam reads the compact crosstable of the FIDE TEC team exercise
// (held_team_swiss.csv): cells "<opp><w|b><GP>", +F / -F forfeits, PAB, HPB,
// ZPB with the values the paper gives (PAB, HPB 1 MP / 2 GP; +F 2 / 4).
func loadHeldTeam(t *testing.T) Input {
	t.Helper()
	f, err := os.Open(testshared.Path(t, "reference", "trf", "held_team_swiss.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := Input{Scoring: Scoring{Win: 2 * arbiter.Point, Draw: arbiter.Point, Loss: 0, SecondaryWin: 4 * arbiter.Point, SecondaryDraw: 2 * arbiter.Point}}
	type cell struct {
		opp    string
		colour Colour
		gp     arbiter.Points
		code   string
	}
	var grid [][]cell
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "team,") || line == "" {
			continue
		}
		fs := strings.Split(line, ",")
		id, _ := strconv.Atoi(fs[0])
		in.Entrants = append(in.Entrants, Entrant{ID: fs[0], Name: fs[1], Seed: id})
		var row []cell
		for _, c := range fs[4:] {
			switch c {
			case "+F", "-F", "PAB", "HPB", "ZPB":
				row = append(row, cell{code: c})
				continue
			}
			k := strings.IndexAny(c, "wb")
			gp, err := arbiter.ParsePoints(c[k+1:])
			if err != nil {
				t.Fatalf("cell %q: %v", c, err)
			}
			row = append(row, cell{opp: c[:k], colour: Colour(c[k : k+1]), gp: gp})
		}
		grid = append(grid, row)
	}
	mp := func(gp arbiter.Points) arbiter.Points {
		switch {
		case gp > 2*arbiter.Point:
			return 2 * arbiter.Point
		case gp == 2*arbiter.Point:
			return arbiter.Point
		}
		return 0
	}
	in.Rounds = make([][]Result, len(grid[0]))
	for r := range in.Rounds {
		forfeitWinner := ""
		forfeitLoser := ""
		for i, row := range grid {
			id := in.Entrants[i].ID
			c := row[r]
			switch c.code {
			case "PAB":
				in.Rounds[r] = append(in.Rounds[r], Result{A: Side{ID: id, MatchPoints: arbiter.Point, Secondary: 2 * arbiter.Point}, Decision: PairingBye})
			case "HPB":
				in.Rounds[r] = append(in.Rounds[r], Result{A: Side{ID: id, MatchPoints: arbiter.Point, Secondary: 2 * arbiter.Point}, Decision: HalfBye})
			case "ZPB":
				in.Rounds[r] = append(in.Rounds[r], Result{A: Side{ID: id}, Decision: ZeroBye})
			case "+F":
				forfeitWinner = id
			case "-F":
				forfeitLoser = id
			default:
				o, _ := strconv.Atoi(c.opp)
				if o < i+1 {
					continue
				}
				oc := grid[o-1][r]
				in.Rounds[r] = append(in.Rounds[r], Result{
					A: Side{ID: id, MatchPoints: mp(c.gp), Secondary: c.gp, Colour: c.colour},
					B: Side{ID: c.opp, MatchPoints: mp(oc.gp), Secondary: oc.gp, Colour: oc.colour},
				})
			}
		}
		if forfeitWinner != "" {
			in.Rounds[r] = append(in.Rounds[r], Result{
				A:        Side{ID: forfeitWinner, MatchPoints: 2 * arbiter.Point, Secondary: 4 * arbiter.Point},
				B:        Side{ID: forfeitLoser},
				Decision: ForfeitWin,
			})
		}
	}
	return in
}

// heldExpected returns a section of held_exercises.expected.json.
func heldExpected(t *testing.T, file string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(testshared.Path(t, "reference", "trf", "held_exercises.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var sec map[string]json.RawMessage
	if err := json.Unmarshal(all[file], &sec); err != nil {
		t.Fatalf("section %s: %v", file, err)
	}
	return sec
}

// values decodes a {"id": number-or-string} map into Points.
func values(t *testing.T, raw json.RawMessage) map[string]arbiter.Points {
	t.Helper()
	var m map[string]*arbiter.Points // null = no value defined
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	out := make(map[string]arbiter.Points, len(m))
	for k, v := range m {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}

// column computes one tiebreak for every entrant.
func column(t *testing.T, in Input, opts Options, id string) map[string]arbiter.Points {
	t.Helper()
	tb, err := ParseTiebreak(id)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := Compute(in, []Tiebreak{tb}, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]arbiter.Points{}
	for _, r := range tbl.Rows {
		out[r.ID] = r.Values[0]
	}
	return out
}

func checkColumn(t *testing.T, name string, got, want map[string]arbiter.Points) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: no expected values", name)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s of %s = %v, want %v", name, id, got[id], w)
		}
	}
}

func TestHeldTeamSwiss(t *testing.T) {
	in := loadHeldTeam(t)
	exp := heldExpected(t, "held_team_swiss.csv")
	var r24, r26 map[string]json.RawMessage
	json.Unmarshal(exp["rules2024"], &r24)
	json.Unmarshal(exp["rules2026"], &r26)
	o24 := Options{Edition: Edition2024}
	o26 := Options{Edition: Edition2026}

	checkColumn(t, "MP", column(t, in, o24, "match_points"), values(t, exp["MP"]))
	checkColumn(t, "GP", column(t, in, o24, "overall_game_score"), values(t, exp["GP"]))
	for label, id := range map[string]string{
		"BH:MP": "BH:MP", "BH:MP/C1": "BH:MP/C1", "BH:GP": "BH:GP", "BH:GP/C1": "BH:GP/C1",
		"EMMSB/C1(ex38)": "SB/C1", "EGGSB(ex41)": "SB:GP",
		"EGMSB(ex39)": "EGMSB", "EMGSB(ex40)": "EMGSB",
		"SSSC(ex49, FN=3, Held prints 1 decimal)": "SSSC",
	} {
		checkColumn(t, label+" 2024", column(t, in, o24, id), values(t, r24[label]))
	}
	for label, id := range map[string]string{"BH:MP": "BH", "BH:MP/C1": "BH/C1", "EMMSB/C1": "EMMSB/C1", "EMGSB": "EMGSB"} {
		checkColumn(t, label+" 2026", column(t, in, o26, id), values(t, r26[label]))
	}
	var gp map[string]arbiter.Points
	var bhgp map[string]string
	json.Unmarshal(r26["BH:GP(team 1)"], &bhgp)
	want, _ := arbiter.ParsePoints(bhgp["forfeit_opponent_known_(team 6, cap 16.4.1)"])
	gp = column(t, in, o26, "BH:GP")
	if gp["1"] != want {
		t.Errorf("BH:GP 2026 of team 1 = %v, want %v (16.4.1 cap by team 6)", gp["1"], want)
	}
	// EGMSB and EGGSB of team 1 under 2026 with the forfeiting opponent known (16.4.1).
	for label, id := range map[string]string{"EGMSB(team 1)": "EGMSB", "EGGSB(team 1)": "EGGSB"} {
		var m map[string]string
		if err := json.Unmarshal(r26[label], &m); err != nil {
			t.Fatal(err)
		}
		want, err := arbiter.ParsePoints(m["16.4.1"])
		if err != nil {
			t.Fatal(err)
		}
		if got := column(t, in, o26, id)["1"]; got != want {
			t.Errorf("%s 2026 of team 1 = %v, want %v", label, got, want)
		}
	}

	// Ranking by MP then GP (exercise 34) and by GP then MP.
	order := func(primaryGP bool) []string {
		var tbs []Tiebreak
		if primaryGP {
			tbs = []Tiebreak{{ID: OverallGameScore}, {ID: MatchPoints}}
			// Rank with GP as the primary score: swap the two scores.
			cp := in
			cp.Rounds = make([][]Result, len(in.Rounds))
			for r, rs := range in.Rounds {
				for _, x := range rs {
					x.A.MatchPoints, x.A.Secondary = x.A.Secondary, x.A.MatchPoints
					x.B.MatchPoints, x.B.Secondary = x.B.Secondary, x.B.MatchPoints
					cp.Rounds[r] = append(cp.Rounds[r], x)
				}
			}
			tbl, err := Compute(cp, tbs[:1], o24)
			if err != nil {
				t.Fatal(err)
			}
			return ids(tbl)
		}
		tbl, err := Compute(in, []Tiebreak{{ID: OverallGameScore}}, o24)
		if err != nil {
			t.Fatal(err)
		}
		return ids(tbl)
	}
	var want34 []int
	json.Unmarshal(exp["order_MP_then_GP(ex34)"], &want34)
	if got := order(false); strings.Join(got, ",") != joinInts(want34) {
		t.Errorf("MP then GP order %v, want %v", got, want34)
	}
	json.Unmarshal(exp["order_GP_then_MP(ex34)"], &want34)
	if got := order(true); strings.Join(got, ",") != joinInts(want34) {
		t.Errorf("GP then MP order %v, want %v", got, want34)
	}
}

// TestHeldTeamEDE checks the extended direct encounter exercises 42-45:
// DE on match points, then on game points for the teams still tied.
func TestHeldTeamEDE(t *testing.T) {
	for _, list := range [][]string{{"DE", "DE:GP"}, {"EDE"}} {
		t.Run(strings.Join(list, ","), func(t *testing.T) { heldTeamEDE(t, list) })
	}
}

func heldTeamEDE(t *testing.T, list []string) {
	in := loadHeldTeam(t)
	tbs, err := ParseTiebreaks(list)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := Compute(in, tbs, Options{Edition: Edition2024})
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	for _, r := range tbl.Rows {
		rank[r.ID] = r.Rank
	}
	if got := strings.Join(ids(tbl)[:5], ","); got != "4,2,1,3,5" {
		t.Errorf("leaders %s, want 4,2,1,3,5", got)
	}
	if rank["11"] != rank["14"] {
		t.Errorf("teams 11 and 14 should stay tied: ranks %d %d", rank["11"], rank["14"])
	}
	if rank["7"] != rank["9"] || rank["9"] != rank["13"] {
		t.Errorf("teams 7, 9, 13 should stay tied: %d %d %d", rank["7"], rank["9"], rank["13"])
	}
	if rank["6"] >= rank["8"] {
		t.Errorf("team 6 (rank %d) should rank before team 8 (%d)", rank["6"], rank["8"])
	}
}

func ids(tbl Table) []string {
	var out []string
	for _, r := range tbl.Rows {
		out = append(out, r.ID)
	}
	return out
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}
