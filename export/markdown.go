package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"arbiter"
	"arbiter/format"
)

// Forum posts as the Lichess forum renders them: GitHub-flavoured tables,
// "@username" mentions (the forum notifies the users named), links in
// [text](url) form and times in UTC. One post per round and kind
// (pairings, results), the standings of a stage, the entrants, and a
// short state of the event. Only the pairings post mentions players:
// it is the one that asks opponents to agree a time.

// WriteMarkdown writes the post o.What (o as Resolve returned it).
func WriteMarkdown(w io.Writer, s *Snapshot, o Options) error {
	bw := bufio.NewWriter(w)
	p := &post{w: bw, s: s}
	switch o.What {
	case Pairings:
		p.pairings(o.Stage-1, o.Round)
	case Results:
		p.results(o.Stage-1, o.Round)
	case Standings:
		p.standings(o.Stage - 1)
	case Entrants:
		p.entrants()
	case State:
		p.state()
	default:
		return arbiter.FieldError("what", "export.what", "markdown has no %q post", o.What)
	}
	return bw.Flush()
}

type post struct {
	w *bufio.Writer
	s *Snapshot
}

func (p *post) line(format string, args ...any) {
	fmt.Fprintf(p.w, format, args...)
	p.w.WriteByte('\n')
}

// heading is the post's title: the event, then what it is about.
func (p *post) heading(what string) {
	p.line("## %s: %s", esc(p.s.Event.Name), what)
	p.line("")
}

// roundTitle names round number of stage si: "round 3" in a one-stage
// event, "qualification round 3" otherwise.
func (p *post) roundTitle(si, number int) string {
	if p.s.stageCount() > 1 {
		return fmt.Sprintf("%s round %d", esc(p.s.stageName(si)), number)
	}
	return fmt.Sprintf("round %d", number)
}

