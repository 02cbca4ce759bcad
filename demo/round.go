package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/score"
	"arbiter/standings"
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
		if err := r.disqualify(ctx, si); err != nil {
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
			_, got, err := r.svc.Negotiate(ctx, TD, slug, m.ID, app.NegotiationStep{Kind: app.NegExpire})
			if err == nil && got.Status != arbiter.MatchFinal && !w.Weekend.IsZero() {
				// No automatic result (A5): after the weekend the TD rules
				// that nobody is to blame, which gives the rulebook's result.
				r.at(w.Weekend.Add(time.Minute))
				_, got, err = r.svc.Negotiate(ctx, TD, slug, m.ID, app.NegotiationStep{Kind: app.NegRuleFault,
					Reason: "neither side made offers; no fault found (demo)"})
			}
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
		r.counts.DoubleForfeits++
		r.progress()
		return r.appeal(ctx, si, unplayed, rd.End)
	}
	return nil
}

// negotiate has the home side offer three start times on three days and
// the away side accept the first (A5, W14, through app.Negotiate), and
// returns the agreed time (zero when none). Formats without time
// negotiation (RKCC: players agree times themselves) are noted once.
func (r *runner) negotiate(ctx context.Context, m arbiter.Match, end time.Time) (time.Time, error) {
	if r.f.Calendar.Negotiation == nil {
		if !r.noNegotiation {
			r.noNegotiation = true
			r.note("time offers: %s has no time negotiation in its rulebook (players agree times themselves)", r.f.Name)
		}
		return time.Time{}, nil
	}
	day := r.now.Truncate(24 * time.Hour).Add(24 * time.Hour)
	times := []time.Time{day.Add(18 * time.Hour), day.Add(24*time.Hour + 20*time.Hour), day.Add(48*time.Hour + 19*time.Hour)}
	if !times[2].Before(end) {
		return time.Time{}, nil // a round too short for three days of offers
	}
	_, _, err := r.svc.Negotiate(ctx, r.actors[m.Home], r.opts.Slug, m.ID, app.NegotiationStep{Kind: app.NegPropose, Times: times})
	if err == nil {
		r.at(r.now.Add(30 * time.Minute))
		_, _, err = r.svc.Negotiate(ctx, r.actors[m.Away], r.opts.Slug, m.ID, app.NegotiationStep{Kind: app.NegAccept, At: times[0]})
	}
	if arbiter.ErrorCode(err) == arbiter.ERULE {
		r.note("time negotiation of %s refused: %s", m.ID, arbiter.ErrorMessage(err))
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	r.counts.Negotiations++
	return times[0], nil
}

// bid runs the armageddon's sealed-bid auction through the application
// layer (app.BidArmageddon: both sides commit, then reveal), with the bids
// the simulated sheet records.
func (r *runner) bid(ctx context.Context, m arbiter.Match) error {
	b := r.play.bids
	sides := []arbiter.Actor{r.actors[m.Home], r.actors[m.Away]}
	for i, a := range sides {
		c := b.commits[i]
		if _, err := r.svc.BidArmageddon(ctx, a, r.opts.Slug, m.ID, &c, nil); err != nil {
			return fmt.Errorf("armageddon bid of %s in %s: %w", a.Name, m.ID, err)
		}
	}
	for i, a := range sides {
		sec := b.secrets[i]
		if _, err := r.svc.BidArmageddon(ctx, a, r.opts.Slug, m.ID, nil, &sec); err != nil {
			return fmt.Errorf("armageddon reveal of %s in %s: %w", a.Name, m.ID, err)
		}
	}
	return nil
}

// lineups has the captains of stage si submit the lineup of round seq
// (the player of each set, app.SubmitLineup, R7), each team with
// probability 1/every (every team when every is 1); the others keep their
// earlier lineup. Only the RKCC preset has set lineups in app; the other
// presets are noted once.
func (r *runner) lineups(ctx context.Context, si, seq, every int) error {
	if r.f.Name != "rkcc-team-three-tc" {
		if r.f.Entrant == format.Team && !r.noLineups {
			r.noLineups = true
			r.note("lineups: app supports the RKCC set lineups only; %s plays its registered board order (A12)", r.f.Name)
		}
		return nil
	}
	ids := r.ev.Stages[si].Seeds
	if si == 0 {
		es, err := r.svc.Entrants(ctx, r.opts.Slug)
		if err != nil {
			return err
		}
		ids = nil
		for _, e := range es {
			if e.Status == arbiter.EntrantApproved {
				ids = append(ids, e.ID)
			}
		}
	}
	for _, id := range ids {
		if every > 1 && r.rng.IntN(every) != 0 {
			continue
		}
		e := r.sums[id]
		sets := slices.Clone(e.players)
		if len(e.bench) > 0 && r.rng.IntN(2) == 0 {
			sets[r.rng.IntN(len(sets))] = e.bench[0] // R7: a further member plays, one sits out
		}
		r.rng.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
		if _, err := r.svc.SubmitLineup(ctx, r.actors[id], r.opts.Slug, id, seq, sets); err != nil {
			if arbiter.ErrorCode(err) == arbiter.ERULE || arbiter.ErrorCode(err) == arbiter.EINVALID {
				r.note("lineup of %s for round %d refused: %s", id, seq, arbiter.ErrorMessage(err))
				continue
			}
			return err
		}
		r.counts.Lineups++
	}
	return nil
}

// players returns who plays for entrant id in round seq: the effective
// lineup where the team has one, else its registered order.
func (r *runner) players(ctx context.Context, id string, seq int) []string {
	if r.f.Name == "rkcc-team-three-tc" {
		if l, _, err := r.svc.Lineup(ctx, r.opts.Slug, id, seq); err == nil {
			return l.Sets
		}
	}
	return r.sums[id].players
}

func (r *runner) window(si, n int) (arbiter.RoundWindow, bool) {
	for _, w := range r.ev.Calendar {
		if w.Stage == si && w.Number == n {
			return w, true
		}
	}
	return arbiter.RoundWindow{}, false
}

// appeal has the home side of the double-forfeited match appeal inside
// the window (R5), and the TD accept it with the result actually played.
func (r *runner) appeal(ctx context.Context, si int, matchID string, end time.Time) error {
	slug := r.opts.Slug
	ms, err := r.svc.Matches(ctx, slug, "")
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ms, func(m arbiter.Match) bool { return m.ID == matchID })
	if i < 0 {
		return arbiter.Errorf(arbiter.EINTERNAL, "match %s vanished", matchID)
	}
	m := ms[i]
	r.at(end.Add(time.Hour))
	ap, err := r.svc.Appeal(ctx, r.actors[m.Home], slug, m.ID, "we played the match before the deadline but the result was not entered")
	if arbiter.ErrorCode(err) == arbiter.ERULE {
		r.note("appeal against the double forfeit of %s refused: %s", m.ID, arbiter.ErrorMessage(err))
		return nil
	}
	if err != nil {
		return err
	}
	r.counts.Appeals++
	in, _, err := r.result(ctx, m, si, false)
	if err != nil {
		return err
	}
	r.at(r.now.Add(3 * time.Hour))
	_, err = r.svc.DecideAppeal(ctx, TD, slug, ap.ID, true, in, "the games are on Lichess, played before the deadline (demo appeal)")
	return err
}

