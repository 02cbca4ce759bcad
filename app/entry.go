package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/score"
	"arbiter/sqlstore"
)

// A result form is the match sheet as a grid, never a JSON box: the
// antichess cup by board × part × game, RKCC by set, the ACWC by game,
// plus the knockout's tie games and armageddon where the match has them.
// Each cell is one game from the home side's view. The form's fields are
// named by EntryLayout's cells and read back by ResultInput.Entry, so a
// form post and a JSON sheet go through the same scoring and checks.

// Cell values, from the home side's view; blank is a game not played.
const (
	CellWin         = "1"
	CellDraw        = "="
	CellLoss        = "0"
	CellForfeitWin  = "+"  // the away player forfeited the game
	CellForfeitLoss = "-"  // the home player forfeited it
	CellDouble      = "--" // both forfeited
)

// EntryLayout is a match's result form.
type EntryLayout struct {
	Match string
	// Kind is the match format's kind: individual, team_boards,
	// team_sets.
	Kind string
	// Boards are the board pairs of a team_boards match (Number from 1);
	// other kinds have one row of parts, Number 0.
	Boards []EntryBoard
	Parts  []EntryPart
	// Tie is the knockout tie procedure, nil where a tied match stays
	// drawn (or is left to the TDs).
	Tie *EntryTie
	// MaxPoints and WinThreshold are the match's (A18: 289 of 576;
	// W4: 5.5 of 10; R11: 2 sets); PlayAllGames says the games after the
	// threshold are still played and counted (A18), not refused (W4).
	MaxPoints     arbiter.Points
	WinThreshold  arbiter.Points
	ThresholdUnit string
	PlayAllGames  bool
	// Clauses cited: the games (A17, R3, W2), the early end (W4).
	GamesClause, DecidedClause string
	// Values prefill the form, by field name; Source says where they
	// come from: "report" (the match's current report), "lichess" (games
	// found on Lichess) or "" (nothing).
	Values map[string]string
	Source string

	clauses format.Clauses
}

// EntryBoard is one board pair.
type EntryBoard struct {
	Number                 int
	HomePlayer, AwayPlayer string // from the board lists; "" when not ranked
	// Ruling is a board decided without play (a sanction, the time
	// negotiation): its forfeit kind, and the clause; its cells are not
	// entered.
	Ruling, RulingClause string
}

// EntryPart is one part (or set) of the match format.
type EntryPart struct {
	Index     int
	TC        string
	Games     int
	Win, Draw arbiter.Points
	// SetThreshold wins the set outright (team_sets, R11).
	SetThreshold arbiter.Points
}

// EntryTie is the tie procedure of a knockout match.
type EntryTie struct {
	CaptainsAdvantage bool // A20
	Games             int  // tiebreak games (A20: 4 of 3+0; W11)
	GamesTC           string
	Armageddon        bool
	EqualBids         string // coin_flip or rock_paper_scissors
	Clause            string
}

// Cell names a game's field: board (0 without boards), part index, game
// index, all from the sheet's order.
func Cell(board, part, game int) string { return fmt.Sprintf("r-%d-%d-%d", board, part, game) }

// Tie cells.
const (
	FieldForfeit       = "forfeit" // the match forfeit: home, away, double, full_draw
	FieldCaptainsBoard = "tie-captains"
	FieldHomeBid       = "arm-home-bid"
	FieldAwayBid       = "arm-away-bid"
	FieldWhite         = "arm-white"
	FieldArmResult     = "arm-result"
)

// TieCell is the field of a tiebreak game.
func TieCell(game int) string { return fmt.Sprintf("tie-g-%d", game) }

// BoardForfeitField is the field of a board's forfeit.
func BoardForfeitField(board int) string { return fmt.Sprintf("forfeit-%d", board) }

