package app

import (
	"context"
	"fmt"

	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/dutch"
	"arbiter/sqlstore"
)

// PairingReview is what a TD checks in the pairings of the current round
// before publishing them (or after): for each board both sides' score,
// rating, colour history and preference and floats, the criteria the
// board breaks, and why the bye went where it did. Swiss stages only carry
// the colour, float and bye details; round robin and knockout pairings
// follow their tables.
type PairingReview struct {
	Round arbiter.Round `json:"round"`
	Stage string        `json:"stage"`
	Kind  string        `json:"kind"` // the stage's kind: swiss, round_robin, pool, knockout
	// Editable: a Swiss round paired and not yet published (EditPairing).
	Editable bool          `json:"editable"`
	Team     bool          `json:"team"`
	Boards   []ReviewBoard `json:"boards"`
	Edits    []PairingEdit `json:"edits,omitempty"`
}

// ReviewBoard is one match of the round under review.
type ReviewBoard struct {
	Match arbiter.Match `json:"match"`
	Home  ReviewSide    `json:"home"`
	Away  *ReviewSide   `json:"away,omitempty"` // nil for the bye
	// Warnings are the criteria this board breaks (C.04.3): the engine
	// breaks quality criteria only where every pairing must (a score
	// difference to float a player down, a preference two players share);
	// a TD's edit may break more.
	Warnings []PairingWarning `json:"warnings,omitempty"`
	// ByeReasons say why the bye's holder got it (C2, C5, C9).
	ByeReasons []string `json:"bye_reasons,omitempty"`
}

// ReviewSide is one side of a board as the pairing saw it, before the round.
type ReviewSide struct {
	Entrant string         `json:"entrant"`
	Name    string         `json:"name"`
	Seed    int            `json:"seed"`
	Rating  int            `json:"rating"`
	Score   arbiter.Points `json:"score"`
	// Colour in this match: "white" or "black" (teams: on board 1).
	Colour string `json:"colour,omitempty"`
	// History is the colour of each earlier round of the stage: "W", "B",
	// "bye" (the pairing-allocated bye) or "-" (no game played).
	History    []string `json:"history,omitempty"`
	Difference int      `json:"difference"` // games with White minus games with Black
	// Preference is the colour the player should get ("white", "black" or
	// "") and Strength how strongly: "absolute", "strong" or "mild"
	// (C.04.3 1.7).
	Preference string `json:"preference,omitempty"`
	Strength   string `json:"strength,omitempty"`
	// Floats are the floats of the last two rounds: "down last round",
	// "up two rounds ago" (C.04.3 1.4).
	Floats []string `json:"floats,omitempty"`
	// ByeEligible: may receive the bye (C2: no bye and no win without
	// playing before).
	ByeEligible bool `json:"bye_eligible"`
}

// ReviewPairings returns the review of the current stage's latest round.
// TD only: the pairings are not public before publication.
func (s *Service) ReviewPairings(ctx context.Context, a arbiter.Actor, slug string) (PairingReview, error) {
	var rv PairingReview
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "review the pairings"); err != nil {
			return err
		}
		p, err := loadPairedRound(ctx, tx, st)
		if err != nil {
			return err
		}
		rv = p.review()
		return nil
	})
	return rv, err
}

func (p *pairedRound) review() PairingReview {
	rv := PairingReview{Round: p.rd, Stage: p.stage.Name, Kind: p.stage.Kind, Team: p.team(),
		Editable: p.swiss() && p.rd.Status == arbiter.RoundPaired, Edits: p.edits}
	var profiles []dutch.Profile
	if p.swiss() {
		profiles = dutch.Profiles(p.t)
	}
	side := func(id, colour string) ReviewSide {
		e := p.byID[id]
		sd := ReviewSide{Entrant: id, Name: p.name(id), Seed: e.Seed, Rating: e.Rating}
		if !p.swiss() {
			return sd
		}
		i := p.index[id]
		pr := profiles[i]
		sd.Colour, sd.Score, sd.Difference, sd.ByeEligible = colour, pr.Score, pr.Difference, pr.ByeEligible
		sd.Strength = pr.Strength.String()
		if pr.Preference != pairing.NoColour {
			sd.Preference = colourName(pr.Preference)
		}
		for r, c := range pr.Colours {
			switch {
			case p.t.Players[i].Games[r].IsPAB():
				sd.History = append(sd.History, "bye")
			case c == pairing.White:
				sd.History = append(sd.History, "W")
			case c == pairing.Black:
				sd.History = append(sd.History, "B")
			default:
				sd.History = append(sd.History, "-")
			}
		}
		for k, f := range pr.Floats {
			if f != dutch.NoFloat {
				sd.Floats = append(sd.Floats, f.String()+" "+roundsAgo(k+1))
			}
		}
		return sd
	}
	var breaches [][]dutch.Breach
	if p.swiss() {
		breaches = dutch.CheckEach(p.t, p.pairs())
	}
	for i, m := range p.matches {
		b := ReviewBoard{Match: m}
		if m.IsBye() {
			b.Home = side(m.Home, "")
		} else {
			b.Home = side(m.Home, "white")
			away := side(m.Away, "black")
			b.Away = &away
		}
		if p.swiss() {
			b.Warnings = p.warnings(breaches[i])
			if m.IsBye() {
				b.ByeReasons = p.byeReasons(p.index[m.Home], profiles)
			}
		}
		rv.Boards = append(rv.Boards, b)
	}
	return rv
}

func colourName(c pairing.Colour) string {
	if c == pairing.Black {
		return "black"
	}
	return "white"
}

// byeReasons says in words why player i holds the bye (C.04.3: C2 who may
// take it, C5 the lowest score, C9 the fewest unplayed games, then the
// bracket's pairing, which leaves the lowest ranked over unless that pairs
// the others worse).
func (p *pairedRound) byeReasons(i int, profiles []dutch.Profile) []string {
	why := dutch.WhyBye(p.t, i)
	me := profiles[i]
	names := func(is []int) string {
		var ids []string
		for _, j := range is {
			ids = append(ids, p.idAt(j))
		}
		return p.nameList(ids)
	}
	var out []string
	if why.Eligible {
		out = append(out, "had no bye and no win without playing before, so may take it (C2)")
	} else {
		out = append(out, "already had a bye or a win without playing: C2 forbids a second bye")
	}
	if len(why.LowerScore) == 0 {
		out = append(out, fmt.Sprintf("no one who may take the bye scores less than %s (C5: the lowest score)", me.Score))
	} else {
		out = append(out, fmt.Sprintf("%s may take it with a lower score (C5)", names(why.LowerScore)))
	}
	if len(why.FewerUnplayed) == 0 {
		out = append(out, fmt.Sprintf("no one on %s points who may take it has fewer unplayed games than %d (C9)", me.Score, me.Unplayed))
	} else {
		out = append(out, fmt.Sprintf("%s, on the same points, %s fewer unplayed games (C9)", names(why.FewerUnplayed), plural(len(why.FewerUnplayed), "has", "have")))
	}
	switch {
	case len(why.Candidates) == 0:
		out = append(out, "the only one left who could take it")
	case len(why.RankedBelow) == 0:
		out = append(out, fmt.Sprintf("the lowest ranked of those who could take it (also %s)", names(why.Candidates)))
	default:
		out = append(out, fmt.Sprintf("%s, ranked lower, could take it too: leaving them over would pair the others worse (C6-C21)", names(why.RankedBelow)))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
