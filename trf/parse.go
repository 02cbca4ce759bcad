package trf

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"arbiter"
)

// maxLine bounds one line; a longer one is not a TRF record (9,990 rounds
// fit in 100,000 columns) and would only cost memory.
const maxLine = 100_000

// Parse reads a TRF-2016, TRF-2026 or TRF(x) file. Lines may end in CR, LF
// or CRLF; blank lines are skipped. A malformed known record returns a
// *SyntaxError; unknown records are kept verbatim in Records.
func Parse(r io.Reader) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &arbiter.Error{Code: arbiter.EINTERNAL, Message: "cannot read TRF input", Err: err} // the reader failed, not the data
	}
	for bytes.HasPrefix(data, bom) { // a UTF-8 byte order mark is not part of line 1
		data = data[len(bom):]
	}
	p := &parser{f: &File{TeamPoints: DefaultTeamPointSystem()}, ps: map[string]arbiter.Points{}}
	for i, text := range splitLines(data) {
		if trim(text) == "" {
			continue
		}
		if len(text) > maxLine {
			return nil, errorf(i+1, maxLine+1, "line", "line longer than %d bytes", maxLine)
		}
		if err := p.record(newLine(i+1, text)); err != nil {
			return nil, err
		}
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	return p.f, nil
}

var bom = []byte("\ufeff")

// splitLines splits on CRLF, CR or LF.
func splitLines(data []byte) []string {
	s := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

type parser struct {
	f          *File
	ps         map[string]arbiter.Points // point-system values set explicitly
	roundsFrom string                    // record that set TotalRounds ("XXR"/"142") and its line
	roundsLine int
	colourFrom string
	colourLine int
	teams013   int
	seen       map[int]int // player start number -> line
}

// recordID returns the normalised identifier (columns 1-3, upper case).
func recordID(text string) string {
	if strings.HasPrefix(text, "###") {
		return "###"
	}
	id := text
	if len(id) > 3 {
		id = id[:3]
	}
	return strings.ToUpper(id)
}

// trf26Records exist only in TRF-2026; one of them makes the file a 2026 one.
var trf26Records = map[string]bool{
	"###": true, "142": true, "152": true, "162": true, "172": true, "182": true, "192": true,
	"202": true, "212": true, "222": true, "240": true, "250": true, "260": true, "299": true,
	"300": true, "310": true, "320": true, "330": true, "352": true, "362": true, "801": true, "802": true,
}

func (p *parser) record(l *line) error {
	id := recordID(l.text)
	rec := Record{Line: l.num, ID: id, Text: l.text}
	if trf26Records[id] {
		p.f.Version = 2026
	}
	h, known := handlers[id]
	if known {
		if l.len() > 3 && l.at(4) != ' ' {
			return errorf(l.num, 4, id+" record", "the record identifier must be followed by a blank")
		}
		if err := h(p, l); err != nil {
			return err
		}
		rec.Known = true
	}
	p.f.Records = append(p.f.Records, rec)
	return nil
}

type handler func(p *parser, l *line) error

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"001": (*parser).player,
		"012": text(func(f *File) *string { return &f.Name }),
		"022": text(func(f *File) *string { return &f.City }),
		"032": text(func(f *File) *string { return &f.Federation }),
		"042": text(func(f *File) *string { return &f.StartDate }),
		"052": text(func(f *File) *string { return &f.EndDate }),
		"062": text(func(f *File) *string { return &f.NumPlayers }),
		"072": text(func(f *File) *string { return &f.NumRated }),
		"082": text(func(f *File) *string { return &f.NumTeams }),
		"092": text(func(f *File) *string { return &f.Type }),
		"102": text(func(f *File) *string { return &f.ChiefArbiter }),
		"112": func(p *parser, l *line) error {
			p.f.DeputyArbiters = append(p.f.DeputyArbiters, l.rest(5))
			return nil
		},
		"122": text(func(f *File) *string { return &f.TimeControl }),
		"132": (*parser).roundDates,
		"142": (*parser).rounds,
		"152": (*parser).colour152,
		"162": (*parser).scoring162,
		"172": text(func(f *File) *string { return &f.StartingRankMethod }),
		"182": text(func(f *File) *string { return &f.PairingController }),
		"192": text(func(f *File) *string { return &f.TournamentCode }),
		"202": tieBreaks(func(f *File) *[]string { return &f.TieBreaks }),
		"212": tieBreaks(func(f *File) *[]string { return &f.StandingTieBreaks }),
		"222": text(func(f *File) *string { return &f.EncodedTimeControl }),
		"240": (*parser).bye240,
		"250": (*parser).accel250,
		"260": (*parser).forbid260,
		"300": (*parser).boardOrder,
		"310": (*parser).team310,
		"013": (*parser).team013,
		"320": (*parser).teamBye,
		"330": (*parser).teamForfeit,
		"352": text(func(f *File) *string { return &f.BoardColours }),
		"362": (*parser).scoring362,
		"XXR": (*parser).rounds,
		"XXC": (*parser).colourXXC,
		"XXP": (*parser).forbidXXP,
		"XXZ": (*parser).absentXXZ,
		"XXA": (*parser).accelXXA,
		"XXS": (*parser).scoringXXS,
		"BBW": bb("win"), "BBD": bb("draw"), "BBL": bb("loss"),
		"BBZ": bb("zpb"), "BBF": bb("floss"), "BBU": bb("pab"),
	}
}