// entryLayout is the form of match m.
func entryLayout(st *state, m *arbiter.Match) EntryLayout {
	mf := st.f.Stages[m.Stage].MatchFor(m.Format)
	l := EntryLayout{Match: m.ID, Kind: mf.Kind, PlayAllGames: mf.PlayAllGames,
		GamesClause: st.f.Clauses.Games, DecidedClause: st.f.Clauses.Decided, Values: map[string]string{}, clauses: st.f.Clauses}
	for i, p := range mf.Parts {
		win, draw := p.PerGame()
		l.Parts = append(l.Parts, EntryPart{Index: i, TC: p.TC.String(), Games: p.Games, Win: win, Draw: draw, SetThreshold: p.SetThreshold()})
	}
	teamSize := 1
	if mf.Kind == format.TeamBoards {
		teamSize = max(len(m.HomeBoards), len(m.AwayBoards), 1)
		if ts := st.f.TeamSize(st.ev.Entrants); ts != nil {
			teamSize = *ts // the format's board count (A9), whatever the lists say
		}
		for b := 1; b <= teamSize; b++ {
			eb := EntryBoard{Number: b}
			if b <= len(m.HomeBoards) {
				eb.HomePlayer = m.HomeBoards[b-1]
			}
			if b <= len(m.AwayBoards) {
				eb.AwayPlayer = m.AwayBoards[b-1]
			}
			for _, r := range m.Rulings {
				if r.Board == b && r.Forfeit != rulingReopened {
					eb.Ruling, eb.RulingClause = r.Forfeit, r.Clause
				}
			}
			l.Boards = append(l.Boards, eb)
		}
	} else {
		l.Boards = []EntryBoard{{Number: 0}}
	}
	l.MaxPoints = mf.MaxPoints(teamSize)
	l.WinThreshold, l.ThresholdUnit = mf.WinThreshold(teamSize)
	if st.ev.Stages[m.Stage].Kind == format.Knockout && len(mf.Tie) > 0 {
		t := &EntryTie{Clause: st.f.Clauses.Tie}
		for _, step := range mf.Tie {
			switch step.Kind {
			case format.TieCaptainsAdvantage:
				t.CaptainsAdvantage = true
			case format.TieGames:
				t.Games, t.GamesTC = step.Games, step.TC.String()
			case format.TieArmageddon:
				t.Armageddon = true
				if st.f.Armageddon != nil {
					t.EqualBids = st.f.Armageddon.EqualBids
				}
			}
		}
		l.Tie = t
	}
	return l
}

