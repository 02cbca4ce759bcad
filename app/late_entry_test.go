package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"arbiter"
	"arbiter/lineup"
	"arbiter/sqlstore"
)

func rkTeam(n int, rating int) arbiter.Entrant {
	c := fmt.Sprintf("cap%d", n)
	return arbiter.Entrant{Name: fmt.Sprintf("Team %d", n), Captain: c, Members: []string{c, fmt.Sprintf("a%d", n), fmt.Sprintf("b%d", n)}, Rating: rating}
}

// TestLateEntryRKCC: R8 closes registration on Saturday 06:00 UTC and
// finalises it at 23:59. The TDs closed it at 10:00 with seven teams (R1:
// five Swiss rounds for up to eight); an eighth team entered at 20:00
// takes the seed of its rating and the teams below move down (C.04.2
// Art. 2). A ninth would make six rounds (R1): refused, the calendar is
// fixed. After 23:59 the registration is final (R8).
func TestLateEntryRKCC(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 6, 0, 0)}))
		c.t = utc(2025, 1, 4, 5, 0)
		for i := 1; i <= 7; i++ {
			e := must(s.Register(ctx, arbiter.Actor{Name: fmt.Sprintf("cap%d", i), Role: arbiter.RoleCaptain}, "rk", rkTeam(i, 2300-10*i)))
			must(s.Approve(ctx, td, "rk", e.ID, 0))
		}
		c.t = utc(2025, 1, 4, 10, 0)
		ev := must(s.CloseRegistration(ctx, td, "rk"))
		if ev.Stages[0].Rounds != 5 {
			t.Fatalf("7 teams: %d rounds", ev.Stages[0].Rounds)
		}
		c.t = utc(2025, 1, 4, 20, 0)
		_, err := s.LateEntry(ctx, td, "rk", rkTeam(8, 2255), "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.LateEntry(ctx, arbiter.Actor{Name: "cap8", Role: arbiter.RoleCaptain}, "rk", rkTeam(8, 2255), "late")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		late := rkTeam(8, 2255)
		late.Members[2] = "a1" // a1 plays for Team 1
		_, err = s.LateEntry(ctx, td, "rk", late, "late")
		wantErr(t, err, arbiter.ERULE, "R14")

		e := must(s.LateEntry(ctx, td, "rk", rkTeam(8, 2255), "entered by message before 23:59 (R8)"))
		// 2300-10i: team 4 has 2260, team 5 2250; 2255 sits between.
		if e.Status != arbiter.EntrantApproved || e.Seed != 5 {
			t.Fatalf("late team %+v", e)
		}
		var seeds []string
		for _, x := range must(s.Entrants(ctx, "rk")) {
			seeds = append(seeds, fmt.Sprintf("%s:%d", x.ID, x.Seed))
		}
		if want := []string{"team-1:1", "team-2:2", "team-3:3", "team-4:4", "team-8:5", "team-5:6", "team-6:7", "team-7:8"}; !slices.Equal(seeds, want) {
			t.Fatalf("seeds %v, want %v", seeds, want)
		}
		if ev := must(s.Event(ctx, "rk")); ev.Entrants != 8 || ev.Stages[0].Entrants != 8 || ev.Stages[0].Rounds != 5 {
			t.Fatalf("event after the late entry: %d entrants, stage %+v", ev.Entrants, ev.Stages[0])
		}
		_, err = s.LateEntry(ctx, td, "rk", rkTeam(8, 2255), "twice")
		wantErr(t, err, arbiter.ECONFLICT, "")
		_, err = s.LateEntry(ctx, td, "rk", rkTeam(9, 2000), "a ninth")
		wantErr(t, err, arbiter.ERULE, "R2")
		if !strings.Contains(err.Error(), "6 rounds in the swiss stage, not 5") {
			t.Errorf("refusal %v", err)
		}
		c.t = utc(2025, 1, 5, 0, 0)
		_, err = s.LateEntry(ctx, td, "rk", rkTeam(9, 2000), "after the final time")
		wantErr(t, err, arbiter.ERULE, "R8")
		if !strings.Contains(err.Error(), "Saturday 2025-01-04 23:59 UTC") {
			t.Errorf("refusal %v", err)
		}
		n := 0
		for _, a := range must(s.Audit(ctx, td, "rk", sqlstore.AuditFilter{Kind: kindEntrant})) {
			if a.Action == "entrant.late_entry" && a.Reason == "entered by message before 23:59 (R8)" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d audited late entries", n)
		}
	})
}

