package negotiation

import (
	"time"

	"arbiter/format"
)

// RulesFromFormat derives the offer rules from a format's negotiation data;
// ok is false when the format has none (the players agree times themselves,
// RKCC). For the presets it gives exactly RulesAntichess() and RulesACWC().
func RulesFromFormat(f *format.Format) (r Rules, ok bool) {
	n := f.Calendar.Negotiation
	if n == nil {
		return Rules{}, false
	}
	r = Rules{Clause: f.Clauses.Offer, MinOffers: n.MinOffers,
		MinGap: time.Duration(n.MinGapHours) * time.Hour, MinSpan: time.Duration(n.NotAllWithinHours) * time.Hour,
		MaxPerDate: n.MaxPerDate, RetryOffers: n.RetryOffers, ReplyWindow: time.Duration(n.ReplyHours) * time.Hour,
		NoFault: Draw, BothMissed: Open, NoUnplayedDraw: n.NoUnplayedDraw}
	if r.Clause == "" {
		r.Clause = "format.calendar.negotiation"
	}
	if n.NoFaultResult == "double_forfeit" {
		r.NoFault = DrawZeroZero
	}
	if n.BothMissed == format.BothMissedDrawBothForfeited {
		r.BothMissed = DrawBothForfeited
	}
	return r, true
}
