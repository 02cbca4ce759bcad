package web

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
)

// The match page's forms. Each acts as the user's side of the match
// (captain or player; TD for a TD), redirects back to the match page and
// shows app's answer, a refusal naming the field and the rule included.

// formTime is how a datetime-local input sends a time; the page asks for
// UTC.
const formTime = "2006-01-02T15:04"

func matchURL(slug, id string) string { return "/events/" + slug + "/matches/" + id }

// parseOfferTimes reads the non-empty "time" fields (UTC).
func parseOfferTimes(vals []string) ([]time.Time, error) {
	var out []time.Time
	for i, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		t, err := parseOfferUTC(v)
		if err != nil {
			return nil, arbiter.FieldError(fmt.Sprintf("times[%d]", i), "web.time", "%q is not a time: use YYYY-MM-DDTHH:MM (UTC)", v)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, arbiter.FieldError("times", "web.time", "offer at least one start time")
	}
	return out, nil
}

// parseOfferUTC accepts a datetime-local value (UTC) or an RFC 3339 instant.
func parseOfferUTC(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), nil
	}
	return time.ParseInLocation(formTime, v, time.UTC)
}

func (s *Server) matchOfferPost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	s.act(w, r, s.actingRole(r, slug, id), matchURL(slug, id), func(a arbiter.Actor) (string, error) {
		step := app.NegotiationStep{Kind: r.PostFormValue("kind")}
		if b := strings.TrimSpace(r.PostFormValue("board")); b != "" {
			n, err := strconv.Atoi(b)
			if err != nil || n < 1 {
				return "", arbiter.FieldError("board", "web.board", "board must be a board number")
			}
			step.Board = n
		}
		switch step.Kind {
		case app.NegPropose:
			times, err := parseOfferTimes(r.PostForm["time"])
			if err != nil {
				return "", err
			}
			step.Times = times
		case app.NegAccept:
			at, err := parseOfferUTC(strings.TrimSpace(r.PostFormValue("at")))
			if err != nil {
				return "", arbiter.FieldError("at", "web.time", "choose one of the offered times")
			}
			step.At = at
		}
		_, m, err := s.app.Negotiate(r.Context(), a, slug, id, step)
		if err != nil {
			return "", err
		}
		if !m.ScheduledAt.IsZero() && step.Kind == app.NegAccept {
			return "Agreed: the match starts " + utcTime(m.ScheduledAt) + ".", nil
		}
		if step.Board > 0 && step.Board <= len(m.BoardTimes) && !m.BoardTimes[step.Board-1].IsZero() && step.Kind == app.NegAccept {
			return fmt.Sprintf("Agreed: board %d starts %s.", step.Board, utcTime(m.BoardTimes[step.Board-1])), nil
		}
		return "Your offer is recorded.", nil
	})
}

// reportedResult reads a report form: a summary ("6-4", "forfeit:home") or a
// match sheet (JSON).
func reportedResult(summary, sheet string) (app.ResultInput, error) {
	summary, sheet = strings.TrimSpace(summary), strings.TrimSpace(sheet)
	switch {
	case summary != "" && sheet != "":
		return app.ResultInput{}, arbiter.FieldError("sheet", "web.result", "give a summary or a match sheet, not both")
	case summary == "" && sheet == "":
		return app.ResultInput{}, arbiter.FieldError("summary", "web.result", "give the result: a summary such as 6-4, or a match sheet")
	case sheet != "":
		return app.ResultInput{Sheet: []byte(sheet)}, nil
	}
	return app.ResultInput{Summary: summary}, nil
}

func (s *Server) matchReportPost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	if r.PostFormValue("entry") != "" {
		s.matchEntryPost(w, r, slug, id)
		return
	}
	s.act(w, r, s.actingRole(r, slug, id), matchURL(slug, id), func(a arbiter.Actor) (string, error) {
		in, err := reportedResult(r.PostFormValue("summary"), r.PostFormValue("sheet"))
		if err != nil {
			return "", err
		}
		if _, err := s.app.ReportResult(r.Context(), a, slug, id, in); err != nil {
			return "", err
		}
		return "Result reported: your opponent confirms or disputes it.", nil
	})
}

// matchVersion reads the optional match version the user saw.
func matchVersion(v string) (int64, error) {
	if strings.TrimSpace(v) == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return 0, arbiter.FieldError("version", "web.version", "version must be a whole number")
	}
	return n, nil
}

