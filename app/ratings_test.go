package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/eligibility"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// ratingsRig is a fake Lichess on the test's clock whose client (real
// pacing on a virtual clock) is the service's account source, with the
// job queue open.
func ratingsRig(t testing.TB, s *Service, c *clock) *lichesstest.Fake {
	f := lichesstest.Start(t, lichesstest.Options{Seed: 3, Now: c.now})
	lc, err := lichess.New(lichess.Options{BaseURL: f.URL, Time: lichesstest.NewClock(c.t), Retries429: -1})
	if err != nil {
		t.Fatal(err)
	}
	s.SetAccountSource(lc)
	must(s.OpenJobs(nil))
	return f
}

// ratedSwiss is acwcSwiss seeded by the Lichess antichess rating, with
// the players' games left to them.
var ratedSwiss = strings.Replace(acwcSwiss, `"clauses"`, `"variant": "antichess",
  "lichess": {"games": "off", "perf": "antichess"},
  "clauses"`, 1)

func asked(f *lichesstest.Fake, route string) []string {
	var out []string
	for _, r := range f.Asked(route) {
		out = append(out, r.Path+" "+r.Body)
	}
	return out
}

// TestRatingsAtRegistration: a registration in the ACWC preset (perf
// antichess) queues a job, in its transaction, that fetches the player's
// antichess rating from Lichess (GET /api/user/{username}); nothing is
// asked inside the request. The typed rating stands until then and is
// then replaced by Lichess's, audited; the console's read shows it with
// its date. A player Lichess lists no antichess rating for counts at
// Lichess's starting 1500, marked as such.
func TestRatingsAtRegistration(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := ratingsRig(t, s, c)
		f.AddPlayer("Alice", lichess.PerfAntichess, 1800, 1874)
		f.AddPlayer("Bob", lichess.PerfBlitz, 300, 1700) // never played antichess rated
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 0, 0)}))
		must(s.Register(ctx, player("Alice"), "wc", arbiter.Entrant{Player: "Alice", Rating: 2000}))
		must(s.Register(ctx, player("Bob"), "wc", arbiter.Entrant{Player: "Bob"}))
		if got := asked(f, "GET /api/user/{username}"); len(got) != 0 {
			t.Fatalf("asked Lichess inside the registration: %q", got)
		}
		if e := must(s.Entrants(ctx, "wc")); e[0].ID != "alice" || e[0].Rating != 2000 {
			t.Fatalf("before the job: %+v", e[0])
		}
		c.t = c.t.Add(time.Minute)
		ran := runJobs(t, s, c)
		if !slices.Contains(ran, "Ratings of alice from Lichess=done/1") || !slices.Contains(ran, "Ratings of bob from Lichess=done/1") {
			t.Fatalf("ran %q", ran)
		}
		// The eligibility job (W1) reads the profile too: two requests each.
		if got := asked(f, "GET /api/user/{username}"); !slices.Contains(got, "/api/user/alice ") || !slices.Contains(got, "/api/user/bob ") {
			t.Fatalf("asked %q", got)
		}
		es := must(s.Entrants(ctx, "wc"))
		if es[0].ID != "alice" || es[0].Rating != 1874 || es[1].ID != "bob" || es[1].Rating != LichessDefaultRating {
			t.Fatalf("entrants after the job: %+v", es)
		}
		rs := must(s.Ratings(ctx, arbiter.NamedUser(td.Name), "wc"))
		a, b := rs.ByID["alice"], rs.ByID["bob"]
		if rs.Perf != "antichess" || !a.At.Equal(c.t) || a.Rating != 1874 || len(a.Players) != 1 || !a.Players[0].Listed || a.Players[0].Games != 1800 {
			t.Fatalf("alice's ratings %+v", a)
		}
		if b.Players[0].Listed || !b.Players[0].Provisional || b.Rating != 1500 {
			t.Fatalf("bob's ratings %+v", b)
		}
		if _, err := s.Ratings(ctx, arbiter.NamedUser("alice"), "wc"); arbiter.ErrorCode(err) != arbiter.EFORBIDDEN {
			t.Fatalf("a player reads the ratings: %v", err)
		}
		// RKCC names no perf: its ratings stay typed, nothing is queued.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2023, 4, 3, 0, 0)}))
		must(s.Register(ctx, arbiter.Actor{Name: "c1", Role: arbiter.RoleCaptain}, "rk", arbiter.Entrant{Name: "T1", Captain: "c1", Members: []string{"c1", "x1", "y1"}, Rating: 1950}))
		if js := must(s.EventJobs(ctx, td, "rk")); len(js) != 0 {
			t.Fatalf("jobs of a typed-rating event: %+v", js)
		}
		if e := must(s.Entrants(ctx, "rk")); e[0].Rating != 1950 {
			t.Fatalf("typed rating %+v", e[0])
		}
		_, err := s.RefreshRatings(ctx, td, "rk")
		wantErr(t, err, arbiter.ERULE, "format.lichess.perf")
	})
}

