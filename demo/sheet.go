package demo

import (
	"errors"
	"math"
	"math/rand/v2"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/score"
)

// side is one side of a simulated match: its entrant, strength and the
// players in board (or set) order.
type side struct {
	id      string
	rating  int
	players []string
	bench   []string // a team's substitute
}

// play simulates the games of one match.
type play struct {
	rng  *rand.Rand
	seed *rand.ChaCha8 // nonces of the armageddon bids
	// bids are the sealed bids of the last armageddon played, for the
	// application layer's auction (home is side A).
	bids sealed
}

// sealed is an armageddon auction's commitments and secrets, home first.
type sealed struct {
	commits [2]armageddon.Commitment
	secrets [2]armageddon.Secret
}

// game draws one game's result from home's point of view: a draw now and
// then (antichess has few), else a win by the Elo expectation.
func (p *play) game(home, away int) string {
	if p.rng.Float64() < 0.12 {
		return "="
	}
	e := 1 / (1 + math.Pow(10, float64(away-home)/400))
	if p.rng.Float64() < e {
		return "1"
	}
	return "0"
}

func halves(res string) (home, away int) {
	switch res {
	case "1":
		return 2, 0
	case "0":
		return 0, 2
	}
	return 1, 1
}

// sheet builds a random but legal match sheet for m (the match format of
// the match) between h and a. With tied set, every part is played to a
// level score (a tie in a knockout, which then needs its procedure).
func (p *play) sheet(m *format.Match, matchFormat string, h, a side, teamSize int, tied bool) *score.Sheet {
	sh := &score.Sheet{Home: h.id, Away: a.id, Match: matchFormat}
	part := func(pt format.Part, hr, ar int, limit func(hp, ap arbiter.Points) bool, hp, ap *arbiter.Points) score.PartSheet {
		ps := score.PartSheet{TC: pt.TC.String()}
		win, draw := pt.PerGame()
		if tied {
			// As many home wins as away wins, the rest drawn, in random order.
			k := p.rng.IntN(pt.Games/2 + 1)
			for range k {
				ps.Results = append(ps.Results, "1", "0")
			}
			for len(ps.Results) < pt.Games {
				ps.Results = append(ps.Results, "=")
			}
			p.rng.Shuffle(len(ps.Results), func(i, j int) { ps.Results[i], ps.Results[j] = ps.Results[j], ps.Results[i] })
			return ps
		}
		for range pt.Games {
			if limit != nil && limit(*hp, *ap) {
				break
			}
			r := p.game(hr, ar)
			ps.Results = append(ps.Results, r)
			hh, ah := halves(r)
			*hp += pointsOf(hh, win, draw)
			*ap += pointsOf(ah, win, draw)
		}
		return ps
	}
	var hp, ap arbiter.Points
	var limit func(hp, ap arbiter.Points) bool
	if !m.PlayAllGames {
		// W4: the match ends once a side has more than half the points.
		half := m.MaxPoints(teamSize) / 2
		limit = func(hp, ap arbiter.Points) bool { return hp > half || ap > half }
	}
	switch m.Kind {
	case format.MatchIndividual:
		for _, pt := range m.Parts {
			ps := part(pt, h.rating, a.rating, limit, &hp, &ap)
			if len(ps.Results) > 0 {
				sh.Parts = append(sh.Parts, ps)
			}
		}
	case format.TeamSets:
		for i, pt := range m.Parts {
			ps := part(pt, h.rating+p.jitter(), a.rating+p.jitter(), limit, &hp, &ap)
			ps.HomePlayer, ps.AwayPlayer = player(h, i), player(a, i)
			sh.Sets = append(sh.Sets, ps)
		}
	case format.TeamBoards:
		for b := range teamSize {
			bs := score.BoardSheet{Board: b + 1, HomePlayer: player(h, b), AwayPlayer: player(a, b)}
			hr, ar := h.rating+p.jitter(), a.rating+p.jitter()
			for _, pt := range m.Parts {
				bs.Parts = append(bs.Parts, part(pt, hr, ar, limit, &hp, &ap))
			}
			sh.Boards = append(sh.Boards, bs)
		}
	}
	return sh
}

// jitter spreads a team's players around its rating.
func (p *play) jitter() int { return p.rng.IntN(201) - 100 }

func player(s side, i int) string {
	if i < len(s.players) {
		return s.players[i]
	}
	return ""
}

