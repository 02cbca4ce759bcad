package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing"
	"arbiter/pairing/dutch"
	"arbiter/pairing/teamswiss"
	"arbiter/score"
	"arbiter/sqlstore"
)

const kindPairingEdit = "pairing_edit"

// pairingEditClause is the rule cited when an edit is refused for what it
// is rather than for a criterion it breaks.
const pairingEditClause = "app.pairing_edit"

// The kinds of pairing edit.
const (
	// EditSwap: two entrants exchange their opponents (A-B, C-D with B and
	// D swapped: A-D, C-B); swapping with the bye's holder moves the bye.
	EditSwap = "swap"
	// EditBye: the bye goes to this entrant, whose opponent meets the
	// bye's holder.
	EditBye = "bye"
	// EditForce: the two meet; the engine pairs everyone else again.
	EditForce = "force"
	// EditForbid: the two do not meet in this round; the engine pairs the
	// round again without that pair.
	EditForbid = "forbid"
)

// PairingEditRequest is a TD's change to the pairings of a paired round
// that is not published yet.
type PairingEditRequest struct {
	Kind     string   // swap, bye, force, forbid
	Entrants []string // two for swap, force and forbid; one for bye
	Reason   string   // required: written to the audit log
	// Confirm applies an edit that breaks an absolute criterion (C1-C3,
	// or colour rules only topscorers may break); without it such an edit
	// is refused with the warning.
	Confirm bool
	// Preview computes the edit and its warnings and stores nothing.
	Preview bool
}