// disqualify removes the lowest-ranked entrant of the current stage that
// still plays (Sanction: its open match goes to the opponent, its results
// as the rulebook says).
func (r *runner) disqualify(ctx context.Context, si int) error {
	slug := r.opts.Slug
	tab, err := r.svc.Standings(ctx, slug, si)
	if err != nil {
		return err
	}
	es, err := r.svc.Entrants(ctx, slug)
	if err != nil {
		return err
	}
	approved := map[string]bool{}
	for _, e := range es {
		approved[e.ID] = e.Status == arbiter.EntrantApproved
	}
	for k := len(tab.Rows) - 1; k >= 0; k-- {
		id := tab.Rows[k].ID
		if !approved[id] {
			continue
		}
		_, _, err := r.svc.Sanction(ctx, TD, slug, app.SanctionRequest{Entrant: id, Kind: "disqualification",
			Reason: "abusive behaviour in the chat (demo)"})
		if arbiter.ErrorCode(err) == arbiter.ERULE || arbiter.ErrorCode(err) == arbiter.EINVALID {
			r.note("disqualification of %s refused: %s", id, arbiter.ErrorMessage(err))
			return nil
		}
		return err
	}
	return nil
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

// advance ends the stage. Where the tiebreaks leave a tie at the cut (or
// across pools) the TDs give the order by drawing lots (seeded), never
// advancing a removed entrant ahead of one still playing.
func (r *runner) advance(ctx context.Context) error {
	slug := r.opts.Slug
	si := r.ev.Stage
	r.at(r.now.Add(2 * time.Hour))
	ev, err := r.svc.AdvanceStage(ctx, TD, slug, app.AdvanceOptions{})
	if arbiter.ErrorCode(err) == arbiter.ERULE && r.ev.Stages[si].Kind != format.Pool {
		order, oerr := r.tieOrder(ctx, si, r.ev.Stages[si].Advance)
		if oerr != nil {
			return oerr
		}
		ev, err = r.svc.AdvanceStage(ctx, TD, slug, app.AdvanceOptions{TieOrder: order,
			Reason: "drawing of lots among the entrants the tiebreaks leave tied (demo, seeded)"})
		if err == nil {
			r.counts.TieOrders++
		}
	}
	if err != nil {
		return err
	}
	r.ev = ev
	return nil
}

func (r *runner) tieOrder(ctx context.Context, si, n int) ([]string, error) {
	tab, err := r.svc.Standings(ctx, r.opts.Slug, si)
	if err != nil {
		return nil, err
	}
	es, err := r.svc.Entrants(ctx, r.opts.Slug)
	if err != nil {
		return nil, err
	}
	removed := map[string]bool{}
	for _, e := range es {
		removed[e.ID] = e.Status == arbiter.EntrantRemoved
	}
	return lots(tab.Rows, removed, n, r.rng)
}

// lots is the TDs' order of the top n of a ranked table: entrants of
// equal rank in an order drawn by lot, removed ones after those still
// playing; ranks themselves are never changed.
func lots(rows []standings.Row, removed map[string]bool, n int, rng *rand.Rand) ([]string, error) {
	var order []string
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1].Rank == rows[i].Rank {
			j++
		}
		var grp []string
		for _, row := range rows[i : j+1] {
			grp = append(grp, row.ID)
		}
		rng.Shuffle(len(grp), func(a, b int) { grp[a], grp[b] = grp[b], grp[a] })
		slices.SortStableFunc(grp, func(a, b string) int {
			switch {
			case removed[a] == removed[b]:
				return 0
			case removed[a]:
				return 1
			}
			return -1
		})
		order = append(order, grp...)
		i = j + 1
	}
	if len(order) < n {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "%d ranked, %d advance", len(order), n)
	}
	return order[:n], nil
}
