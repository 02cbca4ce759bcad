package standings

import (
	"strings"
	"testing"
)

func TestParseTiebreak(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"match_points", "match_points"},
		{"BH", "buchholz"},
		{"BH/C1", "buchholz/c1"},
		{"BH-C1", "buchholz/c1"},
		{"bh/m1", "buchholz/m1"},
		{"BH:MP/C2", "buchholz/c2"},
		{"BH:GP", "buchholz:gp"},
		{"SB/M2", "sonneborn_berger/m2"},
		{"DE", "direct_encounter"},
		{"WIN", "wins"},
		{"WON", "won"},
		{"BPG", "games_black"},
		{"PS/C1", "progressive/c1"},
		{"ARO/C1", "aro/c1"},
		{"TPR", "tpr"},
		{"KS", "koya"},
		{"AOB", "aob"},
		{"FB", "fore_buchholz"},
		{"td_value:previous_final", "td_value:previous_final"},
		{"  Median_Buchholz ", "median_buchholz"},
		{"EMMSB/C1", "sonneborn_berger/c1"},
		{"EGGSB", "sonneborn_berger:gp"},
		{"EMGSB", "sonneborn_berger:mg"},
		{"egmsb/c1", "sonneborn_berger:gm/c1"},
		{"sonneborn_berger:mg", "sonneborn_berger:mg"},
	} {
		tb, err := ParseTiebreak(c.in)
		if err != nil {
			t.Errorf("ParseTiebreak(%q): %v", c.in, err)
			continue
		}
		if got := tb.String(); got != c.want {
			t.Errorf("ParseTiebreak(%q) = %q, want %q", c.in, got, c.want)
		}
		again, err := ParseTiebreak(tb.String())
		if err != nil || again != tb {
			t.Errorf("round trip of %q: %v %v", tb, again, err)
		}
	}
}

func TestParseTiebreakErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"nonsense", "unknown tiebreak id"},
		{"td_value", "needs a key"},
		{"wins_vs_tied/c1", "no cut modifier"},
		{"buchholz/x1", "unknown modifier"},
		{"buchholz:zz", "mp or gp"},
		{"head_to_head:x", "no ':' parameter"},
		{"buchholz/c1/m1", "at most one"},
		{"buchholz:mg", "mp or gp"},
		{"EMGSB:gp", "no ':' parameter"},
		{"sonneborn_berger:xx", "mp, gp, mg or gm"},
		{"progressive/m1", "only /cN"},
	} {
		_, err := ParseTiebreak(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "rule tiebreak-id") {
			t.Errorf("ParseTiebreak(%q) error %v, want it to mention %q and the rule", c.in, err, c.want)
		}
	}
}
