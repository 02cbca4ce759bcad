package app

import (
	"context"
	"slices"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/negotiation"
	"arbiter/sqlstore"
)

// MatchView is one match as one user may see it, read in one transaction:
// the match with its round and entrants, its time negotiation, armageddon
// auction, the reports and lineups this user may see, the user's side and
// what they may do. A match of a round under the TDs' review is not found
// unless the user is one of the event's TDs.
type MatchView struct {
	Event    arbiter.Event
	Format   *format.Format
	Match    arbiter.Match
	Round    arbiter.Round
	Window   arbiter.RoundWindow // the round's calendar window (zero if none)
	Home     arbiter.Entrant
	Away     arbiter.Entrant // zero for a bye
	Entrants map[string]arbiter.Entrant
	Now      time.Time

	// Roles are the user's roles in the event. Side is the side the user
	// acts for ("home", "away") and Role the role they act in; both empty
	// for anyone else. Member: a member of one of the teams who is not
	// its captain (they read, the captain acts).
	Roles      Roles
	Side, Role string
	Member     bool

	// Negotiation is the match's time negotiation (nil before the first
	// offer); where boards are negotiated apart (A5) Boards has one per
	// board instead (nil where none started). HasNegotiation: the format
	// has time offers.
	HasNegotiation bool
	Negotiation    *Negotiation
	ByBoard        bool
	Boards         []*Negotiation

	// Reports are the match's reports, for its sides, members and the
	// TDs only (ShowReports); Pending is the one awaiting an answer.
	ShowReports bool
	Reports     []arbiter.Report
	Pending     *arbiter.Report
	// OwnReport: Pending is the user's side's; CanAnswer: the user is its
	// opponent (the reporter's own side cannot confirm it).
	OwnReport, CanAnswer bool

	// Lineups is who plays each board or set, as the user may see it (R7).
	Lineups *MatchLineups

	// Open: the round is published and the match scheduled (offers and
	// reports); CanAppeal: the round is closed and the user has a side.
	Open, CanAppeal bool

	// HasArmageddon: the tie procedure ends in an armageddon (A3, W12);
	// Armageddon is its auction (nil before the first bid); CanSeal and
	// CanReveal: the user's side has not bid yet; both bids are in and the
	// user's is still sealed.
	HasArmageddon      bool
	Armageddon         *Armageddon
	CanSeal, CanReveal bool

	// Games are the games Arbiter created on Lichess for the match, in the
	// order they were created (issue 14).
	Games []CreatedGame
	// Entry is the result form for the user's side while the match is open
	// (nil otherwise), prefilled from the games imported from Lichess.
	Entry *EntryLayout
}

// MatchView reads match id of the event for user u (nil: a visitor).
func (s *Service) MatchView(ctx context.Context, u *arbiter.User, slug, id string) (*MatchView, error) {
	var out *MatchView
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		var err error
		out, err = s.matchView(ctx, q, st, v, id)
		return err
	})
	return out, err
}

func (s *Service) matchView(ctx context.Context, q sqlstore.Queryer, st *state, v viewer, id string) (*MatchView, error) {
	notFound := arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no published match %q", st.ev.Slug, id)
	m, rd, err := matchInRound(ctx, q, st, id)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND || err == nil && !v.roles.SeesRound(rd) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	d := &MatchView{Event: st.ev, Format: st.f, Match: m, Round: rd, Window: st.windowOf(m.Stage, m.Round), Now: s.now(), Roles: v.roles}
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	d.Entrants = make(map[string]arbiter.Entrant, len(es))
	for _, e := range es {
		d.Entrants[e.ID] = e
	}
	d.Home, d.Away = d.Entrants[m.Home], d.Entrants[m.Away]
	d.Side, d.Role = v.roles.MatchSide(m)
	d.Open = rd.Status == arbiter.RoundPublished && m.Status == arbiter.MatchScheduled && !m.IsBye()
	d.CanAppeal = rd.Status == arbiter.RoundClosed && d.Side != ""
	d.ShowReports = v.roles.InMatch(m)
	d.Member = d.Side == "" && (slices.Contains(v.roles.Member, m.Home) || m.Away != "" && slices.Contains(v.roles.Member, m.Away))
	if d.Lineups, err = matchLineups(ctx, q, st, v, m, d.Home, d.Away, d.Now); err != nil {
		return nil, err
	}
	if mg, err := optional(docMatchGames.get(ctx, q, st, m.ID)); err != nil {
		return nil, err
	} else if mg != nil {
		d.Games = mg.Games
	}
	if d.Side != "" && d.Open {
		l, err := s.resultLayout(ctx, q, st, &m, false)
		if err != nil {
			return nil, err
		}
		d.Entry = &l
	}
	if _, ok := negotiation.RulesFromFormat(st.f); ok && !m.IsBye() {
		d.HasNegotiation = true
		if d.ByBoard = boardNegotiation(st.f); d.ByBoard {
			d.Boards = make([]*Negotiation, teamSize(st.f, st.ev.Entrants))
			for i := range d.Boards {
				if d.Boards[i], err = optional(docNegotiation.get(ctx, q, st, negotiationID(m.ID, i+1))); err != nil {
					return nil, err
				}
			}
		} else if d.Negotiation, err = optional(docNegotiation.get(ctx, q, st, m.ID)); err != nil {
			return nil, err
		}
	}
	if d.ShowReports {
		if d.Reports, err = matchReports(ctx, q, st, m.ID); err != nil {
			return nil, err
		}
		for i := range d.Reports {
			if d.Reports[i].ID == m.Report && m.Status == arbiter.MatchReported {
				d.Pending = &d.Reports[i]
			}
		}
		if d.Pending != nil && d.Side != "" {
			d.OwnReport = string(d.Pending.Side) == d.Side
			d.CanAnswer = !d.OwnReport
		}
	}
	if _, ok := ArmageddonRules(st.f, &m); ok {
		d.HasArmageddon = true
		if d.Armageddon, err = optional(docArmageddon.get(ctx, q, st, m.ID)); err != nil {
			return nil, err
		}
		if d.Side != "" && d.Open {
			i := 0
			if d.Side == "away" {
				i = 1
			}
			a := d.Armageddon
			d.CanSeal = a == nil || a.Auction.Committed[i] == nil
			d.CanReveal = a != nil && a.Auction.BothCommitted() && a.Auction.Revealed[i] == nil
		}
	}
	return d, nil
}
