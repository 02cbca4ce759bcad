package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/score"
)

// round pairs, publishes, plays and closes round n of stage si. The first
// stage's round 1 has a disputed result, its round 2 an unplayed match
// (a double forfeit at the deadline, then an appeal), its round 3 a
// disqualification; the first knockout round with an armageddon in its tie
// procedure has one match tied all the way to the armageddon.
func (r *runner) round(ctx context.Context, si, n int) error {
	slug := r.opts.Slug
	stage := r.ev.Stages[si]
	w, ok := r.window(si, n)
	if !ok {
		return arbiter.Errorf(arbiter.EINTERNAL, "no calendar window for %s", roundID(si, n))
	}
	if w.Seq == 1 {
		if err := r.lineups(ctx, si, w.Seq, 1); err != nil {
			return err
		}
	}
	r.at(w.Start)
	if _, _, err := r.svc.PairRound(ctx, TD, slug); err != nil {
		return err
	}
	r.at(r.now.Add(time.Hour))
	rd, err := r.svc.PublishRound(ctx, TD, slug)
	if err != nil {
		return err
	}
	ko := stage.Kind == format.Knockout
	first := si == 0 && !ko
	if first && n == min(3, stage.Rounds) && !r.sanctioned {
		r.sanctioned = true
		// A removal must leave enough entrants to fill the places that
		// advance (ACWC W6: 12 for the pools), or the stage cannot end.
		if adv := r.ev.Stages[si].Advance; adv > 0 && r.opts.Entrants <= adv {
			r.notes = append(r.notes, fmt.Sprintf("disqualification not simulated: with %d entrants every one of the %d advancing places is needed", r.opts.Entrants, adv))
		} else if err := r.disqualify(ctx, si, w.Seq); err != nil {
			return err
		}
	}
	ms, err := r.svc.Matches(ctx, slug, rd.ID)
	if err != nil {
		return err
	}
	var open []arbiter.Match
	for _, m := range ms {
		switch {
		case m.IsBye():
		case m.Status == arbiter.MatchFinal: // its entrant was removed
			r.progress()
		default:
			open = append(open, m)
		}
	}
	unplayed := ""
	if first && n == min(2, stage.Rounds) && len(open) > 1 {
		unplayed = open[len(open)-1].ID
	}
	// Round 1 of the first stage: the last match is a no-show (the present
	// side reports a forfeit win, which stands at the deadline), and where
	// the rulebook has time offers the one before makes none (the offer
	// deadline's automatic result, A5/W14).
	noShow, noOffers := "", ""
	if first && n == 1 && len(open) >= 4 {
		noShow = open[len(open)-1].ID
		if r.f.Calendar.Negotiation != nil && !w.OfferDeadline.IsZero() && len(open) >= 5 {
			noOffers = open[len(open)-2].ID
		}
	}
	forceTie := ko && !r.forcedArmageddon && r.hasArmageddon()
	// The first two matches agree their start times by offers; the
	// others report at times spread over the round.
	agreed := map[string]time.Time{}
	for i, m := range open {
		if i >= 2 || m.ID == unplayed {
			continue
		}
		at, err := r.negotiate(ctx, m, rd.End)
		if err != nil {
			return err
		}
		if !at.IsZero() {
			agreed[m.ID] = at
		}
	}
	t0 := r.now
	step := rd.End.Sub(t0) / time.Duration(len(open)+2)
	for i, m := range open {
		r.at(t0.Add(time.Duration(i+1) * step))
		if at, ok := agreed[m.ID]; ok {
			r.at(at.Add(2 * time.Hour)) // reported once played
		}
		switch m.ID {
		case unplayed:
			continue
		case noShow:
			if _, err := r.svc.ReportResult(ctx, r.actors[m.Home], slug, m.ID, app.ResultInput{Summary: "forfeit:" + score.ForfeitHome}); err != nil {
				return fmt.Errorf("report the no-show in %s: %w", m.ID, err)
			}
			r.progress()
			continue
		case noOffers:
			r.at(w.OfferDeadline.Add(time.Minute))
			got, err := r.noOffers(ctx, m, w)
			if err == nil && got.Status != arbiter.MatchFinal {
				r.note("offer deadline of %s passed without a result; the match is played", m.ID)
				noOffers = ""
			} else if err != nil {
				if c := arbiter.ErrorCode(err); c != arbiter.ERULE && c != arbiter.EINVALID {
					return err
				}
				r.note("offer deadline result of %s refused: %s", m.ID, arbiter.ErrorMessage(err))
				noOffers = "" // played after all
			} else {
				r.progress()
				continue
			}
		}
		in, arm, err := r.result(ctx, m, si, forceTie && i == 0)
		if err != nil {
			return err
		}
		if arm && forceTie && i == 0 {
			r.forcedArmageddon = true
		}
		home, away := r.actors[m.Home], r.actors[m.Away]
		if arm {
			if err := r.bid(ctx, m); err != nil {
				return err
			}
		}
		if first && n == 1 && i == 0 {
			// A wrong report, disputed by the opponent; the TD decides.
			wrong, _, err := r.result(ctx, m, si, false)
			if err != nil {
				return err
			}
			if _, err := r.svc.ReportResult(ctx, home, slug, m.ID, wrong); err != nil {
				return err
			}
			if _, err := r.svc.DisputeResult(ctx, away, slug, m.ID, "the sheet does not match the games on Lichess", 0); err != nil {
				return err
			}
			if _, err := r.svc.OverrideResult(ctx, TD, slug, m.ID, in, "result entered from the Lichess games (demo dispute)", 0); err != nil {
				return err
			}
			r.counts.Disputes++
			r.progress()
			continue
		}
		if _, err := r.svc.ReportResult(ctx, home, slug, m.ID, in); err != nil {
			return fmt.Errorf("report %s: %w", m.ID, err)
		}
		if _, err := r.svc.ConfirmResult(ctx, away, slug, m.ID, 0); err != nil {
			return fmt.Errorf("confirm %s: %w", m.ID, err)
		}
		r.progress()
	}
	if w.Seq < len(r.ev.Calendar) && r.ev.Calendar[w.Seq].Stage == si {
		// Next round's lineups, due before it starts (R7): some teams change.
		r.at(rd.End.Add(-time.Hour))
		if err := r.lineups(ctx, si, w.Seq+1, 3); err != nil {
			return err
		}
	}
	r.at(rd.End)
	if _, err := r.svc.CloseRound(ctx, TD, slug); err != nil {
		return err
	}
	if unplayed != "" {
		// The deadline's result: R5's double forfeit, W14's draw (neither
		// side offered), or held for the TDs (A5: nobody offered; the TDs
		// decide who is at fault). Either way the appeal follows.
		r.counts.Unplayed++
		ms, err := r.svc.Matches(ctx, slug, rd.ID)
		if err != nil {
			return err
		}
		for _, m := range ms {
			switch {
			case m.ID != unplayed:
			case m.Decision == "double_forfeit":
				r.counts.DoubleForfeits++
			case m.Status == arbiter.MatchHeld:
				r.counts.Held++
			}
		}
		r.progress()
		return r.appeal(ctx, si, unplayed, rd.End)
	}
	return nil
}