func text(field func(*File) *string) handler {
	return func(p *parser, l *line) error {
		*field(p.f) = l.rest(5)
		return nil
	}
}

func tieBreaks(field func(*File) *[]string) handler {
	return func(p *parser, l *line) error {
		var list []string
		for _, s := range strings.Split(l.rest(5), ",") {
			if s = trim(s); s != "" {
				list = append(list, s)
			}
		}
		*field(p.f) = list
		return nil
	}
}

// roundDates reads 132: a date per round on the results grid (cols 92-99, 102-109, ...).
func (p *parser) roundDates(l *line) error {
	var dates []string
	for c := 92; c <= l.len(); c += 10 {
		if err := l.blank("132 round dates", c+8, c+9); err != nil {
			return err
		}
		dates = append(dates, l.field(c, c+7))
	}
	if l.field(5, 91) != "" {
		return errorf(l.num, l.firstNonBlank(5, 91), "132 round dates", "round dates start at column 92")
	}
	for len(dates) > 0 && dates[len(dates)-1] == "" {
		dates = dates[:len(dates)-1]
	}
	p.f.RoundDates = dates
	return nil
}

// rounds reads XXR or 142 (number of rounds).
func (p *parser) rounds(l *line) error {
	id := recordID(l.text)
	name := id + " number of rounds"
	s := l.rest(5)
	if s == "" {
		return errorf(l.num, 5, name, "missing number of rounds")
	}
	n, err := l.atoi(name, l.firstNonBlank(5, l.len()), s)
	if err != nil {
		return err
	}
	if n > 9999 {
		return errorf(l.num, 5, name, "more than 9999 rounds")
	}
	if p.roundsFrom != "" && n != p.f.TotalRounds {
		return errorf(l.num, 5, name, "%d rounds contradicts %d given by %s on line %d", n, p.f.TotalRounds, p.roundsFrom, p.roundsLine)
	}
	p.f.TotalRounds, p.roundsFrom, p.roundsLine = n, id, l.num
	return nil
}

func (p *parser) setColour(l *line, id string, col int, c byte) error {
	if p.colourFrom != "" && c != p.f.InitialColour {
		return errorf(l.num, col, id+" initial colour", "contradicts the colour given by %s on line %d", p.colourFrom, p.colourLine)
	}
	p.f.InitialColour, p.colourFrom, p.colourLine = c, id, l.num
	return nil
}

// colour152 reads "152 W" or "152 B".
func (p *parser) colour152(l *line) error {
	switch s := strings.ToUpper(l.rest(5)); s {
	case "W":
		return p.setColour(l, "152", 5, 'w')
	case "B":
		return p.setColour(l, "152", 5, 'b')
	default:
		return errorf(l.num, l.firstNonBlank(5, l.len()), "152 initial colour", "want W or B, found %q", l.rest(5))
	}
}

// colourXXC reads "XXC [rank] white1|black1".
func (p *parser) colourXXC(l *line) error {
	for _, t := range l.tokens(5) {
		switch strings.ToLower(t.s) {
		case "white1":
			if err := p.setColour(l, "XXC", t.col, 'w'); err != nil {
				return err
			}
		case "black1":
			if err := p.setColour(l, "XXC", t.col, 'b'); err != nil {
				return err
			}
		case "rank":
			p.f.RankColour = true
		default:
			return errorf(l.num, t.col, "XXC initial colour", "want white1, black1 or rank, found %q", t.s)
		}
	}
	return nil
}

