package score

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// Options are facts about the event that the sheet does not carry.
type Options struct {
	// Entrants is the number of entrants of the event. It fixes the team
	// size where that depends on it (A9: 3 boards below 10 teams); 0 means
	// unknown: the sheet's board count must be one the format allows.
	Entrants int
}

// Results of a match.
const (
	HomeWin       = "home_win"
	AwayWin       = "away_win"
	Draw          = "draw"
	DoubleLoss    = "double_loss"    // a double forfeit counted as a loss for both
	TieUnresolved = "tie_unresolved" // knockout tie the format has no procedure for: the TDs decide
)

// MatchScore is a scored match.
type MatchScore struct {
	Format string `json:"format"`
	Stage  string `json:"stage"`
	Match  string `json:"match,omitempty"`
	Kind   string `json:"kind"`
	Home   string `json:"home"`
	Away   string `json:"away"`
	// Parts (individual), Sets (team_sets) or Boards (team_boards).
	Parts  []PartScore  `json:"parts,omitempty"`
	Sets   []PartScore  `json:"sets,omitempty"`
	Boards []BoardScore `json:"boards,omitempty"`
	// HomePoints and AwayPoints are the match totals: game points, points
	// scored (sum of the boards, A19) or set points (R10).
	HomePoints arbiter.Points `json:"home_points"`
	AwayPoints arbiter.Points `json:"away_points"`
	// HomeSets and AwaySets count sets won (team_sets, R11).
	HomeSets int `json:"home_sets"`
	AwaySets int `json:"away_sets"`
	// MaxPoints and WinThreshold are the format's for this match.
	MaxPoints     arbiter.Points `json:"max_points"`
	WinThreshold  arbiter.Points `json:"win_threshold"`
	ThresholdUnit string         `json:"threshold_unit"`
	// Forfeit is the match-level forfeit, if any.
	Forfeit string `json:"forfeit,omitempty"`
	// Result is home_win, away_win, draw, double_loss or tie_unresolved.
	Result string `json:"result"`
	// Winner names the winning entrant ("" for a draw).
	Winner string `json:"winner,omitempty"`
	// DecidedBy: points, sets, set_points, forfeit, tiebreak_games,
	// armageddon; "" for a draw.
	DecidedBy string `json:"decided_by,omitempty"`
	// Decided says the winner's score reached the win threshold; DecidedAt
	// is the sheet path of the game (or forfeit) that reached it, in sheet
	// order; DecidedEarly says games were still to come at that point
	// (A18: they are played and counted; W4: the match ended there).
	Decided      bool   `json:"decided"`
	DecidedAt    string `json:"decided_at,omitempty"`
	DecidedEarly bool   `json:"decided_early"`
	// GamesAfterDecision counts the games (forfeited ones included) on the
	// sheet after DecidedAt; they count in full (A18).
	GamesAfterDecision int `json:"games_after_decision,omitempty"`
	// Tie is the knockout tie resolution.
	Tie *TieScore `json:"tie,omitempty"`
	// Notes explain unusual outcomes (a tie left to the TDs).
	Notes []string `json:"notes,omitempty"`
	// Standings is what the match gives the stage's standings: match
	// points, secondary score (set points / points scored / game points),
	// sets won and games won for each side, and how it was decided
	// (played or which forfeit). A is home, B is away. It is the outcome
	// as standings reads it (standings.FromOutcome).
	Standings standings.Result `json:"standings"`

	// outcome is the scored result as a report and a match store it.
	outcome arbiter.Outcome
}

