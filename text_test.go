package arbiter

import (
	"strings"
	"testing"
	"time"
)

func TestCleanName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: "  Zugzwang Club ", want: "Zugzwang Club"},
		{in: "Échecs à Paris", want: "Échecs à Paris"},
		{in: "東京チェス", want: "東京チェス"},
		{in: "", bad: true},
		{in: "    ", bad: true},
		{in: "\u00a0\u3000", bad: true},         // no-break and ideographic spaces only
		{in: "\u200b\u200b", bad: true},         // zero-width spaces only
		{in: "Team\u202Egnp.exe", bad: true},    // right-to-left override
		{in: "Team\u2066x\u2069", bad: true},    // isolates
		{in: "Te\u200dam", bad: true},           // zero-width joiner
		{in: "Team\u00adOne", bad: true},        // soft hyphen
		{in: "Team\ufeff", want: "", bad: true}, // byte-order mark
		{in: "Team\tOne", bad: true},            // tab
		{in: "Team\nOne", bad: true},            // line break
		{in: "Team\x00", bad: true},             // NUL
		{in: "Team\x1b[31m", bad: true},         // terminal escape
		{in: "Team\u2028One", bad: true},        // line separator
		{in: "bad\xffutf8", bad: true},          // not UTF-8
		{in: strings.Repeat("é", 100), want: strings.Repeat("é", 100)},
		{in: strings.Repeat("é", 101), bad: true}, // characters, not bytes
	} {
		got, err := CleanName("name", tc.in, MaxName)
		if tc.bad {
			if err == nil || ErrorCode(err) != EINVALID {
				t.Errorf("CleanName(%q) = %q, %v; want EINVALID", tc.in, got, err)
			} else if e := err.(*Error); e.Field != "name" || e.Rule != "text.name" {
				t.Errorf("CleanName(%q): field %q rule %q", tc.in, e.Field, e.Rule)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CleanName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCleanText(t *testing.T) {
	t.Parallel()
	got, err := CleanText("reason", " line one\r\nline two\twith a tab \n", MaxReason)
	if err != nil || got != "line one\nline two\twith a tab" {
		t.Errorf("CleanText = %q, %v", got, err)
	}
	// Emoji sequences keep their joiners.
	if got, err := CleanText("reason", "well played 👨\u200d👩\u200d👧", MaxReason); err != nil || !strings.Contains(got, "\u200d") {
		t.Errorf("emoji: %q, %v", got, err)
	}
	for _, in := range []string{"a\u202Eb", "a\x07b", "a\u2067b", "bad\xff", strings.Repeat("x", MaxReason+1)} {
		if _, err := CleanText("reason", in, MaxReason); ErrorCode(err) != EINVALID {
			t.Errorf("CleanText(%.20q): %v, want EINVALID", in, err)
		}
	}
	if got, err := CleanText("reason", "   ", MaxReason); err != nil || got != "" {
		t.Errorf("blank: %q, %v (the caller decides whether text is required)", got, err)
	}
}

func TestCheckLichessUsername(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"ab", "DrNykterstein", "Sneaky_Fox-77", "9lives", strings.Repeat("a", 30)} {
		if err := CheckLichessUsername("members[0]", ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a", strings.Repeat("a", 31), "_lead", "-lead", "has space", "dot.name", "td@local", "émile", "a\u202Eb"} {
		err := CheckLichessUsername("members[0]", bad)
		e, _ := err.(*Error)
		if e == nil || e.Code != EINVALID || e.Field != "members[0]" || e.Rule != "lichess.username" {
			t.Errorf("%q: %v, want EINVALID on members[0] (lichess.username)", bad, err)
		}
	}
}

func TestCheckDate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, ok := range []time.Time{now, now.AddDate(9, 0, 0), now.AddDate(-9, 0, 0)} {
		if err := CheckDate("start", ok, now); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, bad := range []time.Time{{}, time.Date(0, 1, 3, 0, 0, 0, 0, time.UTC), time.Unix(0, 0), time.Date(9999, 12, 27, 0, 0, 0, 0, time.UTC)} {
		err := CheckDate("start", bad, now)
		if e, _ := err.(*Error); e == nil || e.Field != "start" || e.Rule != "date.window" {
			t.Errorf("%v: %v, want EINVALID on start (date.window)", bad, err)
		}
	}
}