// bb reads bbpPairings' BBW/BBD/BBL/BBZ/BBF/BBU point values.
func bb(key string) handler {
	return func(p *parser, l *line) error {
		id := recordID(l.text)
		s := l.rest(5)
		if s == "" {
			return errorf(l.num, 5, id+" points", "missing points value")
		}
		v, err := l.parsePoints(id+" points", l.firstNonBlank(5, l.len()), s)
		if err != nil {
			return err
		}
		p.ps[key] = v
		return nil
	}
}

// symbolValues reads "W 1.0    D 0.5" or "TW 2 TD 1": symbol / value pairs,
// separated by blanks or written together ("W1.0").
func (l *line) symbolValues(name string, symbols []string) ([][2]string, []int, error) {
	var pairs [][2]string
	var cols []int
	toks := l.tokens(5)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		up := strings.ToUpper(t.s)
		sym := ""
		for _, s := range symbols {
			if strings.HasPrefix(up, s) && len(s) > len(sym) {
				sym = s
			}
		}
		if sym == "" {
			return nil, nil, errorf(l.num, t.col, name, "unknown symbol %q (want one of %s)", t.s, strings.Join(symbols, " "))
		}
		val, col := t.s[len(sym):], t.col+len(sym)
		if val == "" {
			if i+1 >= len(toks) {
				return nil, nil, errorf(l.num, t.col, name, "symbol %s has no points value", sym)
			}
			i++
			val, col = toks[i].s, toks[i].col
		}
		pairs = append(pairs, [2]string{sym, val})
		cols = append(cols, col)
	}
	return pairs, cols, nil
}

// scoring162 reads the TRF-2026 individual scoring system.
func (p *parser) scoring162(l *line) error {
	const name = "162 scoring system"
	pairs, cols, err := l.symbolValues(name, []string{"W", "D", "L", "A", "P", "X"})
	if err != nil {
		return err
	}
	for i, sv := range pairs {
		v, err := l.parsePoints(name, cols[i], sv[1])
		if err != nil {
			return err
		}
		switch sv[0] {
		case "W":
			p.ps["win"] = v
		case "D":
			p.ps["draw"] = v
		case "L":
			p.ps["loss"] = v
		case "A":
			p.ps["zpb"], p.ps["floss"] = v, v
		case "P":
			p.ps["pab"] = v
		case "X": // unknown result: counts as a draw; nothing to store
		}
	}
	return nil
}

// xxsKeys maps JaVaFo XXS codes to point-system keys.
var xxsKeys = map[string][]string{
	"W": {"win"}, "D": {"draw"}, "WW": {"win"}, "BW": {"win"}, "WD": {"draw"}, "BD": {"draw"},
	"WL": {"loss"}, "BL": {"loss"}, "ZPB": {"zpb"}, "HPB": {"hpb"}, "FPB": {"fpb"},
	"PAB": {"pab"}, "FW": {"fwin"}, "FL": {"floss"},
}

// scoringXXS reads "XXS CODE=VALUE ...". Colour-specific codes (WW, BW)
// must agree: the model has one value per result.
func (p *parser) scoringXXS(l *line) error {
	const name = "XXS scoring"
	for _, t := range l.tokens(5) {
		code, val, ok := strings.Cut(t.s, "=")
		keys := xxsKeys[strings.ToUpper(code)]
		if !ok || keys == nil {
			return errorf(l.num, t.col, name, "want CODE=VALUE with CODE one of W D WW BW WD BD WL BL ZPB HPB FPB PAB FW FL, found %q", t.s)
		}
		v, err := l.parsePoints(name, t.col+len(code)+1, val)
		if err != nil {
			return err
		}
		for _, k := range keys {
			p.ps[k] = v
		}
	}
	return nil
}

// scoring362 reads the team match-point system (TW, TD, TL).
func (p *parser) scoring362(l *line) error {
	const name = "362 team scoring"
	pairs, cols, err := l.symbolValues(name, []string{"TW", "TD", "TL"})
	if err != nil {
		return err
	}
	for i, sv := range pairs {
		v, err := l.parsePoints(name, cols[i], sv[1])
		if err != nil {
			return err
		}
		switch sv[0] {
		case "TW":
			p.f.TeamPoints.Win = v
		case "TD":
			p.f.TeamPoints.Draw = v
		case "TL":
			p.f.TeamPoints.Loss = v
		}
	}
	return nil
}

