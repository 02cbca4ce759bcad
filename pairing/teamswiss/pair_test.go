package teamswiss

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"arbiter"
)

// Expected pairings below are derived by hand from C.04.3 (Dutch) as applied
// to teams: S1 v S2 in the scoregroup order, colours by 5.2.1-5.2.5.

func check(t *testing.T, ev *Event, want *Pairing) {
	t.Helper()
	got := mustPair(t, ev)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("round %d pairing (-want +got):\n%s", want.Round, d)
	}
}

// Round 1: top half v bottom half; the higher seed of each board gets the
// initial colour when its seed is odd, the other colour when even (5.2.5).
func TestRoundOneTopHalfVersusBottomHalf(t *testing.T) {
	ev := newEvent(5, "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8")
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t5", "t6", "t2", "t3", "t7", "t8", "t4")})
	ev.InitialColour = Black
	check(t, ev, &Pairing{Round: 1, Boards: boards("t5", "t1", "t2", "t6", "t7", "t3", "t4", "t8")})
}

// Without seeds the teams are seeded by rating average.
func TestSeedsFromRatingAverage(t *testing.T) {
	ev := &Event{Points: DefaultPoints(), TotalRounds: 5, InitialColour: White, Teams: []Team{
		{ID: "d", Rating: 1700}, {ID: "a", Rating: 2100.5}, {ID: "c", Rating: 1800}, {ID: "b", Rating: 2100},
	}}
	// Seeds a=1, b=2, c=3, d=4: a v c (a White), b v d (d White, b even).
	check(t, ev, &Pairing{Round: 1, Boards: boards("a", "c", "d", "b")})
	order, err := Order(ev)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range order {
		ids = append(ids, r.ID)
	}
	if d := cmp.Diff([]string{"a", "b", "c", "d"}, ids); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}

// Five teams: the lowest seed gets the PAB in round 1 (S1 = {1,2}, S2 =
// {3,4,5}); in round 2 the PAB goes to the lowest scoregroup.
func TestFiveTeamsPAB(t *testing.T) {
	ev := newEvent(5, "t1", "t2", "t3", "t4", "t5")
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t3", "t4", "t2"), Bye: "t5"})
	ev.addRound("t5", won("t1", "t3", 0, 0), lost("t4", "t2", 0, 0))
	// 1 MP: t1 t2 t5; 0 MP: t3 t4. In the top bracket t1-t2 would let t5
	// downfloat again after its PAB (C14), so t1-t5 and t2 floats; t2 has met
	// t4, so t2-t3 and t4 gets the PAB. Colours: t1 had White -> Black, t5
	// has none; t2 and t3 both had Black, the higher ranked t2 gets White.
	check(t, ev, &Pairing{Round: 2, Boards: boards("t5", "t1", "t2", "t3"), Bye: "t4"})
}

// A PAB is never given twice (C2): with three teams on equal scores the
// lowest (t3) already had it, and t1-t2 would be a rematch.
func TestPABNeverTwice(t *testing.T) {
	ev := newEvent(3, "t1", "t2", "t3")
	ev.Points.Bye = ev.Points.Draw
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t2"), Bye: "t3"})
	ev.addRound("t3", drew("t1", "t2"))
	// All on 0.5: t1-t2 played, t3 had the PAB -> t1-t3, t2 PAB. t1 had
	// White and wants Black; t3 has no colour history.
	check(t, ev, &Pairing{Round: 2, Boards: boards("t3", "t1"), Bye: "t2"})
	ev.addRound("t2", won("t3", "t1", 0, 0))
	// Only t1 has not had the PAB. t2 (Black in round 1) wants White, t3
	// (White in round 2) wants Black.
	check(t, ev, &Pairing{Round: 3, Boards: boards("t2", "t3"), Bye: "t1"})
}