// TestLateEntrySwiss: a player entered after round 1 of an eight-player
// Swiss (W5: five rounds for 8 or 9) has no point for it, an unplayed
// round; in round 2 the bye goes to a player of the lowest score with no
// unplayed game (C9), not to the late entrant.
func TestLateEntrySwiss(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "le", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "le", 8) {
			must(s.Approve(ctx, td, "le", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "le"))
		playRound(t, s, c, "le")
		e := must(s.LateEntry(ctx, td, "le", arbiter.Entrant{Player: "Late", Rating: 2330}, "missed the deadline, TDs agreed"))
		// Ratings 2500, 2450, ... 2150: 2330 sits after p04 (2350).
		if e.ID != "late" || e.Seed != 5 {
			t.Fatalf("late entrant %+v", e)
		}
		pairOK(s.PairRound(ctx, td, "le"))
		rv := must(s.ReviewPairings(ctx, td, "le"))
		var lateSide *ReviewSide
		bye := rv.Boards[len(rv.Boards)-1]
		for _, b := range rv.Boards {
			for _, sd := range []*ReviewSide{&b.Home, b.Away} {
				if sd != nil && sd.Entrant == "late" {
					lateSide = sd
				}
			}
		}
		if lateSide == nil || lateSide.Score != 0 || !slices.Equal(lateSide.History, []string{"-"}) || !lateSide.ByeEligible {
			t.Fatalf("the late entrant in round 2: %+v", lateSide)
		}
		if bye.Away != nil || bye.Home.Entrant == "late" || bye.Home.Score != 0 {
			t.Fatalf("round 2 bye %+v", bye.Home)
		}
	})
}

// TestLateEntryRefusals: only a first stage that is a Swiss takes a late
// entrant; in registration a late entry is an approved registration; the
// membership rules apply (A11).
func TestLateEntryRefusals(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := strings.Replace(strings.Replace(acwcSwiss, `"kind": "swiss",
    "pairing": "dutch",
    "rounds": {"log2": {"mul": 1, "add": 2}},`, `"kind": "round_robin",
    "pairing": "berger",
    "cycles": 1,`, 1), `"min_entrants": 8,`, ``, 1)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rr", Format: []byte(f), Start: utc(2023, 3, 21, 0, 0)}))
		for _, n := range registerPlayers(t, s, "rr", 6) {
			must(s.Approve(ctx, td, "rr", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "rr"))
		_, err := s.LateEntry(ctx, td, "rr", arbiter.Entrant{Player: "late"}, "late")
		wantErr(t, err, arbiter.ERULE, lateEntryClause)

		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		_, err = s.LateEntry(ctx, td, "atc", arbiter.Entrant{Name: "Late", Captain: "capl", Members: []string{"capl", "a01", "bl", "cl"}}, "late")
		wantErr(t, err, arbiter.ERULE, "A11")
		e := must(s.LateEntry(ctx, td, "atc", arbiter.Entrant{Name: "Late", Captain: "capl", Members: []string{"capl", "al", "bl", "cl"}}, "by message"))
		if e.Status != arbiter.EntrantApproved || e.Seed != 0 || e.ID != "late" {
			t.Fatalf("late entry during registration %+v", e)
		}
	})
}