// roundLine is the round's window under the heading.
func (p *post) roundLine(si, number int) {
	w, ok := p.s.window(si, number)
	total := 0
	if si < len(p.s.Event.Stages) {
		total = p.s.Event.Stages[si].Rounds
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Stage %d (%s), round %d of %d", si+1, esc(p.s.stageName(si)), number, total)
	if ok {
		fmt.Fprintf(&b, " · from %s · deadline %s", utc(w.Start), utc(deadlineOf(w.End)))
	}
	p.line("%s", b.String())
	p.line("")
}

// table writes a GitHub-flavoured table; align holds one of "l", "r", "c"
// per column.
func (p *post) table(head []string, align string, rows [][]string) {
	p.line("| %s |", strings.Join(head, " | "))
	seps := make([]string, len(head))
	for i := range seps {
		switch align[i] {
		case 'r':
			seps[i] = "---:"
		case 'c':
			seps[i] = ":---:"
		default:
			seps[i] = "---"
		}
	}
	p.line("|%s|", strings.Join(seps, "|"))
	for _, r := range rows {
		p.line("| %s |", strings.Join(r, " | "))
	}
	p.line("")
}

// sideColumns are the two side headings: White and Black for players
// (the home side plays White), Home and Away for teams (board 1 White).
func (p *post) sideColumns() (string, string) {
	if p.s.team() {
		return "Home", "Away"
	}
	return "White", "Black"
}

// mentionSide is an entrant as the pairings post names it: "@player", or
// "Team name (@captain)" so that the captain is notified.
func (p *post) mentionSide(id string) string {
	e := p.s.entrant(id)
	if e == nil {
		return esc(id)
	}
	if e.Kind == arbiter.EntrantTeam {
		if e.Captain != "" {
			return esc(e.Name) + " (" + mention(e.Captain) + ")"
		}
		return esc(e.Name)
	}
	return mention(e.Player)
}

// plainSide is an entrant's name without a mention.
func (p *post) plainSide(id string) string { return esc(p.s.name(id)) }

// boardCell is the board number, with a knockout match's kind.
func boardCell(m arbiter.Match) string {
	if m.Format != "" {
		return fmt.Sprintf("%d (%s)", m.Board, words(m.Format))
	}
	return fmt.Sprint(m.Board)
}

func (p *post) pairings(si, number int) {
	p.heading(p.roundTitle(si, number) + " pairings")
	p.roundLine(si, number)
	ms := p.s.roundMatches(si, number)
	pools := hasPools(ms)
	white, black := p.sideColumns()
	head := []string{"Board"}
	align := "r"
	if pools {
		head, align = append(head, "Pool"), align+"l"
	}
	head = append(head, white, black, "Agreed time (UTC)", "Match")
	align += "llll"
	var rows [][]string
	for _, m := range ms {
		row := []string{boardCell(m)}
		if pools {
			row = append(row, esc(m.Pool))
		}
		away, when, link := "bye", "–", "–"
		if !m.IsBye() {
			away = p.mentionSide(m.Away)
			link = mdLink("match page", p.s.matchURL(m.ID))
		}
		if !m.ScheduledAt.IsZero() {
			when = m.ScheduledAt.UTC().Format("2006-01-02 15:04")
		}
		rows = append(rows, append(row, p.mentionSide(m.Home), away, when, link))
	}
	if len(rows) == 0 {
		p.line("This round has no matches.")
		return
	}
	p.table(head, align, rows)
	if w, ok := p.s.window(si, number); ok && !w.OfferDeadline.IsZero() {
		p.line("Time offers are due by %s. Agree a time with your opponent on the match page and post it here.", utc(deadlineOf(w.OfferDeadline)))
	} else {
		p.line("Agree a time with your opponent on the match page and post it here.")
	}
	if w, ok := p.s.window(si, number); ok {
		p.line("Every match must be played by %s.", utc(deadlineOf(w.End)))
	}
}

func hasPools(ms []arbiter.Match) bool {
	for _, m := range ms {
		if m.Pool != "" {
			return true
		}
	}
	return false
}

func (p *post) results(si, number int) {
	p.heading(p.roundTitle(si, number) + " results")
	p.roundLine(si, number)
	ms := p.s.roundMatches(si, number)
	pools := hasPools(ms)
	white, black := p.sideColumns()
	head := []string{"Board"}
	align := "r"
	if pools {
		head, align = append(head, "Pool"), align+"l"
	}
	head = append(head, white, "Result", black, "Games", "Match")
	align += "lclll"
	var rows [][]string
	done := 0
	for _, m := range ms {
		row := []string{boardCell(m)}
		if pools {
			row = append(row, esc(m.Pool))
		}
		away, link := "bye", "–"
		if !m.IsBye() {
			away = p.plainSide(m.Away)
			link = mdLink("match page", p.s.matchURL(m.ID))
		}
		if m.Status == arbiter.MatchFinal {
			done++
		}
		rows = append(rows, append(row, p.plainSide(m.Home), resultText(p.s, m), away, p.gameLinks(m.ID), link))
	}
	if len(rows) == 0 {
		p.line("This round has no matches.")
		return
	}
	p.table(head, align, rows)
	p.line("%d of %d results are final.", done, len(ms))
}

// gameLinks are the match's Lichess games as numbered links.
func (p *post) gameLinks(matchID string) string {
	gs := p.s.Games[matchID]
	if len(gs) == 0 {
		return "–"
	}
	links := make([]string, len(gs))
	for i, g := range gs {
		links[i] = mdLink(fmt.Sprint(i+1), g.URL)
	}
	return strings.Join(links, " ")
}

// resultText is a match's result from the home side: the score (sets
// first in a match of sets), then how it came about when not played.
func resultText(s *Snapshot, m arbiter.Match) string {
	if m.Decision == "disregarded" {
		return "disregarded"
	}
	if m.Status != arbiter.MatchFinal || m.Result == nil {
		return words(m.Status)
	}
	o := m.Result
	if m.IsBye() {
		return "bye (" + o.Home.MatchPoints.String() + ")"
	}
	score := o.Home.Points.String() + "–" + o.Away.Points.String()
	if mf := s.stageMatch(m.Stage); mf != nil && mf.Kind == format.TeamSets {
		score = fmt.Sprintf("%d–%d sets (%s)", o.Home.SetsWon, o.Away.SetsWon, score)
	}
	switch {
	case o.Decision == "forfeit_win" || o.Decision == "forfeit_loss":
		score += " (forfeit)"
	case !played(o):
		score += " (" + words(o.Decision) + ")"
	case o.DecidedBy == "tiebreak_games" || o.DecidedBy == "armageddon":
		score += " (after " + words(o.DecidedBy) + ")"
	}
	return score
}

func (p *post) standings(si int) {
	// The tables stand after the stage's last completed round (a round
	// being played counts once it is completed), as the app computes them.
	after := ""
	if rs := p.s.stageRounds(si); len(rs) > 0 {
		done := 0
		for _, r := range rs {
			if r.Status == arbiter.RoundClosed && r.Number == done+1 {
				done = r.Number
			}
		}
		if done > 0 {
			after = fmt.Sprintf(" after round %d", done)
		}
		if last := rs[len(rs)-1]; last.Status != arbiter.RoundClosed {
			after += fmt.Sprintf(" (round %d in progress)", last.Number)
		}
	}
	title := "standings" + after
	if p.s.stageCount() > 1 {
		title = esc(p.s.stageName(si)) + " " + title
	}
	p.heading(title)
	tables := p.s.stageTables(si)
	if len(tables) == 0 {
		p.line("This stage has no standings (a knockout is decided match by match).")
		return
	}
	entrant := "Player"
	if p.s.team() {
		entrant = "Team"
	}
	for _, t := range tables {
		if t.Pool != "" {
			p.line("### Pool %s", esc(t.Pool))
			p.line("")
		}
		head := []string{"Rank", entrant, "Score"}
		align := "rlr"
		for _, tb := range t.Table.Tiebreaks {
			head = append(head, esc(words(tb.String())))
			align += "r"
		}
		var rows [][]string
		for _, r := range t.Table.Rows {
			rank := fmt.Sprint(r.Rank)
			if r.Shared {
				rank += "="
			}
			row := []string{rank, p.plainSide(r.ID), r.Score.String()}
			for _, v := range r.Values {
				row = append(row, v.String())
			}
			rows = append(rows, row)
		}
		if len(rows) == 0 {
			p.line("No entrants.")
			p.line("")
			continue
		}
		p.table(head, align, rows)
	}
	p.line("Score is match points; the other columns are the tiebreaks in the order they apply.")
}

func (p *post) entrants() {
	p.heading("entrants")
	team := p.s.team()
	var rows [][]string
	showStatus := false
	for i := range p.s.Entrants {
		e := &p.s.Entrants[i]
		if e.Status == arbiter.EntrantRejected {
			continue
		}
		if e.Status != arbiter.EntrantApproved {
			showStatus = true
		}
	}
	head := []string{"Seed"}
	align := "r"
	if team {
		head, align = append(head, "Team", "Captain", "Members"), align+"lll"
	} else {
		head, align = append(head, "Player"), align+"l"
	}
	head, align = append(head, "Rating"), align+"r"
	if showStatus {
		head, align = append(head, "Status"), align+"l"
	}
	for i := range p.s.Entrants {
		e := &p.s.Entrants[i]
		if e.Status == arbiter.EntrantRejected {
			continue
		}
		seed, rating := "–", "–"
		if e.Seed > 0 {
			seed = fmt.Sprint(e.Seed)
		}
		if e.Rating > 0 {
			rating = fmt.Sprint(e.Rating)
		}
		row := []string{seed, esc(e.Name)}
		if team {
			members := make([]string, 0, len(e.Members)+1)
			for _, m := range e.Members {
				members = append(members, esc(m))
			}
			if e.Substitute != "" {
				members = append(members, esc(e.Substitute)+" (substitute)")
			}
			row = append(row, esc(e.Captain), strings.Join(members, ", "))
		}
		row = append(row, rating)
		if showStatus {
			row = append(row, words(e.Status))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		p.line("Nobody has registered yet.")
		return
	}
	p.table(head, align, rows)
}

func (p *post) state() {
	s := p.s
	ev := s.Event
	p.heading("state of the event")
	admittedN, pending := 0, 0
	for i := range s.Entrants {
		switch s.Entrants[i].Status {
		case arbiter.EntrantApproved, arbiter.EntrantRemoved:
			admittedN++
		case arbiter.EntrantPending:
			pending++
		}
	}
	noun := "players"
	if s.team() {
		noun = "teams"
	}
	switch ev.Status {
	case arbiter.EventRegistration:
		p.line("**Registration is open.** %d %s approved, %d waiting for approval; the first round starts %s.", admittedN, noun, pending, utc(ev.Start))
		p.line("")
		p.line("%s", linkLine(s, false))
		return
	case arbiter.EventFinished:
		p.line("**Finished.** %d %s took part in %d stages.%s", ev.Entrants, noun, len(ev.Stages), p.winner())
		p.line("")
		p.line("%s", linkLine(s, true))
		return
	}
	si := ev.Stage
	sg := ev.Stages[si]
	rs := s.stageRounds(si)
	var b strings.Builder
	fmt.Fprintf(&b, "**Running.** %d %s · stage %d of %d: %s (%s)", ev.Entrants, noun, si+1, len(ev.Stages), esc(sg.Name), words(sg.Kind))
	if len(rs) == 0 {
		b.WriteString(" · no round published yet")
		p.line("%s", b.String())
	} else {
		last := rs[len(rs)-1]
		fmt.Fprintf(&b, " · round %d of %d %s", last.Number, sg.Rounds, words(last.Status))
		if last.Status != arbiter.RoundClosed {
			fmt.Fprintf(&b, ", deadline %s", utc(deadlineOf(last.End)))
		}
		p.line("%s.", b.String())
		p.line("")
		ms := s.roundMatches(si, last.Number)
		final, reported, agreed, open := 0, 0, 0, 0
		for _, m := range ms {
			switch {
			case m.IsBye():
			case m.Status == arbiter.MatchFinal:
				final++
			case m.Status == arbiter.MatchReported || m.Status == arbiter.MatchDisputed:
				reported++
			case !m.ScheduledAt.IsZero():
				agreed++
			default:
				open++
			}
		}
		p.line("- Round %d: %d matches: %d finished, %d reported and awaiting confirmation or a TD, %d with an agreed time, %d still to schedule.",
			last.Number, final+reported+agreed+open, final, reported, agreed, open)
	}
	if lead := p.leaders(si); lead != "" {
		p.line("- Leaders: %s.", lead)
	}
	p.line("")
	p.line("%s", linkLine(s, true))
}

// leaders lists the top three of the stage's (first) table.
func (p *post) leaders(si int) string {
	ts := p.s.stageTables(si)
	if len(ts) == 0 {
		return ""
	}
	var parts []string
	for _, t := range ts {
		var top []string
		for i, r := range t.Table.Rows {
			if i == 3 {
				break
			}
			rank := fmt.Sprint(r.Rank) + "."
			if r.Shared {
				rank = fmt.Sprint(r.Rank) + "="
			}
			top = append(top, fmt.Sprintf("%s %s %s", rank, p.plainSide(r.ID), r.Score))
		}
		if len(top) == 0 {
			continue
		}
		line := strings.Join(top, " · ")
		if t.Pool != "" {
			line = "pool " + esc(t.Pool) + ": " + line
		}
		parts = append(parts, line)
	}
	return strings.Join(parts, "; ")
}

// winner names the winner of a finished event: the knockout final's
// winner, or the top of the last stage's table.
func (p *post) winner() string {
	s := p.s
	last := len(s.Event.Stages) - 1
	for _, m := range s.Matches {
		if m.Stage == last && m.Format == "final" && m.Status == arbiter.MatchFinal && m.Result != nil {
			switch m.Result.Result {
			case "home_win":
				return " Winner: **" + p.plainSide(m.Home) + "**."
			case "away_win":
				return " Winner: **" + p.plainSide(m.Away) + "**."
			}
		}
	}
	for _, t := range s.stageTables(last) {
		if len(t.Table.Rows) > 0 && t.Pool == "" {
			return " Winner: **" + p.plainSide(t.Table.Rows[0].ID) + "**."
		}
	}
	return ""
}

// linkLine links the event's public pages.
func linkLine(s *Snapshot, started bool) string {
	if s.BaseURL == "" {
		return ""
	}
	links := []string{mdLink("Event", s.url("")), mdLink("Entrants", s.url("/entrants"))}
	if started {
		links = append(links, mdLink("Standings", s.url("/standings")))
		if rs := s.stageRounds(s.Event.Stage); len(rs) > 0 {
			last := rs[len(rs)-1]
			links = append(links, mdLink("Pairings", s.roundURL(last.Stage, last.Number)))
		}
	}
	return strings.Join(links, " · ")
}

// mdLink is [text](url), or the text alone without an address.
func mdLink(text, url string) string {
	if url == "" {
		return text
	}
	return "[" + text + "](" + strings.ReplaceAll(strings.ReplaceAll(url, "(", "%28"), ")", "%29") + ")"
}

// mention is "@user" for a Lichess username (letters, digits, '_' and
// '-', which no markdown rule acts on inside a word); anything else is
// escaped text.
func mention(user string) string {
	for _, r := range user {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return esc(user)
		}
	}
	if user == "" {
		return ""
	}
	return "@" + user
}

// esc escapes text for a markdown table cell or line: every ASCII
// punctuation character markdown may act on gets a backslash, and line
// breaks become spaces (a cell is one line).
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '{', '}', '[', ']', '<', '>', '(', ')', '#', '+', '!', '|', '~', '&':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