// The secondary score reorders a scoregroup and so changes who meets whom.
func TestSecondaryScoreReranksScoregroups(t *testing.T) {
	results := func(ev *Event, sec bool) {
		s := func(p arbiter.Points) arbiter.Points {
			if sec {
				return p * 100
			}
			return 0
		}
		// Round 1 was t1-t5, t6-t2, t3-t7, t8-t4 (home first). Winners t1,
		// t6, t3, t8 (every winner had White); set points as in R10.
		ev.addRound("", won("t1", "t5", s(380), s(340)), won("t6", "t2", s(450), s(270)),
			won("t3", "t7", s(400), s(320)), won("t8", "t4", s(500), s(220)))
	}
	// Winners all want Black and losers all want White (|CD| = 1): every
	// candidate leaves one preference per board unmet, so S1 v S2 in the
	// pairing order stands and the higher ranked team gets its colour
	// (5.2.4).
	t.Run("no secondary", func(t *testing.T) {
		ev := newEvent(5, "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8")
		results(ev, false)
		// 1 MP in seed order t1 t3 t6 t8: t1-t6, t3-t8; 0 MP t2 t4 t5 t7:
		// t2-t5, t4-t7.
		check(t, ev, &Pairing{Round: 2, Boards: boards("t6", "t1", "t8", "t3", "t2", "t5", "t4", "t7")})
	})
	t.Run("set points", func(t *testing.T) {
		ev := newEvent(5, "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8")
		results(ev, true)
		// 1 MP by set points t8 (500) t6 (450) t3 (400) t1 (380): t8-t3,
		// t6-t1; 0 MP t5 (340) t7 (320) t2 (270) t4 (220): t5-t2, t7-t4.
		check(t, ev, &Pairing{Round: 2, Boards: boards("t3", "t8", "t1", "t6", "t5", "t2", "t7", "t4")})
		order, err := Order(ev)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range order {
			ids = append(ids, r.ID)
		}
		if d := cmp.Diff([]string{"t8", "t6", "t3", "t1", "t5", "t7", "t2", "t4"}, ids); d != "" {
			t.Errorf("order (-want +got):\n%s", d)
		}
		if order[0].MatchPoints != 100 || order[0].Secondary != 50000 || order[0].Seed != 8 || order[0].TPN != 1 {
			t.Errorf("order[0] = %+v", order[0])
		}

		// Round 2: t8 wins at t3 (300-420), t1-t6 drawn (360-360), t5 beats
		// t2 (400-320), t4 wins at t7 (250-470). Totals: t8 2 (920); t6 1.5
		// (810), t1 1.5 (740); t5 1 (740), t3 1 (700), t4 1 (690); t2 0
		// (590), t7 0 (570). Colours: t1 and t3 WW (absolute Black), t2 and
		// t4 BB (absolute White), t5 and t7 BW (Black), t6 and t8 WB (White).
		ev.addRound("", lost("t3", "t8", 30000, 42000), match{home: "t1", away: "t6", homeMP: 50, awayMP: 50, homeSec: 36000, awaySec: 36000},
			won("t5", "t2", 40000, 32000), lost("t7", "t4", 25000, 47000))
		// t8 floats into {t6, t1} (t6-t1 met): t8-t1 meets both
		// preferences, t8-t6 not (both want White), so t8-t1 and t6 floats.
		// {t6 | t5 t3 t4}: the first candidate t6-t5 + t3-t4 meets every
		// preference (t4's absolute White, t3's absolute Black) and stands.
		// Then t2-t7. Board order by the higher team: t3 (700) is above t4.
		check(t, ev, &Pairing{Round: 3, Boards: boards("t8", "t1", "t6", "t5", "t4", "t3", "t2", "t7")})
	})
}

// Four teams over three rounds meet each opponent once.
func TestFourTeamsNoRematch(t *testing.T) {
	ev := newEvent(3, "t1", "t2", "t3", "t4")
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t3", "t4", "t2")})
	ev.addRound("", won("t1", "t3", 0, 0), lost("t4", "t2", 0, 0))
	// t1 (W) wants Black, t2 (B) wants White; t3 (B) White, t4 (W) Black.
	check(t, ev, &Pairing{Round: 2, Boards: boards("t2", "t1", "t3", "t4")})
	ev.addRound("", lost("t2", "t1", 0, 0), drew("t3", "t4"))
	// Scores t1 2, t2 1, t3 0.5, t4 0.5; only t1-t4 and t2-t3 are new.
	// t1 and t4 (W,B) both want White: the higher ranked t1 gets it; t2 and
	// t3 (B,W) both want Black: t2 gets it.
	check(t, ev, &Pairing{Round: 3, Boards: boards("t1", "t4", "t3", "t2")})
}

