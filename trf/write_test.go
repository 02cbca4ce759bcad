package trf

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"arbiter"
)

// basePlayer is the player of the hand-laid-out line base.
func basePlayer() Player {
	return Player{
		ID: 12, Sex: "w", Title: "WGM", Name: "Doe, Jane", Rating: 2345, Fed: "NOR",
		FideID: "1503014", Birth: "1990/05/17", Points: arbiter.P(2.5), Rank: 7,
		Rounds: []Round{{3, 'w', '1'}, {0, '-', 'H'}, {15, 'b', '='}, {4, 'b', '-'}, {0, '-', 'U'}},
	}
}

func writeString(t *testing.T, f *File) string {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

// A File built in code is written in the layout of its Version.
func TestWriteBuiltFile(t *testing.T) {
	// base, with the bye's opponent written as 0000 (both forms mean none).
	written := strings.Replace(base, "     0 - H", "  0000 - H", 1)
	for _, tc := range []struct {
		version int
		want    []string
		absent  []string
	}{
		{2026, []string{"012 Built", "142 5", "152 W", "162  W 3.0    D 1.0    L 0.0", "260   2   4    1   12", written}, []string{"XXR", "XXC", "BBW", "XXP"}},
		{2016, []string{"012 Built", "XXR 5", "XXC white1", "BBW  3.0", "BBD  1.0", "XXP 1 12", written}, []string{"142", "152", "162", "260"}},
	} {
		f := &File{
			Version: tc.version, Name: "Built", TotalRounds: 5, InitialColour: 'w',
			PointSystem: PointSystem{Win: arbiter.P(3), Draw: arbiter.P(1), ForfeitWin: arbiter.P(3), PAB: arbiter.P(3), FullBye: arbiter.P(3), HalfBye: arbiter.P(1)},
			Players:     []Player{basePlayer()},
		}
		if tc.version == 2026 {
			f.ForbiddenPairs = []Forbidden{{FirstRound: 2, LastRound: 4, IDs: []int{1, 12}}}
		} else {
			f.ForbiddenPairs = []Forbidden{{IDs: []int{1, 12}}}
		}
		out := writeString(t, f)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				found = found || l == w
			}
			if !found {
				t.Errorf("version %d: line %q missing from\n%s", tc.version, w, out)
			}
		}
		for _, a := range tc.absent {
			if strings.Contains(out, "\n"+a) || strings.HasPrefix(out, a) {
				t.Errorf("version %d: unexpected %s record in\n%s", tc.version, a, out)
			}
		}
		if lines[0] != "012 Built" || lines[len(lines)-1] != written {
			t.Errorf("version %d: header first and players last, got\n%s", tc.version, out)
		}
		g := mustParse(t, out)
		if g.Version != tc.version || g.TotalRounds != 5 || g.InitialColour != 'w' || g.PointSystem != f.PointSystem {
			t.Errorf("version %d: re-parsed %d %d %q %+v", tc.version, g.Version, g.TotalRounds, g.InitialColour, g.PointSystem)
		}
	}
}

// A point system no single record can carry gets an XXS line.
func TestWriteXXSFallback(t *testing.T) {
	ps := DefaultPointSystem()
	ps.ForfeitLoss = arbiter.P(-1) // 162 has one value (A) for zero-point bye and forfeit loss
	ps.HalfBye = arbiter.P(0.75)
	f := mustParse(t, "162  W 1.0    D 0.5    L 0.0")
	f.PointSystem = ps
	out := writeString(t, f)
	if !strings.Contains(out, "XXS ") {
		t.Errorf("no XXS line in\n%s", out)
	}
	if g := mustParse(t, out); g.PointSystem != ps {
		t.Errorf("re-parsed %+v, want %+v", g.PointSystem, ps)
	}
}

func TestWriteErrors(t *testing.T) {
	long := basePlayer()
	long.Name = strings.Repeat("x", 34)
	rating := basePlayer()
	rating.Rating = 10000
	colour := basePlayer()
	colour.Rounds[0].Colour = 'x'
	newline := &File{Name: "a\nb"}
	for _, tc := range []struct {
		name  string
		f     *File
		field string
	}{
		{"name too long", &File{Players: []Player{long}}, "player 12 Name"},
		{"rating too big", &File{Players: []Player{rating}}, "player 12 Rating"},
		{"bad colour", &File{Players: []Player{colour}}, "player 12 round 1 Colour"},
		{"line break", newline, "record 012"},
		{"bad bye type", &File{Byes: []ByeRecord{{Type: 'Q', Round: 1}}}, "Byes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f.Write(&bytes.Buffer{})
			var ae *arbiter.Error
			if !errors.As(err, &ae) || ae.Code != arbiter.EINVALID || ae.Field != tc.field {
				t.Errorf("got %v, want EINVALID on %s", err, tc.field)
			}
		})
	}
}
