package app

import (
	"context"
	"time"

	"arbiter"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/score"
	"arbiter/sqlstore"
)

const kindArmageddon = "armageddon"

// Armageddon is a knockout match's sealed-bid auction for the armageddon
// game (A3, W12), as stored: side A is home, side B away.
type Armageddon struct {
	Match   string              `json:"match"`
	Auction armageddon.Auction  `json:"auction"`
	Outcome *armageddon.Outcome `json:"outcome,omitempty"`

	Version int64 `json:"-"`
}

// ArmageddonRules are the format's armageddon rules for match m (A3; W12
// for the ACWC, whose equal bids go to rock-paper-scissors), or false when
// the stage's tie procedure has no armageddon. The one place that chooses
// them: the use cases, the pages, the CLI and the demo ask here.
func ArmageddonRules(f *format.Format, m *arbiter.Match) (armageddon.Rules, bool) {
	if m.Stage < 0 || m.Stage >= len(f.Stages) {
		return armageddon.Rules{}, false
	}
	mf := f.Stages[m.Stage].MatchFor(m.Format)
	has := false
	for _, t := range mf.Tie {
		has = has || t.Kind == format.TieArmageddon
	}
	if !has || f.Armageddon == nil {
		return armageddon.Rules{}, false
	}
	return FormatArmageddonRules(f), true
}

// FormatArmageddonRules are the armageddon rules of a format that has an
// armageddon: W12's where equal bids go to rock-paper-scissors (the
// ACWC), A3's otherwise.
func FormatArmageddonRules(f *format.Format) armageddon.Rules {
	if f.Armageddon != nil && f.Armageddon.EqualBids == "rock_paper_scissors" {
		return armageddon.RulesW12()
	}
	return armageddon.RulesA3()
}

// BidArmageddon records a side's sealed bid (a commitment: sha256 over the
// match, the side, the bid and a nonce; see package armageddon) or, once
// both are in, its reveal. When both bids are revealed the auction is
// settled: the lowest bid plays White with that time (A3, W12), equal bids
// by the verifiable flip. Only a side of the match bids.
func (s *Service) BidArmageddon(ctx context.Context, a arbiter.Actor, slug, matchID string, commit *armageddon.Commitment, reveal *armageddon.Secret) (Armageddon, error) {
	var out Armageddon
	if (commit == nil) == (reveal == nil) {
		return out, arbiter.FieldError("bid", "app.armageddon", "give a sealed bid or a reveal")
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireActor(a); err != nil {
			return err
		}
		m, rd, err := matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		// Who bids is checked first: anyone else learns nothing more.
		side, err := sideOf(ctx, tx, st, a, &m)
		if err != nil {
			return err
		}
		if side == "" {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may bid only in their own match", a)
		}
		rules, ok := ArmageddonRules(st.f, &m)
		if !ok {
			return arbiter.RuleError("app.armageddon", "match %s has no armageddon in its tie procedure", m.ID)
		}
		if rd.Status != arbiter.RoundPublished || m.Status != arbiter.MatchScheduled {
			return arbiter.RuleError(rules.Clause, "match %s is not open (round %s, match %s)", m.ID, rd.Status, m.Status)
		}
		sd := armageddon.Side(side.Index())
		out, err = docArmageddon.get(ctx, tx, st, m.ID)
		create := arbiter.ErrorCode(err) == arbiter.ENOTFOUND
		if err != nil && !create {
			return err
		}
		if create {
			out = Armageddon{Match: m.ID, Auction: armageddon.New(rules, m.ID)}
		}
		action := "armageddon.commit"
		if commit != nil {
			out.Auction, err = out.Auction.Commit(sd, *commit)
		} else {
			action = "armageddon.reveal"
			out.Auction, err = out.Auction.Reveal(sd, *reveal)
		}
		if err != nil {
			return err
		}
		if out.Auction.Revealed[0] != nil && out.Auction.Revealed[1] != nil {
			o, err := out.Auction.Outcome()
			if err != nil {
				return err
			}
			out.Outcome = &o
		}
		ch := change(a, action, "", false)
		if create {
			out.Version, err = docArmageddon.create(ctx, tx, ch, st, m.ID, out)
		} else {
			out.Version, err = docArmageddon.update(ctx, tx, ch, st, m.ID, out.Version, out)
		}
		return err
	})
	return out, err
}

// checkArmageddon refuses a sheet whose armageddon disagrees with the
// match's settled auction (bids and White).
func checkArmageddon(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, sh *score.Sheet) error {
	if sh.Tie == nil || sh.Tie.Armageddon == nil {
		return nil
	}
	auc, err := docArmageddon.get(ctx, q, st, m.ID)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil // bids collected outside Arbiter
	}
	if err != nil {
		return err
	}
	if auc.Outcome == nil {
		return arbiter.RuleError(auc.Auction.Rules.Clause, "the armageddon bids of match %s are not all revealed yet", m.ID)
	}
	ag := sh.Tie.Armageddon
	home, away := auc.Auction.Revealed[0].Bid, auc.Auction.Revealed[1].Bid
	white := arbiter.SideAt(int(auc.Outcome.White))
	if time.Duration(ag.HomeBid)*time.Second != home || time.Duration(ag.AwayBid)*time.Second != away ||
		ag.White != "" && ag.White != white {
		return arbiter.FieldError("tie.armageddon", auc.Auction.Rules.Clause, "the sheet's bids (%d s, %d s) or White (%q) differ from the sealed bids (%v, %v; White %s)",
			ag.HomeBid, ag.AwayBid, ag.White, home, away, white)
	}
	return nil
}

// ArmageddonOf returns a match's auction (ENOTFOUND before the first bid).
func (s *Service) ArmageddonOf(ctx context.Context, slug, matchID string) (Armageddon, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Armageddon{}, err
	}
	return docArmageddon.get(ctx, s.DB, st, matchID)
}
