package trf

import (
	"strings"
	"testing"

	"arbiter"
	"github.com/google/go-cmp/cmp"
)

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

// A player line laid out by hand from the TRF-2016 column table.
func TestParsePlayerRecord(t *testing.T) {
	//          1         2         3         4         5         6         7         8         9        10        11
	// 12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789
	src := "001   12 wWGM Doe, Jane                         2345 NOR     1503014 1990/05/17  2.5    7     3 w 1     0 - H    15 b =     4 b -  0000 - U\n"
	f := mustParse(t, src)
	want := Player{
		ID: 12, Sex: "w", Title: "WGM", Name: "Doe, Jane", Rating: 2345, Fed: "NOR",
		FideID: "1503014", Birth: "1990/05/17", Points: arbiter.P(2.5), Rank: 7,
		Rounds: []Round{{3, 'w', '1'}, {0, '-', 'H'}, {15, 'b', '='}, {4, 'b', '-'}, {0, '-', 'U'}},
	}
	if len(f.Players) != 1 {
		t.Fatalf("got %d players", len(f.Players))
	}
	if d := cmp.Diff(want, f.Players[0]); d != "" {
		t.Errorf("player (-want +got):\n%s", d)
	}
	if f.Version != 2016 {
		t.Errorf("version %d, want 2016", f.Version)
	}
}