// TestRatingsRefreshBeforeRoundOne: eight players fetched at registration
// at 2000, 1950, ..., 1650 are seeded in that order when registration
// closes. Before round 1 p08 climbs to 2400 and p01 falls to 1000: the
// pairing asks Lichess for every profile in one request (POST /api/users)
// and numbers the players by the new ratings, so (by hand, Dutch round 1:
// seed 1-5, 2-6, 3-7, 4-8 with seeds p08, p02, p03, p04, p05, p06, p07,
// p01) the pairs are p08-p05, p02-p06, p03-p07, p04-p01 — where the
// registration's seeds would have given p01-p05 and p04-p08.
func TestRatingsRefreshBeforeRoundOne(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := ratingsRig(t, s, c)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "sw", Format: []byte(ratedSwiss), Start: utc(2023, 3, 14, 0, 0)}))
		var names []string
		for i := 1; i <= 8; i++ {
			n := fmt.Sprintf("p%02d", i)
			names = append(names, n)
			f.AddPlayer(n, lichess.PerfAntichess, 1200, 2050-50*i)
			must(s.Register(ctx, player(n), "sw", arbiter.Entrant{Player: n}))
			must(s.Approve(ctx, td, "sw", n, 0))
		}
		runJobs(t, s, c)
		must(s.CloseRegistration(ctx, td, "sw"))
		if got := seeds(t, s, "sw"); !slices.Equal(got, names) {
			t.Fatalf("seeds at the close %q", got)
		}
		f.SetRating("p08", lichess.PerfAntichess, lichess.Perf{Games: 1300, Rating: 2400, RD: 50})
		f.SetRating("p01", lichess.PerfAntichess, lichess.Perf{Games: 1300, Rating: 1000, RD: 50})
		f.ResetLog()
		ms := pairOK(s.PairRound(ctx, td, "sw"))
		if got := asked(f, "POST /api/users"); len(got) != 1 || got[0] != "/api/users "+strings.Join(names, ",") {
			t.Fatalf("asked %q", got)
		}
		want := []string{"p08", "p02", "p03", "p04", "p05", "p06", "p07", "p01"}
		if got := seeds(t, s, "sw"); !slices.Equal(got, want) {
			t.Fatalf("seeds for round 1 %q, want %q", got, want)
		}
		if got, want := pairsOf(ms), []string{"p01-p04", "p02-p06", "p03-p07", "p05-p08"}; !slices.Equal(got, want) {
			t.Fatalf("round 1 %q, want %q", got, want)
		}
		rs := must(s.Ratings(ctx, arbiter.NamedUser(td.Name), "sw"))
		if r := rs.Refresh; r == nil || !r.OK || !r.Round1 || r.Players != 8 || !slices.Equal(r.Changes, []string{"p01 2000 → 1000", "p08 1650 → 2400"}) {
			t.Fatalf("refresh %+v", rs.Refresh)
		}
	})
}

// TestRatingsRefreshLichessDown: Lichess failing when round 1 is paired
// does not stop the pairing: the ratings last fetched seed it and the
// refresh record says so for the console.
func TestRatingsRefreshLichessDown(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := ratingsRig(t, s, c)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "sw", Format: []byte(ratedSwiss), Start: utc(2023, 3, 14, 0, 0)}))
		var names []string
		for i := 1; i <= 8; i++ {
			n := fmt.Sprintf("p%02d", i)
			names = append(names, n)
			f.AddPlayer(n, lichess.PerfAntichess, 1200, 2050-50*i)
			must(s.Register(ctx, player(n), "sw", arbiter.Entrant{Player: n}))
			must(s.Approve(ctx, td, "sw", n, 0))
		}
		runJobs(t, s, c)
		must(s.CloseRegistration(ctx, td, "sw"))
		f.SetRating("p08", lichess.PerfAntichess, lichess.Perf{Games: 1300, Rating: 2400, RD: 50})
		f.Inject(lichesstest.Fault{Route: "POST /api/users", Status: 503, Body: "down", Times: 20})
		c.t = c.t.Add(time.Hour)
		ms := pairOK(s.PairRound(ctx, td, "sw"))
		if got := seeds(t, s, "sw"); !slices.Equal(got, names) {
			t.Fatalf("seeds %q: want the registration's", got)
		}
		if got, want := pairsOf(ms), []string{"p01-p05", "p02-p06", "p03-p07", "p04-p08"}; !slices.Equal(got, want) {
			t.Fatalf("round 1 %q, want %q", got, want)
		}
		r := must(s.Ratings(ctx, arbiter.NamedUser(td.Name), "sw")).Refresh
		if r == nil || r.OK || !r.Round1 || r.Error == "" ||
			!strings.HasPrefix(r.Summary(), "Lichess could not be reached when pairing round 1 (2023-03-12 10:00 UTC, ") ||
			!strings.HasSuffix(r.Summary(), "): the ratings fetched at registration stand") {
			t.Fatalf("refresh %+v: %s", r, r.Summary())
		}
		if e := must(s.Entrants(ctx, "sw")); e[7].ID != "p08" || e[7].Rating != 1650 {
			t.Fatalf("p08 %+v", e[7])
		}
	})
}

