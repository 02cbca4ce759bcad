package app

import (
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/lineup"
)

// sheetWithPlayers is teamSheet (team-01 wins 348-228) with team-01's
// board players named, board 1 first.
func sheetWithPlayers(home ...string) string {
	s := teamSheet
	for i, p := range home {
		s = strings.Replace(s, fmt.Sprintf(`{"board": %d, `, i+1), fmt.Sprintf(`{"board": %d, "home_player": %q, `, i+1, p), 1)
	}
	return s
}

// TestReportedBoardPlayers: a sheet naming board players must name the
// team's board list of the match's round (A12, A14). Team 01's TDs' order
// is a01, cap01, b01, c01 (s01 the fifth member); the captain puts cap01
// on board 1 (allowed interchange) and s01 in for c01, so round 1's list
// is cap01, a01, b01, s01. A change announced after round 1 is paired is
// for round 2 and does not alter what round 1's sheet must say.
func TestReportedBoardPlayers(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, true)
		must(s.CloseRegistration(ctx, td, "atc"))
		cap01 := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}
		members := []lineup.Member{{Name: "cap01", Rating: 2000}, {Name: "a01", Rating: 2100}, {Name: "b01", Rating: 1900},
			{Name: "c01", Rating: 1800}, {Name: "s01", Rating: 1700}}
		must(s.RankBoards(ctx, td, "atc", "team-01", members, lineup.Comparable{{"a01", "cap01"}, {"c01", "s01"}}))
		must(s.SubmitBoards(ctx, cap01, "atc", "team-01", []string{"cap01", "a01", "b01", "c01"}))
		must(s.SubstituteBoard(ctx, cap01, "atc", "team-01", "s01", "c01"))
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		if ms[0].Home != "team-01" || ms[0].Away != "team-06" {
			t.Fatalf("board 1 %s-%s", ms[0].Home, ms[0].Away)
		}
		must(s.PublishRound(ctx, td, "atc"))
		// For round 2: c01 back in for s01 (A14), after round 1 was paired.
		must(s.SubstituteBoard(ctx, cap01, "atc", "team-01", "c01", "s01"))
		c.t = utc(2025, 1, 10, 12, 0)
		id := ms[0].ID

		// c01 is not on round 1's list: an unannounced substitution (A14).
		_, err := s.ReportResult(ctx, cap01, "atc", id, ResultInput{Sheet: []byte(sheetWithPlayers("cap01", "a01", "b01", "c01"))})
		wantErr(t, err, arbiter.EINVALID, "A14")
		if e := err.(*arbiter.Error); e.Field != "boards[3].home_player" || !strings.Contains(e.Message, "board 4 of team-01") {
			t.Fatalf("error %v (field %s)", err, e.Field)
		}
		// a01 and cap01 swapped back: on the list, on the wrong boards (A12).
		_, err = s.ReportResult(ctx, cap01, "atc", id, ResultInput{Sheet: []byte(sheetWithPlayers("a01", "cap01", "b01", "s01"))})
		wantErr(t, err, arbiter.EINVALID, "A12")
		if e := err.(*arbiter.Error); e.Field != "boards[0].home_player" || !strings.Contains(e.Message, "board 1 of team-01") {
			t.Fatalf("error %v (field %s)", err, e.Field)
		}
		// Round 1's list, whatever was announced since; names are not
		// case-sensitive.
		rep := must(s.ReportResult(ctx, cap01, "atc", id, ResultInput{Sheet: []byte(sheetWithPlayers("Cap01", "a01", "b01", "s01"))}))
		if rep.Status != arbiter.MatchReported {
			t.Fatalf("report %+v", rep)
		}
	})
}
