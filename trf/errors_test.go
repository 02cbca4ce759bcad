package trf

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"arbiter"
)

// base is a valid 001 line (see TestParsePlayerRecord for its columns).
const base = "001   12 wWGM Doe, Jane                         2345 NOR     1503014 1990/05/17  2.5    7     3 w 1     0 - H    15 b =     4 b -  0000 - U"

// setCols returns line with text written from column col (1-based).
func setCols(line string, col int, text string) string {
	for len(line) < col-1+len(text) {
		line += " "
	}
	return line[:col-1] + text + line[col-1+len(text):]
}

func TestSyntaxErrors(t *testing.T) {
	other := strings.Replace(base, "  12", "  13", 1)
	tests := []struct {
		name      string
		src       string
		line, col int
		field     string // substring of SyntaxError.Field
	}{
		{"start rank not a number", setCols(base, 5, "  x2"), 1, 7, "starting rank"},
		{"start rank missing", setCols(base, 5, "    "), 1, 5, "starting rank"},
		{"start rank zero", setCols(base, 5, "0000"), 1, 5, "starting rank"},
		{"duplicate start rank", "012 T\n" + base + "\n" + base, 3, 5, "starting rank"},
		{"rating", setCols(base, 49, "23a5"), 1, 49, "rating (cols 49-52)"},
		{"points", setCols(base, 81, "2.x5"), 1, 81, "points (cols 81-84)"},
		{"rank", setCols(base, 86, "  -7"), 1, 88, "rank (cols 86-89)"},
		{"shifted name", setCols(base, 48, "X"), 1, 48, "001 player"},
		{"round 2 colour", setCols(base, 107, "x"), 1, 107, "round 2 colour"},
		{"round 3 result", setCols(base, 119, "?"), 1, 119, "round 3 result"},
		{"round 1 opponent", setCols(base, 92, "  3a"), 1, 94, "round 1 opponent"},
		{"round 4 shifted", setCols(base, 126, "b"), 1, 126, "round 4"},
		{"second player bad", base + "\r\n" + setCols(other, 99, "5"), 2, 99, "round 1 result"},
		{"XXR not a number", "012 T\nXXR nine", 2, 5, "XXR number of rounds"},
		{"XXR empty", "XXR", 1, 5, "XXR number of rounds"},
		{"XXR and 142 disagree", "XXR 9\r142 7", 2, 5, "142 number of rounds"},
		{"identifier not followed by blank", "XXR9", 1, 4, "XXR record"},
		{"152 colour", "152 X", 1, 5, "152 initial colour"},
		{"XXC colour", "XXC purple1", 1, 5, "XXC initial colour"},
		{"XXC and 152 disagree", "XXC white1\n152 B", 2, 5, "152 initial colour"},
		{"162 symbol", "162  W 1.0    Q 0.5", 1, 15, "162 scoring system"},
		{"162 value", "162  W 1.0    D x.5", 1, 17, "162 scoring system"},
		{"162 missing value", "162  W", 1, 6, "162 scoring system"},
		{"BBW value", "BBW  three", 1, 6, "BBW points"},
		{"XXS code", "XXS W=1.0 Q=2", 1, 11, "XXS scoring"},
		{"362 value", "362 TW 2.0   TD one", 1, 17, "362 team scoring"},
		{"240 type", "240 Q   3    1", 1, 5, "240 bye type"},
		{"240 round", "240 H  x3    1", 1, 8, "240 bye round"},
		{"240 id", "240 H   3    1   2x", 1, 18, "240 bye"},
		{"250 points", "250  1.0 1.y   1   3    1   24", 1, 10, "250 acceleration game points"},
		{"260 one id", "260   1   3    5", 1, 13, "260 prohibited pairing"},
		{"260 reversed rounds", "260   4   3    5    6", 1, 9, "260 prohibited pairing"},
		{"XXP one id", "XXP 4", 1, 5, "XXP forbidden pair"},
		{"XXP not a number", "XXP 4 seven", 1, 7, "XXP forbidden pair"},
		{"XXZ", "XXZ 3 4.5", 1, 7, "XXZ absent players"},
		{"XXA points", "XXA    1  1.0  one", 1, 16, "XXA acceleration"},
		{"310 match points", "310   1 India                            IND     2486   1x.0   28.0  11     1    5   15   28   44", 1, 57, "310 team match points"},
		{"310 member", "310   1 India                            IND     2486   15.0   28.0  11     1    5   1y   28   44", 1, 86, "310 team members"},
		{"013 member", "013 Armenia                           16   56   3x", 1, 49, "013 team members"},
		{"320 team", "320  2.0  4.0 011 0x9", 1, 19, "320 team bye round 2"},
		{"330 result", "330 ++   4  23  33", 1, 5, "330 forfeited match"},
		{"330 fields", "330 +-   4  23", 1, 5, "330 forfeited match"},
		{"300 player", "300   1   1   3   10   15    7   1x", 1, 34, "300 board order"},
		{"132 grid", "132" + strings.Repeat(" ", 85) + "24/12/01", 1, 89, "132 round dates"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(strings.NewReader(tc.src))
			if err == nil {
				t.Fatalf("no error; parsed %+v", f)
			}
			if f != nil {
				t.Errorf("a file is returned with the error")
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *SyntaxError", err, err)
			}
			if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Field, tc.field) {
				t.Errorf("got line %d col %d field %q (%v), want line %d col %d field ~%q", se.Line, se.Col, se.Field, err, tc.line, tc.col, tc.field)
			}
			var ae *arbiter.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error does not match *arbiter.Error")
			}
			if ae.Code != arbiter.EINVALID || ae.Field != fmt.Sprintf("line %d col %d", tc.line, tc.col) || ae.Message == "" {
				t.Errorf("arbiter.Error = %+v", ae)
			}
			if arbiter.ErrorCode(err) != arbiter.EINVALID {
				t.Errorf("ErrorCode = %q", arbiter.ErrorCode(err))
			}
		})
	}
}

// A wrapped SyntaxError still reports its position through the chain.
func TestSyntaxErrorWrapped(t *testing.T) {
	_, err := Parse(strings.NewReader("XXR x"))
	wrapped := fmt.Errorf("loading t.trf: %w", err)
	var ae *arbiter.Error
	if !errors.As(wrapped, &ae) || ae.Field != "line 1 col 5" {
		t.Fatalf("errors.As through a wrapper: %v", ae)
	}
	if want := "line 1 col 5: XXR number of rounds: want a whole number, found \"x\""; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}