// forbidXXP reads "XXP id id ...": the players may not meet each other.
func (p *parser) forbidXXP(l *line) error {
	ids, err := l.ids("XXP forbidden pair", 5)
	if err != nil {
		return err
	}
	if len(ids) < 2 {
		return errorf(l.num, 5, "XXP forbidden pair", "want at least two start numbers")
	}
	p.f.ForbiddenPairs = append(p.f.ForbiddenPairs, Forbidden{IDs: ids, Record: "XXP"})
	return nil
}

// forbid260 reads "260 FFF LLL id id ...": prohibited pairings in rounds FFF..LLL.
func (p *parser) forbid260(l *line) error {
	const name = "260 prohibited pairing"
	if err := l.blank(name, 8, 12); err != nil {
		return err
	}
	first, err := l.int(name+" first round (cols 5-7)", 5, 7)
	if err != nil {
		return err
	}
	last, err := l.int(name+" last round (cols 9-11)", 9, 11)
	if err != nil {
		return err
	}
	if last != 0 && first > last {
		return errorf(l.num, 9, name, "last round %d before first round %d", last, first)
	}
	ids, err := l.ids(name, 13)
	if err != nil {
		return err
	}
	if len(ids) < 2 {
		return errorf(l.num, 13, name, "want at least two start numbers")
	}
	p.f.ForbiddenPairs = append(p.f.ForbiddenPairs, Forbidden{FirstRound: first, LastRound: last, IDs: ids, Record: "260"})
	return nil
}

// absentXXZ reads "XXZ id id ...".
func (p *parser) absentXXZ(l *line) error {
	ids, err := l.ids("XXZ absent players", 5)
	if err != nil {
		return err
	}
	p.f.Absent = append(p.f.Absent, ids...)
	return nil
}

// accelXXA reads "XXA NNNN pp.p pp.p ...": points per round from round 1.
func (p *parser) accelXXA(l *line) error {
	const name = "XXA acceleration"
	toks := l.tokens(5)
	if len(toks) == 0 {
		return errorf(l.num, 5, name, "missing start number")
	}
	id, err := l.atoi(name+" start number", toks[0].col, toks[0].s)
	if err != nil {
		return err
	}
	a := Acceleration{Player: id}
	for _, t := range toks[1:] {
		v, err := l.parsePoints(name, t.col, t.s)
		if err != nil {
			return err
		}
		a.Points = append(a.Points, v)
	}
	p.f.Accelerations = append(p.f.Accelerations, a)
	return nil
}

// bye240 reads "240 T RRR id id ...".
func (p *parser) bye240(l *line) error {
	const name = "240 bye"
	b := ByeRecord{Type: byte(l.at(5))}
	switch b.Type {
	case 'F', 'H', 'Z':
	case 'f', 'h', 'z':
		b.Type -= 'a' - 'A'
	default:
		return errorf(l.num, 5, name+" type (col 5)", "want F, H or Z, found %q", l.at(5))
	}
	if err := l.blank(name, 6, 10); err != nil {
		return err
	}
	var err error
	if b.Round, err = l.int(name+" round (cols 7-9)", 7, 9); err != nil {
		return err
	}
	if b.Round == 0 {
		return errorf(l.num, 7, name+" round (cols 7-9)", "missing round number")
	}
	if b.IDs, err = l.ids(name, 11); err != nil {
		return err
	}
	p.f.Byes = append(p.f.Byes, b)
	return nil
}

// accel250 reads "250 MMMM GGGG FFF LLL IIII JJJJ".
func (p *parser) accel250(l *line) error {
	const name = "250 acceleration"
	if err := l.blank(name, 9, 14, 18, 22, 27); err != nil {
		return err
	}
	if l.len() > 31 {
		if err := l.blank(name, 32); err != nil {
			return err
		}
		if s := l.rest(32); s != "" {
			return errorf(l.num, l.firstNonBlank(32, l.len()), name, "unexpected text after column 31")
		}
	}
	var a AccelerationRange
	var err error
	if a.MatchPoints, err = l.points(name+" match points (cols 5-8)", 5, 8); err != nil {
		return err
	}
	if a.GamePoints, err = l.points(name+" game points (cols 10-13)", 10, 13); err != nil {
		return err
	}
	if a.FirstRound, err = l.int(name+" first round (cols 15-17)", 15, 17); err != nil {
		return err
	}
	if a.LastRound, err = l.int(name+" last round (cols 19-21)", 19, 21); err != nil {
		return err
	}
	if a.FirstID, err = l.int(name+" first participant (cols 23-26)", 23, 26); err != nil {
		return err
	}
	if a.LastID, err = l.int(name+" last participant (cols 28-31)", 28, 31); err != nil {
		return err
	}
	p.f.AccelerationRanges = append(p.f.AccelerationRanges, a)
	return nil
}

