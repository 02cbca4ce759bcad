package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/negotiation"
	"arbiter/sqlstore"
)

// The opponent's time offer (issue 14 §4): when a side offers start
// times in a match's negotiation (negotiation.go), the opponent is told
// the times and where to answer; a counter-offer, times offered by a
// side the opponent had offered times to in the same batch, likewise.
// The line's id names the negotiation and the offer's place in it, so an
// offer is told once; it joins the opponent's other lines (messages.go).

// tellOffer tells the opponent of the offers made in neg from index from
// on (one Propose). Called in the negotiation's transaction.
func (s *Service) tellOffer(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m *arbiter.Match, neg Negotiation, from int) error {
	offers := neg.State.Offers
	if !st.ev.Messages || from < 0 || from >= len(offers) {
		return nil
	}
	by := offers[from].By
	counter := slices.ContainsFunc(offers[:from], func(o negotiation.Offer) bool {
		return o.By == by.Other() && o.Batch == offers[from].Batch
	})
	to, err := s.negotiators(ctx, tx, st, m, neg.Board)
	if err != nil {
		return err
	}
	who := a.Name
	if st.f.Entrant == format.Team {
		e, err := docEntrant.get(ctx, tx, st, [2]string{m.Home, m.Away}[by])
		if err != nil {
			return err
		}
		who += " (" + e.Name + ")"
	}
	var times []time.Time
	for _, o := range offers[from:] {
		times = append(times, o.At)
	}
	return s.tell(ctx, tx, st, to[by.Other()], "offer:"+negotiationID(m.ID, neg.Board)+":"+fmt.Sprint(from),
		offerText(st.ev.Name, who, neg.Board, counter, times, s.matchURL(st.ev.Slug, m.ID)))
}

// offerText is the message of an offer (docs/lichess.md, "Messages").
func offerText(event, who string, board int, counter bool, times []time.Time, link string) string {
	what := "your match"
	if board > 0 {
		what = fmt.Sprintf("your game on board %d", board)
	}
	verb := "offers to play " + what + " at"
	if counter {
		verb = "answers with a counter-offer for " + what + ":"
	}
	return fmt.Sprintf("%s: %s %s %s. Accept one or offer others on the match page: %s", event, who, verb, orList(times), link)
}

// orList writes times as "A, B or C".
func orList(times []time.Time) string {
	words := make([]string, len(times))
	for i, t := range times {
		words[i] = calendar.Format(t)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// negotiators are who negotiate a match's time (home first): the sides'
// users (sideUsers), or for one board its two players, each side's
// captain standing in for a player not named yet.
func (s *Service) negotiators(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, board int) ([2]string, error) {
	out, err := s.sideUsers(ctx, q, st, m)
	if err != nil || board == 0 {
		return out, err
	}
	for i, p := range boardPlayers(m, board) {
		if p != "" {
			out[i] = p
		}
	}
	return out, nil
}
