package app

import (
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// fill sets every cell of the given boards of an antichess cup form to v.
func fill(vals map[string]string, l EntryLayout, v string, boards ...int) {
	for _, b := range boards {
		for _, p := range l.Parts {
			for g := range p.Games {
				vals[Cell(b, p.Index, g)] = v
			}
		}
	}
}

// TestResultForm: a captain of the antichess cup fills in the grid of
// board × part × game (A17: 8 games 0+2, 4 of 2+5, 6 of 1+2 per board).
// Each step is checked as the page checks it while typing: the running
// totals (A18: 6/3, 12/6, 8/4 per game), the games still to enter at
// their cell citing A17, a gap and a wrong value at theirs; the full
// sheet wins 432-144 and is decided at board 3's first game (289 of 576,
// A18); sent, it is the report, and the TD's override form starts from it.
func TestResultForm(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 10, 12, 0)
		m := ms[0]
		cap01 := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}

		l := must(s.ResultLayout(ctx, cap01, "atc", m.ID))
		if l.Kind != "team_boards" || len(l.Boards) != 4 || len(l.Parts) != 3 || l.Parts[0].TC != "0+2" || l.Parts[0].Games != 8 ||
			l.Parts[1].Games != 4 || l.Parts[2].Games != 6 || l.WinThreshold != arbiter.P(289) || !l.PlayAllGames || l.Tie != nil || l.Source != "" {
			t.Fatalf("layout %+v", l)
		}

		// Board 1, 0+2: win, win, draw so far.
		vals := map[string]string{Cell(1, 0, 0): "1", Cell(1, 0, 1): "1", Cell(1, 0, 2): "="}
		chk := must(s.CheckResult(ctx, cap01, "atc", m.ID, vals))
		if chk.Tally == nil || chk.Tally.HomePoints != arbiter.P(15) || chk.Tally.AwayPoints != arbiter.P(3) || chk.Outcome != nil {
			t.Fatalf("running totals %+v", chk)
		}
		if p := chk.Problem; p == nil || !p.Incomplete || p.Cell != Cell(1, 0, 3) || p.Clause != "A17" {
			t.Fatalf("games to enter: %+v", p)
		}
		// Game 5 typed with game 4 empty: refused at game 4.
		vals[Cell(1, 0, 4)] = "0"
		chk = must(s.CheckResult(ctx, cap01, "atc", m.ID, vals))
		if p := chk.Problem; p == nil || p.Incomplete || p.Cell != Cell(1, 0, 3) || p.Rule != "entry.order" {
			t.Fatalf("a gap: %+v", p)
		}
		delete(vals, Cell(1, 0, 4))
		vals[Cell(1, 0, 3)] = "w"
		chk = must(s.CheckResult(ctx, cap01, "atc", m.ID, vals))
		if p := chk.Problem; p == nil || p.Incomplete || p.Cell != Cell(1, 0, 3) || p.Rule != "score.result" {
			t.Fatalf("a wrong value: %+v", p)
		}

		// Boards 1 and 2 won outright (144 each), 3 and 4 drawn (72 each).
		fill(vals, l, "1", 1, 2)
		fill(vals, l, "=", 3, 4)
		chk = must(s.CheckResult(ctx, cap01, "atc", m.ID, vals))
		if chk.Problem != nil || chk.Outcome == nil || chk.Outcome.Result != "home_win" || chk.Outcome.Home.Points != arbiter.P(432) || chk.Outcome.Away.Points != arbiter.P(144) {
			t.Fatalf("full sheet: %+v %+v", chk.Problem, chk.Outcome)
		}
		if cell := l.CellOf(chk.Tally.DecidedAt, vals); !chk.Tally.Decided || cell != Cell(3, 0, 0) {
			t.Fatalf("decided at %q (%s)", chk.Tally.DecidedAt, cell)
		}
		// A member may not check the captain's form; nothing was stored.
		if _, err := s.CheckResult(ctx, player("a01"), "atc", m.ID, vals); arbiter.ErrorCode(err) != arbiter.EFORBIDDEN {
			t.Fatalf("a member checks: %v", err)
		}
		if got := must(s.Reports(ctx, arbiter.NamedUser(td.Name), "atc", m.ID)); len(got) != 0 {
			t.Fatalf("checking stored %d reports", len(got))
		}

		got := must(s.ReportResult(ctx, cap01, "atc", m.ID, ResultInput{Entry: vals}))
		if got.Status != arbiter.MatchReported || got.Result.Home.Points != arbiter.P(432) {
			t.Fatalf("reported %s %+v", got.Status, got.Result)
		}
		tl := must(s.ResultLayout(ctx, td, "atc", m.ID))
		if tl.Source != "report" || tl.Values[Cell(1, 2, 5)] != "1" || tl.Values[Cell(4, 1, 3)] != "=" {
			t.Fatalf("the TD's form starts from %q: %v", tl.Source, tl.Values)
		}
		// The TD overrides with the same form: board 4 forfeited to away.
		fill(vals, l, "", 4)
		vals[BoardForfeitField(4)] = "away"
		got = must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Entry: vals}, "board 4 home player did not show", 0))
		if got.Result.Home.Points != arbiter.P(360) || got.Result.Away.Points != arbiter.P(216) {
			t.Fatalf("override %+v", got.Result)
		}
	})
}