// TestEditEntrant: a TD corrects names, ratings and members with a
// reason; the team rules apply, and once the event runs a member who has
// played stays (A15). A one-for-one change of a member who has not played
// takes their place in the TDs' board order (A12).
func TestEditEntrant(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, true)
		str := func(v string) *string { return &v }
		num := func(v int) *int { return &v }

		_, err := s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Name: str("Team One")})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.EditEntrant(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", "team-01", EntrantEdit{Name: str("Team One"), Reason: "typo"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Name: str("team 02"), Reason: "typo"})
		wantErr(t, err, arbiter.EINVALID, entrantEditClause)
		_, err = s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Reason: "nothing"})
		wantErr(t, err, arbiter.EINVALID, entrantEditClause)

		got := must(s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Name: str("Team One"), Rating: num(2250), Reason: "the captain's spelling"}))
		if got.Entrant.ID != "team-01" || got.Entrant.Name != "Team One" || got.Entrant.Rating != 2250 ||
			!slices.Equal(got.Changes, []string{`name "Team 01" → "Team One"`, "rating 2290 → 2250"}) {
			t.Fatalf("edited %+v", got)
		}
		// Members: a02 plays for Team 02 (A11); the captain stays (A11);
		// four members and a substitute at most.
		_, err = s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Members: []string{"cap01", "a01", "b01", "a02"}, Reason: "x"})
		wantErr(t, err, arbiter.ERULE, "A11")
		_, err = s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Members: []string{"z01", "a01", "b01", "c01"}, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "A11")
		got = must(s.EditEntrant(ctx, td, "atc", "team-01", EntrantEdit{Members: []string{"cap01", "a01", "b01", "y01"}, Reason: "c01 cannot play"}))
		if !slices.Equal(got.Entrant.Members, []string{"cap01", "a01", "b01", "y01"}) || got.Changes[0] != "members -c01 +y01" {
			t.Fatalf("members edited %+v", got)
		}

		// A player entrant has no members.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ind", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		registerPlayers(t, s, "ind", 1)
		_, err = s.EditEntrant(ctx, td, "ind", "p01", EntrantEdit{Members: []string{"xx"}, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "format.entrant")

		// Running: team-02's boards ranked (s02 the substitute), round 1
		// published. s02 has not played: z02 takes s02's place. b02 has.
		c.t = utc(2025, 1, 6, 12, 0)
		must(s.CloseRegistration(ctx, td, "atc"))
		must(s.RankBoards(ctx, td, "atc", "team-02", []lineup.Member{{Name: "cap02", Rating: 2400}, {Name: "a02", Rating: 2350},
			{Name: "b02", Rating: 2300}, {Name: "c02", Rating: 2290}, {Name: "s02", Rating: 2280}}, lineup.Comparable{{"c02", "s02"}}))
		pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		_, err = s.EditEntrant(ctx, td, "atc", "team-02", EntrantEdit{Members: []string{"cap02", "a02", "x02", "c02"}, Reason: "b02 left"})
		wantErr(t, err, arbiter.ERULE, "A15")
		got = must(s.EditEntrant(ctx, td, "atc", "team-02", EntrantEdit{Substitute: str("z02"), Reason: "s02's account was wrong"}))
		bt := must(s.BoardsOf(ctx, "atc", "team-02"))
		if got.Entrant.Substitute != "z02" || !slices.ContainsFunc(bt.Team.Members, func(m lineup.Member) bool { return m.Name == "z02" && m.Rating == 2280 }) ||
			!slices.Contains(bt.Team.Comparable, lineup.Pair{"c02", "z02"}) || len(got.Notes) != 1 {
			t.Fatalf("after the substitute's change: %+v, boards %+v", got, bt.Team)
		}
		// A member who played for team-02 may not join team-03 (A11), even
		// once team-02 lists them no more.
		_, err = s.EditEntrant(ctx, td, "atc", "team-03", EntrantEdit{Substitute: str("b02"), Reason: "x"})
		wantErr(t, err, arbiter.ERULE, "A11")
	})
}
