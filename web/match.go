package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/negotiation"
)

// matchData is the match page: the public result for anyone, and for the
// match's players or captains (and the event's TDs) the negotiation,
// reports and the forms they may use.
type matchData struct {
	*matchInfo
	Roles app.Roles
	// Side is the side the user acts for ("home", "away"), Role the role
	// they act in; both empty for a visitor. Member is set for a member
	// of one of the teams who is not its captain (they read, the captain
	// acts).
	Side, Role string
	Member     bool
	Individual bool
	Parts      []arbiter.PartResult
	// Lineups is who plays each board or set of a team match, as the
	// user may see it (match_lineups.go); ScoreRows the result's parts
	// with those players, ScorePlayers when any is known.
	Lineups      *matchLineups
	ScoreRows    []scoreRow
	ScorePlayers bool

	// Negotiation: HasNegotiation when the format has time offers; Offers
	// their history, Accept the opponent's times the user may accept.
	HasNegotiation bool
	// NoneSuitable: the rules let the sides declare that no offered time
	// suits and offer more (A5).
	NoneSuitable  bool
	Negotiation   *negotiation.State
	Offers        []offerRow
	Accept        []offerRow
	OfferDeadline time.Time // the last minute to offer in (inclusive)
	OfferSlots    []int     // the time inputs of the offer form
	// Boards are the boards' negotiations where each board is negotiated
	// apart (A5); empty otherwise.
	Boards []boardNegotiation
	// ReplyHours is how soon an offer should be answered (W14: 24,
	// "preferably"); 0 when the rules ask for no reply time.
	ReplyHours int

	// Reports are shown to the sides and TDs only.
	Reports     []arbiter.Report
	ShowReports bool
	// Pending is the report awaiting an answer; CanAnswer when the user is
	// its opponent (the reporter's own side cannot confirm it).
	Pending   *arbiter.Report
	CanAnswer bool
	OwnReport bool

	Open          bool // round published, match scheduled: offers and reports
	CanAppeal     bool // round closed: the sides may appeal (app checks the window)
	HasArmageddon bool
	Armageddon    *app.Armageddon
	// CanSeal and CanReveal: the user's side has not bid yet; both bids
	// are in and the user's is still sealed.
	CanSeal, CanReveal bool
	SheetExample       string
	Now                time.Time
	// Games are the games Arbiter created on Lichess for the match, in
	// the order they were created (issue 14).
	Games []app.CreatedGame
	// Entry is the result form (match_entry.go) for a side while the
	// match is open.
	Entry *entryView
}

// offerRow is one offered start time.
type offerRow struct {
	By   string // the entrant's (or board player's) name
	Mine bool
	At   time.Time
	Made time.Time
	// ReplyBy is when the opponent should answer it (W14: within 24 h,
	// preferably); zero when the rules ask for no reply time.
	ReplyBy time.Time
}

