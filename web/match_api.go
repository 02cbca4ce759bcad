package web

import (
	"encoding/json"
	"net/http"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/negotiation"
)

// The match API: the public match, the sides' and TDs' reports, and the
// sides' actions. Each write answers 401 without a session before reading
// anything, then leaves every permission to package app.

// apiMatchOut is a match as the API shows it.
type apiMatchOut struct {
	Match       arbiter.Match  `json:"match"`
	Round       string         `json:"round"`
	RoundStatus string         `json:"round_status"`
	Home        apiEntrantRef  `json:"home"`
	Away        *apiEntrantRef `json:"away,omitempty"`
	Offers      []apiOffer     `json:"offers,omitempty"`
	Negotiation string         `json:"negotiation,omitempty"` // open, agreed, ... (formats with time offers)
	// Boards are the boards' negotiations where each board is negotiated
	// apart (A5).
	Boards     []apiBoardTime       `json:"boards,omitempty"`
	Armageddon *app.Armageddon      `json:"armageddon,omitempty"`
	Parts      []arbiter.PartResult `json:"parts,omitempty"`
	// Lineups is who plays each board or set of a team match, with the
	// page's disclosure rules (match_lineups.go).
	Lineups *matchLineups `json:"lineups,omitempty"`
	// LichessGames are the games Arbiter created on Lichess, with their
	// links and where each stands.
	LichessGames []apiLichessGame `json:"lichess_games,omitempty"`
}

// apiLichessGame is a game Arbiter created on Lichess.
type apiLichessGame struct {
	app.CreatedGame
	Result string `json:"result,omitempty"` // from White's side: 1-0, 0-1, ½-½
	State  string `json:"state"`            // in words
}

// apiBoardTime is one board's negotiation: its players, where it stands,
// the agreed start time and the offers.
type apiBoardTime struct {
	Board       int        `json:"board"`
	HomePlayer  string     `json:"home_player,omitempty"`
	AwayPlayer  string     `json:"away_player,omitempty"`
	Negotiation string     `json:"negotiation"` // none, open, agreed, ...
	AgreedAt    *time.Time `json:"agreed_at,omitempty"`
	Decided     string     `json:"decided,omitempty"` // the board's result without play
	Offers      []apiOffer `json:"offers,omitempty"`
}

type apiEntrantRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type apiOffer struct {
	By   string    `json:"by"` // home or away
	At   time.Time `json:"at"`
	Made time.Time `json:"made"`
}

