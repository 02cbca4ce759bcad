package format

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"arbiter"
	"arbiter/standings"
)

func fieldErr(path, rule, format string, args ...any) error {
	return arbiter.FieldError(path, rule, format, args...)
}

var (
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	clockRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	days    = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)

// Validate checks every rule of the format file and returns the first
// violation as an *arbiter.Error naming the field's JSON path and the rule.
func (f *Format) Validate() error {
	if !nameRE.MatchString(f.Name) {
		return fieldErr("name", "format.name", "want lowercase letters, digits and '-', got %q", f.Name)
	}
	if err := f.validateLichess(); err != nil {
		return err
	}
	if err := f.validatePolicy(); err != nil {
		return err
	}
	if strings.TrimSpace(f.Title) == "" {
		return fieldErr("title", "format.title", "required")
	}
	switch f.Entrant {
	case Individual:
		if f.Team != nil {
			return fieldErr("team", "format.team", "an individual event has no team rules")
		}
	case Team:
		if f.Team == nil {
			return fieldErr("team", "format.team", "a team event needs team rules (size)")
		}
		if err := f.Team.Size.validate("team.size", 1); err != nil {
			return err
		}
		if f.Team.Size.Log2 != nil {
			return fieldErr("team.size.log2", "format.team", "team size must be fixed or a step table")
		}
		if f.Team.Substitutes != nil && *f.Team.Substitutes < 0 {
			return fieldErr("team.substitutes", "format.team", "must be >= 0")
		}
	default:
		return fieldErr("entrant", "format.entrant", "want individual or team, got %q", f.Entrant)
	}
	if f.MinEntrants < 0 {
		return fieldErr("min_entrants", "format.min_entrants", "must be >= 0")
	}
	if f.Weeks != nil {
		if err := f.Weeks.validate("weeks", 1); err != nil {
			return err
		}
	}
	if err := f.Calendar.validate("calendar"); err != nil {
		return err
	}
	if a := f.Armageddon; a != nil {
		if a.Black.BaseSeconds == 0 {
			return fieldErr("armageddon.black", "format.armageddon", "Black needs time on the clock")
		}
		if a.EqualBids != "coin_flip" && a.EqualBids != "rock_paper_scissors" {
			return fieldErr("armageddon.equal_bids", "format.armageddon", "want coin_flip or rock_paper_scissors, got %q", a.EqualBids)
		}
	}
	if len(f.Stages) == 0 {
		return fieldErr("stages", "format.stages", "at least one stage")
	}
	seen := map[string]bool{}
	for i := range f.Stages {
		p := fmt.Sprintf("stages[%d]", i)
		s := &f.Stages[i]
		if !nameRE.MatchString(s.Name) {
			return fieldErr(p+".name", "format.stage.name", "want lowercase letters, digits and '-', got %q", s.Name)
		}
		if seen[s.Name] {
			return fieldErr(p+".name", "format.stage.name", "duplicate stage name %q", s.Name)
		}
		seen[s.Name] = true
		if err := f.validateStage(i, p); err != nil {
			return err
		}
	}
	return nil
}

func (w *WeekTime) validate(path string) error {
	if !slices.Contains(days, w.Day) {
		return fieldErr(path+".day", "format.calendar", "want a lowercase weekday (monday..sunday), got %q", w.Day)
	}
	if !clockRE.MatchString(w.Time) {
		return fieldErr(path+".time", "format.calendar", "want HH:MM (UTC), got %q", w.Time)
	}
	return nil
}