// PartScore is one part or set.
type PartScore struct {
	TC         string `json:"tc"`
	HomePlayer string `json:"home_player,omitempty"`
	AwayPlayer string `json:"away_player,omitempty"`
	// Games is the number of results recorded, Of the games of the part.
	Games int `json:"games"`
	Of    int `json:"of"`
	// HomeGames and AwayGames are the game score (1 / ½ / 0 per game).
	HomeGames arbiter.Points `json:"home_games"`
	AwayGames arbiter.Points `json:"away_games"`
	// Home and Away are the part's points (A18) or set points (R10).
	Home    arbiter.Points `json:"home"`
	Away    arbiter.Points `json:"away"`
	Forfeit string         `json:"forfeit,omitempty"`
	// Winner is home, away or "" (drawn or not played).
	Winner arbiter.Side `json:"winner,omitempty"`
}

// BoardScore is one board pair of a team_boards match.
type BoardScore struct {
	Board      int            `json:"board"`
	HomePlayer string         `json:"home_player,omitempty"`
	AwayPlayer string         `json:"away_player,omitempty"`
	Parts      []PartScore    `json:"parts"`
	Home       arbiter.Points `json:"home"`
	Away       arbiter.Points `json:"away"`
	Forfeit    string         `json:"forfeit,omitempty"`
}

// unit is a list of parts played by one board pair (individual and
// team_sets matches have one unit).
type unit struct {
	path  string // "parts", "sets", "boards[2].parts"
	parts []partState
}

type partState struct {
	def       format.Part
	sheetPath string // "boards[0].parts[1]"; "" when absent from the sheet
	forfeit   string
	games     []game
	home      arbiter.Points
	away      arbiter.Points
	homeHalf  int
	awayHalf  int
	clinched  arbiter.Side // team_sets: side that reached the set threshold
	sheet     *PartSheet
}

type event struct {
	unit, part int
	g          game
	n          int // games covered (a part forfeit covers the part)
	// base is the sheet path of the forfeit, or of the part whose game
	// result number k is the event (k -1 for a forfeit): the path is
	// written only when needed (path).
	base  string
	k     int
	token bool // a game result token (not a forfeit of a whole part/board/match)
}

// path is the sheet path of the game or forfeit.
func (e *event) path() string {
	if e.k < 0 {
		return e.base
	}
	return e.base + ".results[" + strconv.Itoa(e.k) + "]"
}

// samePath reports whether two events have the same sheet path.
func (e *event) samePath(o *event) bool { return e.base == o.base && e.k == o.k }

func (p *partState) add(g game, n int) {
	win, draw := p.def.PerGame()
	for range n {
		p.home += pointsFor(g.home, win, draw)
		p.away += pointsFor(g.away, win, draw)
		p.homeHalf += g.home
		p.awayHalf += g.away
	}
}

func pointsFor(halves int, win, draw arbiter.Points) arbiter.Points {
	switch halves {
	case 2:
		return win
	case 1:
		return draw
	}
	return 0
}

func validForfeit(k string) bool {
	_, ok := forfeitGame(k)
	return ok
}

// Score scores a match sheet for the named stage of format f. Every error
// is an *arbiter.Error naming the sheet field (JSON path) and the rule.
func Score(f *format.Format, stage string, sh *Sheet, opt Options) (*MatchScore, error) {
	return scoreSheet(f, stage, sh, opt, false)
}

