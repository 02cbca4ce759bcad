package browsertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// TestResultGridTieFromLichess: a knockout semifinal of the ACWC
// (cut to 2 games, then 2 tiebreak games and the armageddon, so it stays
// short) is played on the fake Lichess through the jobs: White wins every
// game (1-1, then 1-1 in the tiebreak games), p01 bid 100 s and p04 120 s
// for the armageddon, which is drawn: p04 wins on Black's draw odds. The
// TD opens the match: the result grid's tie fields are filled in from the
// games imported from Lichess (tiebreak games 1 and 0 from home's view,
// the bids, White home, the result =).
func TestResultGridTieFromLichess(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2023, 3, 12, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	fake := lichesstest.Start(t, lichesstest.Options{Seed: 1, Now: s.clock.Now, AutoUsers: true})
	fake.AddToken("lip_org", "organiser", lichesstest.AllScopes...)
	lc, err := lichess.New(lichess.Options{BaseURL: fake.URL, Token: "lip_org", Time: lichesstest.NewClock(s.clock.Now()), Retries429: -1})
	noErr(t, err)
	s.App.SetLichess(lc)
	q, err := s.App.OpenJobs(nil)
	noErr(t, err)

	f, err := format.Preset("acwc-2023")
	noErr(t, err)
	f.Name, f.Stages = "acwc-ko", f.Stages[2:]
	ko := &f.Stages[0]
	ko.Seeding, ko.BreakWeeksBefore, ko.ThirdPlace, ko.ThirdPlaceMatch = "standings", 0, false, nil
	ko.Match.Parts[0].Games = 2
	two := format.TimeControl{BaseSeconds: 60, IncrementSeconds: 2}
	ko.Match.Tie = []format.TieStep{{Kind: format.TieGames, Games: 2, TC: &two}, {Kind: format.TieArmageddon}}
	f.MinEntrants, f.Calendar.Negotiation = 4, nil
	var doc bytes.Buffer
	noErr(t, format.Write(&doc, f))
	tdA := arbiter.Actor{Name: "td@local", Role: arbiter.RoleTD}
	_, err = s.App.CreateEvent(ctx, tdA, app.NewEvent{Slug: "ko", Name: "ACWC 2023", Format: doc.Bytes(), Start: time.Date(2023, 3, 21, 10, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 4; i++ {
		name := fmt.Sprintf("p%02d", i)
		e, err := s.App.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "ko", arbiter.Entrant{Player: name, Rating: 2550 - 50*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, tdA, "ko", e.ID, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistration(ctx, tdA, "ko")
	noErr(t, err)
	_, ms, err := s.App.PairRound(ctx, tdA, "ko")
	noErr(t, err)
	_, err = s.App.PublishRound(ctx, tdA, "ko")
	noErr(t, err)
	m := ms[0]
	s.clock.Set(time.Date(2023, 3, 21, 12, 0, 0, 0, time.UTC))
	var secrets [2]armageddon.Secret
	for i, p := range []struct {
		who string
		bid time.Duration
	}{{m.Home, 100 * time.Second}, {m.Away, 120 * time.Second}} {
		_, _, secrets[i], err = s.App.SealBid(ctx, arbiter.NamedUser(p.who), "ko", m.ID, p.bid, rand.Reader)
		noErr(t, err)
	}
	for i, who := range []string{m.Home, m.Away} {
		_, err = s.App.BidArmageddon(ctx, arbiter.Actor{Name: who, Role: arbiter.RolePlayer}, "ko", m.ID, nil, &secrets[i])
		noErr(t, err)
	}
	// The workers: a look a minute until every game is played.
	for look := 0; ; look++ {
		if look == 30 {
			t.Fatalf("games still pending after %d looks: %+v", look, fake.Pending())
		}
		_, err := fake.FinishAll(func(p lichesstest.Pending) lichesstest.Result {
			if strings.HasSuffix(p.Name, "armageddon") {
				return lichesstest.Drawn
			}
			return lichesstest.WhiteWins
		})
		noErr(t, err)
		_, err = q.RunDue(ctx, s.clock.Now(), 2)
		noErr(t, err)
		if im, err := s.App.ImportedSheet(ctx, tdA, "ko", m.ID); err == nil && im.Report != "" {
			break
		}
		s.clock.Set(s.clock.Now().Add(app.GamesPoll))
	}

	td := s.tab(t, "td", "")
	td.signInTD("/events/ko/td/matches/" + m.ID)
	want := map[string]string{"tie-g-0": "1", "tie-g-1": "0", "arm-home-bid": "100", "arm-away-bid": "120", "arm-white": "home", "arm-result": "="}
	for field, v := range want {
		if got := eval[string](td, `document.getElementById("override-entry-`+field+`").value`); got != v {
			t.Errorf("the TD's form: %s = %q, want %q%s", field, got, v, td.where())
		}
	}
	if got := td.text("#override-entry-source"); got != "Filled in from the current report." {
		t.Errorf("the form says %q", got)
	}
}