func (c *Calendar) validate(p string) error {
	if c.RoundsPerWeek < 1 {
		return fieldErr(p+".rounds_per_week", "format.calendar", "must be at least 1")
	}
	if err := c.Deadline.validate(p + ".deadline"); err != nil {
		return err
	}
	if c.RoundStart != nil {
		if err := c.RoundStart.validate(p + ".round_start"); err != nil {
			return err
		}
	}
	if c.PairingsBy != nil {
		if err := c.PairingsBy.validate(p + ".pairings_by"); err != nil {
			return err
		}
	}
	if c.AppealHours < 0 {
		return fieldErr(p+".appeal_hours", "format.calendar", "must be >= 0")
	}
	switch c.Appeals {
	case "":
	case AppealsWindow:
		if c.AppealHours == 0 {
			return fieldErr(p+".appeal_hours", "format.appeals", "an appeal window needs appeal_hours > 0")
		}
	case AppealsTDDiscretion:
		if c.AppealHours != 0 {
			return fieldErr(p+".appeal_hours", "format.appeals", "td_discretion appeals have no fixed window: leave appeal_hours out")
		}
	default:
		return fieldErr(p+".appeals", "format.appeals", "want %q or %q, got %q", AppealsWindow, AppealsTDDiscretion, c.Appeals)
	}
	n := c.Negotiation
	if n == nil {
		return nil
	}
	p += ".negotiation"
	switch {
	case n.MinOffers < 1:
		return fieldErr(p+".min_offers", "format.negotiation", "must be at least 1")
	case n.MinGapHours < 0:
		return fieldErr(p+".min_gap_hours", "format.negotiation", "must be >= 0")
	case n.NotAllWithinHours < 0:
		return fieldErr(p+".not_all_within_hours", "format.negotiation", "must be >= 0")
	case n.MaxPerDate < 0:
		return fieldErr(p+".max_per_date", "format.negotiation", "must be >= 0")
	case n.MaxPerDate > 0 && n.MaxPerDate*7 < n.MinOffers:
		return fieldErr(p+".max_per_date", "format.negotiation", "too small for %d offers in a week", n.MinOffers)
	case n.ReplyHours < 0:
		return fieldErr(p+".reply_hours", "format.negotiation", "must be >= 0")
	case n.RetryOffers < 0:
		return fieldErr(p+".retry_offers", "format.negotiation", "must be >= 0")
	case n.NoFaultResult != "double_forfeit" && n.NoFaultResult != "full_draw":
		return fieldErr(p+".no_fault_result", "format.negotiation", "want double_forfeit or full_draw, got %q", n.NoFaultResult)
	case (n.OfferDeadline.HoursAfterPreviousRound > 0) == (n.OfferDeadline.Weekly != nil):
		return fieldErr(p+".offer_deadline", "format.negotiation", "give exactly one of hours_after_previous_round (> 0) or weekly")
	case n.OfferDeadline.HoursAfterPreviousRound < 0:
		return fieldErr(p+".offer_deadline.hours_after_previous_round", "format.negotiation", "must be > 0")
	}
	if n.OfferDeadline.Weekly != nil {
		return n.OfferDeadline.Weekly.validate(p + ".offer_deadline.weekly")
	}
	return nil
}

// Upper bounds: a break between stages of a year at most; games per part
// and points per game far above any rulebook (A18: 8 games, 12 points)
// but low enough that no total can overflow.
const (
	maxBreakWeeks = 52
	maxGames      = 1000
	maxGamePoints = 10000 * arbiter.Point
)

var pairingFor = map[string]string{Swiss: "dutch", RoundRobin: "berger", Pool: "berger", Knockout: "bracket"}

