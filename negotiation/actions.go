package negotiation

import (
	"slices"
	"strconv"
	"time"

	"arbiter"
	"arbiter/calendar"
)

// Propose: player By offers the given start times (first offers and
// counter-offers alike). All times are checked together with By's earlier
// offers of the current batch; nothing is recorded unless all pass.
type Propose struct {
	By    Player
	Times []time.Time
}

func (a Propose) apply(s State, now time.Time) (State, error) {
	r := s.Rules
	if err := checkPlayer(a.By, r.Clause); err != nil {
		return s, err
	}
	if err := s.requireOpen(); err != nil {
		return s, err
	}
	if len(a.Times) == 0 {
		return s, arbiter.FieldError("times", r.Clause, "offer at least one time")
	}
	if s.AtFault[a.By] {
		return s, arbiter.RuleError(r.Clause, "the TDs found you at fault: you must accept one of your opponent's times")
	}
	if s.MustAccept(a.By, now) {
		return s, arbiter.RuleError(r.Clause,
			"you did not offer %d times by %s: you must accept one of your opponent's times",
			r.MinOffers, calendar.Format(s.OfferDeadline.Add(-time.Minute)))
	}
	own := s.batchOffers(a.By)
	times := make([]time.Time, 0, len(own)+len(a.Times))
	for _, o := range own {
		times = append(times, o.At)
	}
	for _, t := range a.Times {
		t = t.UTC()
		if !t.After(now) {
			return s, arbiter.RuleError(r.Clause, "%s is in the past", calendar.Format(t))
		}
		if !s.Round.Contains(t) {
			return s, arbiter.RuleError(r.Clause, "%s is outside the round, which runs from %s to %s",
				calendar.Format(t), calendar.Format(s.Round.Start), calendar.Format(s.Round.LastMinute()))
		}
		if s.Batch > 0 {
			for _, o := range s.Offers {
				if o.Batch < s.Batch && o.At.Equal(t) {
					return s, arbiter.RuleError(r.Clause, "%s was offered before: the new offers must be different times", calendar.Format(t))
				}
			}
		}
		for _, u := range times {
			d := t.Sub(u).Abs()
			if d == 0 {
				return s, arbiter.RuleError(r.Clause, "you already offered %s", calendar.Format(t))
			}
			if d < r.MinGap {
				return s, arbiter.RuleError(r.Clause, "offers must be at least %s apart: %s and %s are only %s apart",
					hours(r.MinGap), calendar.Format(u), calendar.Format(t), hours(d))
			}
		}
		times = append(times, t)
	}
	if r.MaxPerDate > 0 {
		perDate := map[string]int{}
		for _, t := range times {
			d := t.Format("2006-01-02")
			if perDate[d]++; perDate[d] > r.MaxPerDate {
				return s, arbiter.RuleError(r.Clause, "at most %d offers may fall on one date, and %s would have %d",
					r.MaxPerDate, d, perDate[d])
			}
		}
	}
	if r.MinSpan > 0 && len(times) >= r.MinOffers {
		lo, hi := slices.MinFunc(times, time.Time.Compare), slices.MaxFunc(times, time.Time.Compare)
		if hi.Sub(lo) < r.MinSpan {
			return s, arbiter.RuleError(r.Clause, "your offers may not all lie within %s of each other: they span %s to %s",
				hours(r.MinSpan), calendar.Format(lo), calendar.Format(hi))
		}
	}
	for _, t := range times[len(own):] {
		s.Offers = append(s.Offers, Offer{By: a.By, At: t, Made: now, Batch: s.Batch})
	}
	return s, nil
}

func hours(d time.Duration) string {
	if d%time.Hour == 0 {
		h := int(d / time.Hour)
		if h == 1 {
			return "1 hour"
		}
		return strconv.Itoa(h) + " hours"
	}
	return d.String()
}

// Accept: player By accepts the opponent's offer of time At. Only the
// opponent of the player who offered a time may accept it, and only a time
// actually offered and still to come.
type Accept struct {
	By Player
	At time.Time
}

func (a Accept) apply(s State, now time.Time) (State, error) {
	r := s.Rules
	if err := checkPlayer(a.By, r.Clause); err != nil {
		return s, err
	}
	if err := s.requireOpen(); err != nil {
		return s, err
	}
	at := a.At.UTC()
	offered, own := false, false
	for _, o := range s.Offers {
		if o.At.Equal(at) {
			if o.By == a.By {
				own = true
			} else {
				offered = true
			}
		}
	}
	switch {
	case !offered && own:
		return s, arbiter.RuleError(r.Clause, "%s is your own offer: your opponent has to accept it", calendar.Format(at))
	case !offered:
		return s, arbiter.RuleError(r.Clause, "your opponent did not offer %s: accept one of their offered times or make an offer", calendar.Format(at))
	case !at.After(now):
		return s, arbiter.RuleError(r.Clause, "%s has already passed: accept a later time", calendar.Format(at))
	}
	s.Outcome, s.AgreedAt = Agreed, at
	return s, nil
}