func pointsOf(h int, win, draw arbiter.Points) arbiter.Points {
	switch h {
	case 2:
		return win
	case 1:
		return draw
	}
	return 0
}

// tie fills the tie procedure of a tied knockout match (A20, W10, W11):
// the captains' advantage point (the captains play board 1 of each
// team), tiebreak games until decided, and the armageddon with sealed
// bids. toArmageddon keeps the tiebreak games level so that the
// armageddon is reached. It returns whether an armageddon was played.
func (p *play) tie(f *format.Format, m *format.Match, sh *score.Sheet, matchID string, h, a side, toArmageddon bool) (bool, error) {
	t := &score.TieSheet{}
	var lead arbiter.Points // home minus away, in points
	for _, step := range m.Tie {
		switch step.Kind {
		case format.TieCaptainsAdvantage:
			if len(sh.Boards) == 0 {
				continue
			}
			t.CaptainsBoard = 1
			switch hp, ap := boardScore(m, sh.Boards[0]); {
			case hp > ap:
				lead = arbiter.Point
			case ap > hp:
				lead = -arbiter.Point
			}
		case format.TieGames:
			for g := range step.Games {
				left := arbiter.Points(step.Games-g) * arbiter.Point
				if lead > left || -lead > left {
					break
				}
				r := p.game(h.rating, a.rating)
				if toArmageddon {
					// Level the games: answer the captain's lead or a win.
					switch {
					case lead > 0:
						r = "0"
					case lead < 0:
						r = "1"
					default:
						r = []string{"1", "0", "="}[p.rng.IntN(3)]
						if g == step.Games-1 {
							r = "="
						}
					}
				}
				t.Games = append(t.Games, r)
				hh, ah := halves(r)
				lead += arbiter.Points(hh-ah) * arbiter.Point / 2
			}
			if lead != 0 {
				sh.Tie = t
				return false, nil
			}
		case format.TieArmageddon:
			ag, err := p.armageddon(f, matchID, h, a)
			if err != nil {
				return false, err
			}
			t.Armageddon = ag
			sh.Tie = t
			return true, nil
		}
	}
	sh.Tie = t
	return false, nil
}

// armageddon runs the sealed-bid auction of A3/W12 with package
// armageddon (commit, then reveal; equal bids by the verifiable flip)
// and returns the sheet's record of it with a random game result.
func (p *play) armageddon(f *format.Format, matchID string, h, a side) (*score.ArmageddonSheet, error) {
	rules := app.FormatArmageddonRules(f)
	bid := func() time.Duration { return time.Duration(60+5*p.rng.IntN(25)) * time.Second }
	auction := armageddon.New(rules, matchID)
	var secrets [2]armageddon.Secret
	for i, s := range []armageddon.Side{armageddon.SideA, armageddon.SideB} {
		c, sec, err := armageddon.Seal(rules, matchID, s, bid(), p.seed)
		if err != nil {
			return nil, err
		}
		if auction, err = auction.Commit(s, c); err != nil {
			return nil, err
		}
		secrets[i] = sec
		p.bids.commits[i] = c
	}
	for i, s := range []armageddon.Side{armageddon.SideA, armageddon.SideB} {
		var err error
		if auction, err = auction.Reveal(s, secrets[i]); err != nil {
			return nil, err
		}
	}
	p.bids.secrets = secrets
	o, err := auction.Outcome()
	if err != nil {
		return nil, err
	}
	ag := &score.ArmageddonSheet{HomeBid: int(secrets[0].Bid / time.Second), AwayBid: int(secrets[1].Bid / time.Second), White: "home"}
	if o.White == armageddon.SideB {
		ag.White = "away"
	}
	ag.Result = p.game(h.rating, a.rating)
	return ag, nil
}

// ruleOf returns the rule of an arbiter error ("" otherwise).
func ruleOf(err error) string {
	var e *arbiter.Error
	if errors.As(err, &e) {
		return e.Rule
	}
	return ""
}

// boardScore totals one board of a sheet (every part played in full).
func boardScore(m *format.Match, b score.BoardSheet) (home, away arbiter.Points) {
	for i, ps := range b.Parts {
		if i >= len(m.Parts) {
			break
		}
		win, draw := m.Parts[i].PerGame()
		for _, r := range ps.Results {
			hh, ah := halves(r)
			home += pointsOf(hh, win, draw)
			away += pointsOf(ah, win, draw)
		}
	}
	return home, away
}
