package trf

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"arbiter"
)

// Write writes the file with LF line endings. Known records are regenerated
// from the fields at the place where their kind first appeared in Records
// (in a canonical order for kinds the file did not have); unknown records
// are copied verbatim. Equivalent records are written in the form the file
// used (XXR and/or 142, XXC and/or 152, BB* and/or 162); a file built in
// code uses the TRF-2026 records when Version is 2026, the TRF(x) ones
// otherwise. Values that do not fit their columns make Write fail with an
// EINVALID *arbiter.Error naming the field.
func (f *File) Write(w io.Writer) error {
	lines, err := f.lines()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// String returns the file as Write writes it, or the error text.
func (f *File) String() string {
	var b strings.Builder
	if err := f.Write(&b); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// group is a kind of record regenerated from File fields.
type group struct {
	ids  []string // record identifiers that anchor the group
	emit func(f *File, has map[string]bool) ([]string, error)
}

// groups in canonical order (the order used for kinds a file did not have).
var groups = []group{
	textGroup("012", func(f *File) string { return f.Name }),
	textGroup("022", func(f *File) string { return f.City }),
	textGroup("032", func(f *File) string { return f.Federation }),
	textGroup("042", func(f *File) string { return f.StartDate }),
	textGroup("052", func(f *File) string { return f.EndDate }),
	textGroup("062", func(f *File) string { return f.NumPlayers }),
	textGroup("072", func(f *File) string { return f.NumRated }),
	textGroup("082", func(f *File) string { return f.NumTeams }),
	textGroup("092", func(f *File) string { return f.Type }),
	textGroup("102", func(f *File) string { return f.ChiefArbiter }),
	{[]string{"112"}, func(f *File, has map[string]bool) ([]string, error) {
		var out []string
		for _, s := range f.DeputyArbiters {
			l, err := textLine("112", s)
			if err != nil {
				return nil, err
			}
			out = append(out, l...)
		}
		return out, nil
	}},
	textGroup("122", func(f *File) string { return f.TimeControl }),
	{[]string{"132"}, (*File).roundDatesLines},
	{[]string{"142"}, func(f *File, has map[string]bool) ([]string, error) {
		if has["142"] || (!has["XXR"] && f.TotalRounds != 0 && f.Version == 2026) {
			return []string{"142 " + strconv.Itoa(f.TotalRounds)}, nil
		}
		return nil, nil
	}},
	{[]string{"152"}, func(f *File, has map[string]bool) ([]string, error) {
		if f.InitialColour != 0 && (has["152"] || (!has["XXC"] && f.Version == 2026 && !f.RankColour)) {
			return []string{"152 " + strings.ToUpper(string(f.InitialColour))}, nil
		}
		return nil, nil
	}},
	{[]string{"162", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "XXS"}, (*File).pointLines},
	textGroup("172", func(f *File) string { return f.StartingRankMethod }),
	textGroup("182", func(f *File) string { return f.PairingController }),
	textGroup("192", func(f *File) string { return f.TournamentCode }),
	listGroup("202", func(f *File) []string { return f.TieBreaks }),
	listGroup("212", func(f *File) []string { return f.StandingTieBreaks }),
	textGroup("222", func(f *File) string { return f.EncodedTimeControl }),
	textGroup("352", func(f *File) string { return f.BoardColours }),
	{[]string{"362"}, func(f *File, has map[string]bool) ([]string, error) {
		// A zero value means the defaults, unless the file had a 362
		// record (which may well set every value to 0).
		tp := f.TeamPoints
		if !has["362"] && (tp == TeamPointSystem{} || tp == DefaultTeamPointSystem()) {
			return nil, nil
		}
		// Same 9-column grid as 162: symbols at cols 5, 14, 23, values after them.
		return []string{fmt.Sprintf("362 TW%4s   TD%4s   TL%4s", fmtPoints(tp.Win), fmtPoints(tp.Draw), fmtPoints(tp.Loss))}, nil
	}},
	{[]string{"XXR"}, func(f *File, has map[string]bool) ([]string, error) {
		if has["XXR"] || (!has["142"] && f.TotalRounds != 0 && f.Version != 2026) {
			return []string{"XXR " + strconv.Itoa(f.TotalRounds)}, nil
		}
		return nil, nil
	}},
	{[]string{"XXC"}, func(f *File, has map[string]bool) ([]string, error) {
		if !has["XXC"] && (f.InitialColour == 0 || has["152"] || f.Version == 2026) && !f.RankColour {
			return nil, nil
		}
		var words []string
		if f.RankColour {
			words = append(words, "rank")
		}
		switch f.InitialColour {
		case 'w':
			words = append(words, "white1")
		case 'b':
			words = append(words, "black1")
		case 0:
		default:
			return nil, arbiter.FieldError("InitialColour", "TRF XXC", "initial colour must be 'w', 'b' or 0, not %q", f.InitialColour)
		}
		return []string{strings.TrimRight("XXC "+strings.Join(words, " "), " ")}, nil
	}},
	{[]string{"XXP", "260"}, (*File).forbiddenLines},
	{[]string{"XXZ"}, func(f *File, has map[string]bool) ([]string, error) {
		if len(f.Absent) == 0 {
			return nil, nil
		}
		return []string{"XXZ" + idList(f.Absent, 0)}, nil
	}},
	{[]string{"XXA"}, func(f *File, has map[string]bool) ([]string, error) {
		var out []string
		for _, a := range f.Accelerations {
			s := fmt.Sprintf("XXA %4d", a.Player)
			for _, p := range a.Points {
				s += fmt.Sprintf(" %4s", fmtPoints(p))
			}
			out = append(out, s)
		}
		return out, nil
	}},
	{[]string{"240"}, func(f *File, has map[string]bool) ([]string, error) {
		var out []string
		for _, b := range f.Byes {
			if !strings.ContainsRune("FHZ", rune(b.Type)) || b.Type == 0 {
				return nil, arbiter.FieldError("Byes", "TRF 240 col 5", "bye type must be F, H or Z, not %q", b.Type)
			}
			if b.Round < 1 || b.Round > 999 {
				return nil, arbiter.FieldError("Byes", "TRF 240 cols 7-9", "round must be 1-999")
			}
			out = append(out, fmt.Sprintf("240 %c %3d", b.Type, b.Round)+idList(b.IDs, 4))
		}
		return out, nil
	}},
	{[]string{"250"}, (*File).accelRangeLines},
	{[]string{"013", "310"}, (*File).teamLines},
	{[]string{"320"}, (*File).teamByeLines},
	{[]string{"330"}, func(f *File, has map[string]bool) ([]string, error) {
		var out []string
		for _, t := range f.TeamForfeits {
			if t.Result != "+-" && t.Result != "-+" && t.Result != "--" {
				return nil, arbiter.FieldError("TeamForfeits", "TRF 330 cols 5-6", "result must be +-, -+ or --, not %q", t.Result)
			}
			if t.Round < 0 || t.White < 0 || t.Black < 0 {
				return nil, arbiter.FieldError("TeamForfeits", "TRF 330", "negative number")
			}
			out = append(out, fmt.Sprintf("330 %s %3d %3d %3d", t.Result, t.Round, t.White, t.Black))
		}
		return out, nil
	}},
	{[]string{"300"}, func(f *File, has map[string]bool) ([]string, error) {
		var out []string
		for _, b := range f.BoardOrders {
			for _, n := range []int{b.Round, b.Team, b.Opponent} {
				if n < 0 || n > 999 {
					return nil, arbiter.FieldError("BoardOrders", "TRF 300 cols 5-15", "round and team numbers must be 0-999")
				}
			}
			s := fmt.Sprintf("300 %3d %3d %3d", b.Round, b.Team, b.Opponent)
			for _, p := range b.Players {
				if p == 0 {
					s += " 0000" // an empty board
				} else {
					s += fmt.Sprintf(" %4d", p)
				}
			}
			out = append(out, s)
		}
		return out, nil
	}},
	{[]string{"001"}, (*File).playerLines},
}

// groupOf maps a record identifier to its index in groups.
var groupOf = func() map[string]int {
	m := map[string]int{}
	for i, g := range groups {
		for _, id := range g.ids {
			m[id] = i
		}
	}
	return m
}()

func textGroup(id string, get func(*File) string) group {
	return group{[]string{id}, func(f *File, has map[string]bool) ([]string, error) {
		v := get(f)
		if v == "" && !has[id] {
			return nil, nil
		}
		return textLine(id, v)
	}}
}

func listGroup(id string, get func(*File) []string) group {
	return group{[]string{id}, func(f *File, has map[string]bool) ([]string, error) {
		v := get(f)
		if len(v) == 0 && !has[id] {
			return nil, nil
		}
		for _, s := range v {
			if strings.Contains(s, ",") || trim(s) != s || s == "" {
				return nil, arbiter.FieldError("record "+id, "TRF "+id, "tie-break %q must be non-empty, without commas or surrounding blanks", s)
			}
		}
		return textLine(id, strings.Join(v, ","))
	}}
}

// textLine writes "ID value"; the value must stay on one line.
func textLine(id, v string) ([]string, error) {
	if strings.ContainsAny(v, "\r\n") {
		return nil, arbiter.FieldError("record "+id, "TRF "+id, "value must not contain a line break")
	}
	if v == "" {
		return []string{id}, nil
	}
	return []string{id + " " + v}, nil
}

func idList(ids []int, width int) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, " %*d", width, id)
	}
	return b.String()
}

