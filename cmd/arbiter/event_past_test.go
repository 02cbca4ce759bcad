package main

import (
	"strings"
	"testing"
)

// TestEventCreatePastAndZones: a start without its zone is refused (it is
// never stored as if it were UTC), and a start in the past needs
// --allow-past.
func TestEventCreatePastAndZones(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--start", "2031-03-17T18:00"}, 3, `"2031-03-17T18:00" has no zone: write it in UTC with a Z`},
		{[]string{"--start", "2031-03-17"}, 3, "has no zone"},
		{[]string{"--start", "2020-03-17T18:00Z"}, 3, "the first round's start, Tuesday 2020-03-17 18:00 UTC, is in the past"},
		{[]string{"--start", "2031-03-17T20:00+02:00"}, 0, "first round from 2031-03-17T18:00:00Z"},
		{[]string{"--start", "2020-03-17T18:00Z", "--allow-past", "--name", "Old"}, 0, "first round from 2020-03-17T18:00:00Z"},
	} {
		slug := "wc"
		if c.code == 0 {
			slug += strings.TrimPrefix(c.args[1][:4], "20")
		}
		code, stdout, stderr := runCLI(t, "", append([]string{"event", "create", slug, "--preset", "acwc-2023", "--db", db}, c.args...)...)
		if code != c.code || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("%v: exit %d (want %d)\n%s%s\nwant %q", c.args, code, c.code, stdout, stderr, c.want)
		}
	}
}
