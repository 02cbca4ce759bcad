package score

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"arbiter"
)

// TestDocExamples scores every example of docs/match-sheet.md and checks
// the totals and result its marker states (derived by hand in the text).
func TestDocExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/match-sheet.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- score: (\\S+) (\\S+) (\\S+) (\\S+) (\\S+) -->\\n```json\\n(.*?)```")
	found := re.FindAllStringSubmatch(string(data), -1)
	if len(found) < 6 {
		t.Fatalf("found %d examples, want at least 6", len(found))
	}
	for _, m := range found {
		sh, err := LoadSheet(strings.NewReader(m[6]))
		if err != nil {
			t.Errorf("%s %s: %v", m[1], m[2], err)
			continue
		}
		ms, err := Score(preset(t, m[1]), m[2], sh, Options{})
		if err != nil {
			t.Errorf("%s %s: %v", m[1], m[2], err)
			continue
		}
		h, _ := arbiter.ParsePoints(m[3])
		a, _ := arbiter.ParsePoints(m[4])
		if ms.HomePoints != h || ms.AwayPoints != a || ms.Result != m[5] {
			t.Errorf("%s %s: %v-%v %s, the doc says %v-%v %s", m[1], m[2], ms.HomePoints, ms.AwayPoints, ms.Result, h, a, m[5])
		}
	}
}
