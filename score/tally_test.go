package score

import (
	"strings"
	"testing"
)

// A sheet being filled in: the running totals count what is there, the
// missing games are no error, and the rules that do not depend on them
// still refuse it.
func TestTally(t *testing.T) {
	t.Parallel()
	ac := preset(t, "antichess-team-cup")
	load := func(s string) *Sheet {
		sh, err := LoadSheet(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return sh
	}
	// Board 1 has played three 0+2 games (win, win, draw: 6+6+3 = 15 to 3,
	// A18's 6 a win and 3 a draw) and one 2+5 game lost (0 to 12); the
	// other boards nothing yet. Score refuses it, Tally counts it.
	sheet := `{"home": "a", "away": "b", "boards": [
	  {"board": 1, "parts": [{"tc": "0+2", "results": "1 1 ="}, {"tc": "2+5", "results": "0"}, {"tc": "1+2"}]},
	  {"board": 2, "parts": [{"tc": "0+2"}, {"tc": "2+5"}, {"tc": "1+2"}]},
	  {"board": 3, "parts": [{"tc": "0+2"}, {"tc": "2+5"}, {"tc": "1+2"}]},
	  {"board": 4, "parts": [{"tc": "0+2"}, {"tc": "2+5"}, {"tc": "1+2"}]}]}`
	if _, err := Score(ac, "swiss", load(sheet), Options{}); err == nil {
		t.Fatal("Score accepts an incomplete sheet")
	}
	ms, err := Tally(ac, "swiss", load(sheet), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ms.HomePoints != pts(15) || ms.AwayPoints != pts(15) || ms.Decided || ms.Result != "" {
		t.Fatalf("tally %s-%s decided %v result %q", ms.HomePoints, ms.AwayPoints, ms.Decided, ms.Result)
	}
	// A18: 4 boards x 144 = 576 points, 289 decide.
	if ms.WinThreshold != pts(289) || ms.MaxPoints != pts(576) {
		t.Fatalf("threshold %s of %s", ms.WinThreshold, ms.MaxPoints)
	}
	b1 := ms.Boards[0]
	if b1.Home != pts(15) || b1.Away != pts(15) || b1.Parts[0].Games != 3 || b1.Parts[0].Home != pts(15) || b1.Parts[1].Away != pts(12) {
		t.Fatalf("board 1 %+v", b1)
	}
	// An unknown result is refused while typing, at its cell.
	_, err = Tally(ac, "swiss", load(strings.Replace(sheet, `"1 1 ="`, `"1 w ="`, 1)), Options{})
	wantErr(t, err, "boards[0].parts[0].results[1]", "score.result")

	// W4: an ACWC qualification match ends at 5.5 of 10; the sixth win
	// decides it and a seventh game is refused while typing.
	wc := preset(t, "acwc-2023")
	ms, err = Tally(wc, "qualification", load(`{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 ="}]}`), Options{})
	if err != nil || !ms.Decided || ms.DecidedAt != "parts[0].results[5]" || ms.HomePoints != pts(5.5) {
		t.Fatalf("5.5 after six games: %v %+v", err, ms)
	}
	_, err = Tally(wc, "qualification", load(`{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 = 0"}]}`), Options{})
	wantErr(t, err, "parts[0].results[6]", "score.after_decided")
}