// NoneSuitable declares that none of the current offers suits both
// players, once each has made the required offers (MinOffers, then
// RetryOffers in later batches); each player must then offer RetryOffers
// more, different times (A5). By may be either player.
type NoneSuitable struct{ By Player }

func (a NoneSuitable) apply(s State, now time.Time) (State, error) {
	r := s.Rules
	if err := checkPlayer(a.By, r.Clause); err != nil {
		return s, err
	}
	if err := s.requireOpen(); err != nil {
		return s, err
	}
	if r.RetryOffers == 0 {
		return s, arbiter.RuleError(r.Clause, "this rulebook has no new round of offers: answer with a different offer instead")
	}
	need := r.MinOffers
	if s.Batch > 0 {
		need = r.RetryOffers
	}
	for _, p := range []Player{PlayerA, PlayerB} {
		if n := len(s.batchOffers(p)); n < need {
			return s, arbiter.RuleError(r.Clause, "player %s has made %d of %d offers: new offers are due only when both made theirs and none suits",
				p, n, need)
		}
	}
	s.Batch++
	return s, nil
}

// RuleFault is the TDs' ruling when no agreement was reached before the
// weekend: AtFault names the player at fault, or nil when neither is. The
// player at fault must accept one of the opponent's times; no fault gives
// the rulebook's NoFault result (A5: 0-0 draw; W14: draw).
type RuleFault struct{ AtFault *Player }

func (a RuleFault) apply(s State, now time.Time) (State, error) {
	r := s.Rules
	if err := s.requireOpen(); err != nil {
		return s, err
	}
	if s.Ruled {
		return s, arbiter.RuleError(r.Clause, "the TDs have already ruled on fault in this match")
	}
	if !s.Weekend.IsZero() && now.Before(s.Weekend) {
		return s, arbiter.RuleError(r.Clause, "the TDs rule on fault only if no agreement is reached before the weekend (%s)",
			calendar.Format(s.Weekend))
	}
	if a.AtFault != nil {
		if err := checkPlayer(*a.AtFault, r.Clause); err != nil {
			return s, err
		}
	}
	s.Ruled = true
	if a.AtFault == nil {
		s.Outcome = r.NoFault
		return s, nil
	}
	s.AtFault[*a.AtFault] = true
	return s, nil
}

// Expire applies the offer deadline's automatic result: when both players
// missed it and the rulebook has one (W14: draw, both forfeited a game).
// Otherwise the state is unchanged. It is refused before the deadline.
type Expire struct{}

func (Expire) apply(s State, now time.Time) (State, error) {
	if s.OfferDeadline.IsZero() || now.Before(s.OfferDeadline) {
		return s, arbiter.RuleError(s.Rules.Clause, "the offer deadline has not passed yet")
	}
	if s.Outcome == Open && !s.Ruled && s.Rules.BothMissed != Open &&
		s.MissedDeadline(PlayerA, now) && s.MissedDeadline(PlayerB, now) {
		s.Outcome = s.Rules.BothMissed
	}
	return s, nil
}

// AgreeDraw is the players agreeing to a draw without playing; A5 forbids
// it. Under rules that allow it the match becomes a Draw.
type AgreeDraw struct{}

func (AgreeDraw) apply(s State, now time.Time) (State, error) {
	if err := s.requireOpen(); err != nil {
		return s, err
	}
	if s.Rules.NoUnplayedDraw {
		return s, arbiter.RuleError(s.Rules.Clause, "a match may not be agreed drawn without being played")
	}
	s.Outcome = Draw
	return s, nil
}

// Exception is the TDs' case-by-case decision (A5, W14 "exceptions at the
// TDs' discretion"): it sets the outcome directly, with AgreedAt when the
// outcome is Agreed. It bypasses every other rule, so the application must
// offer it to TDs only.
type Exception struct {
	Outcome  Outcome
	AgreedAt time.Time
}

func (a Exception) apply(s State, now time.Time) (State, error) {
	if a.Outcome == Agreed && a.AgreedAt.IsZero() {
		return s, arbiter.FieldError("agreed_at", s.Rules.Clause, "an agreed outcome needs the match time")
	}
	if a.Outcome < Open || a.Outcome > DrawBothForfeited {
		return s, arbiter.FieldError("outcome", s.Rules.Clause, "unknown outcome %d", a.Outcome)
	}
	s.Outcome, s.AgreedAt = a.Outcome, a.AgreedAt.UTC()
	if a.Outcome != Agreed {
		s.AgreedAt = time.Time{}
	}
	return s, nil
}