// scoreSheet scores the sheet; partial tallies a sheet still being filled
// in (Tally): every rule but completeness is checked, and the result is
// left undecided.
func scoreSheet(f *format.Format, stage string, sh *Sheet, opt Options, partial bool) (*MatchScore, error) {
	if sh == nil {
		return nil, arbiter.FieldError("", "score.sheet", "no match sheet")
	}
	st := f.StageByName(stage)
	if st == nil {
		var names []string
		for _, s := range f.Stages {
			names = append(names, s.Name)
		}
		return nil, arbiter.FieldError("stage", "score.stage", "format %s has no stage %q (stages: %s)", f.Name, stage, strings.Join(names, ", "))
	}
	switch sh.Match {
	case "":
	case "final":
		if st.Kind != format.Knockout {
			return nil, arbiter.FieldError("match", "score.match", "only a knockout has a final")
		}
	case "third_place":
		if st.Kind != format.Knockout || !st.ThirdPlace {
			return nil, arbiter.FieldError("match", "score.match", "stage %s has no third-place match", st.Name)
		}
	default:
		return nil, arbiter.FieldError("match", "score.match", "want \"\", final or third_place, got %q", sh.Match)
	}
	m := st.MatchFor(sh.Match)
	switch {
	case strings.TrimSpace(sh.Home) == "":
		return nil, arbiter.FieldError("home", "score.entrants", "required")
	case strings.TrimSpace(sh.Away) == "":
		return nil, arbiter.FieldError("away", "score.entrants", "required")
	case sh.Home == sh.Away:
		return nil, arbiter.FieldError("away", "score.entrants", "an entrant cannot play itself")
	}
	ms := &MatchScore{Format: f.Name, Stage: st.Name, Match: sh.Match, Kind: m.Kind, Home: sh.Home, Away: sh.Away}

	// The sheet lists what the match kind plays, and nothing else.
	wrong := map[string]bool{"parts": len(sh.Parts) > 0, "boards": len(sh.Boards) > 0, "sets": len(sh.Sets) > 0}
	field := map[string]string{format.MatchIndividual: "parts", format.TeamBoards: "boards", format.TeamSets: "sets"}[m.Kind]
	wrong[field] = false
	for _, k := range []string{"parts", "boards", "sets"} {
		if wrong[k] {
			return nil, arbiter.FieldError(k, "score.kind", "a %s match lists its %s, not %s", m.Kind, field, k)
		}
	}
	if sh.Forfeit != "" {
		if !validForfeit(sh.Forfeit) {
			return nil, arbiter.FieldError("forfeit", "score.forfeit", "want double, full_draw, home or away, got %q", sh.Forfeit)
		}
		if len(sh.Parts)+len(sh.Boards)+len(sh.Sets) > 0 || sh.Tie != nil && sh.Tie.CaptainsBoard != 0 {
			return nil, arbiter.FieldError("forfeit", "score.forfeit", "a forfeited match has no games; give the forfeit or the games, not both")
		}
	}

	// Board count (team_boards).
	teamSize := 1
	if m.Kind == format.TeamBoards {
		allowed := f.TeamSizes()
		if opt.Entrants > 0 {
			ts := f.TeamSize(opt.Entrants)
			if ts == nil {
				return nil, arbiter.FieldError("entrants", "score.boards", "format %s sets no team size for %d entrants", f.Name, opt.Entrants)
			}
			allowed = []int{*ts}
		}
		switch {
		case sh.Forfeit != "" && len(allowed) == 1:
			teamSize = allowed[0]
		case sh.Forfeit != "":
			return nil, arbiter.FieldError("entrants", "score.boards", "a forfeited match lists no boards and the team size depends on the number of teams (%s boards): give the entrants count", joinInts(allowed))
		default:
			teamSize = len(sh.Boards)
			if !slices.Contains(allowed, teamSize) {
				return nil, arbiter.FieldError("boards", "score.boards", "want %s boards, got %d", joinInts(allowed), teamSize)
			}
		}
	}
	ms.MaxPoints = m.MaxPoints(teamSize)
	ms.WinThreshold, ms.ThresholdUnit = m.WinThreshold(teamSize)

	units, events, err := buildUnits(m, sh, teamSize)
	if err != nil {
		return nil, err
	}
	if err := play(ms, m, units, events); err != nil {
		return nil, err
	}
	if !partial {
		if err := complete(ms, m, units); err != nil {
			return nil, err
		}
	}
	report(ms, m, sh, units)
	if partial {
		return ms, nil
	}
	if err := decide(ms, f, st, m, sh, units); err != nil {
		return nil, err
	}
	toOutcome(ms, m, units)
	return ms, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " or ")
}