// with returns a copy of m with k set to v.
func with(m map[string]arbiter.Points, k string, v arbiter.Points) map[string]arbiter.Points {
	c := make(map[string]arbiter.Points, len(m)+1)
	for kk, vv := range m {
		c[kk] = vv
	}
	c[k] = v
	return c
}

// fmtPoints writes a score with at least one decimal: 1.0, 0.5, 0.25.
func fmtPoints(p arbiter.Points) string {
	s := p.String()
	if p%arbiter.Point == 0 {
		s += ".0"
	}
	return s
}

// fitPoints formats p in at most width characters, dropping the ".0" or a
// leading zero when needed ("100", "-.75").
func fitPoints(p arbiter.Points, width int) (string, bool) {
	for _, s := range []string{fmtPoints(p), p.String(), strings.Replace(p.String(), "0.", ".", 1)} {
		if len(s) <= width {
			return s, true
		}
	}
	return "", false
}

func (f *File) roundDatesLines(has map[string]bool) ([]string, error) {
	if len(f.RoundDates) == 0 && !has["132"] {
		return nil, nil
	}
	var c cells
	c.put(1, "132")
	for i, d := range f.RoundDates {
		if err := c.left(92+10*i, 8, d, fmt.Sprintf("round %d date", i+1), "TRF 132"); err != nil {
			return nil, err
		}
	}
	l, err := c.render()
	return []string{l}, err
}