func (s *Server) matchPage(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	d, err := s.matchView(r, slug, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	title := fmt.Sprintf("Match %s: %s – %s", d.M.ID, entrantName(d.Home), entrantName(d.Away))
	if d.M.IsBye() {
		title = fmt.Sprintf("Match %s: %s (bye)", d.M.ID, entrantName(d.Home))
	}
	s.render(w, r, http.StatusOK, "match", page{Title: title, Nav: "home", Data: d})
}

// matchView gathers the match page's data for the requesting user: one
// read of app (app.MatchView, one transaction), laid out for the page.
func (s *Server) matchView(r *http.Request, slug, id string) (*matchData, error) {
	v, err := s.app.MatchView(r.Context(), currentUser(r), slug, id)
	if err != nil {
		return nil, err
	}
	mi := &matchInfo{Ev: v.Event, F: v.Format, M: v.Match, Round: v.Round, Home: v.Home, Away: v.Away, Entrants: v.Entrants}
	d := &matchData{matchInfo: mi, Roles: v.Roles, Individual: mi.F.Entrant == "individual", Now: v.Now, OfferSlots: []int{0, 1, 2},
		Side: v.Side, Role: v.Role, Member: v.Member, Lineups: v.Lineups, Open: v.Open, CanAppeal: v.CanAppeal,
		ShowReports: v.ShowReports, Reports: v.Reports, Pending: v.Pending, OwnReport: v.OwnReport, CanAnswer: v.CanAnswer,
		HasArmageddon: v.HasArmageddon, Armageddon: v.Armageddon, CanSeal: v.CanSeal, CanReveal: v.CanReveal}
	if res := mi.M.Result; res != nil {
		d.Parts = res.Parts
		if len(res.Sets) > 0 {
			d.Parts = res.Sets
		}
	}
	d.Games = v.Games
	d.ScoreRows = scoreRows(d.Parts, d.Lineups)
	d.ScorePlayers = slices.ContainsFunc(d.ScoreRows, func(r scoreRow) bool { return r.HomePlayer != "" || r.AwayPlayer != "" })
	mf := mi.F.Stages[mi.M.Stage].MatchFor(mi.M.Format)
	boards := 0
	if ts := mi.F.TeamSize(mi.Ev.Entrants); ts != nil {
		boards = *ts // the format's board count (A9), whatever the lists say
	}
	d.SheetExample = sheetExample(mf, mi.M, d.Lineups, boards)
	if v.Entry != nil {
		d.Entry = newEntryView(*v.Entry, entrantName(mi.Home), entrantName(mi.Away), nil, nil)
		d.Entry.ID, d.Entry.Action, d.Entry.Check = "result-entry", matchURL(slug, mi.M.ID)+"/report", matchURL(slug, mi.M.ID)+"/check"
		d.Entry.Submit = "Report the result"
	}

	if rules, ok := negotiation.RulesFromFormat(mi.F); ok && v.HasNegotiation {
		d.HasNegotiation, d.NoneSuitable = true, rules.RetryOffers > 0
		// The calendar's deadline is exclusive; the rules (W14 "Friday
		// 23:59") and the page name its last minute.
		d.OfferDeadline = deadlineOf(v.Window.OfferDeadline)
		d.ReplyHours = int(rules.ReplyWindow.Hours())
		if v.ByBoard {
			user := ""
			if u := currentUser(r); u != nil {
				user = strings.ToLower(u.LichessUsername)
			}
			d.boardNegotiations(v.Boards, user)
		} else if v.Negotiation != nil {
			d.Negotiation = &v.Negotiation.State
			d.offers(&v.Negotiation.State)
		}
	}
	return d, nil
}

// offers lists the offer history, and the opponent's offers still to come
// that the user may accept while no time is agreed.
func (d *matchData) offers(st *negotiation.State) {
	names := [2]string{entrantName(d.Home), entrantName(d.Away)}
	mine := negotiation.Player(-1)
	switch d.Side {
	case "home":
		mine = negotiation.PlayerA
	case "away":
		mine = negotiation.PlayerB
	}
	for _, o := range st.Offers {
		row := offerRow{By: names[o.By], Mine: o.By == mine, At: o.At, Made: o.Made, ReplyBy: replyBy(st, o)}
		d.Offers = append(d.Offers, row)
		if mine >= 0 && o.By != mine && st.Outcome == negotiation.Open && o.At.After(d.Now) &&
			!slices.ContainsFunc(d.Accept, func(x offerRow) bool { return x.At.Equal(o.At) }) {
			d.Accept = append(d.Accept, row)
		}
	}
}

func entrantName(e arbiter.Entrant) string {
	if e.Name != "" {
		return e.Name
	}
	if e.ID == "" {
		return "–"
	}
	return e.ID
}

// sheetExample is a match sheet of the match's format with every game
// drawn, for the report form: the captain edits the results. It names
// the players of each board or set the user may see (ml), and leaves out
// those not known; a team_boards sheet has the format's boards.
func sheetExample(mf *format.Match, m arbiter.Match, ml *matchLineups, boards int) string {
	part := func(p format.Part) map[string]any {
		return map[string]any{"tc": p.TC.String(), "results": strings.TrimSpace(strings.Repeat("= ", p.Games))}
	}
	players := func(x map[string]any, label string) {
		h, a := ml.PlayerOf(label)
		if h != "" {
			x["home_player"] = h
		}
		if a != "" {
			x["away_player"] = a
		}
	}
	var sheet any
	switch mf.Kind {
	case "team_boards":
		n := max(boards, len(m.HomeBoards), len(m.AwayBoards), 1)
		var boards []map[string]any
		for b := 1; b <= n; b++ {
			var parts []map[string]any
			for _, p := range mf.Parts {
				parts = append(parts, part(p))
			}
			x := map[string]any{"board": b, "parts": parts}
			players(x, fmt.Sprintf("board %d", b))
			boards = append(boards, x)
		}
		sheet = map[string]any{"boards": boards}
	case "team_sets":
		var sets []map[string]any
		for _, p := range mf.Parts {
			x := part(p)
			players(x, p.TC.String())
			sets = append(sets, x)
		}
		sheet = map[string]any{"sets": sets}
	default:
		var parts []map[string]any
		for _, p := range mf.Parts {
			parts = append(parts, part(p))
		}
		sheet = map[string]any{"parts": parts}
	}
	b, _ := json.MarshalIndent(sheet, "", " ")
	return string(b)
}