// boardOrder reads "300 RRR TTT OOO id id ...".
func (p *parser) boardOrder(l *line) error {
	const name = "300 board order"
	if err := l.blank(name, 8, 12, 16); err != nil {
		return err
	}
	var b BoardOrder
	var err error
	if b.Round, err = l.int(name+" round (cols 5-7)", 5, 7); err != nil {
		return err
	}
	if b.Team, err = l.int(name+" team (cols 9-11)", 9, 11); err != nil {
		return err
	}
	if b.Opponent, err = l.int(name+" opponent (cols 13-15)", 13, 15); err != nil {
		return err
	}
	if b.Players, err = l.ids(name, 17); err != nil {
		return err
	}
	p.f.BoardOrders = append(p.f.BoardOrders, b)
	return nil
}

// team310 reads the TRF-2026 team record.
func (p *parser) team310(l *line) error {
	const name = "310 team"
	if err := l.blank(name, 8, 41, 47, 54, 61, 68, 72, 73); err != nil {
		return err
	}
	t := Team{Record: "310", Name: l.field(9, 40), Nickname: l.field(42, 46), Strength: l.field(48, 53)}
	var err error
	if t.Number, err = l.int(name+" number (cols 5-7)", 5, 7); err != nil {
		return err
	}
	if t.MatchPoints, err = l.points(name+" match points (cols 55-60)", 55, 60); err != nil {
		return err
	}
	if t.GamePoints, err = l.points(name+" game points (cols 62-67)", 62, 67); err != nil {
		return err
	}
	if t.Rank, err = l.int(name+" rank (cols 69-71)", 69, 71); err != nil {
		return err
	}
	if t.Members, err = l.ids(name+" members (cols 74-)", 74); err != nil {
		return err
	}
	p.f.Teams = append(p.f.Teams, t)
	return nil
}

// team013 reads the TRF-2016 team record: name, then member start numbers.
func (p *parser) team013(l *line) error {
	const name = "013 team"
	p.teams013++
	t := Team{Record: "013", Number: p.teams013, Name: l.field(5, 36)}
	var err error
	if t.Members, err = l.ids(name+" members (cols 37-)", 37); err != nil {
		return err
	}
	p.f.Teams = append(p.f.Teams, t)
	return nil
}

// teamBye reads "320 MMMM GGGG T1 T2 ...": team PABs, 3 columns per round every 4.
func (p *parser) teamBye(l *line) error {
	const name = "320 team bye"
	if err := l.blank(name, 9, 14); err != nil {
		return err
	}
	var b TeamBye
	var err error
	if b.MatchPoints, err = l.points(name+" match points (cols 5-8)", 5, 8); err != nil {
		return err
	}
	if b.GamePoints, err = l.points(name+" game points (cols 10-13)", 10, 13); err != nil {
		return err
	}
	for c := 15; c <= l.len(); c += 4 {
		if err := l.blank(name, c+3); err != nil {
			return err
		}
		n, err := l.int(fmt.Sprintf("%s round %d (cols %d-%d)", name, (c-15)/4+1, c, c+2), c, c+2)
		if err != nil {
			return err
		}
		b.Teams = append(b.Teams, n)
	}
	for len(b.Teams) > 0 && b.Teams[len(b.Teams)-1] == 0 {
		b.Teams = b.Teams[:len(b.Teams)-1]
	}
	p.f.TeamByes = append(p.f.TeamByes, b)
	return nil
}

// teamForfeit reads "330 RR RRR WWW BBB".
func (p *parser) teamForfeit(l *line) error {
	const name = "330 forfeited match"
	toks := l.tokens(5)
	if len(toks) != 4 {
		return errorf(l.num, 5, name, "want a result (+-, -+, --), a round, the White and the Black team")
	}
	f := TeamForfeit{Result: toks[0].s}
	if f.Result != "+-" && f.Result != "-+" && f.Result != "--" {
		return errorf(l.num, toks[0].col, name, "want +-, -+ or --, found %q", f.Result)
	}
	nums := []*int{&f.Round, &f.White, &f.Black}
	for i, t := range toks[1:] {
		n, err := l.atoi(name, t.col, t.s)
		if err != nil {
			return err
		}
		*nums[i] = n
	}
	p.f.TeamForfeits = append(p.f.TeamForfeits, f)
	return nil
}

