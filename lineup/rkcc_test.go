package lineup

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
)

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

func wantErr(t *testing.T, err error, code, clause, msg string) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Code != code || e.Rule != clause {
		t.Fatalf("want %s error naming %s, got %#v", code, clause, err)
	}
	if !strings.Contains(e.Error(), msg) {
		t.Fatalf("message %q lacks %q", e.Error(), msg)
	}
}

var team4 = []string{"ann", "ben", "cat", "dan"}

func lu(p ...string) Lineup { return Lineup{Sets: p} }

func TestRKCCValidate(t *testing.T) {
	r := RulesRKCC()
	cases := []struct {
		name    string
		l       Lineup
		members []string
		field   string // "" when valid
		msg     string
	}{
		{"four members, one sits out", lu("ann", "ben", "cat"), team4, "", ""},
		{"three members, none sits out", lu("cat", "ann", "ben"), team4[:3], "", ""},
		{"two sets", lu("ann", "ben"), team4, "sets", "each of the 3 sets"},
		{"four sets", lu("ann", "ben", "cat", "dan"), team4, "sets", "each of the 3 sets"},
		{"empty set", lu("ann", "", "cat"), team4, "sets[1]", "set 2 has no player"},
		{"not a member", lu("ann", "eve", "cat"), team4, "sets[1]", "eve is not a member"},
		{"same player twice", lu("ann", "ben", "ann"), team4, "sets[2]", "named for two sets"},
		{"two would sit out", lu("ann", "ben", "cat"), append(slices.Clone(team4), "eve"), "sets", "at most 1 member may sit out, but 2 would"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := r.Validate(tc.l, tc.members)
			if tc.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, arbiter.EINVALID, "R7", tc.msg)
			var e *arbiter.Error
			errors.As(err, &e)
			if e.Field != tc.field {
				t.Errorf("field %q, want %q", e.Field, tc.field)
			}
		})
	}
}

// Rounds of an RKCC event starting Monday 2026-01-05 (R4).
var (
	rd1 = Round{Seq: 1, Start: utc(2026, 1, 5, 0, 0)}
	rd2 = Round{Seq: 2, Start: utc(2026, 1, 12, 0, 0)}
	rd3 = Round{Seq: 3, Start: utc(2026, 1, 19, 0, 0)}
	rd4 = Round{Seq: 4, Start: utc(2026, 1, 26, 0, 0)}
)

func TestRKCCSubmitAndGrace(t *testing.T) {
	b := NewRKCCBook(RulesRKCC())
	var err error
	// R8: the first lineup is due by the round 1 start; resubmitting before it replaces.
	if b, err = b.Submit(rd1, lu("ann", "ben", "cat"), team4, utc(2026, 1, 4, 12, 0)); err != nil {
		t.Fatal(err)
	}
	if b, err = b.Submit(rd1, lu("dan", "ben", "cat"), team4, utc(2026, 1, 4, 23, 59)); err != nil {
		t.Fatal(err)
	}
	// Round 1 has no late correction (R7.1).
	_, err = b.Submit(rd1, lu("ann", "ben", "cat"), team4, utc(2026, 1, 5, 0, 0))
	wantErr(t, err, arbiter.ERULE, "R7", "does not apply to round 1")

	// Round 2: no lineup sent -> round 1's plays (R7).
	l, from, err := b.Effective(2)
	if err != nil || from != 1 || !slices.Equal(l.Sets, []string{"dan", "ben", "cat"}) {
		t.Fatalf("effective round 2: %v from %d %v", l, from, err)
	}
	// The grace correction within 24 h of the round 2 start.
	_, err = b.Submit(rd2, lu("ann", "ben", "cat"), team4, utc(2026, 1, 13, 0, 0))
	wantErr(t, err, arbiter.ERULE, "R7", "closed on Monday 2026-01-12 23:59 UTC")
	g, err := b.Submit(rd2, lu("ann", "ben", "cat"), team4, utc(2026, 1, 12, 23, 59))
	if err != nil {
		t.Fatal(err)
	}
	if g.GraceRound != 2 || b.GraceRound != 0 {
		t.Errorf("grace round %d (input %d)", g.GraceRound, b.GraceRound)
	}
	// Once per team per event: not again in round 2 or round 3.
	_, err = g.Submit(rd2, lu("ann", "dan", "cat"), team4, utc(2026, 1, 12, 23, 59))
	wantErr(t, err, arbiter.ERULE, "R7", "used in round 2")
	_, err = g.Submit(rd3, lu("ann", "dan", "cat"), team4, utc(2026, 1, 19, 1, 0))
	wantErr(t, err, arbiter.ERULE, "R7", "used in round 2")
	// On time is always fine.
	g, err = g.Submit(rd4, lu("cat", "dan", "ann"), team4, utc(2026, 1, 25, 23, 59))
	if err != nil {
		t.Fatal(err)
	}
	// Round 3 plays round 2's corrected lineup.
	if l, from, _ := g.Effective(3); from != 2 || !slices.Equal(l.Sets, []string{"ann", "ben", "cat"}) {
		t.Errorf("effective round 3: %v from %d", l, from)
	}
	if l, from, _ := g.Effective(4); from != 4 || l.Sets[0] != "cat" {
		t.Errorf("effective round 4: %v from %d", l, from)
	}
	// An invalid lineup is refused whatever the time.
	_, err = b.Submit(rd2, lu("ann", "ann", "cat"), team4, utc(2026, 1, 11, 0, 0))
	wantErr(t, err, arbiter.EINVALID, "R7", "two sets")
	// No lineup at all.
	_, _, err = NewRKCCBook(RulesRKCC()).Effective(3)
	wantErr(t, err, arbiter.ERULE, "R7", "no lineup for round 3")
}