// newUnit prepares a unit with every format part, in format order.
func newUnit(m *format.Match, path string) unit {
	u := unit{path: path}
	for _, p := range m.Parts {
		u.parts = append(u.parts, partState{def: p})
	}
	return u
}

// buildUnits checks the sheet's parts against the format and lists the
// scoring events in sheet order.
func buildUnits(m *format.Match, sh *Sheet, teamSize int) ([]unit, []event, error) {
	var units []unit
	var events []event
	forfeitAll := func(ui int, kind, path string) {
		g, _ := forfeitGame(kind)
		for pi := range units[ui].parts {
			p := &units[ui].parts[pi]
			p.forfeit = kind
			events = append(events, event{unit: ui, part: pi, g: g, n: p.def.Games, base: path, k: -1})
		}
	}
	if sh.Forfeit != "" {
		for b := range teamSize {
			units = append(units, newUnit(m, "forfeit"))
			forfeitAll(b, sh.Forfeit, "forfeit")
		}
		return units, events, nil
	}
	readParts := func(ui int, list []PartSheet, path string) error {
		u := &units[ui]
		for j := range list {
			ps := &list[j]
			pp := path + "[" + strconv.Itoa(j) + "]"
			tc, err := format.ParseTimeControl(ps.TC)
			if err != nil {
				return arbiter.FieldError(pp+".tc", "score.tc", "%v", err)
			}
			pi := slices.IndexFunc(u.parts, func(p partState) bool { return p.def.TC == tc })
			if pi < 0 {
				var have []string
				for _, p := range u.parts {
					have = append(have, p.def.TC.String())
				}
				return arbiter.FieldError(pp+".tc", "score.unknown_part", "this match has no %s part (parts: %s)", tc, strings.Join(have, ", "))
			}
			p := &u.parts[pi]
			if p.sheetPath != "" {
				return arbiter.FieldError(pp+".tc", "score.duplicate_part", "part %s already given at %s", tc, p.sheetPath)
			}
			p.sheetPath, p.sheet = pp, ps
			if ps.Forfeit != "" {
				if !validForfeit(ps.Forfeit) {
					return arbiter.FieldError(pp+".forfeit", "score.forfeit", "want double, full_draw, home or away, got %q", ps.Forfeit)
				}
				if len(ps.Results) > 0 {
					return arbiter.FieldError(pp+".forfeit", "score.forfeit", "give the results or a forfeit of the part, not both (forfeit single games with +, -, --, =F)")
				}
				forfeitAllPart(&events, ui, pi, p, ps.Forfeit, pp+".forfeit")
				continue
			}
			if len(ps.Results) > p.def.Games {
				return arbiter.FieldError(fmt.Sprintf("%s.results[%d]", pp, p.def.Games), "score.games", "part %s has %d games, the sheet gives %d", tc, p.def.Games, len(ps.Results))
			}
			for k, tok := range ps.Results {
				g, ok := parseGame(tok)
				if !ok {
					return arbiter.FieldError(fmt.Sprintf("%s.results[%d]", pp, k), "score.result", "unknown result %q: want 1, 0, = (or ½), + / - (forfeit win / loss), -- (double forfeit), =F (forfeit draw)", tok)
				}
				p.games = append(p.games, g)
				events = append(events, event{unit: ui, part: pi, g: g, n: 1, base: pp, k: k, token: true})
			}
		}
		return nil
	}
	switch m.Kind {
	case format.MatchIndividual:
		units = append(units, newUnit(m, "parts"))
		if err := readParts(0, sh.Parts, "parts"); err != nil {
			return nil, nil, err
		}
	case format.TeamSets:
		units = append(units, newUnit(m, "sets"))
		if err := readParts(0, sh.Sets, "sets"); err != nil {
			return nil, nil, err
		}
	case format.TeamBoards:
		seen := map[int]string{}
		for i, b := range sh.Boards {
			bp := "boards[" + strconv.Itoa(i) + "]"
			if b.Board < 1 || b.Board > teamSize {
				return nil, nil, arbiter.FieldError(bp+".board", "score.boards", "board must be 1..%d, got %d", teamSize, b.Board)
			}
			if prev, dup := seen[b.Board]; dup {
				return nil, nil, arbiter.FieldError(bp+".board", "score.boards", "board %d already given at %s", b.Board, prev)
			}
			seen[b.Board] = bp
			units = append(units, newUnit(m, bp+".parts"))
			if b.Forfeit != "" {
				if !validForfeit(b.Forfeit) {
					return nil, nil, arbiter.FieldError(bp+".forfeit", "score.forfeit", "want double, full_draw, home or away, got %q", b.Forfeit)
				}
				if len(b.Parts) > 0 {
					return nil, nil, arbiter.FieldError(bp+".forfeit", "score.forfeit", "a forfeited board has no parts")
				}
				forfeitAll(i, b.Forfeit, bp+".forfeit")
				continue
			}
			if err := readParts(i, b.Parts, bp+".parts"); err != nil {
				return nil, nil, err
			}
		}
	}
	return units, events, nil
}