// entrySheet builds the match sheet of a filled-in form. A blank cell is
// a game not played; a part's results are its cells up to the last one
// filled in, and a blank before a filled cell is refused (results are in
// playing order). Every part of every board is on the sheet, so the
// score's field paths (boards[i].parts[j]) name the form's rows.
func entrySheet(l EntryLayout, m *arbiter.Match, vals map[string]string) (*score.Sheet, error) {
	get := func(k string) string { return strings.TrimSpace(vals[k]) }
	sh := &score.Sheet{Home: m.Home, Away: m.Away, Match: m.Format, Forfeit: get(FieldForfeit)}
	anyCell := false
	parts := func(board int, path string) ([]score.PartSheet, error) {
		var out []score.PartSheet
		for _, p := range l.Parts {
			ps := score.PartSheet{TC: p.TC}
			last := -1
			for g := range p.Games {
				if get(Cell(board, p.Index, g)) != "" {
					last = g
				}
			}
			for g := 0; g <= last; g++ {
				v := get(Cell(board, p.Index, g))
				if v == "" {
					return nil, arbiter.FieldError(fmt.Sprintf("%s[%d].results[%d]", path, p.Index, g), "entry.order",
						"game %d of %s is empty but a later game has a result: enter the games in playing order, from the first", g+1, p.TC)
				}
				ps.Results = append(ps.Results, v)
				anyCell = true
			}
			out = append(out, ps)
		}
		return out, nil
	}
	var err error
	switch l.Kind {
	case format.TeamBoards:
		for i, b := range l.Boards {
			bs := score.BoardSheet{Board: b.Number, HomePlayer: b.HomePlayer, AwayPlayer: b.AwayPlayer, Forfeit: get(BoardForfeitField(b.Number))}
			if bs.Parts, err = parts(b.Number, fmt.Sprintf("boards[%d].parts", i)); err != nil {
				return nil, err
			}
			if bs.Forfeit != "" || b.Ruling != "" {
				if slices.ContainsFunc(bs.Parts, func(p score.PartSheet) bool { return len(p.Results) > 0 }) {
					if b.Ruling != "" {
						return nil, arbiter.FieldError(fmt.Sprintf("boards[%d].forfeit", i), b.RulingClause, "board %d was decided without play (%s): leave its games empty", b.Number, b.Ruling)
					}
					return nil, arbiter.FieldError(fmt.Sprintf("boards[%d].forfeit", i), "score.forfeit", "board %d is forfeited: leave its games empty, or choose no forfeit", b.Number)
				}
				bs.Parts = nil
			}
			sh.Boards = append(sh.Boards, bs)
		}
	case format.TeamSets:
		sh.Sets, err = parts(0, "sets")
	default:
		sh.Parts, err = parts(0, "parts")
	}
	if err != nil {
		return nil, err
	}
	if sh.Forfeit != "" && !anyCell {
		sh.Parts, sh.Sets, sh.Boards = nil, nil, nil // a forfeited match lists no games
	}
	if l.Tie != nil {
		t := &score.TieSheet{}
		if v := get(FieldCaptainsBoard); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, arbiter.FieldError("tie.captains_board", "entry.tie", "choose the board on which the captains met")
			}
			t.CaptainsBoard = n
		}
		last := -1
		for g := range l.Tie.Games {
			if get(TieCell(g)) != "" {
				last = g
			}
		}
		for g := 0; g <= last; g++ {
			v := get(TieCell(g))
			if v == "" {
				return nil, arbiter.FieldError(fmt.Sprintf("tie.games[%d]", g), "entry.order", "tiebreak game %d is empty but a later one has a result", g+1)
			}
			t.Games = append(t.Games, v)
		}
		if hb, ab, res := get(FieldHomeBid), get(FieldAwayBid), get(FieldArmResult); hb != "" || ab != "" || res != "" {
			a := &score.ArmageddonSheet{White: arbiter.Side(get(FieldWhite)), Result: res}
			for _, b := range []struct {
				v, field string
				to       *int
			}{{hb, "tie.armageddon.home_bid", &a.HomeBid}, {ab, "tie.armageddon.away_bid", &a.AwayBid}} {
				n, err := strconv.Atoi(b.v)
				if err != nil {
					return nil, arbiter.FieldError(b.field, "entry.tie", "a bid is a whole number of seconds")
				}
				*b.to = n
			}
			t.Armageddon = a
		}
		if t.CaptainsBoard != 0 || len(t.Games) > 0 || t.Armageddon != nil {
			sh.Tie = t
		}
	}
	return sh, nil
}

// entryInput turns the form's values into the sheet the score reads.
func (st *state) entryInput(m *arbiter.Match, vals map[string]string) ([]byte, error) {
	sh, err := entrySheet(entryLayout(st, m), m, vals)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(sh)
	if err != nil {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "encoding sheet: %v", err)
	}
	return b, nil
}

