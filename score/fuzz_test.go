package score

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"testing"

	"arbiter"
	"arbiter/format"
)

// fuzzTargets are the preset stages a fuzzed sheet is scored against.
var fuzzTargets = []struct{ preset, stage string }{
	{"rkcc-team-three-tc", "swiss"},
	{"rkcc-team-three-tc", "knockout"},
	{"antichess-team-cup", "swiss"},
	{"antichess-team-cup", "knockout"},
	{"acwc-2023", "qualification"},
	{"acwc-2023", "candidates"},
	{"acwc-2023", "knockout"},
}

// FuzzLoadSheet: LoadSheet and Score never panic; every error is an
// EINVALID *arbiter.Error naming a field and a rule; a scored match keeps
// its totals within the format's points and gives the standings the
// format's match points.
func FuzzLoadSheet(f *testing.F) {
	doc, err := os.ReadFile("../docs/match-sheet.md")
	if err != nil {
		f.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- score: (\\S+) (\\S+) .*? -->\\n```json\\n(.*?)```")
	examples := re.FindAllSubmatch(doc, -1)
	if len(examples) < 6 {
		f.Fatalf("found %d examples in docs/match-sheet.md", len(examples))
	}
	for _, m := range examples {
		for i, tg := range fuzzTargets {
			if tg.preset == string(m[1]) && tg.stage == string(m[2]) {
				f.Add(m[3], uint8(i), uint8(0))
				f.Add(m[3][:len(m[3])/2], uint8(i), uint8(0))
			}
		}
	}
	f.Add([]byte(`{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "home"}, {"board": 2, "forfeit": "away"}, {"board": 3, "forfeit": "double"}]}`), uint8(2), uint8(9))
	f.Add([]byte(`{"home": "a", "away": "b", "forfeit": "full_draw"}`), uint8(3), uint8(0))
	f.Add([]byte(`{"home": "a", "away": "b", "match": "final", "parts": [{"tc": "1+2", "results": "= = = = = = = = = = = ="}], "tie": {"games": "= = = =", "armageddon": {"home_bid": 90, "away_bid": 90, "white": "away", "result": "="}}}`), uint8(6), uint8(0))
	f.Add([]byte(`{"home": "a", "away": "b", "sets": [{"tc": "3+2", "forfeit": "home"}, {"tc": "1.5+1", "results": ["+", "-", "--", "=F", "1", "0", "=", "½", "1-0", "0-1"]}, {"tc": "0.75+0", "forfeit": "full_draw"}]}`), uint8(0), uint8(0))
	tokens := []byte(`{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": 5}]}`)
	f.Add(tokens, uint8(4), uint8(0))
	targets := make([]*format.Format, len(fuzzTargets))
	for i, tg := range fuzzTargets {
		targets[i] = preset(f, tg.preset)
	}
	f.Fuzz(func(t *testing.T, data []byte, target, entrants uint8) {
		i := int(target) % len(fuzzTargets)
		fm, stage := targets[i], fuzzTargets[i].stage
		sh, err := LoadSheet(bytes.NewReader(data))
		if err != nil {
			checkFuzzError(t, "LoadSheet", err)
			if sh != nil {
				t.Fatal("LoadSheet returned a sheet and an error")
			}
			return
		}
		ms, err := Score(fm, stage, sh, Options{Entrants: int(entrants)})
		if err != nil {
			checkFuzzError(t, "Score", err)
			return
		}
		checkScored(t, fm, stage, sh, ms)
	})
}

func checkFuzzError(t *testing.T, what string, err error) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Code != arbiter.EINVALID || e.Field == "" || e.Rule == "" {
		t.Fatalf("%s: error %q is not an EINVALID *arbiter.Error with a field and a rule: %#v", what, err, err)
	}
}

// checkScored holds for every scored match, whatever the sheet.
func checkScored(t *testing.T, fm *format.Format, stage string, sh *Sheet, ms *MatchScore) {
	t.Helper()
	st := fm.StageByName(stage)
	m := st.MatchFor(sh.Match)
	if ms.HomePoints < 0 || ms.AwayPoints < 0 || ms.HomePoints+ms.AwayPoints > ms.MaxPoints {
		t.Fatalf("totals %v-%v outside 0..%v", ms.HomePoints, ms.AwayPoints, ms.MaxPoints)
	}
	mp := m.MatchPoints
	a, b := ms.Standings.A.MatchPoints, ms.Standings.B.MatchPoints
	switch ms.Result {
	case HomeWin:
		if ms.Winner != sh.Home || a != mp.Win || b != mp.Loss {
			t.Fatalf("home win: winner %q, match points %v-%v", ms.Winner, a, b)
		}
	case AwayWin:
		if ms.Winner != sh.Away || a != mp.Loss || b != mp.Win {
			t.Fatalf("away win: winner %q, match points %v-%v", ms.Winner, a, b)
		}
	case Draw, TieUnresolved:
		if ms.Winner != "" || a != mp.Draw || b != mp.Draw {
			t.Fatalf("%s: winner %q, match points %v-%v", ms.Result, ms.Winner, a, b)
		}
	case DoubleLoss:
		if ms.Winner != "" || a != mp.Loss || b != mp.Loss || ms.HomePoints != 0 || ms.AwayPoints != 0 {
			t.Fatalf("double loss: winner %q, match points %v-%v, totals %v-%v", ms.Winner, a, b, ms.HomePoints, ms.AwayPoints)
		}
	default:
		t.Fatalf("result %q", ms.Result)
	}
	if st.Kind != format.Knockout && ms.Result == TieUnresolved {
		t.Fatal("only a knockout can leave a tie to the TDs")
	}
	if ms.Result == Draw && st.Kind == format.Knockout {
		t.Fatal("a knockout match is never a plain draw")
	}
	if ms.Standings.A.Secondary != ms.HomePoints || ms.Standings.B.Secondary != ms.AwayPoints {
		t.Fatalf("standings secondary %v-%v, totals %v-%v", ms.Standings.A.Secondary, ms.Standings.B.Secondary, ms.HomePoints, ms.AwayPoints)
	}
}