// PairingEdit is a TD's edit of a round's pairings, as stored (one per
// edit, never changed): what was done, why, and the criteria it breaks.
type PairingEdit struct {
	ID    string `json:"id"` // the round's ID and e1, e2, ...: "s1r3e1"
	Round string `json:"round"`
	// PairedAt is when the edited pairing was made: a round discarded and
	// paired again starts without the edits of its earlier pairing.
	PairedAt time.Time        `json:"paired_at"`
	Kind     string           `json:"kind"`
	Entrants []string         `json:"entrants"`
	Reason   string           `json:"reason"`
	Warnings []PairingWarning `json:"warnings,omitempty"`
	// Confirmed: the TD confirmed an edit breaking an absolute criterion.
	Confirmed bool `json:"confirmed,omitempty"`
	// Boards are the boards whose match changed.
	Boards []int     `json:"boards"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
	// Discarded: the edited pairing was discarded (DiscardRound); the
	// record stays for the history.
	Discarded bool `json:"discarded,omitempty"`
}

// EditPairing changes the pairings of the current round before they are
// published: swap two entrants' opponents, give the bye to another
// entrant, force a pair or forbid one (docs/web-td.md, "Editing the
// pairings"). The edit's warnings name every pairing criterion (C.04.3) it
// breaks or worsens, judged by the Dutch engine's own inputs; one that
// breaks an absolute criterion needs req.Confirm. Colours follow the
// engine's allocation (C.04.3 Art. 5); swaps and bye moves keep the
// boards of the matches they change, a forced or forbidden pair re-pairs
// the round (keeping the pairs forced in it, avoiding those forbidden in
// it) and orders its boards as the pairing does. Swiss stages only
// (individual and team); round robin and knockout pairings follow their
// tables and are refused. TD only, with a reason, audited.
func (s *Service) EditPairing(ctx context.Context, a arbiter.Actor, slug string, req PairingEditRequest) (PairingEdit, []arbiter.Match, error) {
	var ed PairingEdit
	var changed []arbiter.Match
	req.Kind = strings.ToLower(strings.TrimSpace(req.Kind))
	req.Reason = strings.TrimSpace(req.Reason)
	if !req.Preview {
		if err := requireReason(req.Reason, "a pairing edit"); err != nil {
			return ed, nil, err
		}
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "edit the pairings"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRunning {
			return arbiter.RuleError("app.event", "event %s is %s: pairings are edited while it runs", slug, st.ev.Status)
		}
		p, err := loadPairedRound(ctx, tx, st)
		if err != nil {
			return err
		}
		if !p.swiss() {
			return arbiter.RuleError(pairingEditClause, "%s is a %s stage: its pairings follow the %s and are not edited by hand (discard and pair again, or withdraw or sanction an entrant)",
				p.stage.Name, strings.ReplaceAll(p.stage.Kind, "_", " "), tableOf(p.stage.Kind))
		}
		if p.rd.Status != arbiter.RoundPaired {
			return arbiter.RuleError("app.round", "round %s is %s: only pairings not yet published can be edited", p.rd.ID, p.rd.Status)
		}
		ids, err := p.editEntrants(req)
		if err != nil {
			return err
		}
		boards, err := p.plan(req.Kind, ids)
		if err != nil {
			return err
		}
		var before, after []pairing.Pair
		for i, m := range p.matches {
			if m.Home != boards[i][0] || m.Away != boards[i][1] {
				ed.Boards = append(ed.Boards, m.Board)
			}
		}
		// The pairs the edit removed and those it made, wherever they sit.
		for _, m := range p.matches {
			if !slices.Contains(boards, [2]string{m.Home, m.Away}) {
				before = append(before, p.pair(m.Home, m.Away))
			}
		}
		for _, b := range boards {
			if !slices.ContainsFunc(p.matches, func(m arbiter.Match) bool { return m.Home == b[0] && m.Away == b[1] }) {
				after = append(after, p.pair(b[0], b[1]))
			}
		}
		ed = PairingEdit{Round: p.rd.ID, PairedAt: p.rd.PairedAt, Kind: req.Kind, Entrants: ids, Reason: req.Reason,
			Warnings: p.warnings(dutch.Worse(p.t, before, after)), Boards: ed.Boards, By: normUser(a.Name), At: s.now()}
		abs, broken := firstAbsolute(ed.Warnings)
		if req.Preview {
			for i, m := range p.matches {
				if m.Home != boards[i][0] || m.Away != boards[i][1] {
					m.Home, m.Away = boards[i][0], boards[i][1]
					changed = append(changed, m)
				}
			}
			return nil
		}
		if broken && !req.Confirm {
			return arbiter.RuleError("C.04.3 "+abs.Criterion, "this edit breaks an absolute pairing criterion: %s. Confirm the edit to apply it anyway", warningsText(ed.Warnings))
		}
		ed.Confirmed = broken
		all, err := docPairingEdit.list(ctx, tx, st)
		if err != nil {
			return err
		}
		n := 1
		for _, e := range all {
			if e.Round == p.rd.ID {
				n++
			}
		}
		ed.ID = p.rd.ID + "e" + strconv.Itoa(n)
		why := ed.Reason
		if len(ed.Warnings) > 0 {
			why += " (breaks: " + warningsText(ed.Warnings) + ")"
		}
		ch := change(a, "pairing.edit_"+req.Kind, why, broken)
		for i := range p.matches {
			m := p.matches[i]
			if m.Home == boards[i][0] && m.Away == boards[i][1] {
				continue
			}
			if err := repairedMatch(ctx, tx, st, &m, boards[i][0], boards[i][1]); err != nil {
				return err
			}
			if m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m); err != nil {
				return err
			}
			changed = append(changed, m)
		}
		_, err = docPairingEdit.create(ctx, tx, ch, st, ed.ID, ed)
		return err
	})
	return ed, changed, err
}

// tableOf names what fixes a non-Swiss stage's pairings.
func tableOf(kind string) string {
	switch kind {
	case format.Knockout:
		return "bracket"
	}
	return "Berger tables (C.05 Annex 1)"
}

// editEntrants checks the entrants an edit names: as many as its kind
// takes, distinct, and paired in the round.
func (p *pairedRound) editEntrants(req PairingEditRequest) ([]string, error) {
	want := 2
	switch req.Kind {
	case EditSwap, EditForce, EditForbid:
	case EditBye:
		want = 1
	default:
		return nil, arbiter.FieldError("kind", pairingEditClause, "an edit is swap, bye, force or forbid, not %q", req.Kind)
	}
	if len(req.Entrants) != want {
		return nil, arbiter.FieldError("entrants", pairingEditClause, "%s names %d %s, got %d", req.Kind, want, plural(want, "entrant", "entrants"), len(req.Entrants))
	}
	var ids []string
	for i, raw := range req.Entrants {
		id := normUser(raw)
		field := fmt.Sprintf("entrants[%d]", i)
		if _, ok := p.byID[id]; !ok {
			// A team may be named by its name as well as its ID.
			for _, e := range p.entrants {
				if normUser(e.Name) == id || teamID(raw) == e.ID {
					id = e.ID
				}
			}
		}
		if _, ok := p.byID[id]; !ok {
			return nil, arbiter.FieldError(field, pairingEditClause, "%q is not an entrant of this stage", raw)
		}
		if p.matchOf(id) < 0 {
			return nil, arbiter.FieldError(field, pairingEditClause, "%s is not paired in round %s", p.name(id), p.rd.ID)
		}
		if slices.Contains(ids, id) {
			return nil, arbiter.FieldError(field, pairingEditClause, "%s is named twice", p.name(id))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// plan returns the round's boards after the edit, board 1 first: (home,
// away), away "" for the bye.
func (p *pairedRound) plan(kind string, ids []string) ([][2]string, error) {
	boards := make([][2]string, len(p.matches))
	for i, m := range p.matches {
		boards[i] = [2]string{m.Home, m.Away}
	}
	switch kind {
	case EditBye:
		iz := slices.IndexFunc(p.matches, func(m arbiter.Match) bool { return m.IsBye() })
		if iz < 0 {
			return nil, arbiter.RuleError("C.04.1 3", "round %s has no bye: an even number of entrants is paired", p.rd.ID)
		}
		if p.matches[iz].Home == ids[0] {
			return nil, arbiter.Errorf(arbiter.ECONFLICT, "%s already has the bye", p.name(ids[0]))
		}
		return p.swap(boards, ids[0], p.matches[iz].Home), nil
	case EditSwap:
		if p.matchOf(ids[0]) == p.matchOf(ids[1]) {
			return nil, arbiter.FieldError("entrants", pairingEditClause, "%s and %s play each other: swap entrants of two different matches", p.name(ids[0]), p.name(ids[1]))
		}
		return p.swap(boards, ids[0], ids[1]), nil
	}
	together := p.matchOf(ids[0]) == p.matchOf(ids[1])
	forced, forbidden := p.standingForced(), p.forbiddenHere()
	pr := [2]string{ids[0], ids[1]}
	// The TD's latest word on a pair wins over an earlier edit of it.
	forced = slices.DeleteFunc(forced, func(f [2]string) bool {
		return slices.Contains(f[:], ids[0]) || (kind == EditForbid && slices.Contains(f[:], ids[1]))
	})
	if kind == EditForce {
		if together {
			return nil, arbiter.Errorf(arbiter.ECONFLICT, "%s and %s already play each other", p.name(ids[0]), p.name(ids[1]))
		}
		forced = slices.DeleteFunc(forced, func(f [2]string) bool { return slices.Contains(f[:], ids[1]) })
		forced = append(forced, pr)
	} else {
		if !together {
			return nil, arbiter.FieldError("entrants", pairingEditClause, "%s and %s do not play each other in round %s: nothing to forbid (a forbidden pairing for the coming rounds is declared on its own)",
				p.name(ids[0]), p.name(ids[1]), p.rd.ID)
		}
		forbidden = append(forbidden, pr)
	}
	return p.repair(forced, forbidden)
}

// swap exchanges the opponents of a and b (either may hold the bye). The
// new matches take the boards of the two they replace, the better pair
// (higher score, then better seed) the lower number, the bye the last;
// colours follow the engine's allocation.
func (p *pairedRound) swap(boards [][2]string, a, b string) [][2]string {
	ia, ib := p.matchOf(a), p.matchOf(b)
	other := func(i int, id string) string {
		if boards[i][0] == id {
			return boards[i][1]
		}
		return boards[i][0]
	}
	made := [][2]string{p.colours(a, other(ib, b)), p.colours(b, other(ia, a))}
	orderBoards(made, p.t, p.index)
	lo, hi := min(ia, ib), max(ia, ib)
	boards[lo], boards[hi] = made[0], made[1]
	return boards
}

// colours is the pair of a and b as home (White; for teams White on board
// 1) and away by the engine's colour allocation; b "" is the bye.
func (p *pairedRound) colours(a, b string) [2]string {
	if b == "" {
		return [2]string{a, ""}
	}
	if a == "" {
		return [2]string{b, ""}
	}
	w, k := dutch.Colours(p.t, p.index[a], p.index[b])
	return [2]string{p.idAt(w), p.idAt(k)}
}

// standingForced lists the pairs forced by earlier edits of this pairing
// that still play each other.
func (p *pairedRound) standingForced() [][2]string {
	var out [][2]string
	for _, e := range p.edits {
		if e.Kind == EditForce && p.matchOf(e.Entrants[0]) == p.matchOf(e.Entrants[1]) && !slices.Contains(out, [2]string(e.Entrants)) {
			out = append(out, [2]string(e.Entrants))
		}
	}
	return out
}

// repair pairs the round again with its engine: the forced pairs are set
// aside (their colours by the engine's allocation), the forbidden ones
// may not meet in this round, the others are paired as PairRound pairs
// them. Boards are ordered by the higher score, then the better seed, the
// bye last.
func (p *pairedRound) repair(forced, forbidden [][2]string) ([][2]string, error) {
	inRound := map[string]bool{}
	for _, m := range p.matches {
		inRound[m.Home], inRound[m.Away] = true, m.Away != ""
	}
	aside := map[string]bool{}
	var out [][2]string
	for _, f := range forced {
		aside[f[0]], aside[f[1]] = true, true
		out = append(out, p.colours(f[0], f[1]))
	}
	round := p.rd.Number
	var err error
	if p.team() {
		ev := *p.ev
		ev.Teams = slices.Clone(p.ev.Teams)
		ev.Forbidden = slices.Clone(p.ev.Forbidden)
		for i := range ev.Teams {
			ev.Teams[i].Withdrawn = !inRound[ev.Teams[i].ID] || aside[ev.Teams[i].ID]
		}
		for _, f := range forbidden {
			ev.Forbidden = append(ev.Forbidden, teamswiss.ForbiddenGroup{Teams: []string{f[0], f[1]}, FirstRound: round, LastRound: round})
		}
		var pg *teamswiss.Pairing
		if pg, err = teamswiss.Pair(&ev); err == nil {
			for _, b := range pg.Boards {
				out = append(out, [2]string{b.Home, b.Away})
			}
			if pg.Bye != "" {
				out = append(out, [2]string{pg.Bye, ""})
			}
		}
	} else {
		t := *p.t
		t.Players = slices.Clone(p.t.Players)
		t.Forbidden = slices.Clone(p.t.Forbidden)
		for i := range t.Players {
			id := p.idAt(i)
			t.Players[i].Absent = id == "" || !inRound[id] || aside[id]
		}
		for _, f := range forbidden {
			t.Forbidden = append(t.Forbidden, pairing.ForbiddenGroup{Players: []int{p.index[f[0]], p.index[f[1]]}, FirstRound: round, LastRound: round})
		}
		var ps []pairing.Pair
		if ps, err = dutch.Pair(&t); err == nil {
			for _, pr := range ps {
				if pr.Black < 0 {
					out = append(out, [2]string{p.idAt(pr.White), ""})
				} else {
					out = append(out, [2]string{p.idAt(pr.White), p.idAt(pr.Black)})
				}
			}
		}
	}
	if errors.Is(err, dutch.ErrNoPairing) || arbiter.ErrorCode(err) == arbiter.ENOPAIRING {
		return nil, arbiter.Errorf(arbiter.ENOPAIRING, "with these pairs forced and forbidden, no pairing of the others keeps the absolute criteria (C.04.3 C1-C3): swap entrants instead, or discard the round and pair it again")
	}
	if err != nil {
		return nil, err
	}
	if len(out) != len(p.matches) {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "re-pairing round %s made %d matches, not %d", p.rd.ID, len(out), len(p.matches))
	}
	orderBoards(out, p.t, p.index)
	return out, nil
}

// repairedMatch gives a match of a paired round new sides, as PairRound
// would have made it: scheduled, or the bye's result; the teams' board
// lists in formats with board lineups.
func repairedMatch(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, home, away string) error {
	m.Home, m.Away = home, away
	m.Status, m.Result, m.Decision, m.Report, m.ScheduledAt = arbiter.MatchScheduled, nil, "", "", time.Time{}
	m.HomeBoards, m.AwayBoards = nil, nil
	if m.IsBye() {
		byeMatch(st, m)
		return nil
	}
	if st.f.Lineups != format.LineupBoards {
		return nil
	}
	var err error
	if m.HomeBoards, err = pairedBoards(ctx, q, st, m.Home); err != nil {
		return err
	}
	m.AwayBoards, err = pairedBoards(ctx, q, st, m.Away)
	return err
}

// byeMatch makes m the pairing-allocated bye: final, worth a win's match
// points.
func byeMatch(st *state, m *arbiter.Match) {
	bye := score.ByeOutcome(stageMatch(st.f, m.Stage).MatchPoints)
	m.Status, m.Decision, m.Result = arbiter.MatchFinal, "bye", &bye
}

// roundEdits lists the edits of the round's current pairing, in order.
func roundEdits(ctx context.Context, q sqlstore.Queryer, st *state, rd arbiter.Round) ([]PairingEdit, error) {
	all, err := docPairingEdit.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	var out []PairingEdit
	for _, e := range all {
		if e.Round == rd.ID && e.PairedAt.Equal(rd.PairedAt) && !e.Discarded {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b PairingEdit) int { return editNumber(a.ID) - editNumber(b.ID) })
	return out, nil
}

// editNumber is n of an edit's ID "s1r3en".
func editNumber(id string) int {
	n, _ := strconv.Atoi(id[strings.LastIndexByte(id, 'e')+1:])
	return n
}

// discardEdits marks the edits of a round's pairing discarded with it, so
// that the round paired again starts from the engine's pairing.
func discardEdits(ctx context.Context, tx *sqlstore.Tx, st *state, rd arbiter.Round, ch sqlstore.Change) error {
	recs, err := docPairingEdit.records(ctx, tx, st.row.ID)
	if err != nil {
		return err
	}
	for _, r := range recs {
		e := r.Value
		if e.Round != rd.ID || e.Discarded {
			continue
		}
		e.Discarded = true
		if _, err := docPairingEdit.update(ctx, tx, ch, st, e.ID, r.Version, e); err != nil {
			return err
		}
	}
	return nil
}
