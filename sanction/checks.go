package sanction

import (
	"slices"

	"arbiter"
)

// Forfeit is one forfeit the player suffered (a part, game or match
// forfeited), identified by the match it happened in.
type Forfeit struct {
	MatchID string
}

// ForfeitDisqualifies reports whether a player's forfeits disqualify them,
// and the clause: antichess A7, "forfeits twice" (any two forfeits); ACWC
// W16, "forfeited in two different matches". RKCC has no such rule.
func ForfeitDisqualifies(rb Rulebook, forfeits []Forfeit) (bool, string) {
	switch rb {
	case Antichess:
		return len(forfeits) >= 2, "A7"
	case ACWC:
		var ids []string
		for _, f := range forfeits {
			if !slices.Contains(ids, f.MatchID) {
				ids = append(ids, f.MatchID)
			}
		}
		return len(ids) >= 2, "W16"
	}
	return false, ""
}

// Candidate describes a proposed replacement player.
type Candidate struct {
	Name     string
	Rating   int
	Eligible bool   // meets the eligibility rules (A2; checked elsewhere)
	Willing  bool   // willing to play, including reopened matches (A15)
	Team     string // the team they are registered with, "" for none
}

// CheckReplacement checks a replacement for a removed or disqualified
// player of team. RKCC R14/R16: not registered with another team and not
// removed from the event. Antichess A15: eligible, willing, at least 100
// rating points below the replaced player (whose rating is replacedRating),
// and the team still in the event. removed lists the players removed from
// the event.
func CheckReplacement(rb Rulebook, team string, replacedRating int, c Candidate, removed []string, teamOut bool) error {
	switch rb {
	case RKCC:
		switch {
		case slices.Contains(removed, c.Name):
			return arbiter.RuleError("R16", "%s was removed from the event and may not play for any team", c.Name)
		case c.Team != "" && c.Team != team:
			return arbiter.RuleError("R14", "%s is registered with another team", c.Name)
		}
		return nil
	case Antichess:
		switch {
		case teamOut:
			return arbiter.RuleError("A15", "the team is disqualified and can name no replacement")
		case slices.Contains(removed, c.Name):
			return arbiter.RuleError("A15", "%s was disqualified from the event", c.Name)
		case c.Team != "" && c.Team != team:
			return arbiter.RuleError("A11", "%s is already in another team; a player can be part of one team only", c.Name)
		case !c.Willing:
			return arbiter.RuleError("A15", "the replacement must be willing to play, including any reopened matches")
		case !c.Eligible:
			return arbiter.RuleError("A15", "%s does not meet the eligibility rules", c.Name)
		case c.Rating > replacedRating-100:
			return arbiter.RuleError("A15", "a replacement must be rated at least 100 points below the replaced player (%d): %s is rated %d",
				replacedRating, c.Name, c.Rating)
		}
		return nil
	}
	return arbiter.RuleError("W17", "players cannot be replaced in this event")
}

// MayPlay refuses a player removed from the event (R16: for any team, for
// the rest of the event).
func MayPlay(player string, removed []string) error {
	if slices.Contains(removed, player) {
		return arbiter.RuleError("R16", "%s was removed from the event and may not play for any team", player)
	}
	return nil
}
