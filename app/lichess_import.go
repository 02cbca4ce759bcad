package app

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Results imported from Lichess (issue 14 §3): the games Arbiter created
// are fetched by id, those the players created themselves are found
// through the players' game export in the round's window, and the match
// sheet is built from them (lichess.BuildSheet: per part, set or board),
// with every game that does not fit the format (wrong clock or variant,
// casual where rated games count, unexpected players, aborted or
// unfinished) flagged for the TD and never counted. A sheet without a
// finding is entered as a report "from Lichess", final after the format's
// confirmation window unless a side disputes it; one with findings waits
// for the TD, who sees every difference (and enters the result, the form
// prefilled from it).

const kindLichessImport = "lichess_import"

// LichessReporter is who enters a result read from Lichess.
var LichessReporter = arbiter.Actor{Name: "lichess", Role: arbiter.RoleSystem}

// LichessImport is the last import of a match from Lichess.
type LichessImport struct {
	Match string    `json:"match"`
	At    time.Time `json:"at"`
	By    string    `json:"by"`
	From  time.Time `json:"from"` // the window searched: [From, To)
	To    time.Time `json:"to"`
	// Sheet is the match sheet built from the counted games (package
	// score's JSON: what a captain would have typed).
	Sheet    json.RawMessage        `json:"sheet"`
	Games    []lichess.SheetGame    `json:"games"`
	Findings []lichess.SheetFinding `json:"findings"`
	// Complete: no finding; the sheet was (or can be) entered as is.
	Complete bool `json:"complete"`
	Decided  bool `json:"decided,omitempty"`
	// Report is the report entered from it, if any; Skipped why none was.
	Report  string `json:"report,omitempty"`
	Skipped string `json:"skipped,omitempty"`

	Version int64 `json:"-"`
}

// ImportedSheet is a match's last import from Lichess, for the TD's and
// the players' result forms (prefilled from Sheet). TD or a side of the
// match; ENOTFOUND when none was made.
func (s *Service) ImportedSheet(ctx context.Context, a arbiter.Actor, slug, matchID string) (LichessImport, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return LichessImport{}, err
	}
	m, _, err := matchInRound(ctx, s.DB, st, matchID)
	if err != nil {
		return LichessImport{}, err
	}
	if ok, err := isTD(ctx, s.DB, st, a); err != nil || !ok {
		side, err := sideOf(ctx, s.DB, st, a, &m)
		if err != nil {
			return LichessImport{}, err
		}
		if side == "" {
			return LichessImport{}, arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD or a side of match %s sees its import from Lichess", m.ID)
		}
	}
	return docLichessImport.get(ctx, s.DB, st, m.ID)
}

