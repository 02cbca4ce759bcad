package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/score"
	"arbiter/sqlstore"
)

// Result verification against Lichess (RKCC R6 detection, ACWC W2, W4):
// a TD asks for the games each pair of a match played on Lichess in the
// round's window and compares them, part by part, with the format (clock,
// number of games, variant, rated, ends once decided) and the reported
// score. The finding is stored on the match and audited; it never changes
// the result: the TD rules (OverrideResult, WrongTimeControl).

const kindVerification = "verification"

// GameSource finds the games two Lichess users played against each other.
// *lichess.Client satisfies it through LichessGames; tests pass a fake.
type GameSource interface {
	// GamesBetween returns the games between q.Player and q.Opponent
	// created in [q.Since, q.Until), in any order; more may be returned
	// (VerifyPart leaves out what does not belong).
	GamesBetween(ctx context.Context, q GamesBetween) ([]lichess.Game, error)
}

// GamesBetween asks a GameSource for the games of one pair.
type GamesBetween struct {
	Player, Opponent string
	Since, Until     time.Time
	// Perf narrows the search to one Lichess perf ("antichess"); empty =
	// every perf (standard games of any speed, so a wrong clock shows).
	Perf string
}

// LichessGames is the GameSource of a Lichess API client: the player's
// games against the opponent (GET /api/games/user/{player}?vs=), rated
// and casual, so casual games are reported.
type LichessGames struct{ Client *lichess.Client }

