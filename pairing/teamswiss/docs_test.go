package teamswiss

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"arbiter"
)

// TestDocExample pairs the worked example of docs/team-swiss.md and checks
// the pairing and the order table the text derives by hand.
func TestDocExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/team-swiss.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	block := func(marker string) string {
		m := regexp.MustCompile("(?s)<!-- teamswiss: " + marker + " -->\\n```json\\n(.*?)```").FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("no %s block", marker)
		}
		return m[1]
	}
	var ev Event
	if err := json.Unmarshal([]byte(block("input")), &ev); err != nil {
		t.Fatal(err)
	}
	p, err := Pair(&ev)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(p)
	if want := strings.TrimSpace(block("output")); string(got) != want {
		t.Errorf("pairing %s, the doc says %s", got, want)
	}

	// | TPN | team | MP | set points | seed | engine rank |
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| (t\d+) \| (\S+) \| (\S+) \| (\d+) \| (\d+) \|$`).FindAllStringSubmatch(doc, -1)
	if len(rows) != len(ev.Teams) {
		t.Fatalf("found %d order rows, want %d", len(rows), len(ev.Teams))
	}
	m, err := build(&ev)
	if err != nil {
		t.Fatal(err)
	}
	order := m.ranked()
	for k, row := range rows {
		tpn, _ := strconv.Atoi(row[1])
		mp, _ := arbiter.ParsePoints(row[3])
		sec, _ := arbiter.ParsePoints(row[4])
		seed, _ := strconv.Atoi(row[5])
		rank, _ := strconv.Atoi(row[6])
		r := order[k]
		if r.TPN != tpn || r.ID != row[2] || r.MatchPoints != mp || r.Secondary != sec || r.Seed != seed {
			t.Errorf("order row %d: got %+v, the doc says %v", k+1, r, row[1:])
		}
		for i, tm := range ev.Teams {
			if tm.ID == row[2] && m.t.Players[i].ID-1 != rank {
				t.Errorf("%s: engine rank %d, the doc says %d", tm.ID, m.t.Players[i].ID-1, rank)
			}
		}
	}
}
