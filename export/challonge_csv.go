package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"arbiter"
)

// Challonge (RKCC R10: set scores, each the game score times the time
// control's factor, are entered into Challonge). Two files for TDs
// without an API key:
//
//   - entrants: the knockout's participants in seed order, one name per
//     line, no header: what Challonge's "Bulk Add" box takes (a comma
//     would start a Challonge username there, so names lose theirs);
//   - results: one line per knockout match with a final result: round,
//     the two sides, the set scores exactly as Challonge's score field
//     takes them ("160-80,144-96,127.5-112.5", player 1 first) and the
//     winner.
//
// The same bracket feeds the API push (package challonge, app/challonge.go).

// ChallongeBracket is a knockout stage as Challonge needs it.
type ChallongeBracket struct {
	// Participants in seed order (Seed 1 first).
	Participants []ChallongeParticipant
	// Matches with a final result, by round and board.
	Matches []ChallongeMatch
}

// ChallongeParticipant is one entrant of the knockout.
type ChallongeParticipant struct {
	Seed int
	ID   string // the entrant's ID (Challonge's "misc" field)
	Name string
}

// ChallongeMatch is a decided knockout match, home first.
type ChallongeMatch struct {
	Round      int
	Match      string // the match ID
	Home, Away string // entrant IDs
	// Scores are the set (or part, or board) scores, home first; one
	// pair with the match totals when the result has no sets.
	Scores []ScorePair
	// Winner is the winning entrant's ID; "" when the result names none.
	Winner string
}

// ScorePair is one set's score, home first.
type ScorePair struct{ Home, Away arbiter.Points }

// ChallongeBracketOf returns the bracket of knockout stage si (0-based).
func ChallongeBracketOf(s *Snapshot, si int) ChallongeBracket {
	var b ChallongeBracket
	if si >= 0 && si < len(s.StageEntrants) {
		for i, id := range s.StageEntrants[si] {
			b.Participants = append(b.Participants, ChallongeParticipant{Seed: i + 1, ID: id, Name: s.name(id)})
		}
	}
	for _, rd := range s.stageRounds(si) {
		for _, m := range s.roundMatches(si, rd.Number) {
			if m.IsBye() || m.Status != arbiter.MatchFinal || m.Result == nil {
				continue
			}
			o := m.Result
			cm := ChallongeMatch{Round: m.Round, Match: m.ID, Home: m.Home, Away: m.Away}
			for _, p := range append(append([]arbiter.PartResult(nil), o.Sets...), o.Parts...) {
				cm.Scores = append(cm.Scores, ScorePair{p.Home, p.Away})
			}
			if len(cm.Scores) == 0 {
				cm.Scores = []ScorePair{{o.Home.Points, o.Away.Points}}
			}
			switch o.Result {
			case "home_win":
				cm.Winner = m.Home
			case "away_win":
				cm.Winner = m.Away
			}
			b.Matches = append(b.Matches, cm)
		}
	}
	return b
}

// ScoresCSV is a match's scores as Challonge's scores_csv takes them,
// player 1 first; flip puts the away side first.
func (m ChallongeMatch) ScoresCSV(flip bool) string {
	parts := make([]string, len(m.Scores))
	for i, p := range m.Scores {
		a, b := p.Home, p.Away
		if flip {
			a, b = b, a
		}
		parts[i] = a.String() + "-" + b.String()
	}
	return strings.Join(parts, ",")
}

// WriteChallonge writes the Challonge file o.What of knockout stage o.Stage.
func WriteChallonge(w io.Writer, s *Snapshot, o Options) error {
	b := ChallongeBracketOf(s, o.Stage-1)
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	switch o.What {
	case Entrants:
		for _, p := range b.Participants {
			// Bulk Add reads "name, username": a comma must not survive.
			name := strings.TrimSpace(strings.ReplaceAll(p.Name, ",", " "))
			if err := cw.Write([]string{text(name)}); err != nil {
				return err
			}
		}
	case Results:
		if err := cw.Write([]string{"Round", "Match", "Player 1", "Player 2", "Scores", "Winner"}); err != nil {
			return err
		}
		for _, m := range b.Matches {
			winner := ""
			if m.Winner != "" {
				winner = s.name(m.Winner)
			}
			row := []string{fmt.Sprint(m.Round), m.Match, text(s.name(m.Home)), text(s.name(m.Away)), m.ScoresCSV(false), text(winner)}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	default:
		return arbiter.FieldError("what", "export.what", "challonge exports results or entrants, not %q", o.What)
	}
	cw.Flush()
	return cw.Error()
}
