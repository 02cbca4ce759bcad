package standings_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arbiter/internal/testshared"
	"arbiter/standings"
	"arbiter/trf"
)

// Every TRF file of the reference set converts, and the computed score of
// each player equals the file's points column (the README's sanity check
// holds for every file but the in-progress custom-scoring team file).
func TestTRFCorpusScores(t *testing.T) {
	files, err := filepath.Glob(testshared.Path(t, "reference", "trf", "*.trf"))
	if err != nil || len(files) < 10 {
		t.Fatalf("reference TRF files: %v %v", files, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		if name == "sharly_team_typea_trf26.trf" {
			continue
		}
		t.Run(strings.TrimSuffix(name, ".trf"), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			file, err := trf.Parse(f)
			if err != nil {
				t.Fatal(err)
			}
			in, err := trf.StandingsInput(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := trf.StandingsOptions(file)
			tbs, _ := standings.ParseTiebreaks([]string{"BH/C1", "BH", "SB", "DE", "ARO", "TPR", "PS", "AOB", "FB", "KS"})
			tbl, err := standings.Compute(in, tbs, opts)
			if err != nil {
				t.Fatal(err)
			}
			standings.CheckTotalOrder(t, tbl)
			points := map[string]string{}
			for _, p := range file.Players {
				points[strconv.Itoa(p.ID)] = p.Points.String()
			}
			for _, r := range tbl.Rows {
				if got := r.Score.String(); got != points[r.ID] {
					t.Errorf("player %s: score %s, file says %s", r.ID, got, points[r.ID])
				}
			}
		})
	}
}