func (f *Format) validateStage(i int, p string) error {
	s := &f.Stages[i]
	last := i == len(f.Stages)-1
	want, ok := pairingFor[s.Kind]
	if !ok {
		return fieldErr(p+".kind", "format.stage.kind", "want swiss, round_robin, knockout or pool, got %q", s.Kind)
	}
	if s.Pairing != want {
		return fieldErr(p+".pairing", "format.stage.pairing", "a %s stage is paired by %q, got %q", s.Kind, want, s.Pairing)
	}
	switch {
	case s.BreakWeeksBefore < 0 || s.BreakWeeksBefore > maxBreakWeeks:
		return fieldErr(p+".break_weeks_before", "format.stage.break", "want 0 to %d weeks, got %d", maxBreakWeeks, s.BreakWeeksBefore)
	case i == 0 && s.BreakWeeksBefore != 0:
		return fieldErr(p+".break_weeks_before", "format.stage.break", "the first stage opens the event: no break before it")
	}
	if s.Kind == Swiss {
		if s.Rounds == nil {
			return fieldErr(p+".rounds", "format.stage.rounds", "a swiss stage needs its number of rounds")
		}
		if err := s.Rounds.validate(p+".rounds", 1); err != nil {
			return err
		}
	} else if s.Rounds != nil {
		return fieldErr(p+".rounds", "format.stage.rounds", "only a swiss stage states its rounds; %s rounds follow from the entrants", s.Kind)
	}
	if s.Kind == RoundRobin || s.Kind == Pool {
		if s.Cycles != 1 && s.Cycles != 2 {
			return fieldErr(p+".cycles", "format.stage.cycles", "want 1 (single) or 2 (double round robin), got %d", s.Cycles)
		}
	} else if s.Cycles != 0 {
		return fieldErr(p+".cycles", "format.stage.cycles", "only round_robin and pool stages have cycles")
	}
	if s.Kind == Pool {
		if i == 0 {
			return fieldErr(p+".kind", "format.stage.pools", "a pool stage is filled from a previous stage's places")
		}
		if err := validatePools(s.Pools, p+".pools"); err != nil {
			return err
		}
		if s.Advance != nil {
			return fieldErr(p+".advance", "format.stage.advance", "a pool stage gives advance per pool")
		}
	} else if len(s.Pools) > 0 {
		return fieldErr(p+".pools", "format.stage.pools", "only a pool stage has pools")
	}
	switch {
	case s.Kind == Knockout && s.Advance != nil:
		return fieldErr(p+".advance", "format.stage.advance", "a knockout has a winner, not an advance count")
	case last && s.Advance != nil:
		return fieldErr(p+".advance", "format.stage.advance", "the last stage advances nobody")
	case !last && s.Kind == Knockout:
		return fieldErr(p+".kind", "format.stage.kind", "a knockout must be the last stage")
	case !last && s.Kind != Pool && s.Advance == nil:
		return fieldErr(p+".advance", "format.stage.advance", "required: how many go on to stage %q", f.Stages[i+1].Name)
	case s.Advance != nil:
		if err := s.Advance.validate(p+".advance", 2); err != nil {
			return err
		}
	}
	if s.Kind == Knockout {
		switch s.Seeding {
		case "standings":
		case "cross_pool":
			prev := (*Stage)(nil)
			if i > 0 {
				prev = &f.Stages[i-1]
			}
			if prev == nil || prev.Kind != Pool || len(prev.Pools) != 2 || prev.Pools[0].Advance != 2 || prev.Pools[1].Advance != 2 {
				return fieldErr(p+".seeding", "format.stage.seeding", "cross_pool seeding needs a previous pool stage of two pools advancing 2 each")
			}
		default:
			return fieldErr(p+".seeding", "format.stage.seeding", "want standings or cross_pool, got %q", s.Seeding)
		}
	} else {
		switch {
		case s.Seeding != "":
			return fieldErr(p+".seeding", "format.stage.seeding", "only a knockout has a seeding")
		case s.ThirdPlace:
			return fieldErr(p+".third_place", "format.stage.third_place", "only a knockout has a third-place match")
		case s.Final != nil:
			return fieldErr(p+".final", "format.stage.final", "only a knockout has a final")
		}
	}
	if s.ThirdPlaceMatch != nil && !s.ThirdPlace {
		return fieldErr(p+".third_place_match", "format.stage.third_place", "set third_place to true to play a third-place match")
	}
	for j, t := range s.Tiebreaks {
		if _, err := standings.ParseTiebreak(t); err != nil {
			return fieldErr(fmt.Sprintf("%s.tiebreaks[%d]", p, j), "format.tiebreak", "%s", strings.TrimPrefix(arbiter.ErrorMessage(err), "tiebreak: "))
		}
	}
	switch s.TiebreakEdition {
	case "", standings.Edition2024, standings.Edition2026:
	default:
		return fieldErr(p+".tiebreak_edition", "format.tiebreak", "want %q or %q, got %q", standings.Edition2024, standings.Edition2026, s.TiebreakEdition)
	}
	if err := f.validateMatch(&s.Match, p+".match", s.Kind == Knockout); err != nil {
		return err
	}
	if s.Final != nil {
		if err := f.validateMatch(s.Final, p+".final", true); err != nil {
			return err
		}
	}
	if s.ThirdPlaceMatch != nil {
		if err := f.validateMatch(s.ThirdPlaceMatch, p+".third_place_match", true); err != nil {
			return err
		}
	}
	return nil
}

func validatePools(pools []PoolDef, p string) error {
	if len(pools) < 1 {
		return fieldErr(p, "format.stage.pools", "at least one pool")
	}
	names := map[string]bool{}
	places := map[int]bool{}
	total := 0
	for j, pl := range pools {
		pp := fmt.Sprintf("%s[%d]", p, j)
		if pl.Name == "" || names[pl.Name] {
			return fieldErr(pp+".name", "format.stage.pools", "each pool needs a distinct name")
		}
		names[pl.Name] = true
		if len(pl.Places) < 2 {
			return fieldErr(pp+".places", "format.stage.pools", "a pool needs at least 2 places")
		}
		for k, x := range pl.Places {
			if x < 1 || places[x] {
				return fieldErr(fmt.Sprintf("%s.places[%d]", pp, k), "format.stage.pools", "place %d is not a new place >= 1", x)
			}
			places[x] = true
		}
		total += len(pl.Places)
		if pl.Advance < 0 || pl.Advance > len(pl.Places) {
			return fieldErr(pp+".advance", "format.stage.pools", "must be between 0 and the pool size %d", len(pl.Places))
		}
	}
	for x := 1; x <= total; x++ {
		if !places[x] {
			return fieldErr(p, "format.stage.pools", "places must cover 1..%d: %d is missing", total, x)
		}
	}
	return nil
}