// CellOf is the form field a result error concerns (its Field, a sheet
// path such as boards[1].parts[2].results[3]), given the form's values;
// "" when the error concerns the sheet as a whole. An error on a part as
// a whole (games missing) is placed on its first empty cell.
func (l EntryLayout) CellOf(field string, vals map[string]string) string {
	board, rest := 0, field
	if b, r, ok := indexed(field, "boards"); ok {
		board, rest = b+1, r
		rest = strings.TrimPrefix(rest, ".")
		switch {
		case rest == "forfeit":
			return BoardForfeitField(board)
		case !strings.HasPrefix(rest, "parts"):
			return Cell(board, 0, 0)
		}
	}
	for _, list := range []string{"parts", "sets"} {
		p, r, ok := indexed(rest, list)
		if !ok {
			if rest == list {
				return Cell(board, 0, 0)
			}
			continue
		}
		if g, _, ok := indexed(strings.TrimPrefix(r, "."), "results"); ok {
			return Cell(board, p, g)
		}
		if p < 0 || p >= len(l.Parts) {
			return Cell(board, 0, 0)
		}
		for g := range l.Parts[p].Games {
			if strings.TrimSpace(vals[Cell(board, p, g)]) == "" {
				return Cell(board, p, g)
			}
		}
		return Cell(board, p, 0)
	}
	switch {
	case strings.HasPrefix(field, "tie.games"):
		if g, _, ok := indexed(strings.TrimPrefix(field, "tie."), "games"); ok {
			return TieCell(g)
		}
		if l.Tie != nil {
			for g := range l.Tie.Games {
				if strings.TrimSpace(vals[TieCell(g)]) == "" {
					return TieCell(g)
				}
			}
		}
		return TieCell(0)
	case field == "tie.captains_board":
		return FieldCaptainsBoard
	case field == "tie.armageddon.away_bid":
		return FieldAwayBid
	case field == "tie.armageddon.white":
		return FieldWhite
	case field == "tie.armageddon.result":
		return FieldArmResult
	case strings.HasPrefix(field, "tie.armageddon"):
		return FieldHomeBid
	case field == "tie":
		return TieCell(0)
	case field == "forfeit":
		return FieldForfeit
	}
	return ""
}

// indexed reads "name[N]rest" from s.
func indexed(s, name string) (int, string, bool) {
	r, ok := strings.CutPrefix(s, name+"[")
	if !ok {
		return 0, "", false
	}
	n, rest, ok := strings.Cut(r, "]")
	i, err := strconv.Atoi(n)
	if !ok || err != nil {
		return 0, "", false
	}
	return i, rest, true
}

// Clause is the rulebook clause a result error cites: the error's rule
// where it is one (A12, A20, R7), else the format's clause for the score
// rule broken (missing games: A17; a game after the end: W4; the tie:
// A20), else "".
func (l EntryLayout) Clause(rule string) string {
	switch rule {
	case "score.games":
		return l.clauses.Games
	case "score.after_decided":
		return l.clauses.Decided
	case "score.boards":
		return l.clauses.TeamSize
	case "score.tie", "entry.tie":
		return l.clauses.Tie
	case "score.armageddon":
		return l.clauses.Armageddon
	}
	if len(rule) >= 2 && rule[0] >= 'A' && rule[0] <= 'Z' && strings.Trim(rule[1:], "0123456789") == "" {
		return rule
	}
	return ""
}

// ResultLayout is match matchID's result form for actor a, prefilled for
// a TD with the match's current report (the override starts from what was
// reported) or, failing that, the games last found on Lichess.
func (s *Service) ResultLayout(ctx context.Context, a arbiter.Actor, slug, matchID string) (EntryLayout, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return EntryLayout{}, err
	}
	m, err := docMatch.get(ctx, s.DB, st, matchID)
	if err != nil {
		return EntryLayout{}, err
	}
	td, err := isTD(ctx, s.DB, st, a)
	if err != nil {
		return EntryLayout{}, err
	}
	return s.resultLayout(ctx, s.DB, st, &m, td)
}

// resultLayout is ResultLayout within a read (the match view's).
func (s *Service) resultLayout(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, td bool) (EntryLayout, error) {
	l := entryLayout(st, m)
	if sh, err := s.importedSheet(ctx, q, st, m); err != nil {
		return l, err
	} else if sh != nil {
		prefill(&l, sh)
		l.Source = "lichess"
	}
	if !td {
		return l, nil
	}
	if m.Report != "" {
		rep, err := docReport.get(ctx, q, st, m.Report)
		if err != nil {
			return l, err
		}
		if rep.Sheet != nil {
			l.Values = map[string]string{}
			prefill(&l, rep.Sheet)
			l.Source = "report"
		}
		return l, nil
	}
	if l.Source == "" {
		v, err := optional(docVerification.get(ctx, q, st, m.ID))
		if err != nil {
			return l, err
		}
		if v != nil && prefillVerification(&l, v) {
			l.Source = "lichess"
		}
	}
	return l, nil
}

