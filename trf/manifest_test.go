package trf

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"arbiter"
	"arbiter/internal/testshared"
)

// manifestCase is one line of pairing-corpus/manifest.jsonl (the fields
// this package can check).
type manifestCase struct {
	Case        string   `json:"case"`
	Kind        string   `json:"kind"`
	TRF         string   `json:"trf"`
	Players     int      `json:"players"`
	RoundsTotal int      `json:"rounds_total"`
	Played      int      `json:"rounds_played"`
	ToPair      int      `json:"to_pair"`
	Preassigned []int    `json:"preassigned_next_round"`
	Colour      string   `json:"initial_color"`
	ExpectedRC  int      `json:"expected_rc"`
	Pairs       [][2]int `json:"pairs"`
	Bye         int      `json:"bye"`
	PointsX10   struct {
		W, D, L, Z, F, P int64
	} `json:"points_x10"`
}

func readManifest(t *testing.T) []manifestCase {
	t.Helper()
	r, err := os.Open(testshared.Path(t, "pairing-corpus", "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []manifestCase
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c manifestCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The manifest was written by the corpus generator, independently of this
// package: rounds played, players to pair, pre-assigned byes, initial colour
// and point system must agree with what the parser reads, and the points
// column must equal the sum of the results of the played rounds.
func TestManifestAgrees(t *testing.T) {
	n := 0
	for _, c := range readManifest(t) {
		if c.Kind != "generated" {
			continue
		}
		n++
		f := parseFile(t, testshared.Path(t, "pairing-corpus", c.TRF))
		next := f.NextRound()
		if len(f.Players) != c.Players || f.TotalRounds != c.RoundsTotal || next.Played != c.Played {
			t.Errorf("%s: players %d rounds %d played %d, manifest %d %d %d", c.Case,
				len(f.Players), f.TotalRounds, next.Played, c.Players, c.RoundsTotal, c.Played)
		}
		want := append([]int{}, c.Preassigned...)
		slices.Sort(want)
		if !slices.Equal(next.Unavailable, want) {
			t.Errorf("%s: unavailable %v, manifest %v", c.Case, next.Unavailable, want)
		}
		if got := len(f.Players) - len(next.Unavailable) - 2*len(next.Paired); got != c.ToPair {
			t.Errorf("%s: %d to pair, manifest %d", c.Case, got, c.ToPair)
		}
		if string(f.InitialColour) != c.Colour {
			t.Errorf("%s: initial colour %q, manifest %q", c.Case, f.InitialColour, c.Colour)
		}
		if c.Played > 0 {
			g := *f
			g.InitialColour = 0
			if got := g.InferredInitialColour(); string(got) != c.Colour {
				t.Errorf("%s: inferred initial colour %q, manifest %q", c.Case, got, c.Colour)
			}
		}
		ps := f.PointSystem
		x := c.PointsX10
		got := [6]arbiter.Points{ps.Win, ps.Draw, ps.Loss, ps.ZeroBye, ps.ForfeitLoss, ps.PAB}
		wantPS := [6]arbiter.Points{arbiter.Points(x.W * 10), arbiter.Points(x.D * 10), arbiter.Points(x.L * 10), arbiter.Points(x.Z * 10), arbiter.Points(x.F * 10), arbiter.Points(x.P * 10)}
		if got != wantPS {
			t.Errorf("%s: point system W D L Z F P = %v, manifest %v", c.Case, got, wantPS)
		}
		for _, p := range f.Players {
			if s := p.ScoreAfter(ps, next.Played); s != p.Points {
				t.Errorf("%s: player %d points column %s, results of rounds 1-%d sum to %s", c.Case, p.ID, p.Points, next.Played, s)
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d generated cases in the manifest", n)
	}
}

// The points column equals the sum of the round results for every file the
// READMEs call consistent: the full generated tournaments and the reference
// files except the in-progress Sharly team file.
func TestPointsColumnConsistent(t *testing.T) {
	files, _ := filepath.Glob(testshared.Path(t, "pairing-corpus", "full", "*.trf"))
	ref, _ := filepath.Glob(testshared.Path(t, "reference", "trf", "*.trf"))
	for _, path := range append(files, ref...) {
		if filepath.Base(path) == "sharly_team_typea_trf26.trf" {
			continue
		}
		f := parseFile(t, path)
		for _, p := range f.Players {
			if s := p.Score(f.PointSystem); s != p.Points {
				t.Errorf("%s: player %d points column %s, results sum to %s", filepath.Base(path), p.ID, p.Points, s)
			}
		}
	}
}

// The reference engine paired exactly the players NextRound leaves
// available: everyone minus the pre-assigned byes and absences.
func TestManifestPairsAvailablePlayers(t *testing.T) {
	for _, c := range readManifest(t) {
		if c.ExpectedRC != 0 {
			continue
		}
		f := parseFile(t, testshared.Path(t, "pairing-corpus", c.TRF))
		next := f.NextRound()
		var paired []int
		for _, p := range c.Pairs {
			paired = append(paired, p[0], p[1])
		}
		if c.Bye != 0 {
			paired = append(paired, c.Bye)
		}
		slices.Sort(paired)
		var avail []int
		for _, p := range f.Players {
			if _, out := next.Byes[p.ID]; !out {
				avail = append(avail, p.ID)
			}
		}
		slices.Sort(avail)
		if !slices.Equal(paired, avail) {
			t.Errorf("%s: reference paired %v, NextRound leaves %v available", c.Case, paired, avail)
		}
	}
}
