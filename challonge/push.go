package challonge

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Bracket is a single-elimination bracket decided elsewhere: its
// participants in seed order and the results so far.
type Bracket struct {
	Participants []NewParticipant // Misc identifies each one (and must be unique)
	Results      []Result         // in round order
}

// Result is one decided match between two participants (by Misc), home
// first; Scores holds one "home-away" pair per set, e.g. {"160", "80"}.
type Result struct {
	Round      int
	Home, Away string
	Scores     [][2]string
	// Winner is Home, Away, or "" when the result names none (Challonge
	// then only gets the scores).
	Winner string
}

// Report says what a push did.
type Report struct {
	Added     int      // participants added
	Started   bool     // the push started the tournament
	Updated   []string // results sent ("home v away")
	Unchanged []string // results Challonge already had
	// Missing are results whose match Challonge has not opened (its
	// bracket differs, or an earlier result is missing).
	Missing []string
}

// Push brings b into tournament t, idempotently: it adds the participants
// Challonge lacks while the tournament is pending, starts it, then sends
// each result round by round to the match between the two participants
// (scores from Challonge's player 1, the winner's participant ID),
// leaving alone the matches that already show the same result. A push
// stopped half-way (an error) is finished by pushing again.
func Push(ctx context.Context, c *Client, t string, b Bracket) (Report, error) {
	var rep Report
	tour, err := c.Tournament(ctx, t)
	if err != nil {
		return rep, err
	}
	ps, err := c.Participants(ctx, t)
	if err != nil {
		return rep, err
	}
	byMisc := map[string]int64{}
	for _, p := range ps {
		if p.Misc != "" {
			byMisc[p.Misc] = p.ID
		}
	}
	var missing []NewParticipant
	for _, p := range b.Participants {
		if _, ok := byMisc[p.Misc]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		if tour.State != "pending" {
			return rep, fmt.Errorf("challonge: tournament %s is %s and lacks %d participant(s) (%s): it can no longer take any", t, tour.State, len(missing), missing[0].Name)
		}
		added, err := c.BulkAddParticipants(ctx, t, missing)
		if err != nil {
			return rep, err
		}
		rep.Added = len(added)
		for _, p := range added {
			byMisc[p.Misc] = p.ID
		}
	}
	if tour.State == "pending" {
		if _, err := c.Start(ctx, t); err != nil {
			return rep, err
		}
		rep.Started = true
	}
	results := slices.Clone(b.Results)
	slices.SortStableFunc(results, func(a, b Result) int { return a.Round - b.Round })
	round := -1
	var ms []Match
	for _, r := range results {
		if r.Round != round { // the previous round's winners have moved on
			if ms, err = c.Matches(ctx, t); err != nil {
				return rep, err
			}
			round = r.Round
		}
		label := r.Home + " v " + r.Away
		home, away := byMisc[r.Home], byMisc[r.Away]
		i := slices.IndexFunc(ms, func(m Match) bool {
			return m.Player1ID == home && m.Player2ID == away || m.Player1ID == away && m.Player2ID == home
		})
		if home == 0 || away == 0 || i < 0 {
			rep.Missing = append(rep.Missing, label)
			continue
		}
		m := ms[i]
		flip := m.Player1ID != home
		var sets []string
		for _, s := range r.Scores {
			if flip {
				sets = append(sets, s[1]+"-"+s[0])
			} else {
				sets = append(sets, s[0]+"-"+s[1])
			}
		}
		scores := strings.Join(sets, ",")
		var winner int64
		switch r.Winner {
		case r.Home:
			winner = home
		case r.Away:
			winner = away
		}
		if m.State == "complete" && m.ScoresCSV == scores && m.WinnerID == winner {
			rep.Unchanged = append(rep.Unchanged, label)
			continue
		}
		if _, err := c.UpdateMatch(ctx, t, m.ID, scores, winner); err != nil {
			return rep, err
		}
		rep.Updated = append(rep.Updated, label)
	}
	return rep, nil
}
