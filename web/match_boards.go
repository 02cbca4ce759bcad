package web

import (
	"slices"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/negotiation"
)

// Where the players of a team match negotiate their times board by board
// (A5: each player offers times to their board opponent), the match page
// shows each board's negotiation and agreed time, and lets each board's
// players, and either team's captain (A16), act on it.

// boardNegotiation is one board's time negotiation on the match page.
type boardNegotiation struct {
	Board      int
	Home, Away string // the board's players ("" when the team's boards are not ranked)
	State      *negotiation.State
	Offers     []offerRow
	Accept     []offerRow
	AgreedAt   time.Time
	// Ruling is the board's result when its negotiation (or a sanction)
	// decided it, in words.
	Ruling string
	// CanAct: the user plays this board or captains one of the teams, and
	// the match is open.
	CanAct bool
}

// boardNegotiations fills d.Boards for a match negotiated board by board
// (negs: each board's negotiation, nil where none started).
func (d *matchData) boardNegotiations(negs []*app.Negotiation, user string) {
	captain := d.Side != "" && d.Role == arbiter.RoleCaptain
	for i, neg := range negs {
		b := i + 1
		bn := boardNegotiation{Board: b}
		if b <= len(d.M.HomeBoards) {
			bn.Home = d.M.HomeBoards[b-1]
		}
		if b <= len(d.M.AwayBoards) {
			bn.Away = d.M.AwayBoards[b-1]
		}
		if b <= len(d.M.BoardTimes) {
			bn.AgreedAt = d.M.BoardTimes[b-1]
		}
		for _, r := range d.M.Rulings {
			if r.Board == b {
				bn.Ruling = forfeitWords(r.Forfeit) + " (" + r.Clause + ")"
			}
		}
		mine := negotiation.Player(-1)
		switch {
		case user != "" && user == bn.Home, captain && d.Side == "home":
			mine = negotiation.PlayerA
		case user != "" && user == bn.Away, captain && d.Side == "away":
			mine = negotiation.PlayerB
		}
		bn.CanAct = d.Open && mine >= 0 && bn.Ruling == ""
		if neg != nil {
			bn.State = &neg.State
			names := [2]string{orName(bn.Home, entrantName(d.Home)), orName(bn.Away, entrantName(d.Away))}
			for _, o := range neg.State.Offers {
				row := offerRow{By: names[o.By], Mine: o.By == mine, At: o.At, Made: o.Made, ReplyBy: replyBy(&neg.State, o)}
				bn.Offers = append(bn.Offers, row)
				if mine >= 0 && o.By != mine && neg.State.Outcome == negotiation.Open && o.At.After(d.Now) &&
					!slices.ContainsFunc(bn.Accept, func(x offerRow) bool { return x.At.Equal(o.At) }) {
					bn.Accept = append(bn.Accept, row)
				}
			}
		}
		d.Boards = append(d.Boards, bn)
	}
}

// replyBy is when an offer should be answered (W14: "preferably within 24
// hours"), zero when the rules ask for no reply time or the negotiation
// is over.
func replyBy(st *negotiation.State, o negotiation.Offer) time.Time {
	if st.Rules.ReplyWindow == 0 || st.Outcome != negotiation.Open {
		return time.Time{}
	}
	return o.Made.Add(st.Rules.ReplyWindow)
}

func orName(player, team string) string {
	if player != "" {
		return player
	}
	return team
}

// forfeitWords turns a ruling's forfeit kind into words.
func forfeitWords(forfeit string) string {
	switch forfeit {
	case "double":
		return "0-0 (double forfeit)"
	case "full_draw":
		return "drawn without play"
	case "home", "away":
		return "forfeited to the " + forfeit + " side"
	}
	return forfeit
}

// offerTableData is what the offer_table template shows: the offers, the
// reply window (W14) and the table's id.
type offerTableData struct {
	Offers     []offerRow
	ReplyHours int
	ID         string
}

func offerTable(offers []offerRow, replyHours int, id string) offerTableData {
	return offerTableData{Offers: offers, ReplyHours: replyHours, ID: id}
}
