package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// GamesJob runs one match's games on Lichess (issue 14 §2): at the agreed
// start it creates each pair's first game, then looks every GamesPoll at
// the games it created, creating a pair's next game once the last one
// has ended (an aborted one is made again), until every game is played,
// the match is decided or the round is over; then it asks for the import
// (ImportJob). Board is the board whose players agreed a time of their
// own (A5; 0: the whole match). At is the agreed start it was enqueued
// for: once the time moves, a job for the new time takes over and this
// one ends.
type GamesJob struct {
	EventSlug string    `json:"event"`
	Match     string    `json:"match"`
	Board     int       `json:"board,omitempty"`
	At        time.Time `json:"at"`
	// Tie: the knockout tie's games (tie.go), once the match's own games
	// are over; At is then zero.
	Tie bool `json:"tie,omitempty"`
}

func (GamesJob) Kind() string { return "lichess_games" }
func (j GamesJob) Key() string {
	k := "games:" + j.EventSlug + ":" + j.Match
	if j.Tie {
		return k + ":tie"
	}
	if j.Board > 0 {
		k += fmt.Sprintf(":b%d", j.Board)
	}
	return k + "@" + j.At.UTC().Format(time.RFC3339)
}
func (j GamesJob) Event() string { return j.EventSlug }

// GamesPoll is how often a match's games are looked at while they are
// played: a game of 1+2 lasts a few minutes, and one look costs one
// request for every game of the match.
const GamesPoll = time.Minute

func init() {
	addJobKind(jobKind{
		name: GamesJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			// Not Repeatable: a start time is run once; a TD's retry of a
			// failed job goes on where it stopped (every challenge is
			// recorded under its own key).
			jobs.Add(k, jobs.Options{MaxAttempts: 8, Timeout: 5 * time.Minute}, s.runGamesJob)
		},
		what: func(args json.RawMessage) string {
			var j GamesJob
			json.Unmarshal(args, &j)
			if j.Tie {
				return "Tiebreak games of match " + j.Match + " on Lichess"
			}
			if j.Board > 0 {
				return fmt.Sprintf("Games of match %s, board %d, on Lichess", j.Match, j.Board)
			}
			return "Games of match " + j.Match + " on Lichess"
		},
	})
}

func (s *Service) runGamesJob(ctx context.Context, j *jobs.Job[GamesJob]) error {
	run := s.runGames
	if j.Args.Tie {
		run = s.runTie // tie.go
	}
	more, err := run(ctx, j.Args, j.ID)
	if err != nil {
		return jobError(err)
	}
	if more != nil {
		return jobs.Snooze(GamesPoll, more)
	}
	return nil
}

var errWaiting = fmt.Errorf("games being played")

// runGames does one look at a match's games; more (what it waits for)
// says whether to look again later.
func (s *Service) runGames(ctx context.Context, a GamesJob, jobID int64) (error, error) {
	more, err := s.lookAtGames(ctx, a, jobID)
	if more {
		return errWaiting, err
	}
	return nil, err
}

func (s *Service) lookAtGames(ctx context.Context, a GamesJob, jobID int64) (more bool, err error) {
	st, err := load(ctx, s.DB, a.EventSlug)
	if err != nil {
		return false, err
	}
	if !st.f.CreatesGames() {
		return false, nil // switched off
	}
	m, rd, err := matchInRound(ctx, s.DB, st, a.Match)
	if err != nil {
		return false, err
	}
	if m.IsBye() || m.Status != arbiter.MatchScheduled || rd.Status != arbiter.RoundPublished {
		return false, nil // nothing left to play
	}
	if at := agreedAt(&m, a.Board); !at.IsZero() && !at.Equal(a.At) {
		return false, nil // the time moved: the job for the new one runs it
	}
	if s.lichess == nil {
		return false, arbiter.Errorf(arbiter.EUNAVAILABLE, "this process has no Lichess client: games cannot be created (give --lichess-url and the organiser's token)")
	}
	now := s.now()
	if !now.Before(rd.End) {
		return false, s.askImport(ctx, st, m.ID, "")
	}
	plans, mf, err := s.plans(ctx, st, &m)
	if err != nil {
		return false, err
	}
	plans = slices.DeleteFunc(plans, func(p gamePlan) bool {
		return a.Board > 0 && p.board != a.Board || ruled(&m, p.board)
	})
	mg, err := s.refreshGames(ctx, st, m.ID, func(g CreatedGame) bool {
		return slices.ContainsFunc(plans, func(p gamePlan) bool { return p.pair == g.Pair })
	})
	if err != nil {
		return false, err
	}
	decided := matchDecided(mf, plans, mg.Games)
	for _, p := range plans {
		var mine []CreatedGame
		for _, g := range mg.Games {
			if g.Pair == p.pair {
				mine = append(mine, g)
			}
		}
		if n := len(mine); n > 0 && !gameOver(mine[n-1].Status) {
			more = true // being played, or waiting for the players to join
			continue
		}
		played := 0
		for _, g := range mine {
			if !noResultStatus(g.Status) {
				played++
			}
		}
		if decided || played >= len(p.slots) {
			continue
		}
		create := func() error { return s.createGame(ctx, st, &m, mf, rd, p, played+1, len(mine)+1, jobID) }
		if st.ev.BulkPairing && len(mine) == 0 {
			create = func() error { return s.createBulkGame(ctx, st, &m, mf, rd, p, jobID) } // lichess_bulk.go
		}
		if err := create(); err != nil {
			return false, err
		}
		more = true
	}
	if !more {
		if len(mf.Tie) > 0 {
			// A knockout match: the tie job (one for the whole match,
			// whichever board asks first) looks whether it is tied and
			// plays the tie, then asks for the import.
			_, _, err := s.enqueue(ctx, nil, GamesJob{EventSlug: st.ev.Slug, Match: m.ID, Tie: true})
			return false, err
		}
		return false, s.askImport(ctx, st, m.ID, "")
	}
	return true, nil
}

