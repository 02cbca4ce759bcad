package export_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"unicode/utf8"

	"arbiter/export"
)

// readCSV reads a file back as a spreadsheet would: RFC 4180 with CRLF
// line ends, every row as wide as the header.
func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	if !utf8.Valid(b) {
		t.Fatal("not UTF-8")
	}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		t.Fatal("starts with a byte-order mark")
	}
	if n := bytes.Count(b, []byte("\n")); n != bytes.Count(b, []byte("\r\n")) {
		t.Fatalf("%d line feeds, %d of them after a CR: lines must end in CRLF", n, bytes.Count(b, []byte("\r\n")))
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = 0 // every row as wide as the first
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("encoding/csv cannot read it back: %v\n%s", err, b)
	}
	return rows
}

func TestCSVReadBack(t *testing.T) {
	t.Parallel()
	s := swissSnapshot(t)
	team := teamSnapshot(t)
	cases := []struct {
		name string
		snap *export.Snapshot
		o    export.Options
		head string
		rows int
		// check holds cells to find: row, column name, value.
		check [][3]string
	}{
		{"standings.csv", s, export.Options{Format: "csv"}, "Stage,Pool,Rank,Tied,Entrant,Name,Score,cumulative,median_buchholz", 5,
			[][3]string{{"1", "Entrant", "alice"}, {"1", "cumulative", "3"}, {"3", "Tied", "yes"}, {"5", "Score", "0.5"}}},
		{"pairings-all.csv", s, export.Options{Format: "csv", What: "pairings"}, "Stage,Round,Board,Pool,Match,Home,Home name,Away,Away name,Agreed time (UTC),State,Match page", 8,
			[][3]string{{"1", "Agreed time (UTC)", "2026-01-07T18:00:00Z"}, {"3", "Away", ""}, {"7", "State", "reported"},
				{"8", "Match page", "https://arbiter.example/events/spring-open/matches/s1r3b2"}}},
		{"results-r2.csv", s, export.Options{Format: "csv", What: "results", Round: 2}, "Stage,Round,Board,Match,Home,Away,State,Result,Decision,Home match points,Away match points,Home points,Away points,Home sets won,Away sets won,Parts", 3,
			[][3]string{{"1", "Decision", "forfeit loss"}, {"1", "Away match points", "1"}, {"2", "Result", "double loss"}, {"3", "Decision", "pairing bye"}}},
		{"results-r3.csv", s, export.Options{Format: "csv", What: "results", Round: 3}, "", 2,
			[][3]string{{"1", "State", "reported"}, {"1", "Result", ""}, {"2", "Parts", "1+2 5-5"}}},
		{"entrants.csv", team, export.Options{Format: "csv", What: "entrants"}, "Seed,Entrant,Kind,Name,Status,Rating,Player,Captain,Members,Substitute,Boards", 3,
			[][3]string{{"1", "Name", "Knights, Inc. | A"}, {"1", "Members", "k_one, k2, k3"}, {"1", "Substitute", "k4"},
				{"2", "Name", "'=Rooks"}}},
		{"team-results.csv", team, export.Options{Format: "csv", What: "results", Stage: 2}, "", 1,
			[][3]string{{"1", "Home sets won", "1"}, {"1", "Away sets won", "2"}, {"1", "Parts", "3+2 100-140; 1.5+1 96-144; 0.75+0 157.5-82.5"}}},
	}
	for _, c := range cases {
		rows := readCSV(t, write(t, c.snap, c.o))
		if c.head != "" && strings.Join(rows[0], ",") != c.head {
			t.Errorf("%s: header\n got %s\nwant %s", c.name, strings.Join(rows[0], ","), c.head)
		}
		if len(rows)-1 != c.rows {
			t.Errorf("%s: %d rows, want %d", c.name, len(rows)-1, c.rows)
			continue
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		for _, ch := range c.check {
			r := int(ch[0][0] - '0')
			i, ok := col[ch[1]]
			if !ok {
				t.Errorf("%s: no column %q", c.name, ch[1])
				continue
			}
			if got := rows[r][i]; got != ch[2] {
				t.Errorf("%s row %d %s = %q, want %q", c.name, r, ch[1], got, ch[2])
			}
		}
	}
}

func TestCSVGolden(t *testing.T) {
	t.Parallel()
	golden(t, "swiss-standings.csv", write(t, swissSnapshot(t), export.Options{Format: "csv"}))
	golden(t, "swiss-results.csv", write(t, swissSnapshot(t), export.Options{Format: "csv", What: "results"}))
	golden(t, "team-entrants.csv", write(t, teamSnapshot(t), export.Options{Format: "csv", What: "entrants"}))
}
