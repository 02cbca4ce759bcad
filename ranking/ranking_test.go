package ranking

import (
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

func rows(ranks ...any) standings.Table {
	var t standings.Table
	for i := 0; i < len(ranks); i += 2 {
		t.Rows = append(t.Rows, standings.Row{ID: ranks[i].(string), Rank: ranks[i+1].(int)})
	}
	return t
}

func won(round int, home, away, kind string, homeWins bool) arbiter.Match {
	res := "away_win"
	if homeWins {
		res = "home_win"
	}
	return arbiter.Match{Round: round, Home: home, Away: away, Format: kind, Status: arbiter.MatchFinal, Result: &arbiter.Outcome{Result: res}}
}

func brief(ps []Placing) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%d %s %s; ", p.Rank, p.Entrant, p.DecidedBy)
	}
	return b.String()
}

// A Swiss of 8 (s1 ... s8 by the standings, s6 and s7 tied: both 6th)
// sends its top 4 to a knockout seeded 1 v 4, 2 v 3 with a third-place
// match. By hand: semifinals s1 beats s4, s3 beats s2; the final s3 beats
// s1; the third-place match s4 beats s2. The ranking: 1 s3, 2 s1 (final),
// 3 s4, 4 s2 (third place), then the Swiss for the rest: 5 s5, 6 s6 and
// s7 sharing 6th, 8 s8. With s5 removed by a sanction it goes last and
// the others move up: 5 s6 and s7 (shared), 7 s8, 8 s5.
func TestFinalSwissThenKnockout(t *testing.T) {
	t.Parallel()
	swiss := Stage{Name: "swiss", Kind: format.Swiss, Table: rows("s1", 1, "s2", 2, "s3", 3, "s4", 4, "s5", 5, "s6", 6, "s7", 6, "s8", 8)}
	ko := Stage{Name: "knockout", Kind: format.Knockout, Rounds: 2, Seeds: []string{"s1", "s2", "s3", "s4"},
		Matches: [][]arbiter.Match{
			{won(1, "s1", "s4", "", true), won(1, "s2", "s3", "", false)},
			{won(2, "s3", "s1", "final", true), won(2, "s2", "s4", "third_place", false)},
		}}
	got := brief(Final([]Stage{swiss, ko}, Options{}))
	want := "1 s3 final; 2 s1 final; 3 s4 third_place; 4 s2 third_place; 5 s5 standings; 6 s6 standings; 6 s7 standings; 8 s8 standings; "
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	got = brief(Final([]Stage{swiss, ko}, Options{Removed: func(id string) bool { return id == "s5" }}))
	want = "1 s3 final; 2 s1 final; 3 s4 third_place; 4 s2 third_place; 5 s6 standings; 5 s7 standings; 7 s8 standings; 8 s5 removed; "
	if got != want {
		t.Errorf("s5 removed: got  %s\nwant %s", got, want)
	}
}

// Without a third-place match (RKCC, R2), the semifinal losers are ordered
// by their knockout seed: s1 (seed 1) lost to s4 and s3 (seed 3) lost to
// s2, so s1 is 3rd and s3 4th; the words say why.
func TestFinalSemifinalLosersBySeed(t *testing.T) {
	t.Parallel()
	swiss := Stage{Name: "swiss", Kind: format.Swiss, Table: rows("s1", 1, "s2", 2, "s3", 3, "s4", 4, "s5", 5)}
	ko := Stage{Name: "knockout", Kind: format.Knockout, Rounds: 2, Seeds: []string{"s1", "s2", "s3", "s4"},
		Matches: [][]arbiter.Match{
			{won(1, "s1", "s4", "", false), won(1, "s2", "s3", "", true)},
			{won(2, "s2", "s4", "final", false)},
		}}
	ps := Final([]Stage{swiss, ko}, Options{Name: strings.ToUpper})
	if got, want := brief(ps), "1 s4 final; 2 s2 final; 3 s1 knockout_round; 4 s3 knockout_round; 5 s5 standings; "; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if ps[2].How != "lost in the semifinals; ordered by the swiss (knockout seed 1)" || ps[2].Name != "S1" || ps[2].Stage != "knockout" {
		t.Errorf("3rd: %+v", ps[2])
	}
	if ps[4].How != "place 5 in the swiss" || ps[4].Stage != "swiss" {
		t.Errorf("5th: %+v", ps[4])
	}
	if b := Final([]Stage{swiss, ko}, Options{Brief: true}); b[2].How != "" || b[2].Rank != 3 {
		t.Errorf("brief: %+v", b[2])
	}
}

// Pools (W8, W11's interpretation): by the place in the pool, equal places
// across pools by the seed in the stage. Seeds (the qualification order):
// u1 1, l1 2, u2 3, l2 4; the upper pool is won by u1, the lower by l2.
func TestFinalPools(t *testing.T) {
	t.Parallel()
	pools := Stage{Name: "candidates", Kind: format.Pool, Seeds: []string{"u1", "l1", "u2", "l2"},
		Pools: []Pool{{Name: "upper", Table: rows("u1", 1, "u2", 2)}, {Name: "lower", Table: rows("l2", 1, "l1", 2)}}}
	got := brief(Final([]Stage{{Name: "swiss", Kind: format.Swiss, Table: rows("u1", 1, "l1", 2, "u2", 3, "l2", 4, "x", 5)}, pools}, Options{}))
	// Places 1: u1 (seed 1), l2 (seed 4); places 2: l1 (seed 2), u2 (seed 3).
	if want := "1 u1 pool; 2 l2 pool; 3 l1 pool; 4 u2 pool; 5 x standings; "; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Knockout groups after a round: the entrants still in come first and
// share a place; those out in round 1 follow by seed.
func TestKnockoutAfterRound(t *testing.T) {
	t.Parallel()
	ko := Stage{Name: "knockout", Kind: format.Knockout, Rounds: 2, Seeds: []string{"a", "b", "c", "d"},
		Matches: [][]arbiter.Match{
			{won(1, "a", "d", "", true), won(1, "b", "c", "", false)},
			{won(2, "a", "c", "final", true)},
		}}
	gs := Knockout(&ko, "swiss", 1, false)
	if len(gs) != 2 || strings.Join(gs[0].IDs, ",") != "a,c" || gs[0].Ordered || strings.Join(gs[1].IDs, ",") != "b,d" {
		t.Fatalf("after round 1: %+v", gs)
	}
	if RoundName(1, 4) != "the round of 16" || RoundName(3, 4) != "the semifinals" {
		t.Errorf("round names %q %q", RoundName(1, 4), RoundName(3, 4))
	}
}
