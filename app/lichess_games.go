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
	"arbiter/sqlstore"
)

// Games on Lichess (issue 14 §2): for each game of a match Arbiter creates
// an open challenge restricted to its two players, at the agreed start
// (or when the round is published where the format schedules no times),
// and the next game of the pair when the previous one has ended, so a
// match runs game after game without anyone typing a challenge. What was
// created is kept on the match (MatchGames) for its page, the API and the
// import (lichess_import.go).

const kindMatchGames = "lichess_games"

// LichessAPI is what running games on Lichess asks of it; *lichess.Client
// is one (the organiser's token), tests pass the fake's client.
type LichessAPI interface {
	OpenChallenge(ctx context.Context, r lichess.OpenChallengeRequest) (*lichess.Challenge, error)
	GamesByID(ctx context.Context, ids []string) ([]lichess.Game, error)
	GamesBetween(ctx context.Context, player, opponent string, since, until time.Time, perf string) ([]lichess.Game, error)
	SendMessage(ctx context.Context, username, text string) error
}

// SetLichess gives the service the Lichess client that creates games and
// imports results; nil (the default) leaves those jobs failing with a
// clear error until a process with a client runs them.
func (s *Service) SetLichess(l LichessAPI) { s.lichess = l }

// MatchGames are the games Arbiter created on Lichess for one match.
type MatchGames struct {
	Match string        `json:"match"`
	Games []CreatedGame `json:"games"`

	Version int64 `json:"-"`
}