func (f *Format) validateMatch(m *Match, p string, knockout bool) error {
	switch m.Kind {
	case MatchIndividual:
		if f.Entrant != Individual {
			return fieldErr(p+".kind", "format.match.kind", "a team event needs team_boards or team_sets")
		}
	case TeamBoards, TeamSets:
		if f.Entrant != Team {
			return fieldErr(p+".kind", "format.match.kind", "an individual event plays individual matches")
		}
	default:
		return fieldErr(p+".kind", "format.match.kind", "want individual, team_boards or team_sets, got %q", m.Kind)
	}
	if len(m.Parts) == 0 {
		return fieldErr(p+".parts", "format.match.parts", "at least one part")
	}
	tcs := map[TimeControl]bool{}
	for j, part := range m.Parts {
		pp := fmt.Sprintf("%s.parts[%d]", p, j)
		if tcs[part.TC] {
			return fieldErr(pp+".tc", "format.tc", "time control %s appears twice; parts are named by their time control", part.TC)
		}
		tcs[part.TC] = true
		if part.TC == (TimeControl{}) {
			return fieldErr(pp+".tc", "format.tc", "required")
		}
		if part.Games < 1 || part.Games > maxGames {
			return fieldErr(pp+".games", "format.part.games", "must be 1 to %d, got %d", maxGames, part.Games)
		}
		switch {
		case part.Factor != nil && (part.Win != nil || part.Draw != nil):
			return fieldErr(pp+".factor", "format.part.points", "give either win and draw or factor, not both")
		case part.Factor != nil:
			if *part.Factor <= 0 || *part.Factor%2 != 0 || *part.Factor > maxGamePoints {
				return fieldErr(pp+".factor", "format.part.points", "must be positive, at most %s, and half of it exact to the hundredth", maxGamePoints)
			}
		case part.Win == nil || part.Draw == nil:
			return fieldErr(pp, "format.part.points", "give win and draw points or a factor")
		case *part.Win <= 0 || *part.Win > maxGamePoints:
			return fieldErr(pp+".win", "format.part.points", "must be positive and at most %s", maxGamePoints)
		case *part.Draw*2 != *part.Win:
			return fieldErr(pp+".draw", "format.part.points", "a draw must be worth half a win (%s), so every game hands out the same points", *part.Win/2)
		}
	}
	mp := m.MatchPoints
	if mp.Win <= 0 || mp.Draw < mp.Loss || mp.Win < mp.Draw || mp.Loss < 0 || mp.Win > maxGamePoints {
		return fieldErr(p+".match_points", "format.match_points", "want %s >= win > 0 and win >= draw >= loss >= 0", maxGamePoints)
	}
	if m.DoubleForfeit != "loss" && m.DoubleForfeit != "draw" {
		return fieldErr(p+".double_forfeit", "format.match.double_forfeit", "want loss or draw, got %q", m.DoubleForfeit)
	}
	if m.Kind == TeamSets {
		for _, n := range f.TeamSizes() {
			if n != len(m.Parts) {
				return fieldErr(p+".parts", "format.match.sets", "team_sets plays one player per set: %d sets for a team of %d", len(m.Parts), n)
			}
		}
	}
	if len(m.Tie) > 0 && !knockout {
		return fieldErr(p+".tie", "format.match.tie", "only knockout matches have a tie procedure; other stages allow draws")
	}
	for j, t := range m.Tie {
		tp := fmt.Sprintf("%s.tie[%d]", p, j)
		switch t.Kind {
		case TieCaptainsAdvantage:
			if m.Kind != TeamBoards {
				return fieldErr(tp+".kind", "format.match.tie", "captains_advantage needs a team_boards match (the captains meet on a board)")
			}
			if j+1 >= len(m.Tie) || m.Tie[j+1].Kind != TieGames {
				return fieldErr(tp+".kind", "format.match.tie", "captains_advantage counts in the tiebreak games that follow it")
			}
		case TieGames:
			if t.Games < 1 || t.Games > maxGames {
				return fieldErr(tp+".games", "format.match.tie", "must be 1 to %d, got %d", maxGames, t.Games)
			}
			if t.TC == nil {
				return fieldErr(tp+".tc", "format.match.tie", "required")
			}
			if m.Kind != MatchIndividual && t.Players != "captains" {
				return fieldErr(tp+".players", "format.match.tie", "team tiebreak games need players \"captains\"")
			}
			if m.Kind == MatchIndividual && t.Players != "" {
				return fieldErr(tp+".players", "format.match.tie", "individual tiebreak games are played by the two players")
			}
		case TieArmageddon:
			if j != len(m.Tie)-1 {
				return fieldErr(tp+".kind", "format.match.tie", "armageddon always decides, so it must be the last step")
			}
			if f.Armageddon == nil {
				return fieldErr(tp+".kind", "format.armageddon", "the format needs an armageddon section")
			}
		default:
			return fieldErr(tp+".kind", "format.match.tie", "want captains_advantage, games or armageddon, got %q", t.Kind)
		}
		if t.Kind != TieGames && (t.Games != 0 || t.TC != nil || t.Players != "") {
			return fieldErr(tp, "format.match.tie", "games, tc and players belong to a games step")
		}
	}
	return nil
}
