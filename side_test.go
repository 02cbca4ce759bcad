package arbiter

import "testing"

func TestSide(t *testing.T) {
	t.Parallel()
	m := Match{Home: "p1", Away: "p2"}
	for _, c := range []struct {
		s     Side
		other Side
		index int
		id    string
	}{{Home, Away, 0, "p1"}, {Away, Home, 1, "p2"}, {"", "", 0, ""}} {
		if c.s.Other() != c.other || c.s.Valid() != (c.s != "") || m.Entrant(c.s) != c.id || m.SideOf(c.id) != c.s {
			t.Errorf("side %q: other %q, valid %v, entrant %q, side of %q: %q", c.s, c.s.Other(), c.s.Valid(), m.Entrant(c.s), c.id, m.SideOf(c.id))
		}
		if c.s.Valid() && (c.s.Index() != c.index || SideAt(c.index) != c.s) {
			t.Errorf("side %q: index %d, at %q", c.s, c.s.Index(), SideAt(c.index))
		}
	}
	bye := Match{Home: "p1"}
	if bye.SideOf("") != "" || bye.Entrant(Away) != "" {
		t.Error("a bye's away side is no one")
	}
}