// ImportMatch builds a match's sheet from its games on Lichess, stores it
// (audited) and, when it is complete and the match awaits a result in an
// open round, enters it as a report from Lichess. TD only (or the system
// in a job). It needs a Lichess client (SetLichess).
func (s *Service) ImportMatch(ctx context.Context, a arbiter.Actor, slug, matchID string) (LichessImport, error) {
	var out LichessImport
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if err := requireTDOrJob(ctx, s.DB, st, a, "import a match's games from Lichess"); err != nil {
		return out, err
	}
	if s.lichess == nil {
		return out, arbiter.RuleError("app.lichess", "importing results is unavailable: this server has no Lichess client (give --lichess-url)")
	}
	m, rd, err := matchInRound(ctx, s.DB, st, matchID)
	if err != nil {
		return out, err
	}
	if m.IsBye() {
		return out, arbiter.RuleError("app.lichess", "match %s is a bye: it has no games", m.ID)
	}
	mf := st.f.Stages[m.Stage].MatchFor(m.Format)
	pairs, err := s.pairsOf(ctx, st, &m, mf, nil)
	if err != nil {
		return out, err
	}
	spec := lichess.SheetSpec{Home: m.Home, Away: m.Away, Match: mf, Variant: orField(st.f.Variant, format.VariantStandard),
		Rated: st.f.Lichess != nil && st.f.Lichess.Rated, From: rd.Start, To: rd.End}
	if spec.From.IsZero() || rd.PairedAt.Before(spec.From) && !rd.PairedAt.IsZero() {
		spec.From = rd.PairedAt // games may be played from the pairing (A4: brought forward)
	}
	if now := s.now(); now.Before(spec.To) {
		spec.To = now
	}
	for _, p := range pairs {
		if p.home == "" || p.away == "" {
			return out, arbiter.RuleError("app.lichess", "match %s: the players of every board or set must be known before its games are imported (a lineup or the boards are missing)", m.ID)
		}
		spec.Pairs = append(spec.Pairs, [2]string{p.home, p.away})
	}
	if !spec.From.Before(spec.To) {
		return out, arbiter.RuleError("app.lichess", "round %d has not started: no games to import", rd.Number)
	}
	var games []lichess.Game
	var tie []CreatedGame // the knockout tie's games Arbiter created (lichess_tie.go)
	tieIDs := map[string]lichess.Game{}
	mg, err := docMatchGames.get(ctx, s.DB, st, m.ID)
	switch arbiter.ErrorCode(err) {
	case arbiter.ENOTFOUND:
	case "":
		var ids []string
		for _, g := range mg.Games {
			ids = append(ids, g.ID)
			if g.Tie != "" {
				tie = append(tie, g)
				tieIDs[g.ID] = lichess.Game{}
			}
		}
		byID, err := s.lichess.GamesByID(ctx, ids)
		if err != nil {
			return out, lichessFailure(err, "reading the games of match %s from Lichess", m.ID)
		}
		for _, g := range byID {
			if _, ok := tieIDs[g.ID]; ok {
				tieIDs[g.ID] = g
				continue
			}
			games = append(games, g)
		}
	default:
		return out, err
	}
	perf := ""
	if spec.Variant == format.VariantAntichess {
		perf = lichess.PerfAntichess
	}
	for _, p := range spec.Pairs {
		gs, err := s.lichess.GamesBetween(ctx, p[0], p[1], spec.From, spec.To, perf)
		if err != nil {
			return out, lichessFailure(err, "finding the games of %s v %s on Lichess", p[0], p[1])
		}
		for _, g := range gs {
			if _, ok := tieIDs[g.ID]; !ok {
				games = append(games, g)
			}
		}
	}
	im, err := lichess.BuildSheet(games, spec)
	if err != nil {
		return out, err
	}
	if err := s.tieSheet(ctx, st, &m, im, tie, tieIDs); err != nil {
		return out, err
	}
	sheet, err := json.Marshal(im.Sheet)
	if err != nil {
		return out, arbiter.Errorf(arbiter.EINTERNAL, "encoding the imported sheet: %v", err)
	}
	if im.Complete() {
		// A tied knockout match whose tie is not over (or was played
		// outside Arbiter's games) waits for the TD, named.
		if _, err := st.score(&m, ResultInput{Sheet: sheet}); err != nil && strings.HasPrefix(errField(err), "tie") {
			im.Findings = append(im.Findings, lichess.SheetFinding{Kind: DiscTieUnfinished, Message: arbiter.ErrorMessage(err)})
		}
	}
	out = LichessImport{Match: m.ID, At: s.now(), By: normUser(a.Name), From: spec.From, To: spec.To, Sheet: sheet,
		Games: orEmpty(im.Games), Findings: orEmpty(im.Findings), Complete: im.Complete(), Decided: im.Decided}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		m, rd, err := matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		switch {
		case !out.Complete:
			out.Skipped = "the TD looks at the findings first"
		case m.Status != arbiter.MatchScheduled:
			out.Skipped = "the match already has a result (" + m.Status + ")"
		case rd.Status != arbiter.RoundPublished || !s.now().Before(rd.End):
			out.Skipped = "the round is over: the TD enters the result"
		default:
			if out.Report, err = s.reportFromLichess(ctx, tx, st, m, sheet); err != nil {
				return err
			}
		}
		ch := change(a, "lichess.import", importSummary(out), false)
		old, err := docLichessImport.get(ctx, tx, st, m.ID)
		switch arbiter.ErrorCode(err) {
		case "":
			out.Version, err = docLichessImport.update(ctx, tx, ch, st, m.ID, old.Version, out)
		case arbiter.ENOTFOUND:
			out.Version, err = docLichessImport.create(ctx, tx, ch, st, m.ID, out)
		}
		if err != nil || out.Report == "" {
			return err
		}
		if s.queue == nil {
			return nil // no jobs: the report stays pending; the round's close accepts it
		}
		at := s.now().Add(time.Duration(st.f.ConfirmHours()) * time.Hour)
		_, err = s.queue.Enqueue(ctx, tx, ConfirmJob{EventSlug: st.ev.Slug, Match: m.ID, Report: out.Report, At: at}, at)
		return err
	})
	return out, err
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func importSummary(im LichessImport) string {
	counted := 0
	for _, g := range im.Games {
		if g.Counted {
			counted++
		}
	}
	w := arbiter.Count(counted, "game") + " counted, " + arbiter.Count(len(im.Findings), "finding")
	if im.Report != "" {
		return w + "; entered as report " + im.Report
	}
	return w + "; not entered: " + im.Skipped
}