// A played match bars a rematch; a forfeited or double-forfeited one does
// not, unless the event says so, and it gives no colour.
func TestForfeitsAndRematches(t *testing.T) {
	t.Run("played", func(t *testing.T) {
		ev := newEvent(2, "a", "b")
		ev.addRound("", won("a", "b", 0, 0))
		if _, err := Pair(ev); arbiter.ErrorCode(err) != arbiter.ENOPAIRING {
			t.Fatalf("rematch of a played match: err = %v, want %s", err, arbiter.ENOPAIRING)
		}
	})
	t.Run("forfeit", func(t *testing.T) {
		ev := newEvent(2, "a", "b")
		ev.InitialColour = Black
		ev.addRound("", match{home: "a", away: "b", res: Forfeit, homeMP: 0, awayMP: 100})
		// No colour history: the higher ranked b (1 MP, seed 2, even) gets
		// the opposite of the initial colour (5.2.5).
		check(t, ev, &Pairing{Round: 2, Boards: boards("b", "a")})
		ev.ForfeitBlocksRematch = true
		if _, err := Pair(ev); arbiter.ErrorCode(err) != arbiter.ENOPAIRING {
			t.Fatalf("ForfeitBlocksRematch: err = %v, want %s", err, arbiter.ENOPAIRING)
		}
	})
	t.Run("double forfeit", func(t *testing.T) {
		ev := newEvent(2, "a", "b")
		ev.addRound("", match{home: "a", away: "b", res: DoubleForfeit})
		// Both 0 MP: a (seed 1, odd) gets the initial colour.
		check(t, ev, &Pairing{Round: 2, Boards: boards("a", "b")})
	})
	t.Run("double forfeit as a draw", func(t *testing.T) {
		ev := newEvent(2, "a", "b")
		ev.addRound("", match{home: "a", away: "b", res: DoubleForfeit, homeMP: 50, awayMP: 50})
		check(t, ev, &Pairing{Round: 2, Boards: boards("a", "b")})
	})
}

// A team that won a match by forfeit cannot get the PAB (C2).
func TestForfeitWinBarsPAB(t *testing.T) {
	ev := newEvent(3, "t1", "t2", "t3")
	ev.Points.Bye = ev.Points.Draw
	ev.addRound("t3", match{home: "t1", away: "t2", res: Forfeit, homeMP: 0, awayMP: 100})
	// t2 1, t3 0.5 (PAB), t1 0: the PAB can go neither to t3 (had it) nor
	// to t2 (forfeit win), so t1 gets it although t1-t2 was never played.
	// Neither t2 nor t3 has played: the higher ranked t2 has an even seed
	// and gets the opposite of the initial colour (5.2.5).
	check(t, ev, &Pairing{Round: 2, Boards: boards("t3", "t2"), Bye: "t1"})
}

// Forbidden pairs (same club) are respected, in their round range only.
func TestForbiddenPairs(t *testing.T) {
	ev := newEvent(3, "t1", "t2", "t3", "t4")
	ev.Forbidden = []ForbiddenGroup{{Teams: []string{"t1", "t3"}}}
	// t1-t3 barred: next transposition t1-t4, t2-t3 (t2 even: Black).
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t4", "t3", "t2")})
	ev.Forbidden[0].FirstRound = 2
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t3", "t4", "t2")})
}

// Withdrawn teams are not paired; the others keep their seeds' colours.
func TestWithdrawnTeams(t *testing.T) {
	ev := newEvent(5, "t1", "t2", "t3", "t4", "t5")
	ev.team("t3").Withdrawn = true
	// Present t1 t2 t4 t5: t1-t4 (t1 odd: White), t2-t5 (t2 even: Black).
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t4", "t5", "t2")})
	order, err := Order(ev)
	if err != nil {
		t.Fatal(err)
	}
	if last := order[len(order)-1]; last.ID != "t3" || !last.Withdrawn {
		t.Errorf("withdrawn team not last in the order: %+v", order)
	}
}