func TestRKCCWildCard(t *testing.T) {
	ko := Round{Seq: 6, Start: utc(2026, 2, 9, 0, 0), Knockout: true, Pairings: utc(2026, 2, 8, 18, 0)}
	b, err := NewRKCCBook(RulesRKCC()).Submit(Round{Seq: 5, Start: utc(2026, 2, 2, 0, 0)}, lu("ann", "ben", "cat"), team4, utc(2026, 2, 1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	in := utc(2026, 2, 9, 17, 59)
	cases := []struct {
		name   string
		rd     Round
		x, y   string
		holder bool
		now    time.Time
		want   []string // nil: refused
		code   string
		msg    string
	}{
		{"swap two sets", ko, "ann", "cat", true, in, []string{"cat", "ben", "ann"}, "", ""},
		{"bring in the sitter", ko, "dan", "ben", true, in, []string{"ann", "dan", "cat"}, "", ""},
		{"sitter second", ko, "ben", "dan", true, in, []string{"ann", "dan", "cat"}, "", ""},
		{"not the Swiss winner", ko, "ann", "cat", false, in, nil, arbiter.ERULE, "only the winner"},
		{"Swiss round", Round{Seq: 5, Start: utc(2026, 2, 2, 0, 0), Pairings: utc(2026, 2, 1, 0, 0)}, "ann", "cat", true, utc(2026, 2, 1, 1, 0), nil, arbiter.ERULE, "knockout rounds only"},
		{"24 h passed", ko, "ann", "cat", true, utc(2026, 2, 9, 18, 0), nil, arbiter.ERULE, "closed on Monday 2026-02-09 17:59 UTC"},
		{"before the pairings", ko, "ann", "cat", true, utc(2026, 2, 8, 17, 0), nil, arbiter.ERULE, "open on"},
		{"same player", ko, "ann", "ann", true, in, nil, arbiter.EINVALID, "two different players"},
		{"outsider", ko, "ann", "eve", true, in, nil, arbiter.EINVALID, "eve is not a member"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := b.WildCard(tc.rd, tc.x, tc.y, team4, tc.holder, tc.now)
			if tc.want == nil {
				wantErr(t, err, tc.code, "R9", tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l, from, _ := got.Effective(6)
			if from != 6 || !slices.Equal(l.Sets, tc.want) || !got.WildCards[6] {
				t.Errorf("got %v from %d", l.Sets, from)
			}
			if _, ok := b.Lineups[6]; ok {
				t.Error("WildCard modified its input")
			}
			// One swap per knockout round.
			_, err = got.WildCard(tc.rd, "ben", "cat", team4, true, tc.now)
			wantErr(t, err, arbiter.ERULE, "R9", "already used in round 6")
			// The next knockout round has its own wild card.
			ko2 := Round{Seq: 7, Start: utc(2026, 2, 16, 0, 0), Knockout: true, Pairings: utc(2026, 2, 15, 12, 0)}
			if _, err := got.WildCard(ko2, "ben", "cat", team4, true, utc(2026, 2, 15, 13, 0)); err != nil {
				t.Errorf("next knockout round: %v", err)
			}
		})
	}
	// A team of three has no sitter; two sitters cannot exist.
	three, _ := NewRKCCBook(RulesRKCC()).Submit(rd1, lu("ann", "ben", "cat"), team4[:3], utc(2026, 1, 1, 0, 0))
	_, err = three.WildCard(Round{Seq: 6, Knockout: true, Pairings: utc(2026, 2, 8, 18, 0)}, "ann", "dan", team4[:3], true, in)
	wantErr(t, err, arbiter.EINVALID, "R9", "dan is not a member")
}