// reportFromLichess enters a sheet read from Lichess as the match's
// pending report, scored and checked as a side's report is; either side
// may dispute it (it is neither side's).
func (s *Service) reportFromLichess(ctx context.Context, tx *sqlstore.Tx, st *state, m arbiter.Match, sheet []byte) (string, error) {
	sc, err := st.score(&m, ResultInput{Sheet: sheet})
	if err != nil {
		return "", err
	}
	if err := checkLineups(ctx, tx, st, &m, sc.sheet); err != nil {
		return "", err
	}
	id, err := s.newReport(ctx, tx, st, &m)
	if err != nil {
		return "", err
	}
	rep := arbiter.Report{ID: id, Match: m.ID, By: LichessReporter.Name, Role: LichessReporter.Role, At: s.now(),
		Sheet: sc.sheet, Summary: "from Lichess", Result: sc.outcome, Status: arbiter.ReportPending}
	ch := change(LichessReporter, "result.report", "from Lichess", false)
	if _, err := docReport.create(ctx, tx, ch, st, rep.ID, rep); err != nil {
		return "", err
	}
	m.Status, m.Result, m.Report = arbiter.MatchReported, &sc.outcome, rep.ID
	_, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
	return id, err
}

// confirmLichessReport makes a report from Lichess final once its
// confirmation window passed undisputed; anything else happened to the
// match meanwhile (a dispute, a TD's decision, the round closed) wins.
func (s *Service) confirmLichessReport(ctx context.Context, slug, matchID, reportID string) error {
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		m, _, err := matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		if m.Status != arbiter.MatchReported || m.Report != reportID {
			return nil
		}
		rep, err := docReport.get(ctx, tx, st, reportID)
		if err != nil || rep.Status != arbiter.ReportPending || rep.By != LichessReporter.Name {
			return err
		}
		ch := change(LichessReporter, "result.confirm_window", "from Lichess, not disputed within the confirmation window", false)
		rep.Status, rep.ActedBy = arbiter.ReportConfirmed, LichessReporter.Name
		if _, err := docReport.update(ctx, tx, ch, st, rep.ID, rep.Version, rep); err != nil {
			return err
		}
		m.Status, m.Decision = arbiter.MatchFinal, "confirmed"
		if m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m); err != nil {
			return err
		}
		_, err = s.ruleMarkedSets(ctx, tx, st, LichessReporter, m)
		return err
	})
}
