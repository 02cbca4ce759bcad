package format

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
)

// TestLichessPerfAndTeam: lichess.perf names a Lichess perf (the
// variant's, when the games are a variant) and lichess.team a team id.
func TestLichessPerfAndTeam(t *testing.T) {
	t.Parallel()
	base := strings.Replace(minimal, `"stages"`, `"variant": "antichess", "lichess": {"games": "off"}, "stages"`, 1)
	if base == minimal {
		t.Fatal("the minimal format has no stages key")
	}
	for _, c := range []struct{ lichess, field, msg string }{
		{`{"games": "off", "perf": "blitzz"}`, "lichess.perf", `want one of ultraBullet, bullet, blitz`},
		{`{"games": "off", "perf": "blitz"}`, "lichess.perf", "the games are antichess: seed by the antichess rating, not blitz"},
		{`{"games": "off", "perf": "antichess", "team": "lichess.org/team/x"}`, "lichess.team", "want a Lichess team id"},
	} {
		_, err := Load(strings.NewReader(strings.Replace(base, `{"games": "off"}`, c.lichess, 1)))
		var e *arbiter.Error
		if !errors.As(err, &e) || e.Code != arbiter.EINVALID || e.Field != c.field || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: got %v, want field %s and %q", c.lichess, err, c.field, c.msg)
		}
	}
	f, err := Load(strings.NewReader(strings.Replace(base, `{"games": "off"}`, `{"games": "off", "perf": "antichess", "team": "antichess-club"}`, 1)))
	if err != nil || f.RatingPerf() != "antichess" || f.LichessTeam() != "antichess-club" {
		t.Fatalf("%v: perf %q team %q", err, f.RatingPerf(), f.LichessTeam())
	}
	for _, name := range []string{"acwc-2023", "antichess-team-cup"} {
		if p, _ := Preset(name); p.RatingPerf() != "antichess" || p.LichessTeam() != "" {
			t.Errorf("%s seeds by %q, team %q", name, p.RatingPerf(), p.LichessTeam())
		}
	}
	if p, _ := Preset("rkcc-team-three-tc"); p.RatingPerf() != "" {
		t.Errorf("rkcc seeds by %q: its ratings are typed", p.RatingPerf())
	}
}
