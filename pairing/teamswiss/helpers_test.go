package teamswiss

import (
	"testing"

	"arbiter"
)

// match is one result fed to the event builder. Home had White on board 1.
type match struct {
	home, away       string
	res              Result         // Played when empty
	homeMP, awayMP   arbiter.Points // match points
	homeSec, awaySec arbiter.Points // secondary score
}

// win/draw/loss shorthands with R13 match points.
func won(home, away string, hs, as arbiter.Points) match {
	return match{home: home, away: away, homeMP: 100, awayMP: 0, homeSec: hs, awaySec: as}
}

func lost(home, away string, hs, as arbiter.Points) match {
	return match{home: home, away: away, homeMP: 0, awayMP: 100, homeSec: hs, awaySec: as}
}

func drew(home, away string) match {
	return match{home: home, away: away, homeMP: 50, awayMP: 50}
}

// newEvent makes teams with seeds in the order given (R13 points, PAB worth
// a win, initial colour White).
func newEvent(total int, ids ...string) *Event {
	ev := &Event{Points: DefaultPoints(), TotalRounds: total, InitialColour: White}
	for i, id := range ids {
		ev.Teams = append(ev.Teams, Team{ID: id, Seed: i + 1})
	}
	return ev
}

func (ev *Event) team(id string) *Team {
	for i := range ev.Teams {
		if ev.Teams[i].ID == id {
			return &ev.Teams[i]
		}
	}
	panic("no team " + id)
}

// addRound records one round: the matches, the bye (if any); every other
// team is absent.
func (ev *Event) addRound(bye string, ms ...match) {
	n := len(ev.Teams[0].Rounds)
	for _, m := range ms {
		res := m.res
		if res == "" {
			res = Played
		}
		h, a := ev.team(m.home), ev.team(m.away)
		h.Rounds = append(h.Rounds, Round{Opponent: m.away, White: res == Played, Result: res, MatchPoints: m.homeMP, Secondary: m.homeSec})
		a.Rounds = append(a.Rounds, Round{Opponent: m.home, Result: res, MatchPoints: m.awayMP, Secondary: m.awaySec})
	}
	if bye != "" {
		b := ev.team(bye)
		b.Rounds = append(b.Rounds, Round{Result: Bye, MatchPoints: ev.Points.Bye})
	}
	for i := range ev.Teams {
		if len(ev.Teams[i].Rounds) == n {
			ev.Teams[i].Rounds = append(ev.Teams[i].Rounds, Round{Result: Absent})
		}
	}
}

// mustPair pairs the next round or fails the test.
func mustPair(t *testing.T, ev *Event) *Pairing {
	t.Helper()
	p, err := Pair(ev)
	if err != nil {
		t.Fatalf("round %d: %v", len(ev.Teams[0].Rounds)+1, err)
	}
	return p
}

func boards(pairs ...string) []Board {
	var out []Board
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, Board{Home: pairs[i], Away: pairs[i+1]})
	}
	return out
}