// importedSheet is the sheet built from the match's games imported from
// Lichess (lichess_import.go), nil when none were imported or none were
// counted; the TD's form then falls back on the last check of the games
// on Lichess (Verification).
func (s *Service) importedSheet(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match) (*score.Sheet, error) {
	im, err := docLichessImport.get(ctx, q, st, m.ID)
	switch {
	case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
		return nil, nil
	case err != nil:
		return nil, err
	case len(im.Sheet) == 0 || string(im.Sheet) == "null":
		return nil, nil
	}
	return score.LoadSheet(bytes.NewReader(im.Sheet))
}

// prefill copies a sheet's results into the form's values.
func prefill(l *EntryLayout, sh *score.Sheet) {
	if sh.Forfeit != "" {
		l.Values[FieldForfeit] = sh.Forfeit
	}
	partIndex := func(tc string) int {
		want, err := format.ParseTimeControl(tc)
		if err != nil {
			return -1
		}
		return slices.IndexFunc(l.Parts, func(p EntryPart) bool { got, _ := format.ParseTimeControl(p.TC); return got == want })
	}
	put := func(board int, ps []score.PartSheet) {
		for _, p := range ps {
			i := partIndex(p.TC)
			if i < 0 {
				continue
			}
			for g, tok := range p.Results {
				if g < l.Parts[i].Games {
					l.Values[Cell(board, i, g)] = cellToken(tok)
				}
			}
			if p.Forfeit != "" {
				for g := range l.Parts[i].Games {
					l.Values[Cell(board, i, g)] = forfeitCell(p.Forfeit)
				}
			}
		}
	}
	put(0, sh.Parts)
	put(0, sh.Sets)
	for _, b := range sh.Boards {
		if b.Forfeit != "" {
			l.Values[BoardForfeitField(b.Board)] = b.Forfeit
		}
		put(b.Board, b.Parts)
	}
	if t := sh.Tie; t != nil {
		if t.CaptainsBoard != 0 {
			l.Values[FieldCaptainsBoard] = strconv.Itoa(t.CaptainsBoard)
		}
		for g, tok := range t.Games {
			l.Values[TieCell(g)] = cellToken(tok)
		}
		if a := t.Armageddon; a != nil {
			l.Values[FieldHomeBid], l.Values[FieldAwayBid] = strconv.Itoa(a.HomeBid), strconv.Itoa(a.AwayBid)
			l.Values[FieldWhite], l.Values[FieldArmResult] = string(a.White), cellToken(a.Result)
		}
	}
}

// prefillVerification copies the games found on Lichess, part by part;
// false when it found none.
func prefillVerification(l *EntryLayout, v *MatchVerification) bool {
	found := false
	for _, c := range v.Checks {
		sh := score.PartSheet{TC: c.TC}
		for _, g := range c.Found {
			if g.Result == "" {
				break
			}
			sh.Results = append(sh.Results, g.Result)
		}
		if len(sh.Results) == 0 {
			continue
		}
		found = true
		if c.Board > 0 {
			prefill(l, &score.Sheet{Boards: []score.BoardSheet{{Board: c.Board, Parts: []score.PartSheet{sh}}}})
		} else {
			prefill(l, &score.Sheet{Parts: []score.PartSheet{sh}})
		}
	}
	return found
}

// cellToken writes a sheet's result token as the form's cell does.
func cellToken(tok string) string {
	switch strings.ToLower(strings.TrimSpace(tok)) {
	case "1", "1-0":
		return CellWin
	case "0", "0-1":
		return CellLoss
	case "=", "½", "0.5", "½-½", "1/2", "1/2-1/2", "0.5-0.5", "d":
		return CellDraw
	case "+", "+-", "1f":
		return CellForfeitWin
	case "-", "-+", "0f":
		return CellForfeitLoss
	case "--", "0-0":
		return CellDouble
	}
	return tok
}

func forfeitCell(kind string) string {
	switch kind {
	case score.ForfeitHome:
		return CellForfeitWin
	case score.ForfeitAway:
		return CellForfeitLoss
	case score.ForfeitDouble:
		return CellDouble
	}
	return "=f"
}

