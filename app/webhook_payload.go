package app

import (
	"context"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// HookPayload is the JSON body of a webhook (docs/exports.md lists one of
// each type). Stage numbers are 1-based, as on the pages; times are UTC;
// links are absolute when the webhook was given the web app's address.
type HookPayload struct {
	// ID names the occurrence: the same in every delivery of it, to every
	// endpoint and on every redelivery, so a receiver can drop repeats.
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	OccurredAt time.Time `json:"occurred_at"`
	// By is who made the change: a Lichess username, or "arbiter" for the
	// scheduler (a round closed at its deadline).
	By    string     `json:"by"`
	Event HookEvent  `json:"event"`
	Stage *HookStage `json:"stage,omitempty"` // stage.finished
	Round *HookRound `json:"round,omitempty"` // round.*, and the match's round
	Match *HookMatch `json:"match,omitempty"` // time.agreed, result.final
	// Matches are the round's: its pairings (round.published) or its
	// results (round.closed).
	Matches []HookMatch `json:"matches,omitempty"`
}

// HookEvent names the event.
type HookEvent struct {
	Slug   string `json:"slug"`
	Name   string `json:"name"`
	Status string `json:"status"` // registration, running, finished
	URL    string `json:"url"`
}

// HookStage is a stage that ended.
type HookStage struct {
	Number int    `json:"number"`
	Name   string `json:"name"`
	Kind   string `json:"kind"` // swiss, round_robin, knockout, pool
	// Next is the stage that follows, with its entrants in seed order
	// (absent after the last stage).
	Next *HookNextStage `json:"next,omitempty"`
	// EventFinished: the last stage ended, and the event with it.
	EventFinished bool `json:"event_finished"`
}

// HookNextStage is the stage the entrants go on to.
type HookNextStage struct {
	Number   int           `json:"number"`
	Name     string        `json:"name"`
	Kind     string        `json:"kind"`
	Entrants []HookEntrant `json:"entrants"`
}

// HookRound is a round.
type HookRound struct {
	ID        string    `json:"id"` // "s1r3"
	Stage     int       `json:"stage"`
	StageName string    `json:"stage_name"`
	Number    int       `json:"number"`
	Status    string    `json:"status"` // published, closed
	Start     time.Time `json:"start"`
	// End is the deadline: the first instant after the round (a rulebook's
	// "Sunday 23:59" ends at Monday 00:00).
	End time.Time `json:"end"`
	URL string    `json:"url"`
}

// HookEntrant is a side of a match.
type HookEntrant struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`              // player or team
	Player  string `json:"player,omitempty"`  // a player's Lichess username
	Captain string `json:"captain,omitempty"` // a team's captain's
	URL     string `json:"url"`
}

// HookMatch is a match.
type HookMatch struct {
	ID      string       `json:"id"` // "s1r3b2"
	Stage   int          `json:"stage"`
	Round   int          `json:"round"`
	Board   int          `json:"board"`
	Pool    string       `json:"pool,omitempty"`
	Bracket string       `json:"bracket,omitempty"` // a knockout's match: "r1m2"
	Status  string       `json:"status"`            // scheduled, reported, disputed, final
	Home    HookEntrant  `json:"home"`
	Away    *HookEntrant `json:"away"` // null for a bye
	// ScheduledAt is the agreed start time, if any.
	ScheduledAt time.Time `json:"scheduled_at,omitzero"`
	// Result is the final result (as in the API's matches): who won, the
	// match and game points of each side, each part's or set's score.
	Result *arbiter.Outcome `json:"result,omitempty"`
	// Decision says how the final result came about: confirmed,
	// td_confirmed, accepted_at_deadline, override, double_forfeit, bye,
	// appeal, ...
	Decision string `json:"decision,omitempty"`
	URL      string `json:"url"`
}

// payloadBuilder reads what payloads need, once per transaction.
type payloadBuilder struct {
	ctx      context.Context
	tx       *sqlstore.Tx
	st       *state
	entrants map[string]arbiter.Entrant
	rounds   map[string]arbiter.Round
}

func (pb *payloadBuilder) round(id string) (arbiter.Round, error) {
	if rd, ok := pb.rounds[id]; ok {
		return rd, nil
	}
	rd, err := docRound.get(pb.ctx, pb.tx, pb.st, id)
	if err != nil {
		return rd, err
	}
	if pb.rounds == nil {
		pb.rounds = map[string]arbiter.Round{}
	}
	pb.rounds[id] = rd
	return rd, nil
}

func (pb *payloadBuilder) entrant(id string) (HookEntrant, error) {
	if pb.entrants == nil {
		es, err := docEntrant.list(pb.ctx, pb.tx, pb.st)
		if err != nil {
			return HookEntrant{}, err
		}
		pb.entrants = map[string]arbiter.Entrant{}
		for _, e := range es {
			pb.entrants[e.ID] = e
		}
	}
	e, ok := pb.entrants[id]
	if !ok {
		return HookEntrant{ID: id, Name: id, URL: pb.path("/entrants/" + id)}, nil
	}
	h := HookEntrant{ID: e.ID, Name: e.Name, Kind: e.Kind, URL: pb.path("/entrants/" + e.ID)}
	if e.Kind == arbiter.EntrantTeam {
		h.Captain = e.Captain
	} else {
		h.Player = e.Player
	}
	return h, nil
}

func (pb *payloadBuilder) path(p string) string { return "/events/" + pb.st.row.Slug + p }

func (pb *payloadBuilder) build(o occurrence) (*HookPayload, error) {
	ev := pb.st.ev
	p := &HookPayload{ID: o.ID, Type: o.Type, OccurredAt: o.At, By: o.By,
		Event: HookEvent{Slug: pb.st.row.Slug, Name: pb.st.row.Name, Status: ev.Status, URL: pb.path("")}}
	switch {
	case o.Round != nil:
		p.Round = pb.hookRound(*o.Round)
		for _, id := range o.Round.Matches {
			m, err := docMatch.get(pb.ctx, pb.tx, pb.st, id)
			if err != nil {
				return nil, err
			}
			hm, err := pb.match(m)
			if err != nil {
				return nil, err
			}
			p.Matches = append(p.Matches, hm)
		}
	case o.Match != nil:
		rd, err := pb.round(roundID(o.Match.Stage, o.Match.Round))
		if err != nil {
			return nil, err
		}
		p.Round = pb.hookRound(rd)
		hm, err := pb.match(*o.Match)
		if err != nil {
			return nil, err
		}
		p.Match = &hm
	case o.Type == HookStageFinished:
		if o.Stage < 0 || o.Stage >= len(ev.Stages) {
			return p, nil
		}
		cur := ev.Stages[o.Stage]
		p.Stage = &HookStage{Number: o.Stage + 1, Name: cur.Name, Kind: cur.Kind, EventFinished: o.EventFinished}
		if n := o.Stage + 1; !o.EventFinished && n < len(ev.Stages) {
			next := ev.Stages[n]
			hn := &HookNextStage{Number: n + 1, Name: next.Name, Kind: next.Kind, Entrants: []HookEntrant{}}
			for _, id := range next.Seeds {
				he, err := pb.entrant(id)
				if err != nil {
					return nil, err
				}
				hn.Entrants = append(hn.Entrants, he)
			}
			p.Stage.Next = hn
		}
	}
	return p, nil
}

func (pb *payloadBuilder) hookRound(rd arbiter.Round) *HookRound {
	name := ""
	if rd.Stage >= 0 && rd.Stage < len(pb.st.ev.Stages) {
		name = pb.st.ev.Stages[rd.Stage].Name
	}
	return &HookRound{ID: rd.ID, Stage: rd.Stage + 1, StageName: name, Number: rd.Number, Status: rd.Status,
		Start: rd.Start, End: rd.End, URL: pb.path("/rounds/" + rd.ID)}
}

func (pb *payloadBuilder) match(m arbiter.Match) (HookMatch, error) {
	hm := HookMatch{ID: m.ID, Stage: m.Stage + 1, Round: m.Round, Board: m.Board, Pool: m.Pool, Bracket: m.Bracket, Status: m.Status,
		ScheduledAt: m.ScheduledAt, URL: pb.path("/matches/" + m.ID)}
	var err error
	if hm.Home, err = pb.entrant(m.Home); err != nil {
		return hm, err
	}
	if m.Away != "" {
		away, err := pb.entrant(m.Away)
		if err != nil {
			return hm, err
		}
		hm.Away = &away
	}
	if m.Status == arbiter.MatchFinal {
		hm.Result, hm.Decision = m.Result, m.Decision
	}
	return hm, nil
}

// withBase returns the payload with its links made absolute on base (the
// web app's address; "" leaves them as paths).
func (p *HookPayload) withBase(base string) *HookPayload {
	if base == "" {
		return p
	}
	q := *p
	q.Event.URL = base + q.Event.URL
	if p.Round != nil {
		r := *p.Round
		r.URL = base + r.URL
		q.Round = &r
	}
	abs := func(m HookMatch) HookMatch {
		m.URL = base + m.URL
		m.Home.URL = base + m.Home.URL
		if m.Away != nil {
			a := *m.Away
			a.URL = base + a.URL
			m.Away = &a
		}
		return m
	}
	if p.Match != nil {
		m := abs(*p.Match)
		q.Match = &m
	}
	if p.Matches != nil {
		q.Matches = make([]HookMatch, len(p.Matches))
		for i, m := range p.Matches {
			q.Matches[i] = abs(m)
		}
	}
	if p.Stage != nil {
		s := *p.Stage
		if s.Next != nil {
			n := *s.Next
			n.Entrants = make([]HookEntrant, len(s.Next.Entrants))
			for i, e := range s.Next.Entrants {
				e.URL = base + e.URL
				n.Entrants[i] = e
			}
			s.Next = &n
		}
		q.Stage = &s
	}
	return &q
}
