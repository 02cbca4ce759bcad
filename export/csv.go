package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"arbiter"
)

// CSV files for spreadsheets: RFC 4180 (CRLF line ends, fields quoted
// when they hold a comma, a quote or a line break), a header row of plain
// column names, UTF-8 without a byte-order mark. Instants are RFC 3339 in
// UTC, scores decimals with a point ("2.5"). A text cell that a
// spreadsheet would take for a formula (starting with =, +, - or @) is
// prefixed with an apostrophe, the spreadsheets' own "this is text" mark.

// WriteCSV writes the table o.What (o as Resolve returned it).
func WriteCSV(w io.Writer, s *Snapshot, o Options) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	var err error
	switch o.What {
	case Standings:
		err = csvStandings(cw, s, o.Stage-1)
	case Pairings:
		err = csvPairings(cw, s, o.Stage-1, o.Round)
	case Results:
		err = csvResults(cw, s, o.Stage-1, o.Round)
	case Entrants:
		err = csvEntrants(cw, s)
	default:
		return arbiter.FieldError("what", "export.what", "csv has no %q table", o.What)
	}
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// text makes a text cell safe to open in a spreadsheet.
func text(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

func csvStandings(cw *csv.Writer, s *Snapshot, si int) error {
	tables := s.stageTables(si)
	head := []string{"Stage", "Pool", "Rank", "Tied", "Entrant", "Name", "Score"}
	if len(tables) > 0 {
		for _, tb := range tables[0].Table.Tiebreaks {
			head = append(head, tb.String())
		}
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, t := range tables {
		for _, r := range t.Table.Rows {
			tied := "no"
			if r.Shared {
				tied = "yes"
			}
			row := []string{fmt.Sprint(si + 1), text(t.Pool), fmt.Sprint(r.Rank), tied, text(r.ID), text(s.name(r.ID)), r.Score.String()}
			for _, v := range r.Values {
				row = append(row, v.String())
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvRounds lists the rounds a pairings or results table covers: the one
// asked for, or every visible round of the stage when round is 0.
func csvRounds(s *Snapshot, si, round int) []arbiter.Round {
	var out []arbiter.Round
	for _, r := range s.stageRounds(si) {
		if round == 0 || r.Number == round {
			out = append(out, r)
		}
	}
	return out
}

func csvPairings(cw *csv.Writer, s *Snapshot, si, round int) error {
	head := []string{"Stage", "Round", "Board", "Pool", "Match", "Home", "Home name", "Away", "Away name", "Agreed time (UTC)", "State", "Match page"}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, rd := range csvRounds(s, si, round) {
		for _, m := range s.roundMatches(si, rd.Number) {
			when := ""
			if !m.ScheduledAt.IsZero() {
				when = m.ScheduledAt.UTC().Format("2006-01-02T15:04:05Z")
			}
			awayName := ""
			if !m.IsBye() {
				awayName = s.name(m.Away)
			}
			row := []string{fmt.Sprint(si + 1), fmt.Sprint(m.Round), fmt.Sprint(m.Board), text(m.Pool), m.ID,
				text(m.Home), text(s.name(m.Home)), text(m.Away), text(awayName), when, words(m.Status), s.matchURL(m.ID)}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	return nil
}

func csvResults(cw *csv.Writer, s *Snapshot, si, round int) error {
	head := []string{"Stage", "Round", "Board", "Match", "Home", "Away", "State", "Result", "Decision",
		"Home match points", "Away match points", "Home points", "Away points", "Home sets won", "Away sets won", "Parts"}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, rd := range csvRounds(s, si, round) {
		for _, m := range s.roundMatches(si, rd.Number) {
			row := []string{fmt.Sprint(si + 1), fmt.Sprint(m.Round), fmt.Sprint(m.Board), m.ID, text(s.name(m.Home)), text(s.nameOrEmpty(m.Away)), words(m.Status)}
			if o := m.Result; o != nil && m.Status == arbiter.MatchFinal {
				var parts []string
				for _, pr := range append(append([]arbiter.PartResult(nil), o.Parts...), o.Sets...) {
					parts = append(parts, pr.TC+" "+pr.Home.String()+"-"+pr.Away.String())
				}
				decision := o.Decision
				if m.Decision == "disregarded" {
					decision = "disregarded"
				}
				row = append(row, words(o.Result), words(decision),
					o.Home.MatchPoints.String(), o.Away.MatchPoints.String(), o.Home.Points.String(), o.Away.Points.String(),
					fmt.Sprint(o.Home.SetsWon), fmt.Sprint(o.Away.SetsWon), strings.Join(parts, "; "))
			} else {
				row = append(row, "", "", "", "", "", "", "", "", "")
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Snapshot) nameOrEmpty(id string) string {
	if id == "" {
		return ""
	}
	return s.name(id)
}

func csvEntrants(cw *csv.Writer, s *Snapshot) error {
	head := []string{"Seed", "Entrant", "Kind", "Name", "Status", "Rating", "Player", "Captain", "Members", "Substitute", "Boards"}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, e := range s.Entrants {
		seed, rating := "", ""
		if e.Seed > 0 {
			seed = fmt.Sprint(e.Seed)
		}
		if e.Rating > 0 {
			rating = fmt.Sprint(e.Rating)
		}
		row := []string{seed, text(e.ID), e.Kind, text(e.Name), words(e.Status), rating, text(e.Player), text(e.Captain),
			text(strings.Join(e.Members, ", ")), text(e.Substitute), text(strings.Join(e.Boards, ", "))}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	return nil
}
