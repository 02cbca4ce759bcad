package format

import (
	"fmt"
	"math/bits"

	"arbiter"
)

// Explanation says what the event is for a given number of entrants.
type Explanation struct {
	Format   string `json:"format"`
	Entrants int    `json:"entrants"`
	Runs     bool   `json:"runs"`
	// Reason says why the event does not run (empty when it runs).
	Reason string `json:"reason,omitempty"`
	// TeamSize is nil for an individual event.
	TeamSize    *int `json:"team_size"`
	Substitutes *int `json:"substitutes,omitempty"`
	// Weeks is nil where the rulebook gives no duration.
	Weeks  *int               `json:"weeks"`
	Stages []StageExplanation `json:"stages"`
	// Calendar and Armageddon are the format's, for the lifecycle.
	Calendar   Calendar    `json:"calendar"`
	Armageddon *Armageddon `json:"armageddon,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
}

// StageExplanation is one stage for the given entrant count.
type StageExplanation struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Pairing  string `json:"pairing"`
	Entrants *int   `json:"entrants"`
	// BreakWeeksBefore is the idle weeks before the stage's first round
	// (W13), for calendar.Stage.BreakBefore.
	BreakWeeksBefore int `json:"break_weeks_before"`
	// Rounds is nil when the TDs decide (see Note).
	Rounds *int `json:"rounds"`
	// Advance is how many go on; nil on the last stage or when the TDs decide.
	Advance    *int      `json:"advance"`
	Cycles     int       `json:"cycles,omitempty"`
	Pools      []PoolDef `json:"pools,omitempty"`
	Seeding    string    `json:"seeding,omitempty"`
	ThirdPlace bool      `json:"third_place,omitempty"`
	Tiebreaks  []string  `json:"tiebreaks,omitempty"`
	// TiebreakEdition is the stage's FIDE C.07 edition, if set.
	TiebreakEdition string            `json:"tiebreak_edition,omitempty"`
	Match           MatchExplanation  `json:"match"`
	Final           *MatchExplanation `json:"final,omitempty"`
	ThirdMatch      *MatchExplanation `json:"third_place_match,omitempty"`
	Notes           []string          `json:"notes,omitempty"`
}

// MatchExplanation is a match format with its totals worked out.
type MatchExplanation struct {
	Kind   string            `json:"kind"`
	Boards int               `json:"boards,omitempty"`
	Parts  []PartExplanation `json:"parts"`
	// MaxPoints counts every board (team_boards) or set (team_sets).
	MaxPoints arbiter.Points `json:"max_points"`
	// WinThreshold decides the match; in sets for team_sets (ThresholdUnit).
	WinThreshold  arbiter.Points `json:"win_threshold"`
	ThresholdUnit string         `json:"threshold_unit"`
	PlayAllGames  bool           `json:"play_all_games"`
	MatchPoints   MatchPoints    `json:"match_points"`
	Tie           []TieStep      `json:"tie,omitempty"`
}

// PartExplanation is one part; Win and Draw are per game (Factor x 1 and
// Factor x 0.5 for factor parts); Factor is nil for points parts.
type PartExplanation struct {
	TC        string          `json:"tc"`
	Games     int             `json:"games"`
	Win       arbiter.Points  `json:"win"`
	Draw      arbiter.Points  `json:"draw"`
	Factor    *arbiter.Points `json:"factor"`
	MaxPoints arbiter.Points  `json:"max_points"`
}

// ExplainMatch works out a match format's totals for a team of teamSize.
func (m *Match) Explain(teamSize int) MatchExplanation {
	x := MatchExplanation{Kind: m.Kind, PlayAllGames: m.PlayAllGames, MatchPoints: m.MatchPoints, Tie: m.Tie}
	if m.Kind == TeamBoards {
		x.Boards = teamSize
	}
	for _, p := range m.Parts {
		win, draw := p.PerGame()
		x.Parts = append(x.Parts, PartExplanation{TC: p.TC.String(), Games: p.Games, Win: win, Draw: draw, Factor: p.Factor, MaxPoints: p.MaxPoints()})
	}
	x.MaxPoints = m.MaxPoints(teamSize)
	x.WinThreshold, x.ThresholdUnit = m.WinThreshold(teamSize)
	return x
}

func intp(v int) *int { return &v }

// roundRobinRounds: n-1 rounds per cycle for even n, n for odd n (one bye each round).
func roundRobinRounds(n, cycles int) int {
	if n%2 == 0 {
		return cycles * (n - 1)
	}
	return cycles * n
}

// Explain works out the event for n entrants: whether it runs, team size,
// duration, and each stage's entrants, rounds, advance and match totals.
func (f *Format) Explain(n int) (Explanation, error) {
	if n < 0 {
		return Explanation{}, arbiter.FieldError("entrants", "format.entrants", "must be >= 0, got %d", n)
	}
	x := Explanation{Format: f.Name, Entrants: n, Runs: true, Notes: f.Notes, Stages: []StageExplanation{},
		Calendar: f.Calendar, Armageddon: f.Armageddon}
	fail := func(reason string) {
		if x.Runs {
			x.Runs, x.Reason = false, reason
		}
	}
	if f.MinEntrants > 0 && n < f.MinEntrants {
		fail(fmt.Sprintf("needs at least %d entrants, has %d", f.MinEntrants, n))
	}
	if n < 2 {
		fail(fmt.Sprintf("needs at least 2 entrants, has %d", n))
	}
	teamSize := 1
	if f.Team != nil {
		v, note, ok := f.Team.Size.Resolve(n)
		if ok {
			x.TeamSize = intp(v)
			teamSize = v
		} else {
			fail("team size: " + note)
		}
		x.Substitutes = f.Team.Substitutes
	}
	if f.Weeks != nil {
		if v, note, ok := f.Weeks.Resolve(n); ok {
			x.Weeks = intp(v)
		} else if note != "" {
			x.Notes = append(x.Notes, "weeks: "+note)
		}
	}
	entrants := intp(n) // nil once a stage's size is left to the TDs
	for i := range f.Stages {
		s := &f.Stages[i]
		se := StageExplanation{Name: s.Name, Kind: s.Kind, Pairing: s.Pairing, Entrants: entrants, BreakWeeksBefore: s.BreakWeeksBefore, Cycles: s.Cycles,
			Pools: s.Pools, Seeding: s.Seeding, ThirdPlace: s.ThirdPlace, Tiebreaks: s.Tiebreaks, TiebreakEdition: s.TiebreakEdition,
			Match: s.Match.Explain(teamSize)}
		if s.Note != "" {
			se.Notes = append(se.Notes, s.Note)
		}
		if s.Final != nil {
			m := s.Final.Explain(teamSize)
			se.Final = &m
		}
		if s.ThirdPlaceMatch != nil {
			m := s.ThirdPlaceMatch.Explain(teamSize)
			se.ThirdMatch = &m
		}
		var next *int
		switch s.Kind {
		case Swiss:
			if entrants != nil {
				v, note, ok := s.Rounds.Resolve(*entrants)
				if ok {
					se.Rounds = intp(v)
					// R1 gives 5 rounds to 8 teams or fewer: with 4 teams
					// all have met after 3 rounds, and the pairing has no
					// rematch-free round left. The event still runs; the
					// TDs decide what happens (a round robin, say).
					if all := roundRobinRounds(*entrants, 1); *entrants >= 2 && v > all {
						se.Notes = append(se.Notes, fmt.Sprintf("rounds: %d entrants have all met after %s; the other %d need rematches, which Swiss pairing does not allow: the TDs decide", *entrants, arbiter.Count(all, "round"), v-all))
					}
				}
				if note != "" {
					se.Notes = append(se.Notes, "rounds: "+note)
				}
			}
		case RoundRobin:
			if entrants != nil {
				se.Rounds = intp(roundRobinRounds(*entrants, s.Cycles))
			}
		case Pool:
			places := 0
			adv := 0
			rounds := 0
			for _, p := range s.Pools {
				places += len(p.Places)
				adv += p.Advance
				rounds = max(rounds, roundRobinRounds(len(p.Places), s.Cycles))
			}
			if entrants != nil && *entrants != places {
				fail(fmt.Sprintf("stage %s needs %d entrants from the previous stage, has %d", s.Name, places, *entrants))
			}
			se.Rounds = intp(rounds)
			next = intp(adv)
			se.Advance = next
		case Knockout:
			if entrants != nil {
				k := *entrants
				if k < 2 || bits.OnesCount(uint(k)) != 1 {
					fail(fmt.Sprintf("knockout stage %s needs a power of two entrants (2, 4, 8, ...), has %d", s.Name, k))
				} else {
					se.Rounds = intp(bits.Len(uint(k)) - 1)
				}
			}
		}
		if s.Advance != nil && entrants != nil {
			v, note, ok := s.Advance.Resolve(*entrants)
			if ok {
				next = intp(v)
				se.Advance = next
				if v > *entrants {
					fail(fmt.Sprintf("stage %s advances %d but has only %d entrants", s.Name, v, *entrants))
				}
			}
			if note != "" {
				se.Notes = append(se.Notes, "advance: "+note)
			}
		}
		if entrants == nil {
			se.Notes = append(se.Notes, "entrants, rounds and match count depend on the previous stage, which the TDs define")
		}
		x.Stages = append(x.Stages, se)
		entrants = next
	}
	return x, nil
}