// agreedAt is the start the players agreed for the match or a board (zero
// when none: formats that schedule no times).
func agreedAt(m *arbiter.Match, board int) time.Time {
	if board > 0 {
		if board <= len(m.BoardTimes) {
			return m.BoardTimes[board-1]
		}
		return time.Time{}
	}
	return m.ScheduledAt
}

// ruled reports a board decided by a ruling (a forfeit): no games.
func ruled(m *arbiter.Match, board int) bool {
	return board > 0 && slices.ContainsFunc(m.Rulings, func(r arbiter.Ruling) bool { return r.Board == board && r.Forfeit != "reopened" })
}

// refreshGames reads from Lichess the games still going (or not yet
// joined) of those mine picks and stores what changed. Several jobs (one
// a board) may refresh one match at once: each merges its games into the
// stored list in its own transaction.
func (s *Service) refreshGames(ctx context.Context, st *state, matchID string, mine func(CreatedGame) bool) (MatchGames, error) {
	mg, err := docMatchGames.get(ctx, s.DB, st, matchID)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return MatchGames{Match: matchID}, nil
	}
	if err != nil {
		return mg, err
	}
	var ids []string
	for _, g := range mg.Games {
		if mine(g) && !gameOver(g.Status) {
			ids = append(ids, g.ID)
		}
	}
	if len(ids) == 0 {
		return mg, nil
	}
	games, err := s.lichess.GamesByID(ctx, ids)
	if err != nil {
		return mg, lichessFailure(err, "reading the games of match %s from Lichess", matchID)
	}
	seen := map[string]lichess.Game{}
	for _, lg := range games {
		seen[lg.ID] = lg
	}
	update := func(mg *MatchGames) bool {
		changed := false
		for i := range mg.Games {
			g := &mg.Games[i]
			if lg, ok := seen[g.ID]; ok && (g.Status != lg.Status || g.Winner != lg.Winner) {
				g.Status, g.Winner, changed = lg.Status, lg.Winner, true
			}
		}
		return changed
	}
	if !update(&mg) {
		return mg, nil
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		cur, err := docMatchGames.get(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		if update(&cur) {
			cur.Version, err = docMatchGames.update(ctx, tx, change(systemJob, "lichess.games", "", false), st, matchID, cur.Version, cur)
		}
		mg = cur
		return err
	})
	return mg, err
}

// matchDecided reports a match that ends once decided (play_all_games
// false: W4) where a side has passed half of the points its games give.
func matchDecided(mf *format.Match, plans []gamePlan, games []CreatedGame) bool {
	if mf.PlayAllGames {
		return false
	}
	var total, home, away arbiter.Points
	for _, p := range plans {
		for _, part := range p.slots {
			win, _ := gamePoints(part)
			total += win
		}
	}
	for _, g := range games {
		if g.Tie != "" {
			continue
		}
		win, draw := gamePoints(partOf(plans, g))
		switch r := g.Result(); {
		case r == "":
		case r == "½-½":
			home, away = home+draw, away+draw
		case (r == "1-0") == g.HomeWhite:
			home += win
		default:
			away += win
		}
	}
	return 2*home > total || 2*away > total
}

// gamePoints are the points of a won and a drawn game of a part.
func gamePoints(p format.Part) (win, draw arbiter.Points) {
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

// StatusWords says where a created game stands, for its page: "1-0",
// "being played", "waiting for the players to join".
func (g CreatedGame) StatusWords() string {
	switch {
	case g.Status == "":
		return "waiting for the players to join"
	case g.Status == lichess.StatusStarted || g.Status == lichess.StatusCreated:
		return "being played"
	case noResultStatus(g.Status):
		return g.Status + ": to be played again"
	}
	return g.Result()
}

// partOf is the format part a created game was played in (its pair's
// plan, game number); the zero part when no plan has it.
func partOf(plans []gamePlan, g CreatedGame) format.Part {
	var part format.Part
	for _, p := range plans {
		if p.pair == g.Pair && g.Number <= len(p.slots) {
			part = p.slots[g.Number-1]
		}
	}
	return part
}
