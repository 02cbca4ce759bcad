package lichess

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/score"
)

// Importing a match from Lichess: the games of a match (those Arbiter
// created, fetched by id, and those the players made themselves, found
// through the users' export) become the match sheet the app scores
// (docs/match-sheet.md). Nothing is counted silently: a game that does
// not fit the format is left off the sheet with a finding for the TD.

// More finding kinds of an import (with the Disc* of VerifyPart).
const (
	DiscWrongVariant = "wrong_variant"      // a game between the pair in another variant
	DiscUnexpected   = "unexpected_players" // a game whose two players are not a pair of the match
	DiscAborted      = "aborted_game"       // aborted, or never started: to be played again
	DiscOutside      = "outside_window"     // created outside the round's window
)

// SheetSpec is what an import needs to know of one match.
type SheetSpec struct {
	Home, Away string        // the entrants, as the sheet names them
	Match      *format.Match // the match format: kind, parts (clock, games), play_all_games, tie steps
	Variant    string        // VariantAntichess or VariantStandard
	Rated      bool          // only rated games count (W2)
	From, To   time.Time     // the round's window: games created in [From, To)
	// Pairs are who plays whom, home's player first (Lichess names or
	// ids): one pair for an individual match; one per board for
	// team_boards (board 1 first); one per set for team_sets, in the
	// order of Match.Parts.
	Pairs [][2]string
}

// SheetGame is one game the import looked at.
type SheetGame struct {
	ID        string
	CreatedAt time.Time
	Board     int    // team_boards: the board, from 1; 0 otherwise
	TC        string // the part (set) it counts in, as the format writes it; "" when not counted
	Number    int    // its place in the part, from 1; 0 when not counted
	HomeColor string // white or black; "" for unexpected players
	Result    string // home's view: 1, 0 or =; "" without a result
	Status    string
	Counted   bool
	// Tie marks a game in the clock of a knockout tie step (A20's 3+0,
	// W11's tiebreak games): listed, never put on the sheet.
	Tie bool
}

// SheetFinding is something the TD must look at; Game is empty for a
// part-level finding (missing games).
type SheetFinding struct {
	Kind    string
	Game    string
	Board   int
	TC      string
	Message string
}

// Import is the outcome of BuildSheet.
type Import struct {
	Sheet    score.Sheet
	Games    []SheetGame // every game given, oldest first
	Findings []SheetFinding
	// Decided is set when the match ended once decided (play_all_games
	// false): a side passed half of the points.
	Decided bool
}

// Complete reports a sheet ready to be entered: every part has all its
// games (or the match ended once decided) and nothing needs the TD.
func (im *Import) Complete() bool { return len(im.Findings) == 0 }

// slot is one part of one pair: where games are counted.
type slot struct {
	pair  int
	part  int
	board int // team_boards
	games []int
	win   arbiter.Points // points of a won game, for the early end
	draw  arbiter.Points
}

func (s *SheetSpec) validate() error {
	switch {
	case s.Match == nil:
		return arbiter.FieldError("match", "", "the match format is required")
	case s.Variant == "":
		return arbiter.FieldError("variant", "", "is required")
	case s.From.IsZero() || s.To.IsZero() || !s.From.Before(s.To):
		return arbiter.FieldError("window", "", "needs a start before its end")
	}
	want := map[string]int{format.MatchIndividual: 1, format.TeamSets: len(s.Match.Parts)}
	switch n, ok := want[s.Match.Kind]; {
	case s.Match.Kind == format.TeamBoards:
		if len(s.Pairs) == 0 {
			return arbiter.FieldError("pairs", "", "a team_boards match needs the players of each board")
		}
	case !ok:
		return arbiter.FieldError("match.kind", "", "unknown match kind %q", s.Match.Kind)
	case len(s.Pairs) != n:
		return arbiter.FieldError("pairs", "", "a match of kind %s needs %s of players, got %d", s.Match.Kind, arbiter.Count(n, "pair"), len(s.Pairs))
	}
	for i, p := range s.Pairs {
		if strings.TrimSpace(p[0]) == "" || strings.TrimSpace(p[1]) == "" || strings.EqualFold(p[0], p[1]) {
			return arbiter.FieldError(fmt.Sprintf("pairs[%d]", i), "", "needs two different players")
		}
	}
	return nil
}