func forfeitAllPart(events *[]event, ui, pi int, p *partState, kind, path string) {
	g, _ := forfeitGame(kind)
	p.forfeit = kind
	*events = append(*events, event{unit: ui, part: pi, g: g, n: p.def.Games, base: path, k: -1})
}

// play applies the events in sheet order and finds when the match was
// decided; with play_all_games false, a game after that is an error (W4).
func play(ms *MatchScore, m *format.Match, units []unit, events []event) error {
	total := 0
	for _, u := range units {
		for _, p := range u.parts {
			total += p.def.Games
		}
	}
	consumed, decidedAt := 0, -1
	var home, away arbiter.Points
	setsHome, setsAway := 0, 0
	majority := len(m.Parts)/2 + 1
	for i, ev := range events {
		if decidedAt >= 0 {
			// The rest of one forfeit (a board's or the match's) shares
			// the deciding event's path; anything else came after the end.
			if !m.PlayAllGames && !ev.samePath(&events[decidedAt]) {
				what := "game played"
				if !ev.token {
					what = "forfeit given"
				}
				return arbiter.FieldError(ev.path(), "score.after_decided", "%s after the match was decided at %s (%s-%s); the match ends once decided", what, events[decidedAt].path(), home, away)
			}
			ms.GamesAfterDecision += ev.n
		}
		p := &units[ev.unit].parts[ev.part]
		h0, a0 := p.home, p.away
		p.add(ev.g, ev.n)
		home += p.home - h0
		away += p.away - a0
		consumed += ev.n
		if decidedAt >= 0 {
			continue
		}
		if m.Kind == format.TeamSets {
			if thr := p.def.SetThreshold(); p.clinched == "" && (p.home >= thr || p.away >= thr) {
				if p.home >= thr {
					p.clinched, setsHome = arbiter.Home, setsHome+1
				} else {
					p.clinched, setsAway = arbiter.Away, setsAway+1
				}
			}
			if setsHome >= majority || setsAway >= majority {
				decidedAt = i
			}
		} else if home >= ms.WinThreshold || away >= ms.WinThreshold {
			decidedAt = i
		}
		if decidedAt >= 0 {
			ms.Decided = true
			ms.DecidedAt = ev.path()
			ms.DecidedEarly = consumed < total
		}
	}
	return nil
}