// player reads an 001 record.
func (p *parser) player(l *line) error {
	if err := l.blank("001 player", 4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91); err != nil {
		return err
	}
	pl := Player{
		Sex:    l.field(10, 10),
		Title:  l.field(11, 13),
		Name:   l.field(15, 47),
		Fed:    l.field(54, 56),
		FideID: l.field(58, 68),
		Birth:  l.field(70, 79),
	}
	var err error
	if l.field(5, 8) == "" {
		return errorf(l.num, 5, "001 starting rank (cols 5-8)", "missing starting rank")
	}
	if pl.ID, err = l.int("001 starting rank (cols 5-8)", 5, 8); err != nil {
		return err
	}
	if pl.ID == 0 {
		return errorf(l.num, 5, "001 starting rank (cols 5-8)", "starting rank must be 1-9999")
	}
	if p.seen == nil {
		p.seen = map[int]int{}
	}
	if prev, dup := p.seen[pl.ID]; dup {
		return errorf(l.num, 5, "001 starting rank (cols 5-8)", "starting rank %d already used on line %d", pl.ID, prev)
	}
	p.seen[pl.ID] = l.num
	if pl.Rating, err = l.int("001 rating (cols 49-52)", 49, 52); err != nil {
		return err
	}
	if pl.Points, err = l.points("001 points (cols 81-84)", 81, 84); err != nil {
		return err
	}
	if pl.Rank, err = l.int("001 rank (cols 86-89)", 86, 89); err != nil {
		return err
	}
	for c, r := 92, 1; c <= l.len(); c, r = c+10, r+1 {
		rd, err := l.round(c, r)
		if err != nil {
			return err
		}
		pl.Rounds = append(pl.Rounds, rd)
	}
	for n := len(pl.Rounds); n > 0 && pl.Rounds[n-1] == (Round{Colour: '-', Result: ' '}); n-- {
		pl.Rounds = pl.Rounds[:n-1]
	}
	p.f.Players = append(p.f.Players, pl)
	return nil
}

// round reads round r's field starting at column c: "OOOO C R".
func (l *line) round(c, r int) (Round, error) {
	name := fmt.Sprintf("001 round %d", r)
	if err := l.blank(name, c+4, c+6, c+8, c+9); err != nil {
		return Round{}, err
	}
	var rd Round
	var err error
	if rd.Opponent, err = l.int(fmt.Sprintf("%s opponent (cols %d-%d)", name, c, c+3), c, c+3); err != nil {
		return Round{}, err
	}
	switch col := l.at(c + 5); col {
	case 'w', 'W':
		rd.Colour = 'w'
	case 'b', 'B':
		rd.Colour = 'b'
	case '-', ' ':
		rd.Colour = '-'
	default:
		return Round{}, errorf(l.num, c+5, fmt.Sprintf("%s colour (col %d)", name, c+5), "want w, b or -, found %q", col)
	}
	res := l.at(c + 7)
	if res >= 'a' && res <= 'z' {
		res -= 'a' - 'A'
	}
	if res > 127 || !strings.ContainsRune("10=+-WDLHFUZ ", res) {
		return Round{}, errorf(l.num, c+7, fmt.Sprintf("%s result (col %d)", name, c+7), "want one of 1 0 = + - W D L H F U Z or blank, found %q", l.at(c+7))
	}
	rd.Result = byte(res)
	return rd, nil
}

// finish applies defaults that depend on the whole file.
func (p *parser) finish() error {
	f := p.f
	if f.Version == 0 {
		f.Version = 2016
	}
	f.PointSystem = derivePointSystem(p.ps)
	return nil
}

// derivePointSystem fills the values not set explicitly: forfeit wins,
// full-point byes and PABs are worth a win, half-point byes a draw
// (bbpPairings and TRF-2026 162 semantics).
func derivePointSystem(set map[string]arbiter.Points) PointSystem {
	d := DefaultPointSystem()
	get := func(k string, def arbiter.Points) arbiter.Points {
		if v, ok := set[k]; ok {
			return v
		}
		return def
	}
	ps := PointSystem{
		Win:         get("win", d.Win),
		Draw:        get("draw", d.Draw),
		Loss:        get("loss", d.Loss),
		ForfeitLoss: get("floss", d.ForfeitLoss),
		ZeroBye:     get("zpb", d.ZeroBye),
	}
	ps.ForfeitWin = get("fwin", ps.Win)
	ps.FullBye = get("fpb", ps.Win)
	ps.PAB = get("pab", ps.Win)
	ps.HalfBye = get("hpb", ps.Draw)
	return ps
}