// BuildSheet turns the games of one match into its sheet. games may come
// in any order, twice (from both exports) and include others: each is
// placed in its pair's part by its clock, oldest first, or left off with
// a finding (wrong clock R6, wrong variant, casual W2, unexpected
// players, outside the window, aborted, unfinished, unknown result,
// extra games, after the match was decided W4), and every part short of
// games is a missing_games finding. Tie games are listed, not entered.
func BuildSheet(games []Game, spec SheetSpec) (*Import, error) {
	if err := spec.validate(); err != nil {
		return nil, err
	}
	m := spec.Match
	im := &Import{Sheet: score.Sheet{Home: spec.Home, Away: spec.Away}}
	// The slots, and the most points the match can give (the early end).
	var slots []slot
	var total arbiter.Points
	for pi := range spec.Pairs {
		for k, p := range m.Parts {
			if m.Kind == format.TeamSets && k != pi {
				continue
			}
			win, draw := partPoints(p)
			s := slot{pair: pi, part: k, win: win, draw: draw}
			if m.Kind == format.TeamBoards {
				s.board = pi + 1
			}
			slots = append(slots, s)
			total += arbiter.Points(p.Games) * win
		}
	}
	var tieClocks []TimeControl
	for _, st := range m.Tie {
		if st.TC != nil {
			tieClocks = append(tieClocks, lichessTC(*st.TC))
		}
	}
	sorted := slices.Clone(games)
	slices.SortStableFunc(sorted, func(a, b Game) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	sorted = slices.CompactFunc(sorted, func(a, b Game) bool { return a.ID == b.ID })
	var home, away arbiter.Points
	for _, g := range sorted {
		sg, slotIdx := im.place(&g, &spec, slots, tieClocks)
		if slotIdx >= 0 {
			s := &slots[slotIdx]
			p := m.Parts[s.part]
			sg.TC = p.TC.String()
			switch {
			case im.Decided:
				im.flag(DiscExtra, &sg, "game %s was played after the match was decided", g.ID)
			case len(s.games) >= p.Games:
				im.flag(DiscExtra, &sg, "game %s is one more than the %d games of %s", g.ID, p.Games, sg.TC)
			default:
				s.games = append(s.games, len(im.Games))
				sg.Counted, sg.Number = true, len(s.games)
				switch sg.Result {
				case "1":
					home += s.win
				case "0":
					away += s.win
				case "=":
					home, away = home+s.draw, away+s.draw
				}
				im.Decided = !m.PlayAllGames && (2*home > total || 2*away > total)
			}
			if !sg.Counted {
				sg.TC = ""
			}
		}
		im.Games = append(im.Games, sg)
	}
	for _, s := range slots {
		p := m.Parts[s.part]
		if len(s.games) < p.Games && !im.Decided {
			im.Findings = append(im.Findings, SheetFinding{Kind: DiscMissing, Board: s.board, TC: p.TC.String(),
				Message: fmt.Sprintf("%s v %s: Lichess shows %d of the %d games in %s", spec.Pairs[s.pair][0], spec.Pairs[s.pair][1],
					len(s.games), p.Games, p.TC)})
		}
	}
	im.fillSheet(&spec, slots)
	return im, nil
}

// place decides where g goes: its slot (-1 when it is not counted) and
// its description from the home player's side, flagging what is wrong.
func (im *Import) place(g *Game, spec *SheetSpec, slots []slot, tieClocks []TimeControl) (SheetGame, int) {
	sg := SheetGame{ID: g.ID, CreatedAt: g.CreatedAt, Status: g.Status}
	w, b := strings.ToLower(g.White.UserID), strings.ToLower(g.Black.UserID)
	pair := -1
	for i, p := range spec.Pairs {
		h, a := strings.ToLower(p[0]), strings.ToLower(p[1])
		switch {
		case w == h && b == a:
			pair, sg.HomeColor = i, "white"
		case w == a && b == h:
			pair, sg.HomeColor = i, "black"
		}
		if pair >= 0 {
			break
		}
	}
	if pair < 0 {
		im.flag(DiscUnexpected, &sg, "game %s was played by %s and %s, who are not a pair of this match", g.ID,
			orName(g.White), orName(g.Black))
		return sg, -1
	}
	if spec.Match.Kind == format.TeamBoards {
		sg.Board = pair + 1
	}
	if _, none := noResult[g.Status]; !none && g.Status != StatusUnknownFinish {
		switch g.Winner {
		case "":
			sg.Result = "="
		case sg.HomeColor:
			sg.Result = "1"
		default:
			sg.Result = "0"
		}
	}
	tc, hasClock := g.TimeControl()
	slotIdx := -1
	for i, s := range slots {
		if s.pair == pair && hasClock && lichessTC(spec.Match.Parts[s.part].TC) == tc {
			slotIdx = i
		}
	}
	clock := "without a clock"
	if hasClock {
		clock = "in " + tc.String()
	}
	switch {
	case g.CreatedAt.Before(spec.From) || !g.CreatedAt.Before(spec.To):
		im.flag(DiscOutside, &sg, "game %s was created at %s, outside the round (%s to %s)", g.ID,
			g.CreatedAt.UTC().Format(time.RFC3339), spec.From.UTC().Format(time.RFC3339), spec.To.UTC().Format(time.RFC3339))
	case g.Variant != spec.Variant:
		im.flag(DiscWrongVariant, &sg, "game %s was played in %s, not %s", g.ID, g.Variant, spec.Variant)
	case g.Status == StatusAborted || g.Status == StatusNoStart:
		im.flag(DiscAborted, &sg, "game %s was %s: it has to be played again", g.ID, noResult[g.Status])
	case g.Status == StatusCreated || g.Status == StatusStarted:
		im.flag(DiscUnfinished, &sg, "game %s is still being played", g.ID)
	case g.Status == StatusUnknownFinish:
		im.flag(DiscUnknown, &sg, "game %s ended without a known result: the TD decides", g.ID)
	case slotIdx < 0 && hasClock && slices.Contains(tieClocks, tc):
		sg.Tie = true // a tiebreak game: listed for the TD, who enters the tie
	case slotIdx < 0:
		im.flag(DiscWrongTC, &sg, "game %s was played %s, which is not a clock of this pair's parts", g.ID, clock)
	case spec.Rated && !g.Rated:
		im.flag(DiscCasual, &sg, "game %s in %s was casual; only rated games count", g.ID, tc)
	default:
		return sg, slotIdx
	}
	return sg, -1
}

func (im *Import) flag(kind string, sg *SheetGame, msg string, args ...any) {
	im.Findings = append(im.Findings, SheetFinding{Kind: kind, Game: sg.ID, Board: sg.Board, TC: sg.TC, Message: fmt.Sprintf(msg, args...)})
}

// fillSheet writes the counted games on the sheet: parts in the order
// they were first played (the sheet's order is the playing order), parts
// without a game left off (the TD enters a forfeit or they are to come).
func (im *Import) fillSheet(spec *SheetSpec, slots []slot) {
	parts := func(ss []slot) []score.PartSheet {
		var out []score.PartSheet
		for _, s := range ss {
			if len(s.games) == 0 {
				continue
			}
			ps := score.PartSheet{TC: spec.Match.Parts[s.part].TC.String()}
			for _, gi := range s.games {
				ps.Results = append(ps.Results, im.Games[gi].Result)
			}
			if spec.Match.Kind == format.TeamSets {
				ps.HomePlayer, ps.AwayPlayer = spec.Pairs[s.pair][0], spec.Pairs[s.pair][1]
			}
			out = append(out, ps)
		}
		return out
	}
	first := func(s slot) int { // the index of its first game; unplayed parts last
		if len(s.games) == 0 {
			return len(im.Games)
		}
		return s.games[0]
	}
	byFirstGame := slices.Clone(slots)
	slices.SortStableFunc(byFirstGame, func(a, b slot) int { return first(a) - first(b) })
	switch spec.Match.Kind {
	case format.MatchIndividual:
		im.Sheet.Parts = parts(byFirstGame)
	case format.TeamSets:
		im.Sheet.Sets = parts(byFirstGame)
	case format.TeamBoards:
		for b := range spec.Pairs {
			var mine []slot
			for _, s := range byFirstGame {
				if s.pair == b {
					mine = append(mine, s)
				}
			}
			im.Sheet.Boards = append(im.Sheet.Boards, score.BoardSheet{Board: b + 1, HomePlayer: spec.Pairs[b][0],
				AwayPlayer: spec.Pairs[b][1], Parts: parts(mine)})
		}
	}
}

// partPoints are the points of a won and a drawn game of a part (its
// win/draw, or its factor times 1 and ½).
func partPoints(p format.Part) (win, draw arbiter.Points) {
	switch {
	case p.Win != nil:
		win = *p.Win
		if p.Draw != nil {
			draw = *p.Draw
		}
	case p.Factor != nil:
		win, draw = *p.Factor, *p.Factor/2
	default:
		win, draw = arbiter.Point, arbiter.Point/2
	}
	return win, draw
}

func lichessTC(tc format.TimeControl) TimeControl {
	return TimeControl{Base: tc.BaseSeconds, Increment: tc.IncrementSeconds}
}

func orName(p GamePlayer) string {
	switch {
	case p.Name != "":
		return p.Name
	case p.UserID != "":
		return p.UserID
	case p.AILevel > 0:
		return fmt.Sprintf("Stockfish level %d", p.AILevel)
	}
	return "an anonymous player"
}