// complete checks that every game the format requires is on the sheet.
func complete(ms *MatchScore, m *format.Match, units []unit) error {
	if ms.Decided && !m.PlayAllGames {
		return nil // the match ended when decided (W4)
	}
	why := "all games are played"
	if !m.PlayAllGames {
		why = "the match is not decided yet"
	}
	for _, u := range units {
		for _, p := range u.parts {
			switch {
			case p.forfeit != "":
			case p.sheetPath == "":
				return arbiter.FieldError(u.path, "score.games", "part %s (%d games) is missing; %s", p.def.TC, p.def.Games, why)
			case len(p.games) < p.def.Games:
				return arbiter.FieldError(p.sheetPath+".results", "score.games", "%d of %d games of part %s; %s", len(p.games), p.def.Games, p.def.TC, why)
			}
		}
	}
	return nil
}

func partScore(p *partState) PartScore {
	ps := PartScore{TC: p.def.TC.String(), Games: len(p.games), Of: p.def.Games, Home: p.home, Away: p.away, Forfeit: p.forfeit,
		HomeGames: arbiter.Points(p.homeHalf) * arbiter.Point / 2, AwayGames: arbiter.Points(p.awayHalf) * arbiter.Point / 2}
	if p.forfeit != "" {
		ps.Games = p.def.Games
	}
	if p.sheet != nil {
		ps.HomePlayer, ps.AwayPlayer = p.sheet.HomePlayer, p.sheet.AwayPlayer
	}
	switch {
	case p.home > p.away:
		ps.Winner = arbiter.Home
	case p.away > p.home:
		ps.Winner = arbiter.Away
	}
	return ps
}

// report fills the per-part, per-board and total scores.
func report(ms *MatchScore, m *format.Match, sh *Sheet, units []unit) {
	ms.Forfeit = sh.Forfeit
	for ui := range units {
		var list []PartScore
		var bh, ba arbiter.Points
		for pi := range units[ui].parts {
			ps := partScore(&units[ui].parts[pi])
			if units[ui].parts[pi].sheetPath == "" && units[ui].parts[pi].forfeit == "" {
				continue // not played: the match ended before (W4)
			}
			list = append(list, ps)
			bh += ps.Home
			ba += ps.Away
			if m.Kind == format.TeamSets {
				switch ps.Winner {
				case arbiter.Home:
					ms.HomeSets++
				case arbiter.Away:
					ms.AwaySets++
				}
			}
		}
		ms.HomePoints += bh
		ms.AwayPoints += ba
		switch m.Kind {
		case format.MatchIndividual:
			ms.Parts = list
		case format.TeamSets:
			ms.Sets = list
		case format.TeamBoards:
			bs := BoardScore{Board: ui + 1, Parts: list, Home: bh, Away: ba, Forfeit: sh.Forfeit}
			if sh.Forfeit == "" {
				b := sh.Boards[ui]
				bs.Board, bs.HomePlayer, bs.AwayPlayer, bs.Forfeit = b.Board, b.HomePlayer, b.AwayPlayer, b.Forfeit
			}
			ms.Boards = append(ms.Boards, bs)
		}
	}
	slices.SortStableFunc(ms.Boards, func(a, b BoardScore) int { return a.Board - b.Board })
}