// GamesBetween streams the pair's games and collects them.
func (l LichessGames) GamesBetween(ctx context.Context, q GamesBetween) ([]lichess.Game, error) {
	var out []lichess.Game
	for g, err := range l.Client.GamesOfUser(ctx, q.Player, lichess.GamesQuery{
		Vs: q.Opponent, PerfType: q.Perf, Since: q.Since, Until: q.Until}) {
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// SetGameSource gives the service its Lichess game source; nil (the
// default) makes VerifyMatch unavailable. Call it before serving.
func (s *Service) SetGameSource(g GameSource) { s.games = g }

// MatchVerification is the last check of a match's games on Lichess.
type MatchVerification struct {
	Match string    `json:"match"`
	At    time.Time `json:"at"` // when it ran
	By    string    `json:"by"` // the TD who ran it
	// Report is the report whose score was compared; empty when the match
	// had none (the games are then only counted).
	Report  string    `json:"report,omitempty"`
	Variant string    `json:"variant"`
	From    time.Time `json:"from"` // the round window searched: [From, To)
	To      time.Time `json:"to"`
	// Checks has one entry per part (or set) and pair of players: board by
	// board for team_boards, set by set for team_sets.
	Checks []PartCheck `json:"checks"`
	// Discrepancies counts the findings over all checks; Consistent is
	// true when there is none and no check was skipped.
	Discrepancies int  `json:"discrepancies"`
	Consistent    bool `json:"consistent"`

	Version int64 `json:"-"`
}

// PartCheck is one part (or set) of one pair of players.
type PartCheck struct {
	Board      int    `json:"board,omitempty"` // team_boards: the board, from 1
	TC         string `json:"tc"`
	Games      int    `json:"games"` // games the part has
	HomePlayer string `json:"home_player,omitempty"`
	AwayPlayer string `json:"away_player,omitempty"`
	// Skipped says why the part was not checked (a forfeit, players not
	// known, Lichess not knowing a player); the rest is then empty.
	Skipped string `json:"skipped,omitempty"`
	// Reported is the score on the report (home's view), Lichess the score
	// of the games found.
	Reported *PairScore `json:"reported,omitempty"`
	Lichess  PairScore  `json:"lichess"`
	// Found are the part's games, Extra those after it was complete,
	// WrongTC those between the two in no part's clock (R6).
	Found         []CheckedGame `json:"found"`
	Extra         []CheckedGame `json:"extra,omitempty"`
	WrongTC       []CheckedGame `json:"wrong_time_control,omitempty"`
	Discrepancies []Finding     `json:"discrepancies"`
}

// PairScore is a part's game score, home first.
type PairScore struct {
	Home arbiter.Points `json:"home"`
	Away arbiter.Points `json:"away"`
}

func (p PairScore) String() string { return p.Home.String() + "-" + p.Away.String() }

// CheckedGame is one Lichess game, seen from the home player's side.
type CheckedGame struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
	HomeColor string    `json:"home_color"`       // white or black
	Result    string    `json:"result,omitempty"` // home's view: 1, 0 or =
	Status    string    `json:"status"`
	Rated     bool      `json:"rated"`
	TC        string    `json:"tc,omitempty"` // empty for a game without a clock
}

// Finding is one discrepancy for the TD to rule on, with the rulebook
// clause it concerns.
type Finding struct {
	Kind    string `json:"kind"` // lichess.Disc*: missing_games, score_mismatch, ...
	Clause  string `json:"clause"`
	Game    string `json:"game,omitempty"`
	Message string `json:"message"`
}

// pairSpec is one pair of players and the parts they play.
type pairSpec struct {
	board      int
	home, away string
	parts      []partSpec
}

type partSpec struct {
	tc      format.Part
	sheet   *score.PartSheet // the reported part, nil when none
	skipped string
}

// VerifyMatch checks the games of a match on Lichess against its format
// and its current report, stores the finding on the match and audits it.
// TD only. It needs a GameSource (SetGameSource); without one it is a
// rule error (app.lichess).
func (s *Service) VerifyMatch(ctx context.Context, a arbiter.Actor, slug, matchID string) (MatchVerification, error) {
	var out MatchVerification
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if err := requireTDOrJob(ctx, s.DB, st, a, "check a match's games on Lichess"); err != nil {
		return out, err
	}
	if s.games == nil {
		return out, arbiter.RuleError("app.lichess", "result verification is unavailable: this server has no Lichess client (give --lichess-url)")
	}
	m, rd, err := matchInRound(ctx, s.DB, st, matchID)
	if err != nil {
		return out, err
	}
	if m.IsBye() {
		return out, arbiter.RuleError("app.lichess", "match %s is a bye: it has no games to check", m.ID)
	}
	if m.Stage >= len(st.f.Stages) {
		return out, arbiter.Errorf(arbiter.EINTERNAL, "match %s: stage %d not in the format", m.ID, m.Stage)
	}
	mf := st.f.Stages[m.Stage].MatchFor(m.Format)
	var sh *score.Sheet
	if m.Report != "" {
		rep, err := docReport.get(ctx, s.DB, st, m.Report)
		if err != nil {
			return out, err
		}
		sh = rep.Sheet
		out.Report = rep.ID
	}
	pairs, err := s.pairsOf(ctx, st, &m, mf, sh)
	if err != nil {
		return out, err
	}
	out.Match, out.By, out.At = m.ID, normUser(a.Name), s.now()
	out.Variant = orField(st.f.Variant, format.VariantStandard)
	out.From, out.To = rd.Start, rd.End
	if out.From.IsZero() {
		out.From = rd.PairedAt
	}
	if out.To.IsZero() || out.To.After(out.At) {
		out.To = out.At
	}
	if !out.From.Before(out.To) {
		return out, arbiter.RuleError(st.roundClause(), "round %d of match %s has not started: no games to check yet", m.Round, m.ID)
	}
	var clocks []lichess.TimeControl
	for _, p := range mf.Parts {
		clocks = append(clocks, lichessTC(p.TC))
	}
	for _, pr := range pairs {
		checks, err := s.checkPair(ctx, st, mf, &out, pr, clocks)
		if err != nil {
			return out, err
		}
		out.Checks = append(out.Checks, checks...)
	}
	out.Consistent = true
	for _, c := range out.Checks {
		out.Discrepancies += len(c.Discrepancies)
		if len(c.Discrepancies) > 0 || c.Skipped != "" {
			out.Consistent = false
		}
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		if err := requireTDOrJob(ctx, tx, st, a, "check a match's games on Lichess"); err != nil {
			return err
		}
		ch := change(a, "match.verify", m.ID+": "+out.Summary(), false)
		old, err := docVerification.get(ctx, tx, st, m.ID)
		switch {
		case err == nil:
			out.Version, err = docVerification.update(ctx, tx, ch, st, m.ID, old.Version, out)
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
			out.Version, err = docVerification.create(ctx, tx, ch, st, m.ID, out)
		}
		return err
	})
	return out, err
}