func seeds(t *testing.T, s *Service, slug string) []string {
	t.Helper()
	var out []string
	for _, e := range must(s.Entrants(ctx, slug)) {
		out = append(out, e.ID)
	}
	return out
}

// pairsOf writes each match as its two entrants in name order, sorted.
func pairsOf(ms []arbiter.Match) []string {
	var out []string
	for _, m := range ms {
		p := []string{m.Home, m.Away}
		slices.Sort(p)
		out = append(out, p[0]+"-"+p[1])
	}
	slices.Sort(out)
	return out
}

// TestTeamRatingAndA11History: in the antichess cup a team's rating is
// the average of its four best antichess ratings (the preset's note):
// 2210, 2105, 1990, 1850 and a substitute at 1700 give
// (2210+2105+1990+1850)/4 = 2038.75, rounded half up to 2039. The same
// job fetches the board-4 candidates' rating histories (ranked by the
// fetched ratings: the 1850 and the 1700 players) for A11: a history over
// 2200 (the cap with no title recorded) on three different days in 2025
// is a crossing (for the TDs to confirm only as to A11's RD > 80, which
// Lichess's history does not give); one that went over 2000 on only two
// days and fell back the next day passes every cap.
func TestTeamRatingAndA11History(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		c.t = utc(2025, 4, 1, 12, 0)
		f := ratingsRig(t, s, c)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "cup", Preset: "antichess-team-cup", Start: utc(2025, 4, 8, 0, 0)}))
		day := func(m time.Month, d, r int) lichess.RatingPoint {
			return lichess.RatingPoint{Date: utc(2025, m, d, 0, 0), Rating: r}
		}
		for i, team := range []string{"a", "b"} {
			ps := []string{team + "cap", team + "m2", team + "m3", team + "m4", team + "sub"}
			for j, r := range []int{2210, 2105, 1990, 1850, 1700} {
				f.AddPlayer(ps[j], lichess.PerfAntichess, 2000, r-10*i)
			}
			must(s.Register(ctx, arbiter.Actor{Name: ps[0], Role: arbiter.RoleCaptain}, "cup",
				arbiter.Entrant{Name: "Team " + team, Captain: ps[0], Members: ps[:4], Substitute: ps[4]}))
		}
		// am4: over 2200 on 2 Feb, 10 Feb and 1 Mar, back under the next day.
		f.SetHistory("am4", lichess.PerfAntichess, []lichess.RatingPoint{
			day(1, 20, 2150), day(2, 2, 2210), day(2, 3, 2150), day(2, 10, 2230), day(2, 11, 2190), day(3, 1, 2205), day(3, 2, 2100), day(3, 20, 1850)})
		// bm4: over 2000 on 5 and 20 Feb only.
		f.SetHistory("bm4", lichess.PerfAntichess, []lichess.RatingPoint{
			day(1, 20, 1950), day(2, 5, 2010), day(2, 6, 1980), day(2, 20, 2050), day(2, 21, 1960), day(3, 20, 1840)})
		c.t = c.t.Add(time.Minute)
		runJobs(t, s, c)
		rs := must(s.Ratings(ctx, arbiter.NamedUser(td.Name), "cup"))
		a := rs.ByID["team-a"]
		if a.Rating != 2039 || a.Rule != "average of the 4 best of 5: (2210+2105+1990+1850)/4 = 2038.75 → 2039" {
			t.Fatalf("team a's rating %d by %q", a.Rating, a.Rule)
		}
		// Team b: 2200, 2095, 1980, 1840 → 8115/4 = 2028.75 → 2029.
		if e := must(s.Entrants(ctx, "cup")); e[0].ID != "team-a" || e[0].Rating != 2039 || e[1].Rating != 2029 {
			t.Fatalf("entrants %+v", e)
		}
		hist := asked(f, "GET /api/user/{username}/rating-history")
		slices.Sort(hist)
		if want := []string{"/api/user/am4/rating-history ", "/api/user/asub/rating-history ", "/api/user/bm4/rating-history ", "/api/user/bsub/rating-history "}; !slices.Equal(hist, want) {
			t.Fatalf("histories asked %q, want %q", hist, want)
		}
		tcs := must(s.TeamChecks(ctx, "cup"))
		capOf := func(tc TeamCheck, who string) eligibility.Check {
			for _, ch := range tc.Checks {
				if ch.Rule == "A11.cap" && strings.HasPrefix(ch.Detail, who+": ") {
					return ch
				}
			}
			t.Fatalf("no A11.cap check of %s in %+v", who, tc.Checks)
			return eligibility.Check{}
		}
		if ch := capOf(tcs["team-a"], "am4"); ch.Status != eligibility.Unknown ||
			ch.Detail != "am4: over 2200 on 3 different days since 2025-01-01; the rating history has no RD, so the TD must check the RD > 80 exception" {
			t.Fatalf("am4 %+v", ch)
		}
		if ch := capOf(tcs["team-b"], "bm4"); ch.Status != eligibility.Pass {
			t.Fatalf("bm4 %+v", ch)
		}
		if ch := capOf(tcs["team-b"], "bsub"); ch.Status != eligibility.Pass {
			t.Fatalf("bsub (no history in 2025) %+v", ch)
		}
	})
}

