package export_test

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"arbiter/export"
)

// write resolves o against s and writes it.
func write(t *testing.T, s *export.Snapshot, o export.Options) []byte {
	t.Helper()
	r, err := export.Resolve(s, o)
	if err != nil {
		t.Fatalf("Resolve(%+v): %v", o, err)
	}
	var b bytes.Buffer
	if err := export.Write(&b, s, r); err != nil {
		t.Fatalf("Write(%+v): %v", r, err)
	}
	return b.Bytes()
}

var posts = []struct {
	name string
	team bool
	o    export.Options
}{
	{"swiss-state.md", false, export.Options{Format: "markdown"}},
	{"swiss-pairings-r1.md", false, export.Options{Format: "markdown", What: "pairings", Round: 1}},
	{"swiss-pairings-r3.md", false, export.Options{Format: "markdown", What: "pairings"}},
	{"swiss-results-r1.md", false, export.Options{Format: "markdown", What: "results", Round: 1}},
	{"swiss-results-r2.md", false, export.Options{Format: "markdown", What: "results", Round: 2}},
	{"swiss-standings.md", false, export.Options{Format: "markdown", What: "standings"}},
	{"swiss-entrants.md", false, export.Options{Format: "markdown", What: "entrants"}},
	{"team-state.md", true, export.Options{Format: "markdown"}},
	{"team-pairings-r1.md", true, export.Options{Format: "markdown", What: "pairings", Stage: 1, Round: 1}},
	{"team-results-final.md", true, export.Options{Format: "markdown", What: "results", Stage: 2, Round: 1}},
	{"team-standings.md", true, export.Options{Format: "markdown", What: "standings", Stage: 1}},
	{"team-entrants.md", true, export.Options{Format: "markdown", What: "entrants"}},
}

func snapshotFor(t *testing.T, team bool) *export.Snapshot {
	if team {
		return teamSnapshot(t)
	}
	return swissSnapshot(t)
}

func TestMarkdownGolden(t *testing.T) {
	t.Parallel()
	for _, c := range posts {
		golden(t, c.name, write(t, snapshotFor(t, c.team), c.o))
	}
}

// render converts a post as the forum's markdown (CommonMark with GitHub
// tables) to HTML and returns its tables as a reader sees them: rows of
// cell texts, header first, a link as its text followed by "<url>".
func render(t *testing.T, src []byte) [][][]string {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	var out bytes.Buffer
	if err := md.Convert(src, &out); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	// No name may turn into emphasis or code by accident: underscores,
	// stars and backquotes in names stay text. The only bold is the
	// state post's own.
	if strings.Contains(page, "<em>") || strings.Contains(page, "<code>") ||
		strings.Count(page, "<strong>") != bytes.Count(src, []byte("**"))/2 {
		t.Errorf("unexpected emphasis in the rendered post:\n%s", page)
	}
	var tables [][][]string
	for _, tb := range tableRe.FindAllStringSubmatch(page, -1) {
		var rows [][]string
		for _, tr := range rowRe.FindAllStringSubmatch(tb[1], -1) {
			var cells []string
			for _, td := range cellRe.FindAllStringSubmatch(tr[1], -1) {
				c := linkRe.ReplaceAllString(td[1], "$2\x00$1\x01")
				c = tagRe.ReplaceAllString(c, "")
				c = strings.NewReplacer("\x00", "<", "\x01", ">").Replace(c)
				cells = append(cells, strings.TrimSpace(html.UnescapeString(c)))
			}
			rows = append(rows, cells)
		}
		tables = append(tables, rows)
	}
	return tables
}

var (
	tableRe = regexp.MustCompile(`(?s)<table>(.*?)</table>`)
	rowRe   = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRe  = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	linkRe  = regexp.MustCompile(`<a href="([^"]*)">(.*?)</a>`)
	tagRe   = regexp.MustCompile(`<[^>]+>`)
)

func TestMarkdownRendersTables(t *testing.T) {
	t.Parallel()
	for _, c := range posts {
		src := write(t, snapshotFor(t, c.team), c.o)
		tables := render(t, src)
		if c.name == "swiss-state.md" || c.name == "team-state.md" {
			if len(tables) != 0 {
				t.Errorf("%s: the state post has %d tables", c.name, len(tables))
			}
			continue
		}
		if len(tables) == 0 {
			t.Fatalf("%s: no table rendered from\n%s", c.name, src)
		}
		for _, tb := range tables {
			for i, row := range tb {
				if len(row) != len(tb[0]) {
					t.Errorf("%s: row %d has %d cells, the header %d: %q", c.name, i, len(row), len(tb[0]), row)
				}
			}
		}
	}
	// The cells as a reader sees them.
	s := swissSnapshot(t)
	pair := render(t, write(t, s, export.Options{Format: "markdown", What: "pairings", Round: 3}))[0]
	wantPair := [][]string{
		{"Board", "White", "Black", "Agreed time (UTC)", "Match"},
		{"1", "@alice", "@dave", "2026-01-21 19:30", "match page<https://arbiter.example/events/spring-open/matches/s1r3b1>"},
		{"2", "@carol", "@bob", "2026-01-20 20:00", "match page<https://arbiter.example/events/spring-open/matches/s1r3b2>"},
	}
	checkCells(t, "pairings round 3", pair, wantPair)
	res := render(t, write(t, s, export.Options{Format: "markdown", What: "results", Round: 1}))[0]
	wantRes := [][]string{
		{"Board", "White", "Result", "Black", "Games", "Match"},
		{"1", "alice", "6–4", "carol", "1<https://lichess.org/abcd1234> 2<https://lichess.org/efgh5678>", "match page<https://arbiter.example/events/spring-open/matches/s1r1b1>"},
		{"2", "dave", "5–5 (full draw)", "bob", "–", "match page<https://arbiter.example/events/spring-open/matches/s1r1b2>"},
		{"3", "eve_x", "bye (1)", "bye", "–", "–"},
	}
	checkCells(t, "results round 1", res, wantRes)
	team := teamSnapshot(t)
	tp := render(t, write(t, team, export.Options{Format: "markdown", What: "pairings", Stage: 1, Round: 1}))[0]
	if got, want := tp[1][1], "Knights, Inc. | A (@k_one)"; got != want {
		t.Errorf("team pairing home cell = %q, want %q (escapes undone, captain mentioned)", got, want)
	}
	fin := render(t, write(t, team, export.Options{Format: "markdown", What: "results", Stage: 2, Round: 1}))[0]
	if got, want := fin[1][0:4], []string{"1 (final)", "Knights, Inc. | A", "1–2 sets (353.5–366.5)", "=Rooks"}; strings.Join(got, "/") != strings.Join(want, "/") {
		t.Errorf("final row = %q, want %q", got, want)
	}
	st := render(t, write(t, s, export.Options{Format: "markdown", What: "standings"}))[0]
	if got := strings.Join(st[0], "/"); got != "Rank/Player/Score/cumulative/median buchholz" {
		t.Errorf("standings header = %s", got)
	}
	if got := strings.Join(st[3], "/"); got != "3=/bob/1/1.5/1" {
		t.Errorf("standings row 3 = %s", got)
	}
}

func checkCells(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d: %q", what, len(got), len(want), got)
		return
	}
	for i := range want {
		if strings.Join(got[i], " ¦ ") != strings.Join(want[i], " ¦ ") {
			t.Errorf("%s row %d:\n got %q\nwant %q", what, i, got[i], want[i])
		}
	}
}