// Summary says in one line what the check found: "consistent with
// Lichess", or the number of discrepancies with their kinds and clauses,
// or the parts not checked.
func (v *MatchVerification) Summary() string {
	var kinds []string
	skipped := 0
	for _, c := range v.Checks {
		if c.Skipped != "" {
			skipped++
		}
		for _, d := range c.Discrepancies {
			if k := d.Kind + " (" + d.Clause + ")"; !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	if v.Consistent {
		return "consistent with Lichess"
	}
	var out []string
	switch v.Discrepancies {
	case 0:
	case 1:
		out = append(out, "1 discrepancy: "+strings.Join(kinds, ", "))
	default:
		out = append(out, fmt.Sprintf("%d discrepancies: %s", v.Discrepancies, strings.Join(kinds, ", ")))
	}
	switch skipped {
	case 0:
	case 1:
		out = append(out, "1 part not checked")
	default:
		out = append(out, fmt.Sprintf("%d parts not checked", skipped))
	}
	return strings.Join(out, "; ")
}

// Verification returns the last check of a match on Lichess, nil when
// it was never checked; for the event's TDs (u).
func (s *Service) Verification(ctx context.Context, u *arbiter.User, slug, matchID string) (*MatchVerification, error) {
	var out *MatchVerification
	err := s.tdRead(ctx, slug, u, "the checks of its results on Lichess", func(q sqlstore.Queryer, st *state) (err error) {
		out, err = optional(docVerification.get(ctx, q, st, matchID))
		return err
	})
	return out, err
}

// pairsOf lists who played what: the two players of an individual match;
// each board's players (the sheet's, else the boards as paired) in
// team_boards; each set's players (the sheet's, else the effective set
// lineups, R7) in team_sets.
func (s *Service) pairsOf(ctx context.Context, st *state, m *arbiter.Match, mf *format.Match, sh *score.Sheet) ([]pairSpec, error) {
	forfeit := ""
	if sh != nil && sh.Forfeit != "" {
		forfeit = "match forfeit (" + sh.Forfeit + "): no games to check"
	}
	parts := func(sheets []score.PartSheet, boardForfeit string) []partSpec {
		var out []partSpec
		for _, p := range mf.Parts {
			ps := partSpec{tc: p, skipped: orField(forfeit, boardForfeit)}
			for i := range sheets {
				if sheets[i].TC == p.TC.String() {
					ps.sheet = &sheets[i]
				}
			}
			if ps.sheet != nil && ps.sheet.Forfeit != "" && ps.skipped == "" {
				ps.skipped = "part forfeit (" + ps.sheet.Forfeit + "): no games to check"
			}
			out = append(out, ps)
		}
		return out
	}
	switch mf.Kind {
	case format.MatchIndividual:
		var players [2]string
		for i, id := range []string{m.Home, m.Away} {
			e, err := docEntrant.get(ctx, s.DB, st, id)
			if err != nil {
				return nil, err
			}
			players[i] = e.Player
		}
		var sheets []score.PartSheet
		if sh != nil {
			sheets = sh.Parts
		}
		return []pairSpec{{home: players[0], away: players[1], parts: parts(sheets, "")}}, nil
	case format.TeamBoards:
		n := max(len(m.HomeBoards), len(m.AwayBoards))
		if sh != nil {
			for _, b := range sh.Boards {
				n = max(n, b.Board)
			}
		}
		var out []pairSpec
		for b := 1; b <= n; b++ {
			pr := pairSpec{board: b}
			if b <= len(m.HomeBoards) {
				pr.home = m.HomeBoards[b-1]
			}
			if b <= len(m.AwayBoards) {
				pr.away = m.AwayBoards[b-1]
			}
			var sheets []score.PartSheet
			bf := ""
			if sh != nil {
				for _, bs := range sh.Boards {
					if bs.Board != b {
						continue
					}
					pr.home, pr.away = orField(bs.HomePlayer, pr.home), orField(bs.AwayPlayer, pr.away)
					sheets = bs.Parts
					if bs.Forfeit != "" {
						bf = "board forfeit (" + bs.Forfeit + "): no games to check"
					}
				}
			}
			pr.parts = parts(sheets, bf)
			out = append(out, pr)
		}
		if len(out) == 0 {
			return nil, arbiter.RuleError("app.lichess", "match %s names no board players (boards not ranked, no report naming them): nobody to look up", m.ID)
		}
		return out, nil
	case format.TeamSets:
		seq := 0
		for _, w := range st.ev.Calendar {
			if w.Stage == m.Stage && w.Number == m.Round {
				seq = w.Seq
			}
		}
		var lineups [2][]string
		for i, id := range []string{m.Home, m.Away} {
			l, err := docLineup.get(ctx, s.DB, st, id)
			if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
				continue
			}
			if err != nil {
				return nil, err
			}
			if eff, _, err := l.Book.Effective(seq); err == nil {
				lineups[i] = eff.Sets
			}
		}
		var sheets []score.PartSheet
		if sh != nil {
			sheets = sh.Sets
		}
		var out []pairSpec
		for i, ps := range parts(sheets, "") {
			pr := pairSpec{parts: []partSpec{ps}}
			if i < len(lineups[0]) {
				pr.home = lineups[0][i]
			}
			if i < len(lineups[1]) {
				pr.away = lineups[1][i]
			}
			if ps.sheet != nil {
				pr.home, pr.away = orField(ps.sheet.HomePlayer, pr.home), orField(ps.sheet.AwayPlayer, pr.away)
			}
			out = append(out, pr)
		}
		return out, nil
	}
	return nil, arbiter.Errorf(arbiter.EINTERNAL, "match kind %q unknown", mf.Kind)
}

// checkPair fetches one pair's games once and verifies each of its parts.
func (s *Service) checkPair(ctx context.Context, st *state, mf *format.Match, out *MatchVerification, pr pairSpec, clocks []lichess.TimeControl) ([]PartCheck, error) {
	checks := make([]PartCheck, len(pr.parts))
	need := false
	for i, ps := range pr.parts {
		checks[i] = PartCheck{Board: pr.board, TC: ps.tc.TC.String(), Games: ps.tc.Games,
			HomePlayer: pr.home, AwayPlayer: pr.away, Skipped: ps.skipped, Found: []CheckedGame{}, Discrepancies: []Finding{}}
		if checks[i].Skipped == "" && (pr.home == "" || pr.away == "") {
			checks[i].Skipped = "the players of this part are not known (no lineup or report names them)"
		}
		need = need || checks[i].Skipped == ""
	}
	if !need {
		return checks, nil
	}
	perf := ""
	if out.Variant == format.VariantAntichess {
		perf = lichess.PerfAntichess
	}
	games, err := s.games.GamesBetween(ctx, GamesBetween{Player: pr.home, Opponent: pr.away, Since: out.From, Until: out.To, Perf: perf})
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		for i := range checks {
			if checks[i].Skipped == "" {
				checks[i].Skipped = fmt.Sprintf("Lichess does not know %s or %s", pr.home, pr.away)
			}
		}
		return checks, nil
	}
	if err != nil {
		if code := arbiter.ErrorCode(err); code != arbiter.EINTERNAL {
			return nil, err
		}
		// Lichess, not Arbiter, failed: the TD is told so and may try again
		// (the last check stored, if any, is kept).
		return nil, &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: fmt.Sprintf("fetching the games of %s and %s from Lichess failed; try again later", pr.home, pr.away), Err: err}
	}
	flagged := map[string]bool{}
	for i, ps := range pr.parts {
		c := &checks[i]
		if c.Skipped != "" {
			continue
		}
		tc := lichessTC(ps.tc.TC)
		spec := lichess.PartSpec{Player: pr.home, Opponent: pr.away, TimeControl: tc, Variant: out.Variant,
			From: out.From, To: out.To, Expected: ps.tc.Games, EndsWhenDecided: !mf.PlayAllGames}
		for _, o := range clocks {
			if o != tc {
				spec.OtherParts = append(spec.OtherParts, o)
			}
		}
		if ps.sheet != nil {
			rep, played := reportedScore(ps.sheet.Results)
			spec.Reported = &rep
			spec.Expected -= len(ps.sheet.Results) - played // forfeited games are not on Lichess
			c.Reported = &PairScore{rep.Player, rep.Opponent}
		}
		if spec.Expected < 1 {
			c.Skipped = "every game of the part was forfeited: no games to check"
			c.Reported = nil
			continue
		}
		v, err := lichess.VerifyPart(games, spec)
		if err != nil {
			return nil, err
		}
		c.Lichess = PairScore{v.Score.Player, v.Score.Opponent}
		c.Found, c.Extra = checked(v.Games), checked(v.Extra)
		// A game in no part's clock, unfinished or without a result shows
		// in every part of the pair: it is listed once, on the first.
		c.WrongTC = checked(slices.DeleteFunc(v.WrongTimeControl, func(g lichess.PartGame) bool { return flagged[g.ID] }))
		early := spec.EndsWhenDecided && len(v.Games) < spec.Expected // decided before the last game (W4)
		var seen []string
		for _, d := range v.Discrepancies {
			if d.GameID != "" && d.Kind != lichess.DiscCasual {
				if flagged[d.GameID] {
					continue
				}
				seen = append(seen, d.GameID)
			}
			c.Discrepancies = append(c.Discrepancies, Finding{Kind: d.Kind, Clause: clauseOf(st.f, d.Kind, early), Game: d.GameID, Message: d.Message})
		}
		for _, id := range seen {
			flagged[id] = true
		}
	}
	return checks, nil
}

