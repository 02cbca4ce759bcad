package trf

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
)

func TestValidate(t *testing.T) {
	// Two players, round 1 at cols 92-99; p1 is line 2, p2 line 3.
	const head = "012 v\n"
	p1 := "001    1                                                                         1.0          2 w 1"
	p2 := "001    2                                                                         0.0          1 b 0"
	tests := []struct {
		name  string
		a, b  string
		field string // "" = valid
		msg   string
	}{
		{"consistent", p1, p2, "", ""},
		{"double forfeit", setCols(p1, 97, "w -"), setCols(p2, 97, "b -"), "", ""},
		{"forfeit", setCols(p1, 99, "+"), setCols(p2, 99, "-"), "", ""},
		{"unrated draw", setCols(p1, 99, "D"), setCols(p2, 99, "D"), "", ""},
		{"pending game", setCols(p1, 99, " "), setCols(p2, 99, " "), "", ""},
		{"missing opponent", setCols(p1, 92, "   3"), p2, "line 2 col 92", "opponent 3 has no 001 record"},
		{"asymmetric", p1, setCols(p2, 92, "0000 - U"), "line 2 col 92", "2's entry names 0"},
		{"same colour", p1, setCols(p2, 97, "w"), "line 2 col 92", "colours w and w"},
		{"both won", p1, setCols(p2, 99, "1"), "line 2 col 92", "results '1' and '1'"},
		{"self", setCols(p1, 92, "   1"), p2, "line 2 col 92", "against itself"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := mustParse(t, head+tc.a+"\n"+tc.b).Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var ae *arbiter.Error
			if !errors.As(err, &ae) || ae.Code != arbiter.EINVALID || ae.Field != tc.field || !strings.Contains(ae.Message, tc.msg) {
				t.Fatalf("got %v, want EINVALID at %s containing %q", err, tc.field, tc.msg)
			}
		})
	}
}