func (f *File) accelRangeLines(has map[string]bool) ([]string, error) {
	var out []string
	for i, a := range f.AccelerationRanges {
		var c cells
		c.put(1, "250")
		field := fmt.Sprintf("AccelerationRanges[%d]", i)
		if a.MatchPoints != 0 {
			if err := c.points(5, 4, a.MatchPoints, field, "TRF 250 cols 5-8"); err != nil {
				return nil, err
			}
		}
		if a.GamePoints != 0 {
			if err := c.points(10, 4, a.GamePoints, field, "TRF 250 cols 10-13"); err != nil {
				return nil, err
			}
		}
		for _, n := range []struct{ col, width, v int }{{15, 3, a.FirstRound}, {19, 3, a.LastRound}, {23, 4, a.FirstID}, {28, 4, a.LastID}} {
			if err := c.num(n.col, n.width, n.v, field, "TRF 250"); err != nil {
				return nil, err
			}
		}
		l, err := c.render()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// teamLines writes 310 and 013 records in Teams order (one group, so that
// interleaved kinds keep their order).
func (f *File) teamLines(has map[string]bool) ([]string, error) {
	var out []string
	for i, t := range f.Teams {
		record := t.Record
		if record == "" {
			record = "310"
		}
		field := fmt.Sprintf("Teams[%d]", i)
		var c cells
		c.put(1, record)
		if record == "013" {
			if err := c.left(5, 32, t.Name, field+".Name", "TRF 013 cols 5-36"); err != nil {
				return nil, err
			}
			if err := c.members(37, t.Members, field+".Members", "TRF 013 cols 37-"); err != nil {
				return nil, err
			}
		} else {
			if err := c.num(5, 3, t.Number, field+".Number", "TRF 310 cols 5-7"); err != nil {
				return nil, err
			}
			for _, s := range []struct {
				col, width int
				v, name    string
			}{{9, 32, t.Name, "Name"}, {42, 5, t.Nickname, "Nickname"}} {
				if err := c.left(s.col, s.width, s.v, field+"."+s.name, "TRF 310"); err != nil {
					return nil, err
				}
			}
			if err := c.right(48, 6, t.Strength, field+".Strength", "TRF 310 cols 48-53"); err != nil {
				return nil, err
			}
			if err := c.points(55, 6, t.MatchPoints, field+".MatchPoints", "TRF 310 cols 55-60"); err != nil {
				return nil, err
			}
			if err := c.points(62, 6, t.GamePoints, field+".GamePoints", "TRF 310 cols 62-67"); err != nil {
				return nil, err
			}
			if t.Rank != 0 {
				if err := c.num(69, 3, t.Rank, field+".Rank", "TRF 310 cols 69-71"); err != nil {
					return nil, err
				}
			}
			if err := c.members(74, t.Members, field+".Members", "TRF 310 cols 74-"); err != nil {
				return nil, err
			}
		}
		l, err := c.render()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// forbiddenLines writes XXP and 260 records in ForbiddenPairs order.
func (f *File) forbiddenLines(has map[string]bool) ([]string, error) {
	var out []string
	for _, fp := range f.ForbiddenPairs {
		if fp.Record == "XXP" || (fp.Record == "" && fp.FirstRound == 0 && fp.LastRound == 0 && f.Version != 2026) {
			out = append(out, "XXP"+idList(fp.IDs, 0))
			continue
		}
		if fp.FirstRound > 999 || fp.LastRound > 999 || fp.FirstRound < 0 || fp.LastRound < 0 {
			return nil, arbiter.FieldError("ForbiddenPairs", "TRF 260 cols 5-11", "rounds must be 0-999")
		}
		out = append(out, fmt.Sprintf("260 %3d %3d", fp.FirstRound, fp.LastRound)+idList(fp.IDs, 4))
	}
	return out, nil
}

func (f *File) teamByeLines(has map[string]bool) ([]string, error) {
	var out []string
	for i, b := range f.TeamByes {
		field := fmt.Sprintf("TeamByes[%d]", i)
		var c cells
		c.put(1, "320")
		if err := c.points(5, 4, b.MatchPoints, field, "TRF 320 cols 5-8"); err != nil {
			return nil, err
		}
		if err := c.points(10, 4, b.GamePoints, field, "TRF 320 cols 10-13"); err != nil {
			return nil, err
		}
		for r, t := range b.Teams {
			if err := c.num(15+4*r, 3, t, field, "TRF 320 cols 15-"); err != nil {
				return nil, err
			}
		}
		l, err := c.render()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// pointLines writes the point system in the records the file used
// (BB*, 162), then an XXS line for any value those records cannot carry.
func (f *File) pointLines(has map[string]bool) ([]string, error) {
	hasBB := has["BBW"] || has["BBD"] || has["BBL"] || has["BBZ"] || has["BBF"] || has["BBU"]
	// A zero value means the defaults, unless the file had point records
	// (which may set every value to 0).
	ps := f.PointSystem
	if ps == (PointSystem{}) && !hasBB && !has["162"] && !has["XXS"] {
		ps = DefaultPointSystem()
	}
	use162, useBB := has["162"], hasBB
	if !use162 && !useBB && !has["XXS"] {
		if ps == DefaultPointSystem() {
			return nil, nil
		}
		use162, useBB = f.Version == 2026, f.Version != 2026
	}
	var out []string
	set := map[string]arbiter.Points{}
	if use162 {
		// Grid of TRF-2026: symbol in column 6, value in 7-10, every 9 columns.
		l := fmt.Sprintf("162  W%4s    D%4s    L%4s", fmtPoints(ps.Win), fmtPoints(ps.Draw), fmtPoints(ps.Loss))
		set["win"], set["draw"], set["loss"] = ps.Win, ps.Draw, ps.Loss
		if ps.ZeroBye != 0 || ps.ForfeitLoss != 0 {
			l += fmt.Sprintf("    A%4s", fmtPoints(ps.ZeroBye))
			set["zpb"], set["floss"] = ps.ZeroBye, ps.ZeroBye
		}
		if ps.PAB != ps.Win {
			l += fmt.Sprintf("    P%4s", fmtPoints(ps.PAB))
			set["pab"] = ps.PAB
		}
		out = append(out, l)
	}
	if useBB {
		for _, kv := range []struct {
			id, key string
			v       arbiter.Points
		}{{"BBW", "win", ps.Win}, {"BBD", "draw", ps.Draw}, {"BBL", "loss", ps.Loss}, {"BBZ", "zpb", ps.ZeroBye}, {"BBF", "floss", ps.ForfeitLoss}, {"BBU", "pab", ps.PAB}} {
			// BBW and BBD always; the others only when they differ
			// from what a reader derives without them.
			if kv.id != "BBW" && kv.id != "BBD" && derivePointSystem(set) == derivePointSystem(with(set, kv.key, kv.v)) {
				continue
			}
			out = append(out, fmt.Sprintf("%s %4s", kv.id, fmtPoints(kv.v)))
			set[kv.key] = kv.v
		}
	}
	if derivePointSystem(set) != ps {
		// The XXS line always carries W and D: the bye and forfeit values
		// default to them, so the other codes are compared after them.
		got := derivePointSystem(with(with(set, "win", ps.Win), "draw", ps.Draw))
		words := []string{"W=" + fmtPoints(ps.Win), "D=" + fmtPoints(ps.Draw)}
		for _, kv := range []struct {
			code         string
			want, actual arbiter.Points
		}{{"WL", ps.Loss, got.Loss}, {"BL", ps.Loss, got.Loss},
			{"ZPB", ps.ZeroBye, got.ZeroBye}, {"HPB", ps.HalfBye, got.HalfBye}, {"FPB", ps.FullBye, got.FullBye},
			{"PAB", ps.PAB, got.PAB}, {"FW", ps.ForfeitWin, got.ForfeitWin}, {"FL", ps.ForfeitLoss, got.ForfeitLoss}} {
			if kv.want != kv.actual {
				words = append(words, kv.code+"="+fmtPoints(kv.want))
			}
		}
		out = append(out, "XXS "+strings.Join(words, " "))
	} else if has["XXS"] && !use162 && !useBB {
		out = append(out, fmt.Sprintf("XXS W=%s D=%s", fmtPoints(ps.Win), fmtPoints(ps.Draw)))
	}
	return out, nil
}

func (f *File) playerLines(has map[string]bool) ([]string, error) {
	out := make([]string, 0, len(f.Players))
	for i := range f.Players {
		l, err := f.Players[i].line()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// line writes the player's 001 record.
func (p *Player) line() (string, error) {
	field := fmt.Sprintf("player %d", p.ID)
	if p.ID < 1 || p.ID > 9999 {
		return "", arbiter.FieldError(field+" ID", "TRF 001 cols 5-8", "starting rank must be 1-9999")
	}
	var c cells
	c.put(1, "001")
	steps := []error{
		c.num(5, 4, p.ID, field+" ID", "TRF 001 cols 5-8"),
		c.left(10, 1, p.Sex, field+" Sex", "TRF 001 col 10"),
		c.right(11, 3, p.Title, field+" Title", "TRF 001 cols 11-13"),
		c.left(15, 33, p.Name, field+" Name", "TRF 001 cols 15-47"),
		c.left(54, 3, p.Fed, field+" Fed", "TRF 001 cols 54-56"),
		c.right(58, 11, p.FideID, field+" FideID", "TRF 001 cols 58-68"),
		c.left(70, 10, p.Birth, field+" Birth", "TRF 001 cols 70-79"),
		c.points(81, 4, p.Points, field+" Points", "TRF 001 cols 81-84"),
	}
	if p.Rating != 0 {
		steps = append(steps, c.num(49, 4, p.Rating, field+" Rating", "TRF 001 cols 49-52"))
	}
	if p.Rank != 0 {
		steps = append(steps, c.num(86, 4, p.Rank, field+" Rank", "TRF 001 cols 86-89"))
	}
	for _, err := range steps {
		if err != nil {
			return "", err
		}
	}
	for i, r := range p.Rounds {
		col := 92 + 10*i
		rf := fmt.Sprintf("%s round %d", field, i+1)
		if r == (Round{Colour: '-', Result: ' '}) {
			continue
		}
		switch r.Colour {
		case 'w', 'b', '-':
		default:
			return "", arbiter.FieldError(rf+" Colour", "TRF 001 round colour", "colour must be 'w', 'b' or '-', not %q", r.Colour)
		}
		if r.Result == 0 || !strings.ContainsRune("10=+-WDLHFUZ ", rune(r.Result)) {
			return "", arbiter.FieldError(rf+" Result", "TRF 001 round result", "result must be one of 1 0 = + - W D L H F U Z or blank, not %q", r.Result)
		}
		if r.Opponent < 0 || r.Opponent > 9999 {
			return "", arbiter.FieldError(rf+" Opponent", "TRF 001 round opponent", "opponent must be 0-9999")
		}
		opp := "0000"
		if r.Opponent != 0 {
			opp = fmt.Sprintf("%4d", r.Opponent)
		}
		c.put(col, fmt.Sprintf("%s %c %c", opp, r.Colour, r.Result))
	}
	return c.render()
}

// cells assembles a fixed-column line. Columns count runes, or bytes when
// a value is not valid UTF-8 (the parser's rule); alignment and widths are
// therefore settled in render, once the mode of the whole line is known.
type cells struct {
	parts []cell
}

type cell struct {
	col, width  int // width 0: free text, no limit
	right       bool
	text        string
	field, rule string
}

func (c *cells) put(col int, text string) { c.parts = append(c.parts, cell{col: col, text: text}) }

func (c *cells) check(v, field, rule string) error {
	if strings.ContainsAny(v, "\r\n") {
		return arbiter.FieldError(field, rule, "value must not contain a line break")
	}
	if trim(v) != v {
		return arbiter.FieldError(field, rule, "%q has surrounding blanks", v)
	}
	return nil
}

func (c *cells) left(col, w int, v, field, rule string) error {
	if err := c.check(v, field, rule); err != nil {
		return err
	}
	if v != "" {
		c.parts = append(c.parts, cell{col, w, false, v, field, rule})
	}
	return nil
}

func (c *cells) right(col, w int, v, field, rule string) error {
	if err := c.check(v, field, rule); err != nil {
		return err
	}
	if v != "" {
		c.parts = append(c.parts, cell{col, w, true, v, field, rule})
	}
	return nil
}

func (c *cells) num(col, w, v int, field, rule string) error {
	if v < 0 {
		return arbiter.FieldError(field, rule, "%d is negative", v)
	}
	return c.right(col, w, strconv.Itoa(v), field, rule)
}

// members writes start numbers every 5 columns from col, 4 wide; a wider
// number shifts the rest (the reader splits the list on blanks).
func (c *cells) members(col int, ids []int, field, rule string) error {
	for _, id := range ids {
		if id < 0 {
			return arbiter.FieldError(field, rule, "%d is negative", id)
		}
	}
	if len(ids) > 0 {
		c.put(col, strings.TrimPrefix(idList(ids, 4), " "))
	}
	return nil
}

func (c *cells) points(col, w int, p arbiter.Points, field, rule string) error {
	s, ok := fitPoints(p, w)
	if !ok {
		return arbiter.FieldError(field, rule, "%s does not fit in %d columns", p, w)
	}
	return c.right(col, w, s, field, rule)
}

// render lays the cells out in column order.
func (c *cells) render() (string, error) {
	byteMode := false
	for _, p := range c.parts {
		if !utf8.ValidString(p.text) {
			byteMode = true
		}
	}
	n := func(s string) int {
		if byteMode {
			return len(s)
		}
		return utf8.RuneCountInString(s)
	}
	parts := make([]cell, len(c.parts))
	for i, p := range c.parts {
		if p.width > 0 {
			if n(p.text) > p.width {
				return "", arbiter.FieldError(p.field, p.rule, "%q is longer than %d characters", p.text, p.width)
			}
			if p.right {
				p.col += p.width - n(p.text)
			}
		}
		parts[i] = p
	}
	// parts are few and mostly in order: insertion sort by column.
	for i := 1; i < len(parts); i++ {
		for j := i; j > 0 && parts[j].col < parts[j-1].col; j-- {
			parts[j], parts[j-1] = parts[j-1], parts[j]
		}
	}
	var b strings.Builder
	cur := 0
	for _, p := range parts {
		if cur > p.col-1 {
			return "", arbiter.Errorf(arbiter.EINTERNAL, "trf: overlapping columns at %d", p.col)
		}
		b.WriteString(strings.Repeat(" ", p.col-1-cur))
		b.WriteString(p.text)
		cur = p.col - 1 + n(p.text)
	}
	return strings.TrimRight(b.String(), " "), nil
}

// lines builds the output lines: groups at their anchors, unknown records
// verbatim, groups the file did not have inserted in canonical order.
func (f *File) lines() ([]string, error) {
	has := map[string]bool{}
	for _, r := range f.Records {
		if r.Known {
			has[r.ID] = true
		}
	}
	type item struct {
		group int // -1 for a raw record
		text  string
	}
	var items []item
	placed := make([]bool, len(groups))
	for _, r := range f.Records {
		g, ok := groupOf[r.ID]
		if !r.Known || !ok {
			if strings.ContainsAny(r.Text, "\r\n") {
				return nil, arbiter.FieldError(fmt.Sprintf("record on line %d", r.Line), "TRF line", "record text must not contain a line break")
			}
			if trim(r.Text) != "" {
				items = append(items, item{-1, r.Text})
			}
			continue
		}
		if !placed[g] {
			placed[g] = true
			items = append(items, item{group: g})
		}
	}
	for g := range groups {
		if placed[g] {
			continue
		}
		at := len(items)
		for i, it := range items {
			if it.group > g {
				at = i
				break
			}
		}
		items = append(items[:at], append([]item{{group: g}}, items[at:]...)...)
	}
	var out []string
	for _, it := range items {
		if it.group < 0 {
			out = append(out, it.text)
			continue
		}
		ls, err := groups[it.group].emit(f, has)
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	return out, nil
}
