package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

const kindCheatReport = "cheat_report"

// CheatReport is a suspicion of cheating sent privately to the TDs (A6:
// such reports go to the TDs, never in public). Only the event's TDs read
// it; the reporter learns only that it was received. The change log
// records that a report was made, not its content, so that nothing of it
// reaches the live stream or anyone but the TDs.
type CheatReport struct {
	ID       string    `json:"id"` // "c1", "c2", ...
	By       string    `json:"by"`
	Suspect  string    `json:"suspect"`
	Match    string    `json:"match,omitempty"`
	Text     string    `json:"text"`
	At       time.Time `json:"at"`
	Closed   bool      `json:"closed,omitempty"`
	ClosedBy string    `json:"closed_by,omitempty"`
	ClosedAt time.Time `json:"closed_at,omitzero"`
	Outcome  string    `json:"outcome,omitempty"` // the TDs' note when they close it

	Version int64 `json:"-"`
}

// CheatReportRequest is what a player or captain sends.
type CheatReportRequest struct {
	Suspect string // Lichess username
	Match   string // optional: the match it is about
	Text    string
}

// maxCheatReport bounds the text, like other free text in the store.
const maxCheatReport = 4000

// ReportCheating sends a private report to the event's TDs (A6). Only
// someone who plays in the event (a player, a team member or captain) may
// send one.
func (s *Service) ReportCheating(ctx context.Context, a arbiter.Actor, slug string, req CheatReportRequest) (CheatReport, error) {
	var cr CheatReport
	if err := requireActor(a); err != nil {
		return cr, err
	}
	suspect := normUser(req.Suspect)
	text, err := arbiter.CleanText("text", req.Text, maxCheatReport)
	switch {
	case suspect == "":
		return cr, arbiter.FieldError("suspect", "A6", "name the Lichess username of the player you suspect")
	case checkUser("suspect", suspect) != nil:
		return cr, checkUser("suspect", suspect)
	case err != nil:
		return cr, err
	case text == "":
		return cr, arbiter.FieldError("text", "A6", "say what you saw (games, moves, times): the TDs need it to look into it")
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		me := normUser(a.Name)
		in, err := playsIn(ctx, tx, st, me)
		if err != nil {
			return err
		}
		if !in {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "only the event's players and captains send reports to its TDs; %s does not play in %s", me, slug)
		}
		if suspect == me {
			return arbiter.FieldError("suspect", "A6", "you cannot report yourself")
		}
		if req.Match != "" {
			if _, err := docMatch.get(ctx, tx, st, req.Match); err != nil {
				if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
					return arbiter.FieldError("match", "A6", "no match %q in %s", req.Match, slug)
				}
				return err
			}
		}
		all, err := docCheatReport.list(ctx, tx, st)
		if err != nil {
			return err
		}
		cr = CheatReport{ID: fmt.Sprintf("c%d", len(all)+1), By: me, Suspect: suspect, Match: req.Match, Text: text, At: s.now()}
		// The audit entry's reason says nothing of the content.
		cr.Version, err = docCheatReport.create(ctx, tx, change(a, "cheating.report", "private report to the TDs (A6)", false), st, cr.ID, cr)
		return err
	})
	return cr, err
}

// CheatReports lists the event's private reports (TDs only).
func (s *Service) CheatReports(ctx context.Context, a arbiter.Actor, slug string) ([]CheatReport, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	if err := requireTD(ctx, s.DB, st, a, "read the reports of cheating"); err != nil {
		return nil, err
	}
	return docCheatReport.list(ctx, s.DB, st)
}

// CloseCheatReport records the TDs' conclusion on a report (TD only, with
// a note; the sanction itself, if any, is a separate Sanction).
func (s *Service) CloseCheatReport(ctx context.Context, a arbiter.Actor, slug, id, outcome string) (CheatReport, error) {
	if err := requireReason(outcome, "closing a report"); err != nil {
		return CheatReport{}, err
	}
	return amendAsTD(ctx, s, a, slug, docCheatReport, id, "close a report of cheating", func(cr *CheatReport) (sqlstore.Change, error) {
		if cr.Closed {
			return sqlstore.Change{}, arbiter.Errorf(arbiter.ECONFLICT, "report %s is already closed", id)
		}
		cr.Closed, cr.ClosedBy, cr.ClosedAt, cr.Outcome = true, normUser(a.Name), s.now(), strings.TrimSpace(outcome)
		return change(a, "cheating.close", "private report closed (A6)", false), nil
	})
}

// playsIn tells whether user is a player, member or captain of an entrant
// still in the event.
func playsIn(ctx context.Context, q sqlstore.Queryer, st *state, user string) (bool, error) {
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return false, err
	}
	for _, e := range es {
		if entered(e) && (normUser(e.Captain) == user || slices.Contains(e.Users(), user)) {
			return true, nil
		}
	}
	return false, nil
}