// noOffers applies the offer deadline to a match where nobody offered a
// time: W14 makes it a draw; A5 gives no automatic result, so after the
// weekend the TD rules that nobody is to blame, which gives the rulebook's
// result (board by board where boards are negotiated apart).
func (r *runner) noOffers(ctx context.Context, m arbiter.Match, w arbiter.RoundWindow) (arbiter.Match, error) {
	slug := r.opts.Slug
	got := m
	var err error
	for _, b := range r.negotiationBoards() {
		if _, got, err = r.svc.Negotiate(ctx, TD, slug, m.ID, app.NegotiationStep{Kind: app.NegExpire, Board: b}); err != nil {
			return got, err
		}
	}
	if got.Status == arbiter.MatchFinal || w.Weekend.IsZero() {
		return got, nil
	}
	r.at(w.Weekend.Add(time.Minute))
	for _, b := range r.negotiationBoards() {
		if _, got, err = r.svc.Negotiate(ctx, TD, slug, m.ID, app.NegotiationStep{Kind: app.NegRuleFault, Board: b,
			Reason: "neither side made offers; no fault found (demo)"}); err != nil {
			return got, err
		}
	}
	return got, nil
}

func (r *runner) window(si, n int) (arbiter.RoundWindow, bool) {
	for _, w := range r.ev.Calendar {
		if w.Stage == si && w.Number == n {
			return w, true
		}
	}
	return arbiter.RoundWindow{}, false
}

// result plays match m and returns its sheet. In a knockout a tied match
// gets its tie procedure; with forceTie the match is level and goes
// through the whole procedure (to the armageddon where there is one). A
// tie the format cannot resolve (RKCC beyond set points) is replayed.
func (r *runner) result(ctx context.Context, m arbiter.Match, si int, forceTie bool) (app.ResultInput, bool, error) {
	fs := &r.f.Stages[si]
	mf := fs.MatchFor(m.Format)
	teamSize := 1
	if ts := r.f.TeamSize(r.ev.Entrants); ts != nil {
		teamSize = *ts
	}
	h, a := r.sums[m.Home], r.sums[m.Away]
	if w, ok := r.window(si, m.Round); ok {
		h.players, a.players = r.players(ctx, m.Home, w.Seq), r.players(ctx, m.Away, w.Seq)
	}
	for attempt := range 50 {
		sh := r.play.sheet(mf, m.Format, h, a, teamSize, forceTie && attempt == 0)
		ms, err := score.Score(r.f, fs.Name, sh, score.Options{Entrants: r.ev.Entrants})
		arm := false
		if err != nil && ruleOf(err) == "score.tie" {
			if arm, err = r.play.tie(r.f, mf, sh, m.ID, h, a, forceTie && attempt == 0); err != nil {
				return app.ResultInput{}, false, err
			}
			ms, err = score.Score(r.f, fs.Name, sh, score.Options{Entrants: r.ev.Entrants})
		}
		if err != nil {
			return app.ResultInput{}, false, fmt.Errorf("simulated sheet of %s does not score: %w", m.ID, err)
		}
		if ms.Result == score.TieUnresolved {
			continue
		}
		data, err := json.Marshal(sh)
		if err != nil {
			return app.ResultInput{}, false, err
		}
		return app.ResultInput{Sheet: data}, arm, nil
	}
	return app.ResultInput{}, false, arbiter.Errorf(arbiter.EINTERNAL, "no decisive result for %s in 50 tries", m.ID)
}
