package app_test

import (
	"context"
	"strings"
	"testing"

	"arbiter"
	"arbiter/app"
	"arbiter/challonge"
	"arbiter/challonge/challongetest"
	"arbiter/demo"
	"arbiter/sqlstore/storetest"
)

// TestPushChallonge: an RKCC demo event run to its end, its knockout
// pushed to a fake Challonge: the four semifinalists by seed, the
// semifinals and the final with their set points (R10), the same winner;
// a second push sends nothing; only the event's TDs may push.
func TestPushChallonge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := app.New(storetest.SQLite(t), nil)
	sum, err := demo.Run(ctx, svc, demo.Options{Preset: "rkcc-team-three-tc", Entrants: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	fake := challongetest.New(t, "key")
	fake.AddTournament("rkcc", "RKCC", false)
	c := challonge.New("key")
	c.BaseURL = fake.URL
	if _, err := svc.PushChallonge(ctx, arbiter.Actor{Name: "someone", Role: arbiter.RoleTD}, sum.Slug, 0, c, "rkcc"); arbiter.ErrorCode(err) != arbiter.EFORBIDDEN {
		t.Errorf("a stranger's push: %v", err)
	}
	rep, err := svc.PushChallonge(ctx, demo.TD, sum.Slug, 0, c, "rkcc")
	if err != nil || rep.Added != 4 || !rep.Started || len(rep.Updated) != 3 || len(rep.Missing) != 0 {
		t.Fatalf("push: %+v, %v", rep, err)
	}
	if sum.Final == nil || sum.Final.Result == nil {
		t.Fatal("the demo has no final")
	}
	winner := sum.Final.Home
	if sum.Final.Result.Result == "away_win" {
		winner = sum.Final.Away
	}
	fake.Do("rkcc", func(tour *challongetest.Tournament) {
		misc := map[int64]string{}
		for _, p := range tour.Participants {
			misc[p.ID] = p.Misc
		}
		final := tour.Matches[len(tour.Matches)-1]
		if misc[final.WinnerID] != winner || final.State != "complete" {
			t.Errorf("Challonge's final: winner %s (%s), Arbiter's %s", misc[final.WinnerID], final.State, winner)
		}
		for _, m := range tour.Matches {
			// Three sets, each at most 240 set points (R10).
			if sets := strings.Split(m.ScoresCSV, ","); len(sets) != 3 {
				t.Errorf("match %s scores %q", m.Identifier, m.ScoresCSV)
			}
		}
	})
	again, err := svc.PushChallonge(ctx, demo.TD, sum.Slug, 0, c, "rkcc")
	if err != nil || len(again.Updated) != 0 || len(again.Unchanged) != 3 {
		t.Errorf("second push: %+v, %v", again, err)
	}
	fake.FailNext = 1
	if _, err := svc.PushChallonge(ctx, demo.TD, sum.Slug, 0, c, "rkcc"); arbiter.ErrorCode(err) != arbiter.EUNAVAILABLE {
		t.Errorf("Challonge down: %v", err)
	}
}