// CreatedGame is one open challenge Arbiter created, and what Lichess
// said of its game when last looked at.
type CreatedGame struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Pair is the pair of players it belongs to: the board (team_boards)
	// or set (team_sets) from 1; 1 in an individual match.
	Pair   int    `json:"pair"`
	Board  int    `json:"board,omitempty"` // team_boards
	TC     string `json:"tc"`
	Number int    `json:"number"` // the pair's game number in the match, from 1
	Name   string `json:"name"`
	White  string `json:"white"`
	Black  string `json:"black"`
	// Home is whether the home side plays White.
	HomeWhite bool      `json:"home_white"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// Status is Lichess's status of the game ("" while nobody joined);
	// Winner white, black or "".
	Status string `json:"status,omitempty"`
	Winner string `json:"winner,omitempty"`
	// Tie is a knockout tie's game (tie.go): TieGames for a tiebreak
	// game (Number counts them from 1), TieArmageddon for the armageddon;
	// "" for the match's own games. Tie games have Pair 0.
	Tie string `json:"tie,omitempty"`
	// Bulk: created through a bulk pairing (lichess_bulk.go), its clocks
	// starting by themselves at ClocksAt. Note says why a game of an
	// event with bulk pairing is an open challenge instead.
	Bulk     bool      `json:"bulk,omitempty"`
	ClocksAt time.Time `json:"clocks_at,omitzero"`
	Note     string    `json:"note,omitempty"`
}

// Result is the game's score from White's side ("1-0", "½-½"), "" when
// it has none (not played yet, aborted, still going).
func (g CreatedGame) Result() string {
	switch {
	case !gameOver(g.Status) || noResultStatus(g.Status):
		return ""
	case g.Winner == "white":
		return "1-0"
	case g.Winner == "black":
		return "0-1"
	}
	return "½-½"
}

func gameOver(status string) bool {
	return status != "" && status != lichess.StatusCreated && status != lichess.StatusStarted
}

// noResultStatus: a game that ended without being played (to be played again).
func noResultStatus(status string) bool {
	return status == lichess.StatusAborted || status == lichess.StatusNoStart || status == lichess.StatusUnknownFinish
}

// gamePlan is one pair's games in playing order: the parts in the
// format's order, each part's games one after another.
type gamePlan struct {
	pair       int // from 1
	board      int
	home, away string
	slots      []format.Part // one per game
	// homeBlackFirst: board colours (team_boards: home has White on odd
	// boards in the first game, Black on even ones), the same for sets.
	homeBlackFirst bool
}

// homeWhite says whether home plays White in the pair's game n (from
// 1): colours alternate game after game (a rematch swaps them, ACWC and
// RKCC matches, A19's boards).
func (p gamePlan) homeWhite(n int) bool { return (n%2 == 1) != p.homeBlackFirst }

// plans are the pairs of a match and their games. Pairs whose players
// are not known yet (no lineup, boards not ranked) are left out.
func (s *Service) plans(ctx context.Context, st *state, m *arbiter.Match) ([]gamePlan, *format.Match, error) {
	mf := st.f.Stages[m.Stage].MatchFor(m.Format)
	pairs, err := s.pairsOf(ctx, st, m, mf, nil)
	if err != nil {
		return nil, mf, err
	}
	var out []gamePlan
	for i, pr := range pairs {
		if pr.home == "" || pr.away == "" {
			continue
		}
		p := gamePlan{pair: i + 1, board: pr.board, home: pr.home, away: pr.away, homeBlackFirst: i%2 == 1}
		for _, ps := range pr.parts {
			for range ps.tc.Games {
				p.slots = append(p.slots, ps.tc)
			}
		}
		out = append(out, p)
	}
	return out, mf, nil
}

// gameName is the challenge's name: "ACWC 2023 · round 3 · game 4".
func gameName(st *state, m *arbiter.Match, mf *format.Match, p gamePlan, n int) string {
	rnd := fmt.Sprintf("round %d", m.Round)
	if len(st.ev.Stages) > 1 && m.Stage < len(st.ev.Stages) {
		rnd = st.ev.Stages[m.Stage].Name + " " + rnd
	}
	parts := []string{st.ev.Name, rnd}
	switch mf.Kind {
	case format.TeamBoards:
		parts = append(parts, fmt.Sprintf("board %d", p.board))
	case format.TeamSets:
		parts = append(parts, "set "+p.slots[0].TC.String())
	}
	parts = append(parts, fmt.Sprintf("game %d", n))
	return strings.Join(parts, " · ")
}

// challengeKey names one challenge for good (job_effects): the pair's
// k-th challenge in the match. A game aborted and made again is the
// next k, so every challenge is created once.
func challengeKey(slug, match string, pair, k int) string {
	return fmt.Sprintf("challenge:%s:%s:%d:%d", slug, match, pair, k)
}

// createGame creates the pair's game n on Lichess (createChallenge).
func (s *Service) createGame(ctx context.Context, st *state, m *arbiter.Match, mf *format.Match, rd arbiter.Round, p gamePlan, n, k int, jobID int64) error {
	part := p.slots[n-1]
	white, black := p.home, p.away
	if !p.homeWhite(n) {
		white, black = black, white
	}
	g := CreatedGame{Pair: p.pair, Board: p.board, TC: part.TC.String(), Number: n, Name: gameName(st, m, mf, p, n),
		White: white, Black: black, HomeWhite: p.homeWhite(n)}
	return s.createChallenge(ctx, st, m, rd, challengeKey(st.ev.Slug, m.ID, p.pair, k), g, part.TC, jobID)
}

// createChallenge creates game g (its players, name and place in the
// match filled in) on Lichess as an open challenge in clock tc, once
// (recordGame).
func (s *Service) createChallenge(ctx context.Context, st *state, m *arbiter.Match, rd arbiter.Round, key string, g CreatedGame, tc format.TimeControl, jobID int64) error {
	return s.recordGame(ctx, st, m, rd, key, g, jobID, func(expires time.Time) (string, string, error) {
		req := lichess.OpenChallengeRequest{GameSettings: s.gameSettings(st, tc), Name: g.Name, Users: [2]string{g.White, g.Black}, ExpiresAt: expires}
		ch, err := s.lichess.OpenChallenge(ctx, req)
		if err != nil {
			return "", "", lichessFailure(err, "creating %s (%s v %s) on Lichess", g.Name, g.White, g.Black)
		}
		return ch.ID, ch.URL, nil
	})
}

// gameSettings are the settings of every game Arbiter creates: the
// format's variant and rating, noRematch (the next game is Arbiter's),
// the clock.
func (s *Service) gameSettings(st *state, tc format.TimeControl) lichess.GameSettings {
	return lichess.GameSettings{Rated: st.f.Lichess.Rated, Variant: orField(st.f.Variant, format.VariantStandard),
		Rules: []string{lichess.RuleNoRematch}, Clock: &lichess.Clock{Initial: tc.BaseSeconds, Increment: tc.IncrementSeconds}}
}

// recordGame creates game g on Lichess with create, once: the game's id
// is recorded under its key (job_effects) as soon as Lichess answers, in
// a transaction of its own, and a key already recorded is not created
// again; then the game joins the match's list (several board jobs may add
// to it at once: a conflict is tried again).
func (s *Service) recordGame(ctx context.Context, st *state, m *arbiter.Match, rd arbiter.Round, key string, g CreatedGame, jobID int64,
	create func(expires time.Time) (id, url string, err error)) error {
	now := s.now()
	expires := rd.End
	if limit := now.Add(14*24*time.Hour - time.Minute); expires.After(limit) {
		expires = limit
	}
	g.CreatedAt, g.ExpiresAt = now, expires
	e, found, err := sqlstore.GetJobEffect(ctx, s.DB, key)
	if err != nil {
		return err
	}
	if found {
		g.ID = e.Effect // created by a run that died before listing it
	} else {
		if !expires.After(now) {
			return arbiter.RuleError(st.roundClause(), "round %d is over: no game is created after its deadline", rd.Number)
		}
		if g.ID, g.URL, err = create(expires); err != nil {
			return err
		}
		if err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			return sqlstore.RecordJobEffect(ctx, tx, sqlstore.JobEffect{Key: key, Effect: g.ID, JobID: jobID})
		}); err != nil {
			return err
		}
	}
	for try := 0; ; try++ {
		err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			mg, err := docMatchGames.get(ctx, tx, st, m.ID)
			ch := change(systemJob, "lichess.game", g.Name+": "+g.ID, false)
			switch arbiter.ErrorCode(err) {
			case "":
				if slices.ContainsFunc(mg.Games, func(x CreatedGame) bool { return x.ID == g.ID }) {
					return nil
				}
				mg.Games = append(mg.Games, g)
				_, err = docMatchGames.update(ctx, tx, ch, st, m.ID, mg.Version, mg)
			case arbiter.ENOTFOUND:
				_, err = docMatchGames.create(ctx, tx, ch, st, m.ID, MatchGames{Match: m.ID, Games: []CreatedGame{g}})
			}
			return err
		})
		if arbiter.ErrorCode(err) != arbiter.ECONFLICT || try == 4 {
			return err
		}
	}
}

// lichessFailure words a Lichess failure for the TD, keeping what the
// job needs to tell a retry (Retryable, RetryAfter) from a refusal.
func lichessFailure(err error, what string, args ...any) error {
	msg := fmt.Sprintf(what, args...)
	if lichess.Retryable(err) {
		return &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: msg + " failed; trying again later", Err: err}
	}
	return &arbiter.Error{Code: arbiter.EINVALID, Message: msg + ": Lichess refused: " + err.Error(), Err: err}
}