// EntryCheck is a result form checked while it is filled in.
type EntryCheck struct {
	// Tally is the running score (score.Tally): every part, board and
	// the match, and where the win threshold was reached; nil when the
	// form cannot be read as a sheet yet.
	Tally *score.MatchScore
	// DecidedCell is the cell at which the win threshold was reached
	// (the clinch), "" while it is not.
	DecidedCell string
	// Outcome is the result the form would record if sent now; nil
	// while it would be refused.
	Outcome *arbiter.Outcome
	// Problem is the first rule that refuses the form now, nil when it
	// would be accepted.
	Problem *EntryProblem
}

// EntryProblem is a refusal placed on the form.
type EntryProblem struct {
	Field   string // the sheet path (boards[1].parts[0].results[3])
	Cell    string // the form field it concerns, "" for the whole form
	Rule    string // the rule as the error names it
	Clause  string // the rulebook clause (EntryClause), "" when none
	Message string
	// Incomplete says the only thing wrong is what is still to enter:
	// missing games or tie data, at an empty field.
	Incomplete bool
}

// Problem places a result error on the form; nil for nil.
func (l EntryLayout) Problem(err error, vals map[string]string) *EntryProblem {
	if err == nil {
		return nil
	}
	p := &EntryProblem{Message: arbiter.ErrorMessage(err)}
	var e *arbiter.Error
	if errors.As(err, &e) && e.Code != arbiter.EINTERNAL {
		p.Message, p.Field, p.Rule = e.Message, e.Field, e.Rule
		p.Cell = l.CellOf(e.Field, vals)
		p.Clause = l.Clause(e.Rule)
	}
	switch p.Rule {
	case "score.games", "score.tie", "score.armageddon":
		p.Incomplete = p.Cell != "" && strings.TrimSpace(vals[p.Cell]) == ""
	}
	return p
}

// CheckResult checks a result form as ReportResult (a side of the match)
// or OverrideResult (a TD) would, storing nothing: the running totals and
// the first rule that would refuse it, placed on its field. The store's
// truth is the same scoring: the form is turned into a sheet and scored
// by package score through the checks of a report.
func (s *Service) CheckResult(ctx context.Context, a arbiter.Actor, slug, matchID string, vals map[string]string) (EntryCheck, error) {
	var out EntryCheck
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if err := requireActor(a); err != nil {
		return out, err
	}
	m, err := docMatch.get(ctx, s.DB, st, matchID)
	if err != nil {
		return out, err
	}
	if m.IsBye() {
		return out, arbiter.RuleError("app.result", "match %s is a bye", m.ID)
	}
	side, err := sideOf(ctx, s.DB, st, a, &m)
	if err != nil {
		return out, err
	}
	td := false
	if side == "" {
		// A TD checks an override whichever role the page acted in.
		if td, err = isTD(ctx, s.DB, st, arbiter.Actor{Name: a.Name, Role: arbiter.RoleTD}); err != nil {
			return out, err
		}
		if !td {
			return out, arbiter.Errorf(arbiter.EFORBIDDEN, "%s may check results of their own match only (or as a TD)", a)
		}
	}
	l := entryLayout(st, &m)
	sh, err := entrySheet(l, &m, vals)
	if err != nil {
		out.Problem = l.Problem(err, vals)
		return out, nil
	}
	tallied := *sh
	tallied.Boards = slices.Clone(sh.Boards)
	applyRulings(&m, &tallied)
	if out.Tally, err = score.Tally(st.f, st.ev.Stages[m.Stage].Name, &tallied, score.Options{Entrants: st.ev.Entrants}); err != nil {
		out.Problem = l.Problem(err, vals)
		return out, nil
	}
	if out.Tally.Decided {
		out.DecidedCell = l.CellOf(out.Tally.DecidedAt, vals)
	}
	sc, err := st.score(&m, ResultInput{Entry: vals})
	if err == nil {
		err = checkArmageddon(ctx, s.DB, st, &m, sc.sheet)
	}
	if err == nil && side != "" {
		err = checkLineups(ctx, s.DB, st, &m, sc.sheet)
	}
	if err != nil {
		out.Problem = l.Problem(err, vals)
		return out, nil
	}
	out.Outcome = &sc.outcome
	return out, nil
}