func (s *Server) matchConfirmPost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	s.act(w, r, s.actingRole(r, slug, id), matchURL(slug, id), func(a arbiter.Actor) (string, error) {
		v, err := matchVersion(r.PostFormValue("version"))
		if err != nil {
			return "", err
		}
		if _, err := s.app.ConfirmResult(r.Context(), a, slug, id, v); err != nil {
			return "", err
		}
		return "Result confirmed: it is final.", nil
	})
}

func (s *Server) matchDisputePost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	s.act(w, r, s.actingRole(r, slug, id), matchURL(slug, id), func(a arbiter.Actor) (string, error) {
		v, err := matchVersion(r.PostFormValue("version"))
		if err != nil {
			return "", err
		}
		if _, err := s.app.DisputeResult(r.Context(), a, slug, id, strings.TrimSpace(r.PostFormValue("reason")), v); err != nil {
			return "", err
		}
		return "Result disputed: a TD decides.", nil
	})
}

func (s *Server) matchAppealPost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	s.act(w, r, s.actingRole(r, slug, id), matchURL(slug, id), func(a arbiter.Actor) (string, error) {
		ap, err := s.app.Appeal(r.Context(), a, slug, id, strings.TrimSpace(r.PostFormValue("reason")))
		if err != nil {
			return "", err
		}
		return "Appeal " + ap.ID + " sent to the TDs.", nil
	})
}

// armageddonBid is a sealed bid or a reveal, from the form or the API.
type armageddonBid struct {
	Commitment string `json:"commitment,omitempty"`
	// Bid (seconds) alone asks the server to seal it: it draws the nonce
	// and returns it once, never storing the bid until the reveal.
	Bid    *int   `json:"bid_seconds,omitempty"`
	Nonce  string `json:"nonce,omitempty"`
	Reveal bool   `json:"reveal,omitempty"`
}

// bidArmageddon commits or reveals; sealed is the secret drawn when the
// server sealed the bid (nil otherwise).
func (s *Server) bidArmageddon(r *http.Request, a arbiter.Actor, slug, id string, b armageddonBid) (app.Armageddon, *armageddon.Commitment, *armageddon.Secret, error) {
	ctx := r.Context()
	if b.Reveal {
		if b.Bid == nil {
			return app.Armageddon{}, nil, nil, arbiter.FieldError("bid_seconds", "web.armageddon", "give the bid you sealed, in seconds")
		}
		sec, err := armageddon.ParseSecret(*b.Bid, strings.TrimSpace(b.Nonce))
		if err != nil {
			return app.Armageddon{}, nil, nil, arbiter.FieldError("nonce", "web.armageddon", "%s", arbiter.ErrorMessage(err))
		}
		out, err := s.app.BidArmageddon(ctx, a, slug, id, nil, &sec)
		return out, nil, nil, err
	}
	if c := strings.TrimSpace(b.Commitment); c != "" {
		cm, err := armageddon.ParseCommitment(c)
		if err != nil {
			return app.Armageddon{}, nil, nil, arbiter.FieldError("commitment", "web.armageddon", "the commitment is 64 hex digits")
		}
		out, err := s.app.BidArmageddon(ctx, a, slug, id, &cm, nil)
		return out, nil, nil, err
	}
	if b.Bid == nil {
		return app.Armageddon{}, nil, nil, arbiter.FieldError("bid_seconds", "web.armageddon", "give a bid in seconds or a commitment")
	}
	// Sealed here, for a browser without the page's script: app finds the
	// side and the rules and commits.
	out, cm, sec, err := s.app.SealBid(ctx, currentUser(r), slug, id, time.Duration(*b.Bid)*time.Second, rand.Reader)
	if err != nil {
		return out, nil, nil, err
	}
	return out, &cm, &sec, nil
}

func (s *Server) matchArmageddonPost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	s.act(w, r, s.actingRole(r, slug, id), matchURL(slug, id), func(a arbiter.Actor) (string, error) {
		b := armageddonBid{Commitment: r.PostFormValue("commitment"), Nonce: r.PostFormValue("nonce"), Reveal: r.PostFormValue("step") == "reveal"}
		if v := strings.TrimSpace(r.PostFormValue("bid")); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return "", arbiter.FieldError("bid_seconds", "web.armageddon", "the bid is a whole number of seconds")
			}
			b.Bid = &n
		}
		_, cm, sec, err := s.bidArmageddon(r, a, slug, id, b)
		if err != nil {
			return "", err
		}
		if sec != nil {
			return fmt.Sprintf("Sealed bid recorded (commitment %s). Keep this nonce to reveal your bid of %d s: %s", cm, *b.Bid, sec.NonceHex()), nil
		}
		if b.Reveal {
			return "Bid revealed.", nil
		}
		return "Sealed bid recorded.", nil
	})
}