// Six teams over three rounds, with a withdrawal after round 1.
func TestSixTeamsWithWithdrawal(t *testing.T) {
	ev := newEvent(5, "t1", "t2", "t3", "t4", "t5", "t6")
	check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t4", "t5", "t2", "t3", "t6")})
	ev.addRound("", won("t1", "t4", 0, 0), lost("t5", "t2", 0, 0), drew("t3", "t6"))
	ev.team("t6").Withdrawn = true
	// 1 MP t1 t2; 0.5 t3; 0 t4 t5. Five present: t1-t2 (t1 had White ->
	// Black; t2 had Black -> White), t3 floats to t4/t5: t3-t4 (t5 met t2
	// only, t4 met t1 only; t3 takes the first, t4), t5 the lowest gets the
	// PAB. t3 (White) wants Black, t4 (Black) wants White.
	check(t, ev, &Pairing{Round: 2, Boards: boards("t2", "t1", "t4", "t3"), Bye: "t5"})
	ev.addRound("t5", lost("t2", "t1", 0, 0), drew("t4", "t3"))
	// t1 2; t2 t3 t5 1; t4 0.5; t6 still withdrawn. The PAB goes to the
	// lowest score, t4 (C5; t5 had it); then t1 can meet neither t2 nor t4
	// (played): t1-t5 leaves t2-t3 (t2-t5 played). Colours: t1 (W,B) wants
	// White, t5 (W, bye) Black; t3 (W,B) White, t2 (B,W) Black.
	check(t, ev, &Pairing{Round: 3, Boards: boards("t1", "t5", "t3", "t2"), Bye: "t4"})
}

// Degenerate fields: nobody to pair, or a single team (the PAB if it may
// still have one).
func TestTinyFields(t *testing.T) {
	ev := newEvent(3, "a", "b")
	ev.team("a").Withdrawn, ev.team("b").Withdrawn = true, true
	check(t, ev, &Pairing{Round: 1, Boards: []Board{}})
	ev = newEvent(3, "a", "b")
	ev.team("b").Withdrawn = true
	check(t, ev, &Pairing{Round: 1, Boards: []Board{}, Bye: "a"})
	ev.addRound("a")
	if _, err := Pair(ev); arbiter.ErrorCode(err) != arbiter.ENOPAIRING {
		t.Errorf("a second PAB for the only team: err = %v, want %s", err, arbiter.ENOPAIRING)
	}
}

// Inside the lowest scoregroup the PAB goes to the last team of the pairing
// order, so the secondary score decides who gets it.
func TestSecondaryScoreDecidesPAB(t *testing.T) {
	for _, tc := range []struct {
		name string
		sec  [7]arbiter.Points // by seed
		want *Pairing
	}{
		// Seeds only: 1 MP t1 t2 t3 t7 (t1, t3 had White, t2 Black, t7 the
		// PAB): t1-t3 would leave a preference unmet, so t1-t7, t2-t3. 0
		// MP t4 t5 t6: t4-t5 (t4 Black -> White, t5 White -> Black), t6
		// PAB.
		{"seeds", [7]arbiter.Points{}, &Pairing{Round: 2, Boards: boards("t7", "t1", "t2", "t3", "t4", "t5"), Bye: "t6"}},
		// Set points: 1 MP t3 (500) t2 (450) t1 (400) t7 (360): t3-t1 both
		// want Black, so t3-t7, t2-t1. 0 MP t5 (300) t6 (200) t4 (100):
		// t5-t6 meets both preferences, t4 PAB.
		{"set points", [7]arbiter.Points{400, 450, 500, 100, 300, 200, 360}, &Pairing{Round: 2, Boards: boards("t7", "t3", "t2", "t1", "t6", "t5"), Bye: "t4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := newEvent(5, "t1", "t2", "t3", "t4", "t5", "t6", "t7")
			// Round 1: S1 t1 t2 t3, S2 t4 t5 t6 t7: t1-t4, t5-t2, t3-t6, t7
			// PAB; the higher seeds win.
			check(t, ev, &Pairing{Round: 1, Boards: boards("t1", "t4", "t5", "t2", "t3", "t6"), Bye: "t7"})
			s := tc.sec
			ev.addRound("t7", won("t1", "t4", s[0], s[3]), lost("t5", "t2", s[4], s[1]), won("t3", "t6", s[2], s[5]))
			ev.team("t7").Rounds[0].Secondary = s[6]
			check(t, ev, tc.want)
		})
	}
}
