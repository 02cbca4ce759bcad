package trf

import (
	"slices"
	"testing"

	"arbiter"
	"arbiter/internal/testshared"
)

func extra(t *testing.T, name string) *File {
	t.Helper()
	return parseFile(t, testshared.Path(t, "pairing-corpus", "extra", name+".trf"))
}

// Expected values below come from extra/extras.jsonl descriptions.
func TestExtraCases(t *testing.T) {
	t.Run("bye240", func(t *testing.T) { // "240 Z 003 11 5": players 11 and 5 absent in round 3; 9 has "0000 - H"
		f := extra(t, "bye240_t010_n015_R07_k02")
		if want := []ByeRecord{{Type: 'Z', Round: 3, IDs: []int{11, 5}}}; !slices.EqualFunc(f.Byes, want, func(a, b ByeRecord) bool {
			return a.Type == b.Type && a.Round == b.Round && slices.Equal(a.IDs, b.IDs)
		}) {
			t.Errorf("Byes = %+v, want %+v", f.Byes, want)
		}
		n := f.NextRound()
		if n.Round != 3 || !slices.Equal(n.Unavailable, []int{5, 9, 11}) || n.Byes[5] != 'Z' || n.Byes[11] != 'Z' || n.Byes[9] != 'H' {
			t.Errorf("NextRound = %+v, want round 3 with 5 and 11 absent, 9 on a half-point bye", n)
		}
	})
	t.Run("xxp", func(t *testing.T) {
		n := extra(t, "xxp_t018_n030_R07_k02").NextRound()
		if len(n.Forbidden) != 1 || !slices.Equal(n.Forbidden[0], []int{1, 7}) {
			t.Errorf("Forbidden = %v, want [[1 7]]", n.Forbidden)
		}
	})
	t.Run("r260", func(t *testing.T) { // 11-2 forbidden in round 3; 5-15 only in rounds 1-2
		f := extra(t, "r260_t018_n030_R07_k02")
		if len(f.ForbiddenPairs) != 2 || f.ForbiddenPairs[1].FirstRound != 1 || f.ForbiddenPairs[1].LastRound != 2 {
			t.Fatalf("ForbiddenPairs = %+v", f.ForbiddenPairs)
		}
		n := f.NextRound()
		if n.Round != 3 || len(n.Forbidden) != 1 || !slices.Equal(n.Forbidden[0], []int{11, 2}) {
			t.Errorf("round %d Forbidden = %v, want round 3 [[11 2]]", n.Round, n.Forbidden)
		}
	})
	t.Run("bbw", func(t *testing.T) { // BBW 3.0 / BBD 1.0
		ps := extra(t, "bbw_t011_n016_R09_k04").PointSystem
		if ps.Win != arbiter.P(3) || ps.Draw != arbiter.P(1) || ps.Loss != 0 || ps.PAB != arbiter.P(3) || ps.HalfBye != arbiter.P(1) {
			t.Errorf("PointSystem = %+v, want win 3 draw 1 loss 0, PAB 3 (BBU defaults to BBW)", ps)
		}
	})
	t.Run("baku", func(t *testing.T) {
		if f := extra(t, "baku_t022_n047_R09_k01"); f.TournamentCode != "FIDE_DUTCH_2025_BAKU" || f.Version != 2026 {
			t.Errorf("192 = %q, version %d", f.TournamentCode, f.Version)
		}
	})
	// Players 1-24 get 1.0 fictitious point in rounds 1-3, by XXA or by 250.
	for _, name := range []string{"xxa_t022_n047_R09_k03", "r250_t022_n047_R09_k03"} {
		t.Run(name, func(t *testing.T) {
			f := extra(t, name)
			for id := 1; id <= 47; id++ {
				for r := 1; r <= 5; r++ {
					want := arbiter.Points(0)
					if id <= 24 && r <= 3 {
						want = arbiter.Point
					}
					if got := f.Acceleration(id, r); got != want {
						t.Errorf("Acceleration(%d, %d) = %s, want %s", id, r, got, want)
					}
				}
			}
		})
	}
	t.Run("crlf", func(t *testing.T) { // same case as cases/t026_n099_R08_k03 with CRLF
		f := extra(t, "crlf_t026_n099_R08_k03")
		g := parseFile(t, testshared.Path(t, "pairing-corpus", "cases", "t026_n099_R08_k03.trf"))
		if d := diffFiles(f, g); d != "" {
			t.Errorf("CRLF file differs from the LF one:\n%s", d)
		}
	})
	t.Run("inferred colour", func(t *testing.T) { // the XXC line removed from t014_n020_R07_k02
		f := extra(t, "inferred_color_t014_n020_R07_k02")
		g := parseFile(t, testshared.Path(t, "pairing-corpus", "cases", "t014_n020_R07_k02.trf"))
		if f.InitialColour != 0 || g.InitialColour == 0 || f.InferredInitialColour() != g.InitialColour {
			t.Errorf("inferred %q, XXC of the original %q", f.InferredInitialColour(), g.InitialColour)
		}
	})
	t.Run("round1_152B", func(t *testing.T) { // 142 7, 152 B, 11 players, round 1
		f := extra(t, "round1_152B")
		n := f.NextRound()
		if f.TotalRounds != 7 || f.InitialColour != 'b' || f.Version != 2026 || len(f.Players) != 11 || n.Round != 1 {
			t.Errorf("rounds %d colour %q version %d players %d round %d", f.TotalRounds, f.InitialColour, f.Version, len(f.Players), n.Round)
		}
	})
	t.Run("issue30", func(t *testing.T) { // players 1 and 9 absent in round 1
		n := extra(t, "issue30_round1_absent_top").NextRound()
		if n.Round != 1 || !slices.Equal(n.Unavailable, []int{1, 9}) {
			t.Errorf("round %d unavailable %v, want round 1 [1 9]", n.Round, n.Unavailable)
		}
	})
	t.Run("repo_issue_7 CR", func(t *testing.T) { // CR line endings, last round to pair
		f := extra(t, "repo_issue_7")
		if f.TotalRounds != 15 || f.NextRound().Round != 15 || len(f.Players) < 60 {
			t.Errorf("rounds %d next %d players %d", f.TotalRounds, f.NextRound().Round, len(f.Players))
		}
	})
}