// The error paths of a sheet name the form's cells.
func TestEntryCellOf(t *testing.T) {
	t.Parallel()
	l := EntryLayout{Parts: []EntryPart{{Index: 0, Games: 8}, {Index: 1, Games: 2}}, Tie: &EntryTie{Games: 4}}
	vals := map[string]string{Cell(0, 0, 0): "1", Cell(2, 1, 0): "=", Cell(2, 1, 1): "1", TieCell(0): "1"}
	for field, want := range map[string]string{
		"boards[1].parts[2].results[3]": Cell(2, 2, 3),
		"boards[1].parts[0].results":    Cell(2, 0, 0),
		"boards[1].parts[1].results":    Cell(2, 1, 0),
		"boards[3].forfeit":             BoardForfeitField(4),
		"boards[0].home_player":         Cell(1, 0, 0),
		"parts[0].results[7]":           Cell(0, 0, 7),
		"sets[0].results":               Cell(0, 0, 1),
		"tie.games[2]":                  TieCell(2),
		"tie.games":                     TieCell(1),
		"tie.armageddon.white":          FieldWhite,
		"tie.armageddon":                FieldHomeBid,
		"forfeit":                       FieldForfeit,
		"home":                          "",
	} {
		if got := l.CellOf(field, vals); got != want {
			t.Errorf("%s: cell %q, want %q", field, got, want)
		}
	}
}

// TestResultFormPrefilledFromLichess: when the match's games were imported
// from Lichess (lichess_import.go), the captain's form on the match page
// and the TD's override form open with the imported results in their
// cells, marked as coming from Lichess.
func TestResultFormPrefilledFromLichess(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 10, 12, 0)
		m := ms[0]
		cap01 := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}
		l := must(s.ResultLayout(ctx, cap01, "atc", m.ID))
		vals := map[string]string{}
		fill(vals, l, "1", 1, 2)
		fill(vals, l, "=", 3, 4)

		// What the import stores: the sheet built from the games.
		err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			st, err := load(ctx, tx, "atc")
			if err != nil {
				return err
			}
			sheet, err := st.entryInput(&m, vals)
			if err != nil {
				return err
			}
			_, err = docLichessImport.create(ctx, tx, change(td, "lichess.import", "", false), st, m.ID,
				LichessImport{Match: m.ID, At: c.t, Sheet: sheet, Complete: true})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}

		for _, who := range []arbiter.Actor{cap01, td} {
			got := must(s.ResultLayout(ctx, who, "atc", m.ID))
			if got.Source != "lichess" || got.Values[Cell(1, 0, 0)] != "1" || got.Values[Cell(2, 2, 5)] != "1" || got.Values[Cell(3, 1, 3)] != "=" {
				t.Fatalf("%s's form: source %q, values %v", who.Name, got.Source, got.Values)
			}
		}
		v := must(s.MatchView(ctx, arbiter.NamedUser("cap01"), "atc", m.ID))
		if v.Entry == nil || v.Entry.Source != "lichess" || v.Entry.Values[Cell(4, 0, 7)] != "=" {
			t.Fatalf("the match page's form: %+v", v.Entry)
		}
	})
}
