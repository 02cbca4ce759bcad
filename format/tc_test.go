package format

import "testing"

func TestParseTimeControl(t *testing.T) {
	for _, c := range []struct {
		in        string
		base, inc int
		canon     string
	}{
		{"3+2", 180, 2, "3+2"},
		{"1.5+1", 90, 1, "1.5+1"},
		{"1,5+1", 90, 1, "1.5+1"},
		{"0.75+0", 45, 0, "0.75+0"},
		{"¾+0", 45, 0, "0.75+0"},
		{"3/4+0", 45, 0, "0.75+0"},
		{"0.5+1", 30, 1, "0.5+1"},
		{"½+1", 30, 1, "0.5+1"},
		{".5+1", 30, 1, "0.5+1"},
		{"1½+0", 90, 0, "1.5+0"},
		{"1/3+0", 20, 0, "1/3+0"},
		{"0+2", 0, 2, "0+2"},
		{" 2 + 5 ", 120, 5, "2+5"},
	} {
		tc, err := ParseTimeControl(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if tc.BaseSeconds != c.base || tc.IncrementSeconds != c.inc || tc.String() != c.canon {
			t.Errorf("%q = %+v %q, want %d+%d %q", c.in, tc, tc, c.base, c.inc, c.canon)
		}
	}
	for _, bad := range []string{"", "3", "3+", "+2", "a+2", "3+x", "3+-1", "-3+2", "0.001+0", "1/7+0", "3/0+0", "0+0", "3+1.5", "1..5+1"} {
		if _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("%q: want error", bad)
		}
	}
}