func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) {
	d, err := s.matchView(r, r.PathValue("slug"), r.PathValue("match"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := apiMatchOut{Match: d.M, Round: d.Round.ID, RoundStatus: d.Round.Status, Parts: d.Parts, Armageddon: d.Armageddon, Lineups: d.Lineups,
		Home: apiEntrantRef{ID: d.Home.ID, Name: d.Home.Name}}
	if !d.M.IsBye() {
		out.Away = &apiEntrantRef{ID: d.Away.ID, Name: d.Away.Name}
	}
	for _, g := range d.Games {
		out.LichessGames = append(out.LichessGames, apiLichessGame{CreatedGame: g, Result: g.Result(), State: g.StatusWords()})
	}
	for _, b := range d.Boards {
		bt := apiBoardTime{Board: b.Board, HomePlayer: b.Home, AwayPlayer: b.Away, Negotiation: "none", Decided: b.Ruling}
		if !b.AgreedAt.IsZero() {
			at := b.AgreedAt
			bt.AgreedAt = &at
		}
		if b.State != nil {
			bt.Negotiation = b.State.Outcome.String()
			for _, o := range b.State.Offers {
				bt.Offers = append(bt.Offers, apiOffer{By: [2]string{"home", "away"}[o.By], At: o.At, Made: o.Made})
			}
		}
		out.Boards = append(out.Boards, bt)
	}
	if st := d.Negotiation; st != nil {
		out.Negotiation = st.Outcome.String()
		for _, o := range st.Offers {
			by := "home"
			if o.By == negotiation.PlayerB {
				by = "away"
			}
			out.Offers = append(out.Offers, apiOffer{By: by, At: o.At, Made: o.Made})
		}
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// apiReports lists a match's reports: for its sides and the event's TDs.
func (s *Server) apiReports(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.apiActorAs(w, r, arbiter.RolePlayer); !ok {
		return
	}
	d, err := s.matchView(r, r.PathValue("slug"), r.PathValue("match"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if !d.ShowReports {
		s.apiFail(w, r, arbiter.Errorf(arbiter.EFORBIDDEN, "only the sides of match %s and the TDs see its reports", d.M.ID))
		return
	}
	reps := d.Reports
	if reps == nil {
		reps = []arbiter.Report{}
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"match": d.M.ID, "reports": reps})
}

// apiMatchAct runs one side's action on a match: 401 without a session,
// then fn as the user's side of the match; the answer is the match.
func (s *Server) apiMatchAct(w http.ResponseWriter, r *http.Request, in any, fn func(a arbiter.Actor, slug, id string) (any, error)) {
	if _, ok := s.apiActorAs(w, r, arbiter.RolePlayer); !ok {
		return
	}
	slug, id := r.PathValue("slug"), r.PathValue("match")
	a, _ := actorAs(r, s.actingRole(r, slug, id))
	if in != nil {
		if err := decodeJSON(r, in); err != nil {
			s.apiFail(w, r, err)
			return
		}
	}
	out, err := fn(a, slug, id)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

type apiOfferIn struct {
	Kind string `json:"kind"` // propose, accept, none_suitable
	// Board is the board negotiated where each board is negotiated apart
	// (A5); omitted otherwise.
	Board int         `json:"board,omitempty"`
	Times []time.Time `json:"times,omitempty"`
	At    *time.Time  `json:"at,omitempty"`
}

func (s *Server) apiOffer(w http.ResponseWriter, r *http.Request) {
	var in apiOfferIn
	s.apiMatchAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		step := app.NegotiationStep{Kind: in.Kind, Board: in.Board, Times: in.Times}
		switch in.Kind {
		case app.NegPropose, app.NegAccept, app.NegNoneSuitable:
		default:
			return nil, arbiter.FieldError("kind", "api.offer", "kind is propose, accept or none_suitable")
		}
		if in.Kind == app.NegAccept {
			if in.At == nil {
				return nil, arbiter.FieldError("at", "api.offer", "accept names the offered time in at")
			}
			step.At = *in.At
		}
		neg, m, err := s.app.Negotiate(r.Context(), a, slug, id, step)
		if err != nil {
			return nil, err
		}
		return map[string]any{"match": m, "negotiation": neg.State.Outcome.String(), "offers": len(neg.State.Offers)}, nil
	})
}

type apiReportIn struct {
	Summary          string          `json:"summary,omitempty"`
	Sheet            json.RawMessage `json:"sheet,omitempty"`
	WrongTimeControl []string        `json:"wrong_time_control,omitempty"`
}

func (s *Server) apiReport(w http.ResponseWriter, r *http.Request) {
	var in apiReportIn
	s.apiMatchAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		ri, err := reportedResult(in.Summary, string(in.Sheet))
		if err != nil {
			return nil, err
		}
		ri.WrongTimeControl = in.WrongTimeControl
		return s.app.ReportResult(r.Context(), a, slug, id, ri)
	})
}

type apiAnswerIn struct {
	Version int64  `json:"version,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

func (s *Server) apiConfirm(w http.ResponseWriter, r *http.Request) {
	var in apiAnswerIn
	s.apiMatchAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		return s.app.ConfirmResult(r.Context(), a, slug, id, in.Version)
	})
}

func (s *Server) apiDispute(w http.ResponseWriter, r *http.Request) {
	var in apiAnswerIn
	s.apiMatchAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		return s.app.DisputeResult(r.Context(), a, slug, id, in.Reason, in.Version)
	})
}

func (s *Server) apiAppeal(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Reason string `json:"reason"`
	}
	s.apiMatchAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		return s.app.Appeal(r.Context(), a, slug, id, in.Reason)
	})
}

func (s *Server) apiArmageddon(w http.ResponseWriter, r *http.Request) {
	var in armageddonBid
	s.apiMatchAct(w, r, &in, func(a arbiter.Actor, slug, id string) (any, error) {
		out, cm, sec, err := s.bidArmageddon(r, a, slug, id, in)
		if err != nil {
			return nil, err
		}
		res := map[string]any{"armageddon": out}
		if sec != nil {
			// Shown once: the client keeps it to reveal later.
			res["commitment"], res["nonce"] = cm.String(), sec.NonceHex()
		}
		return res, nil
	})
}