// decide sets the result: points (A19) or sets then set points (R11);
// a knockout tie goes through the format's tie procedure.
func decide(ms *MatchScore, f *format.Format, st *format.Stage, m *format.Match, sh *Sheet, units []unit) error {
	var winner arbiter.Side
	switch {
	case m.Kind == format.TeamSets && ms.HomeSets != ms.AwaySets:
		winner, ms.DecidedBy = side(ms.HomeSets > ms.AwaySets), "sets"
	case ms.HomePoints != ms.AwayPoints:
		winner, ms.DecidedBy = side(ms.HomePoints > ms.AwayPoints), "points"
		if m.Kind == format.TeamSets {
			ms.DecidedBy = "set_points"
		}
	}
	if winner != "" && sh.Forfeit != "" {
		ms.DecidedBy = "forfeit"
	}
	if st.Kind != format.Knockout {
		if sh.Tie != nil {
			return arbiter.FieldError("tie", "score.tie", "only a knockout match has tie data; a %s match may be drawn", st.Kind)
		}
	} else if winner == "" && sh.Forfeit != "" && sh.Tie == nil {
		// Nobody played (double forfeit or full draw by rule): the tie
		// procedure is for played matches, so the TDs decide.
		ms.Result = TieUnresolved
		ms.Notes = append(ms.Notes, "a knockout match forfeited by both sides has no winner: the TDs decide")
	} else if winner == "" {
		ts, w, err := resolveTie(f, m, sh, ms)
		if err != nil {
			return err
		}
		ms.Tie = ts
		if w == "" {
			ms.Result = TieUnresolved
			ms.Notes = append(ms.Notes, "the match is tied and the format gives no further tie procedure: the TDs decide")
		}
		winner = w
	} else if sh.Tie != nil {
		return arbiter.FieldError("tie", "score.tie", "the match is not tied (%s-%s, decided by %s)", ms.HomePoints, ms.AwayPoints, ms.DecidedBy)
	}
	switch winner {
	case arbiter.Home:
		ms.Result, ms.Winner = HomeWin, ms.Home
	case arbiter.Away:
		ms.Result, ms.Winner = AwayWin, ms.Away
	default:
		if ms.Result == "" {
			ms.Result = Draw
		}
	}
	return nil
}

func side(home bool) arbiter.Side {
	if home {
		return arbiter.Home
	}
	return arbiter.Away
}

// toOutcome fills the scored result: match points, secondary score, sets
// and games won of each side and how the match was decided, with the
// part, set or board scores; and the same as the standings read it.
func toOutcome(ms *MatchScore, m *format.Match, units []unit) {
	played := 0
	won := [2]int{}
	for _, u := range units {
		for _, p := range u.parts {
			for _, g := range p.games {
				if g.played {
					played++
					if g.home == 2 {
						won[0]++
					} else if g.away == 2 {
						won[1]++
					}
				}
			}
		}
	}
	dec := standings.Played
	if played == 0 {
		switch {
		case ms.HomePoints == 0 && ms.AwayPoints == 0:
			dec = standings.DoubleForfeit
		case ms.Result == HomeWin:
			dec = standings.ForfeitWin
		case ms.Result == AwayWin:
			dec = standings.ForfeitLoss
		default:
			dec = standings.FullDraw
		}
	}
	mp := m.MatchPoints
	var a, b arbiter.Points
	switch {
	case dec == standings.DoubleForfeit && m.DoubleForfeit == "loss":
		a, b = mp.Loss, mp.Loss
		ms.Result = DoubleLoss
	case ms.Result == HomeWin:
		a, b = mp.Win, mp.Loss
	case ms.Result == AwayWin:
		a, b = mp.Loss, mp.Win
	default:
		a, b = mp.Draw, mp.Draw
	}
	o := arbiter.Outcome{Result: ms.Result, Forfeit: ms.Forfeit, DecidedBy: ms.DecidedBy, Decision: string(dec),
		Home: arbiter.SideScore{MatchPoints: a, Points: ms.HomePoints, SetsWon: ms.HomeSets, GamesWon: won[0]},
		Away: arbiter.SideScore{MatchPoints: b, Points: ms.AwayPoints, SetsWon: ms.AwaySets, GamesWon: won[1]}}
	for _, p := range ms.Parts {
		o.Parts = append(o.Parts, arbiter.PartResult{TC: p.TC, Home: p.Home, Away: p.Away})
	}
	for _, p := range ms.Sets {
		o.Sets = append(o.Sets, arbiter.PartResult{TC: p.TC, Home: p.Home, Away: p.Away})
	}
	for _, b := range ms.Boards {
		o.Parts = append(o.Parts, arbiter.PartResult{TC: fmt.Sprintf("board %d", b.Board), Home: b.Home, Away: b.Away})
	}
	ms.outcome = o
	ms.Standings = standings.FromOutcome(ms.Home, ms.Away, &o)
}
