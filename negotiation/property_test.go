package negotiation

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestPropertyRandomSequences applies random actions at increasing times
// and checks invariants that follow from the rulebooks directly:
//   - an agreed time was offered by someone and accepted by the other side,
//     and lies inside the round;
//   - within a batch, a player's offers are at least 3 h apart (and, W14, at
//     most 2 on a date);
//   - no offer made on or after the deadline belongs to a player who had
//     fewer than 3 offers before it (unless the TDs have ruled);
//   - refused actions leave the state unchanged.
func TestPropertyRandomSequences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	outcomes := map[Outcome]int{}
	refused := 0
	for iter := 0; iter < 300; iter++ {
		s := a5()
		if iter%2 == 1 {
			s = w14()
		}
		now := s.Round.Start
		acceptedBy := Player(-1)
		for step := 0; step < 40 && s.Outcome == Open; step++ {
			now = now.Add(time.Duration(rng.IntN(8*60)) * time.Minute)
			p := Player(rng.IntN(2))
			var a Action
			switch k := rng.IntN(10); {
			case k < 6:
				n := 1 + rng.IntN(3)
				ts := make([]time.Time, n)
				for i := range ts {
					ts[i] = s.Round.Start.Add(time.Duration(rng.IntN(7*24)) * time.Hour)
				}
				a = Propose{By: p, Times: ts}
			case k < 8:
				if len(s.Offers) == 0 {
					continue
				}
				a = Accept{By: p, At: s.Offers[rng.IntN(len(s.Offers))].At}
			case k == 8:
				a = NoneSuitable{By: p}
			default:
				if rng.IntN(2) == 0 {
					a = RuleFault{}
				} else {
					a = RuleFault{AtFault: &p}
				}
			}
			before := len(s.Offers)
			next, err := Apply(s, a, now)
			if err != nil {
				if len(next.Offers) != before || next.Outcome != s.Outcome {
					t.Fatalf("refused %T changed the state", a)
				}
				refused++
				continue
			}
			if acc, ok := a.(Accept); ok {
				acceptedBy = acc.By
			}
			s = next
		}
		check(t, s, acceptedBy)
		outcomes[s.Outcome]++
	}
	// The sequences must reach the interesting states, or the test proves little.
	if outcomes[Agreed] < 30 || outcomes[DrawZeroZero]+outcomes[Draw] < 10 || refused < 300 {
		t.Errorf("weak coverage: outcomes %v, %d refusals", outcomes, refused)
	}
	t.Logf("outcomes %v, %d refusals", outcomes, refused)
}

func check(t *testing.T, s State, acceptedBy Player) {
	t.Helper()
	if s.Outcome == Agreed && acceptedBy >= 0 {
		found := false
		for _, o := range s.Offers {
			if o.At.Equal(s.AgreedAt) && o.By == acceptedBy.Other() {
				found = true
			}
		}
		if !found || !s.Round.Contains(s.AgreedAt) {
			t.Fatalf("agreed %s was not offered by the opponent of %s", s.AgreedAt, acceptedBy)
		}
	}
	for i, a := range s.Offers {
		for _, b := range s.Offers[i+1:] {
			if a.By == b.By && a.Batch == b.Batch && a.At.Sub(b.At).Abs() < 3*time.Hour {
				t.Fatalf("offers %s and %s of one player are too close", a.At, b.At)
			}
		}
		if s.Rules.MaxPerDate > 0 {
			n := 0
			for _, b := range s.Offers {
				if a.By == b.By && a.Batch == b.Batch && a.At.Format(time.DateOnly) == b.At.Format(time.DateOnly) {
					n++
				}
			}
			if n > s.Rules.MaxPerDate {
				t.Fatalf("%d offers on %s", n, a.At.Format(time.DateOnly))
			}
		}
		if !s.Ruled && a.Batch == 0 && !a.Made.Before(s.OfferDeadline) {
			early := 0
			for _, b := range s.Offers {
				if b.By == a.By && b.Batch == 0 && b.Made.Before(s.OfferDeadline) {
					early++
				}
			}
			if early < s.Rules.MinOffers {
				t.Fatalf("player %s offered after the deadline with only %d offers before it", a.By, early)
			}
		}
	}
}
