package app

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
)

// TestTeamSizeFromFormat: A9 ("teams of 4 players; 3 if fewer than 10
// teams") is checked when a team is approved and when registration closes,
// and the board count is the format's everywhere. By hand: nine teams of 4
// approved, a 10th team of 3 members would make a field of 10 teams, which
// plays 4 boards: refused. A team of 3 approved as the 2nd team (3 boards
// would do for 2) is refused when registration closes with 10 teams.
func TestTeamSizeFromFormat(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 9, 10, false)
		small := func(name string) arbiter.Entrant {
			capt := "k" + name
			return must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "atc",
				arbiter.Entrant{Name: "Team " + name, Captain: capt, Members: []string{capt, "l" + name, "m" + name}}))
		}
		e := small("x")
		_, err := s.Approve(ctx, td, "atc", e.ID, 0)
		wantErr(t, err, arbiter.ERULE, "A9")
		if got := must(s.Entrants(ctx, "atc")); got[len(got)-1].Status != arbiter.EntrantPending {
			t.Fatalf("refused approval stored: %+v", got[len(got)-1])
		}
		must(s.Reject(ctx, td, "atc", e.ID, "three players for four boards (A9)", 0))

		must(s.CreateEvent(ctx, td, NewEvent{Slug: "late", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "late", 1, 10, false)
		three := must(s.Register(ctx, arbiter.Actor{Name: "k3", Role: arbiter.RoleCaptain}, "late",
			arbiter.Entrant{Name: "Three", Captain: "k3", Members: []string{"k3", "l3", "m3"}}))
		must(s.Approve(ctx, td, "late", three.ID, 0)) // 2 teams: 3 boards would do
		for i := 2; i <= 9; i++ {
			capt := fmt.Sprintf("cap%02d", i)
			e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "late", arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: capt,
				Members: []string{capt, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), fmt.Sprintf("c%02d", i)}}))
			must(s.Approve(ctx, td, "late", e.ID, 0))
		}
		_, err = s.CloseRegistration(ctx, td, "late")
		wantErr(t, err, arbiter.ERULE, "A9")
		if ev := must(s.Event(ctx, "late")); ev.Status != arbiter.EventRegistration {
			t.Fatalf("status %s after the refusal", ev.Status)
		}
	})
}

// TestCustomFormatFourBoards: a custom format of the antichess cup whose
// teams always play 4 boards runs 4 boards with 4 teams, where the
// antichess rulebook would play 3 (A9): the TDs' board order has 4 boards
// and the pairing carries 4 board players per team.
func TestCustomFormatFourBoards(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("antichess-team-cup"))
		four, one := 4, 1
		f.Name, f.MinEntrants = "four-boards", 4
		f.Team.Size = format.Count{Fixed: &four}
		f.Stages = f.Stages[:1]
		f.Stages[0].Rounds, f.Stages[0].Advance = &format.Count{Fixed: &one}, nil
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "four", Format: doc.Bytes(), Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "four", 4, 10, true)
		must(s.CloseRegistration(ctx, td, "four"))
		for i := 1; i <= 4; i++ {
			n := func(p string) string { return fmt.Sprintf("%s%02d", p, i) }
			bt := must(s.RankBoards(ctx, td, "four", n("team-"), []lineup.Member{{Name: n("cap"), Rating: 2000}, {Name: n("a"), Rating: 1900},
				{Name: n("b"), Rating: 1800}, {Name: n("c"), Rating: 1700}, {Name: n("s"), Rating: 1600}}, nil))
			if want := []string{n("cap"), n("a"), n("b"), n("c")}; !slices.Equal(bt.Team.Boards, want) {
				t.Fatalf("%s boards %v, want %v", n("team-"), bt.Team.Boards, want)
			}
		}
		ms := pairOK(s.PairRound(ctx, td, "four"))
		if len(ms[0].HomeBoards) != 4 || len(ms[0].AwayBoards) != 4 {
			t.Fatalf("paired boards %v v %v", ms[0].HomeBoards, ms[0].AwayBoards)
		}
		must(s.PublishRound(ctx, td, "four"))
		c.t = utc(2025, 1, 9, 0, 0)
		must(s.ReportResult(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "four", ms[0].ID, ResultInput{Sheet: []byte(teamSheet)}))
	})
}