// TestLichessTeamMembership: a format naming a Lichess team checks each
// player with GET /api/team/of/{username}; a player outside it is shown
// (fail, with why), nothing is refused, and the rating is still set.
func TestLichessTeamMembership(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := ratingsRig(t, s, c)
		f.AddPlayer("Member", lichess.PerfAntichess, 1200, 1900)
		f.AddPlayer("Outsider", lichess.PerfAntichess, 1200, 1800)
		f.AddTeam("antichess-club", "Antichess Club", false, "leader", "member")
		fj := strings.Replace(ratedSwiss, `"perf": "antichess"`, `"perf": "antichess", "team": "antichess-club"`, 1)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "sw", Format: []byte(fj), Start: utc(2023, 3, 14, 0, 0)}))
		must(s.Register(ctx, player("Member"), "sw", arbiter.Entrant{Player: "Member"}))
		must(s.Register(ctx, player("Outsider"), "sw", arbiter.Entrant{Player: "Outsider"}))
		runJobs(t, s, c)
		if got := asked(f, "GET /api/team/of/{username}"); len(got) != 2 {
			t.Fatalf("asked %q", got)
		}
		rs := must(s.Ratings(ctx, arbiter.NamedUser(td.Name), "sw"))
		m, o := rs.ByID["member"], rs.ByID["outsider"]
		if rs.Team != "antichess-club" || m.TeamStatus != eligibility.Pass || m.Rating != 1900 {
			t.Fatalf("member %+v", m)
		}
		if o.TeamStatus != eligibility.Fail || len(o.Members) != 1 || o.Members[0].Detail != "not a member of the Lichess team antichess-club" || o.Rating != 1800 {
			t.Fatalf("outsider %+v", o)
		}
		if e := must(s.Entrants(ctx, "sw")); e[1].ID != "outsider" || e[1].Status != arbiter.EntrantPending {
			t.Fatalf("outsider's entry %+v", e[1])
		}
		must(s.Approve(ctx, td, "sw", "outsider", 0)) // the TDs decide
	})
}

// TestRatingsLateEntry: a player the TDs enter late is checked on Lichess
// like one who registered (A2/W1 eligibility, the rating for the format's
// perf), by the same jobs, queued with the entry.
func TestRatingsLateEntry(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := ratingsRig(t, s, c)
		f.AddPlayer("Carol", lichess.PerfAntichess, 1500, 1912)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 0, 0)}))
		must(s.LateEntry(ctx, td, "wc", arbiter.Entrant{Player: "Carol", Rating: 1400}, "entered by the TDs"))
		c.t = c.t.Add(time.Minute)
		ran := runJobs(t, s, c)
		if !slices.Contains(ran, "Eligibility check of carol=done/1") || !slices.Contains(ran, "Ratings of carol from Lichess=done/1") {
			t.Fatalf("ran %q", ran)
		}
		if e := must(s.Entrants(ctx, "wc")); len(e) != 1 || e[0].Rating != 1912 {
			t.Fatalf("late entrant after the jobs: %+v", e)
		}
	})
}