// reportedScore is the part's score as reported (home's view) over the
// games played over the board, and how many were.
func reportedScore(res score.Results) (lichess.Score, int) {
	var sc lichess.Score
	played := 0
	for _, tok := range res {
		var r lichess.Result
		switch strings.ToLower(strings.TrimSpace(tok)) {
		case "1", "1-0":
			r = lichess.Win
		case "0", "0-1":
			r = lichess.Loss
		case "=", "½", "0.5", "½-½", "1/2", "1/2-1/2", "0.5-0.5", "d":
			r = lichess.Draw
		default:
			continue // a forfeited game
		}
		played++
		sc.Player += r.Points()
		sc.Opponent += arbiter.Point - r.Points()
	}
	return sc, played
}

// clauseOf names the rulebook clause of a discrepancy kind in format f;
// decided is a part that ended once decided, before its last game (W4).
// Unfinished games and unknown results are for the TD ("td").
func clauseOf(f *format.Format, kind string, decided bool) string {
	games := orField(f.Clauses.Games, "format.match.parts")
	switch kind {
	case lichess.DiscWrongTC:
		if f.WrongTimeControl != nil && f.WrongTimeControl.Clause != "" {
			return f.WrongTimeControl.Clause
		}
		return games
	case lichess.DiscExtra:
		if decided && f.Clauses.Decided != "" {
			return f.Clauses.Decided
		}
		return games
	case lichess.DiscUnfinished, lichess.DiscUnknown:
		return "td"
	}
	return games
}

func lichessTC(tc format.TimeControl) lichess.TimeControl {
	return lichess.TimeControl{Base: tc.BaseSeconds, Increment: tc.IncrementSeconds}
}

func checked(gs []lichess.PartGame) []CheckedGame {
	out := []CheckedGame{}
	for _, g := range gs {
		c := CheckedGame{ID: g.ID, URL: "https://lichess.org/" + g.ID, CreatedAt: g.CreatedAt, HomeColor: g.Color,
			Result: string(g.Result), Status: g.Status, Rated: g.Rated}
		if g.TimeControl != (lichess.TimeControl{}) {
			c.TC = g.TimeControl.String()
		}
		out = append(out, c)
	}
	return out
}
