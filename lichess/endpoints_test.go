package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"slices"
	"testing"
	"time"

	"arbiter"
	"arbiter/internal/testshared"
)

// Expected values below are read by hand from the fixture files.

func ms(n int64) time.Time { return time.UnixMilli(n).UTC() }

func TestUser(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, _ := fs.client(Options{Token: "lip_secret", UserAgent: "arbiter-test"})
	u, err := c.User(context.Background(), "mary")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != "mary" || u.Username != "Mary" || u.Title != "" || u.IsBot() || u.Disabled || u.TosViolation {
		t.Errorf("identity: %+v", u)
	}
	if !u.CreatedAt.Equal(ms(1776700014918)) || !u.SeenAt.Equal(ms(1782934233712)) {
		t.Errorf("createdAt %v seenAt %v", u.CreatedAt, u.SeenAt)
	}
	if p, ok := u.Perf(PerfAntichess); !ok || p != (Perf{Games: 22, Rating: 1055, RD: 120, Provisional: true}) {
		t.Errorf("antichess perf %+v %v", p, ok)
	}
	if p := u.Perfs[PerfBlitz]; p != (Perf{Games: 138, Rating: 1018, RD: 45}) {
		t.Errorf("blitz perf %+v", p)
	}
	h := fs.last().Header
	if h.Get("Authorization") != "Bearer lip_secret" || h.Get("User-Agent") != "arbiter-test" || h.Get("Accept") != "application/json" {
		t.Errorf("headers %v", h)
	}
}

func TestUserAnonymousHasNoAuthorization(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, _ := fs.client(Options{})
	if _, err := c.User(context.Background(), "mary"); err != nil {
		t.Fatal(err)
	}
	if h := fs.last().Header; h.Get("Authorization") != "" || h.Get("User-Agent") != DefaultUserAgent {
		t.Errorf("headers %v", h)
	}
}

func TestUserSynthetic(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/closedguy", 200, "synthetic/user_closed.json")
	fs.handle("GET /api/user/somebot", 200, "synthetic/user_bot.json")
	fs.handle("GET /api/user/flagged", 200, "synthetic/user_tos.json")
	fs.handle("GET /api/user/newbie", 200, "synthetic/user_no_antichess.json")
	fs.handle("GET /api/user/playera", 200, "synthetic/user_antichess_provisional.json")
	c, _ := fs.client(Options{})
	get := func(name string) *User {
		t.Helper()
		u, err := c.User(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	closed := get("closedguy")
	if !closed.Disabled || closed.Username != "ClosedGuy" || !closed.CreatedAt.IsZero() || len(closed.Perfs) != 0 {
		t.Errorf("closed: %+v", closed)
	}
	bot := get("somebot")
	if !bot.IsBot() || bot.Perfs[PerfAntichess].Games != 900 {
		t.Errorf("bot: %+v", bot)
	}
	tos := get("flagged")
	if !tos.TosViolation || tos.Perfs[PerfAntichess].Rating != 1900 {
		t.Errorf("tos: %+v", tos)
	}
	if _, ok := get("newbie").Perf(PerfAntichess); ok {
		t.Error("newbie has an antichess perf")
	}
	prov := get("playera")
	if p, _ := prov.Perf(PerfAntichess); p != (Perf{Games: 7, Rating: 1850, RD: 150, Provisional: true}) {
		t.Errorf("provisional: %+v", p)
	}
	// createdAt 1732665600000 = 2024-11-27T00:00:00Z
	if !prov.CreatedAt.Equal(time.Date(2024, 11, 27, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("createdAt %v", prov.CreatedAt)
	}
}

func TestAccount(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/account", 200, "GET_api_account.json")
	c, _ := fs.client(Options{Token: "lip_td"})
	u, err := c.Account(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != "bobby" || !u.CreatedAt.Equal(ms(1779834692439)) {
		t.Errorf("%+v", u)
	}
	if p := u.Perfs[PerfAntichess]; p != (Perf{Games: 145, Rating: 1784, RD: 117, Provisional: true}) {
		t.Errorf("antichess %+v", p)
	}
	if fs.last().Header.Get("Authorization") != "Bearer lip_td" {
		t.Error("no bearer token")
	}
}

func TestUsersStatus(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/users/status", 200, "GET_api_users_status.json")
	c, _ := fs.client(Options{})
	st, err := c.UsersStatus(context.Background(), []string{"mary", "ana"})
	if err != nil {
		t.Fatal(err)
	}
	want := []UserStatus{{ID: "mary", Name: "Mary"}, {ID: "ana", Name: "Ana", Title: "IM"}}
	if !slices.Equal(st, want) {
		t.Errorf("got %+v", st)
	}
	if q := fs.last().Query.Get("ids"); q != "mary,ana" {
		t.Errorf("ids=%q", q)
	}
	if _, err := c.UsersStatus(context.Background(), nil); err == nil {
		t.Error("no ids accepted")
	}
}

func TestRatingHistory(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/mary/rating-history", 200, "GET_api_user_username_rating-history.json")
	c, _ := fs.client(Options{})
	hs, err := c.RatingHistory(context.Background(), "mary")
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 15 || hs[0].Name != "UltraBullet" || len(hs[0].Points) != 0 {
		t.Fatalf("got %d histories, first %+v", len(hs), hs[0])
	}
	var anti *RatingHistory
	for i := range hs {
		if hs[i].Name == "Antichess" {
			anti = &hs[i]
		}
	}
	if anti == nil || len(anti.Points) != 9 {
		t.Fatalf("antichess history %+v", anti)
	}
	// [2026, 3, 20, 1407]: month 3 counts from 0, so 20 April 2026.
	if p := anti.Points[0]; !p.Date.Equal(time.Date(2026, 4, 20, 0, 0, 0, 0, time.UTC)) || p.Rating != 1407 {
		t.Errorf("first point %+v", p)
	}
	if p := anti.Points[8]; !p.Date.Equal(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)) || p.Rating != 981 {
		t.Errorf("last point %+v", p)
	}
}

func TestRatingPointRejectsBadShape(t *testing.T) {
	var p RatingPoint
	for _, in := range []string{`[2026, 12, 1, 1500]`, `[2026, 1, 1]`, `"x"`} {
		if err := json.Unmarshal([]byte(in), &p); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
}

func TestPerfStats(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/thibault/perf/blitz", 200, "GET_api_user_username_perf_perf.json")
	c, _ := fs.client(Options{})
	ps, err := c.PerfStats(context.Background(), "thibault", PerfBlitz)
	if err != nil {
		t.Fatal(err)
	}
	if ps.Rating != 1740.57 || ps.Deviation != 45.63 || ps.Games != 11638 || ps.Rank != 164980 || ps.Percentile != 72.8 {
		t.Errorf("%+v", ps)
	}
	if ps.Highest == nil || ps.Highest.Rating != 1970 || ps.Highest.GameID != "Blpjmhnf" ||
		!ps.Highest.At.Equal(time.Date(2022, 2, 23, 13, 44, 54, 633e6, time.UTC)) {
		t.Errorf("highest %+v", ps.Highest)
	}
	if ps.Lowest == nil || ps.Lowest.Rating != 1385 {
		t.Errorf("lowest %+v", ps.Lowest)
	}
	want := PerfCount{All: 12125, Rated: 11516, Win: 5733, Loss: 5818, Draw: 574, Tour: 1601, Disconnect: 9}
	if ps.Count != want {
		t.Errorf("count %+v", ps.Count)
	}
}

func TestCrosstable(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/crosstable/drnykterstein/rebeccaharris", 200, "GET_api_crosstable_user1_user2.json")
	c, _ := fs.client(Options{})
	ct, err := c.Crosstable(context.Background(), "drnykterstein", "rebeccaharris")
	if err != nil {
		t.Fatal(err)
	}
	if ct.Games != 1213 || ct.Scores["drnykterstein"] != arbiter.P(753.5) || ct.Scores["rebeccaharris"] != arbiter.P(459.5) {
		t.Errorf("%+v", ct)
	}
}

func TestTeam(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/team/lichess-swiss", 200, "GET_api_team_teamId.json")
	c, _ := fs.client(Options{})
	tm, err := c.Team(context.Background(), "lichess-swiss")
	if err != nil {
		t.Fatal(err)
	}
	if tm.ID != "lichess-swiss" || tm.Name != "Lichess Swiss" || !tm.Open || tm.NbMembers != 715566 || tm.Leader.ID != "lichess" {
		t.Errorf("%+v", tm)
	}
	if len(tm.Leaders) != 2 || tm.Leaders[0] != (TeamUser{ID: "thibault", Name: "thibault"}) {
		t.Errorf("leaders %+v", tm.Leaders)
	}
}

func TestTeamMembers(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/team/lichess-swiss/users", 200, "GET_api_team_teamId_users.ndjson")
	c, _ := fs.client(Options{})
	var got []TeamMember
	for m, err := range c.TeamMembers(context.Background(), "lichess-swiss") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	want := []TeamMember{{ID: "chess-network", Name: "Chess-Network", JoinedAt: ms(1716930043067)}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v", got)
	}
	if a := fs.last().Header.Get("Accept"); a != "application/x-ndjson" {
		t.Errorf("Accept %q", a)
	}
}

func TestGamesOfUserQueryAndDecode(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/games/user/lance5500", 200, "GET_api_games_user_username.ndjson")
	c, _ := fs.client(Options{})
	rated := true
	q := GamesQuery{Since: ms(1767225600000), Until: ms(1767312000000), Max: 50, Vs: "cherrywall", Rated: &rated, PerfType: PerfAntichess}
	var games []Game
	for g, err := range c.GamesOfUser(context.Background(), "lance5500", q) {
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	wantQ := url.Values{"since": {"1767225600000"}, "until": {"1767312000000"}, "max": {"50"}, "vs": {"cherrywall"},
		"rated": {"true"}, "perfType": {"antichess"}, "moves": {"false"}}
	if got := fs.last().Query; got.Encode() != wantQ.Encode() {
		t.Errorf("query %v, want %v", got, wantQ)
	}
	if len(games) != 1 {
		t.Fatalf("%d games", len(games))
	}
	g := games[0]
	if g.ID != "nfjOkkBQ" || g.Rated || g.Variant != VariantStandard || g.Speed != "bullet" || g.Status != "resign" ||
		g.Winner != "white" || g.Source != "friend" || !g.CreatedAt.Equal(ms(1783377244194)) || !g.LastMoveAt.Equal(ms(1783377361082)) {
		t.Errorf("game %+v", g)
	}
	if g.White != (GamePlayer{UserID: "lance5500", Name: "Lance5500", Title: "LM", Rating: 2813}) ||
		g.Black != (GamePlayer{UserID: "cherrywall", Name: "cherrywall", Rating: 2330}) {
		t.Errorf("players %+v / %+v", g.White, g.Black)
	}
	if g.Clock == nil || *g.Clock != (Clock{Initial: 60, Increment: 0}) {
		t.Errorf("clock %+v", g.Clock)
	}
}

// TestGamesOfUserStreamsSyntheticMatch reads the six-line hand-made export in order.
func TestGamesOfUserStreamsSyntheticMatch(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/games/user/playera", 200, "synthetic/games_antichess_match.ndjson")
	c, _ := fs.client(Options{})
	var ids []string
	var statuses []string
	for g, err := range c.GamesOfUser(context.Background(), "playera", GamesQuery{Vs: "playerb"}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
		statuses = append(statuses, g.Status)
		if g.Variant != VariantAntichess {
			t.Errorf("%s variant %q", g.ID, g.Variant)
		}
	}
	wantIDs := []string{"SynTh006", "SynTh005", "SynTh004", "SynTh003", "SynTh002", "SynTh001"}
	wantSt := []string{"resign", "aborted", "variantEnd", "outoftime", "draw", "variantEnd"}
	if !slices.Equal(ids, wantIDs) || !slices.Equal(statuses, wantSt) {
		t.Errorf("ids %v statuses %v", ids, statuses)
	}
}

// TestGamesStopEarly checks that breaking out of the loop frees the slot.
func TestGamesStopEarly(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/games/user/playera", 200, "synthetic/games_antichess_match.ndjson")
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, _ := fs.client(Options{})
	n := 0
	for _, err := range c.GamesOfUser(context.Background(), "playera", GamesQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 2 {
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.User(ctx, "mary"); err != nil {
		t.Fatalf("slot not released after break: %v", err)
	}
}

func TestExportGame(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /game/export/q7ZvsdUF", 200, "GET_game_export_gameId.json")
	c, _ := fs.client(Options{})
	g, err := c.ExportGame(context.Background(), "q7ZvsdUF")
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != "q7ZvsdUF" || !g.Rated || g.Status != StatusDraw || g.Winner != "" || g.Speed != "blitz" || !g.CreatedAt.Equal(ms(1514505150384)) {
		t.Errorf("%+v", g)
	}
	if g.White.UserID != "lance5500" || g.White.RatingDiff != 4 || g.Black.UserID != "tryinghard87" || g.Black.Rating != 2498 || g.Black.RatingDiff != -4 {
		t.Errorf("players %+v %+v", g.White, g.Black)
	}
	if g.Clock == nil || *g.Clock != (Clock{Initial: 300, Increment: 3}) {
		t.Errorf("clock %+v", g.Clock)
	}
	if a := fs.last().Header.Get("Accept"); a != "application/json" {
		t.Errorf("Accept %q", a)
	}
}

func TestExportGamesByIDs(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("POST /api/games/export/_ids", 200, "POST_api_games_export__ids.ndjson")
	c, _ := fs.client(Options{})
	var games []Game
	for g, err := range c.ExportGames(context.Background(), []string{"TJxUmbWK", "q7ZvsdUF"}) {
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	r := fs.last()
	if r.Method != "POST" || r.Body != "TJxUmbWK,q7ZvsdUF" || r.Header.Get("Content-Type") != "text/plain" {
		t.Errorf("request %+v", r)
	}
	if len(games) != 1 || games[0].ID != "TJxUmbWK" || games[0].Winner != "white" || games[0].White.UserID != "arex" ||
		games[0].Black.RatingDiff != -15 || *games[0].Clock != (Clock{Initial: 600}) {
		t.Errorf("games %+v", games)
	}
	for _, err := range c.ExportGames(context.Background(), nil) {
		if err == nil {
			t.Error("empty id list accepted")
		}
	}
}

// TestGameDecodesStreamShape covers the games-by-users stream variant of a
// game: numeric status plus statusName, and players.*.userId.
func TestGameDecodesStreamShape(t *testing.T) {
	f, err := os.Open(testshared.Path(t, "lichess-api", "fixtures", "POST_api_stream_games-by-users.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st []string
	for g, err := range decodeNDJSON[Game](f) {
		if err != nil {
			t.Fatal(err)
		}
		st = append(st, g.Status)
		if g.White.UserID != "kastorcito" || g.Black.UserID != "er_or" || g.Black.Rating != 2288 {
			t.Errorf("players %+v %+v", g.White, g.Black)
		}
	}
	if !slices.Equal(st, []string{"started", "resign"}) {
		t.Errorf("statuses %v", st)
	}
}

func TestCreateChallenge(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("POST /api/challenge/mary", 200, "POST_api_challenge_username.json")
	c, _ := fs.client(Options{Token: "lip_bobby"})
	ch, err := c.CreateChallenge(context.Background(), "mary", ChallengeRequest{
		GameSettings: GameSettings{Rated: true, Clock: &Clock{Initial: 180, Increment: 2}, Variant: VariantAntichess, Rules: []string{"noRematch", "noGiveTime"}},
		Color:        "white",
	})
	if err != nil {
		t.Fatal(err)
	}
	form, _ := url.ParseQuery(fs.last().Body)
	want := url.Values{"rated": {"true"}, "clock.limit": {"180"}, "clock.increment": {"2"}, "variant": {"antichess"},
		"color": {"white"}, "rules": {"noRematch,noGiveTime"}}
	if form.Encode() != want.Encode() {
		t.Errorf("form %v", form)
	}
	if ct := fs.last().Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		t.Errorf("content type %q", ct)
	}
	if ch.ID != "uGK4MHaQ" || ch.URL != "https://lichess.org/uGK4MHaQ" || ch.Status != "created" || ch.Direction != "out" ||
		ch.Variant != VariantStandard || ch.Rated || ch.Clock != nil || ch.TimeControl != "unlimited" || ch.FinalColor != "white" {
		t.Errorf("%+v", ch)
	}
	if ch.Challenger == nil || *ch.Challenger != (ChallengeUser{ID: "bobby", Name: "Bobby", Rating: 1630}) ||
		ch.DestUser == nil || ch.DestUser.ID != "mary" || ch.DestUser.Rating != 1054 {
		t.Errorf("users %+v %+v", ch.Challenger, ch.DestUser)
	}
}

func TestChallengeWithClockDecodes(t *testing.T) {
	b, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "POST_api_challenge_username.schema-example.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ch Challenge
	if err := json.Unmarshal(b, &ch); err != nil {
		t.Fatal(err)
	}
	if ch.Clock == nil || *ch.Clock != (Clock{Initial: 600}) || !ch.Rated || ch.Speed != "rapid" ||
		ch.Challenger.Title != TitleBot || !ch.DestUser.Provisional {
		t.Errorf("%+v", ch)
	}
}

func TestOpenChallenge(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("POST /api/challenge/open", 200, "POST_api_challenge_open.json")
	c, _ := fs.client(Options{})
	ch, err := c.OpenChallenge(context.Background(), OpenChallengeRequest{
		GameSettings: GameSettings{Rated: true, Clock: &Clock{Initial: 60, Increment: 2}, Variant: VariantAntichess},
		Name:         "ACWC R1 PlayerA-PlayerB", Users: [2]string{"PlayerA", "PlayerB"}, ExpiresAt: ms(1767312000000),
	})
	if err != nil {
		t.Fatal(err)
	}
	form, _ := url.ParseQuery(fs.last().Body)
	if form.Get("users") != "PlayerA,PlayerB" || form.Get("name") != "ACWC R1 PlayerA-PlayerB" || form.Get("expiresAt") != "1767312000000" ||
		form.Get("clock.limit") != "60" || form.Get("clock.increment") != "2" || form.Get("rated") != "true" {
		t.Errorf("form %v", form)
	}
	if ch.ID != "Ceofnzd3" || ch.Challenger != nil || ch.DestUser != nil || ch.URLWhite != "https://lichess.org/Ceofnzd3?color=white" ||
		ch.URLBlack != "https://lichess.org/Ceofnzd3?color=black" || ch.FinalColor != "black" {
		t.Errorf("%+v", ch)
	}
	if _, err := c.OpenChallenge(context.Background(), OpenChallengeRequest{Users: [2]string{"a", ""}}); err == nil {
		t.Error("one user accepted")
	}
}

func TestShowChallenge(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/challenge/uGK4MHaQ/show", 200, "GET_api_challenge_challengeId_show.json")
	c, _ := fs.client(Options{})
	ch, err := c.ShowChallenge(context.Background(), "uGK4MHaQ")
	if err != nil {
		t.Fatal(err)
	}
	if ch.ID != "uGK4MHaQ" || ch.Direction != "in" || ch.Color != "random" || ch.Speed != "correspondence" {
		t.Errorf("%+v", ch)
	}
}

func TestCreateBulkPairing(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("POST /api/bulk-pairing", 200, "POST_api_bulk-pairing.json")
	c, _ := fs.client(Options{Token: "lip_td"})
	bp, err := c.CreateBulkPairing(context.Background(), BulkPairingRequest{
		GameSettings:  GameSettings{Clock: &Clock{Initial: 300}},
		Message:       "Your game {game} is ready",
		Pairings:      []Pairing{{"tA", "tB"}, {"tC", "tD"}},
		PairAt:        ms(1612289869919),
		StartClocksAt: ms(1612200422971),
	})
	if err != nil {
		t.Fatal(err)
	}
	form, _ := url.ParseQuery(fs.last().Body)
	want := url.Values{"players": {"tA:tB,tC:tD"}, "rated": {"false"}, "clock.limit": {"300"}, "clock.increment": {"0"},
		"pairAt": {"1612289869919"}, "startClocksAt": {"1612200422971"}, "message": {"Your game {game} is ready"}}
	if form.Encode() != want.Encode() {
		t.Errorf("form %v", form)
	}
	if bp.ID != "RVAcwgg7" || len(bp.Games) != 3 || bp.Games[0] != (BulkGame{ID: "NKop9IyD", White: "thibault", Black: "lizen1"}) ||
		bp.Variant != VariantStandard || bp.Rated || *bp.Clock != (Clock{Initial: 300}) {
		t.Errorf("%+v", bp)
	}
	if !bp.PairAt.Equal(ms(1612289869919)) || !bp.PairedAt.IsZero() || !bp.StartClocksAt.Equal(ms(1612200422971)) || !bp.ScheduledAt.Equal(ms(1612203514628)) {
		t.Errorf("times %+v", bp)
	}
	if _, err := c.CreateBulkPairing(context.Background(), BulkPairingRequest{Pairings: []Pairing{{"tA", ""}}}); err == nil {
		t.Error("missing token accepted")
	}
}

func TestTestTokens(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("POST /api/token/test", 200, "POST_api_token_test.json")
	c, _ := fs.client(Options{})
	got, err := c.TestTokens(context.Background(), []string{"lip_jose", "lip_badToken"})
	if err != nil {
		t.Fatal(err)
	}
	if fs.last().Body != "lip_jose,lip_badToken" {
		t.Errorf("body %q", fs.last().Body)
	}
	jose := got["lip_jose"]
	if jose == nil || jose.UserID != "jose" || !jose.Expires.IsZero() || len(jose.Scopes) != 23 ||
		!jose.HasScope("challenge:bulk") || jose.HasScope("challenge:bulk-accepted") {
		t.Errorf("jose %+v", jose)
	}
	if bad, ok := got["lip_badToken"]; !ok || bad != nil {
		t.Errorf("bad token %+v %v", bad, ok)
	}
}

func TestEventTypes(t *testing.T) {
	for _, tc := range []struct {
		file, typ, status, winner string
	}{
		{"GET_api_stream_event.gameStart.json", EventGameStart, "started", ""},
		{"GET_api_stream_event.gameFinish.json", EventGameFinish, "resign", "black"},
	} {
		b, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var ev Event
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatal(err)
		}
		g := ev.Game
		if ev.Type != tc.typ || g == nil || g.ID != "0FgNPGRz" || g.FullID != "0FgNPGRzhDaW" || g.Color != "white" ||
			g.Status.Name != tc.status || g.Winner != tc.winner || g.Opponent.ID != "aaron" || g.Opponent.Rating != 776 ||
			g.Variant.Key != VariantStandard || !g.Rated || g.Source != "friend" {
			t.Errorf("%s: %+v %+v", tc.file, ev, g)
		}
	}
}

func TestCountGames(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/games/user/playera", 200, "synthetic/games_antichess_match.ndjson")
	c, _ := fs.client(Options{})
	rated := true
	n, err := c.CountGames(context.Background(), "playera", GamesQuery{Rated: &rated, PerfType: PerfAntichess, Since: ms(1767225600000)})
	if err != nil || n != 6 {
		t.Errorf("count %d, %v", n, err)
	}
	if q := fs.last().Query; q.Get("rated") != "true" || q.Get("perfType") != "antichess" || q.Get("since") != "1767225600000" {
		t.Errorf("query %v", q)
	}
}

func TestUsersByID(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("POST /api/users", 200, "POST_api_users.json")
	c, _ := fs.client(Options{})
	us, err := c.Users(context.Background(), []string{"thibault", "maia1"})
	if err != nil {
		t.Fatal(err)
	}
	if r := fs.last(); r.Body != "thibault,maia1" || r.Header.Get("Content-Type") != "text/plain" {
		t.Errorf("request %+v", r)
	}
	if len(us) == 0 || us[0].ID != "thibault" || us[0].Perfs[PerfAntichess] != (Perf{Games: 73, Rating: 1465, RD: 251, Provisional: true}) {
		t.Errorf("users %+v", us)
	}
	if _, err := c.Users(context.Background(), make([]string, MaxUsersIDs+1)); err == nil {
		t.Error("301 ids accepted")
	}
}

func TestTeamsOf(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/team/of/boris", 200, "GET_api_team_of_username.json")
	c, _ := fs.client(Options{})
	teams, err := c.TeamsOf(context.Background(), "boris")
	if err != nil || len(teams) != 8 || teams[2].ID != "lichess-swiss" || teams[2].NbMembers != 64 || teams[1].Open {
		t.Fatalf("teams %+v %v", teams, err)
	}
	for team, want := range map[string]bool{"Lichess-Swiss": true, "no-such-team": false} {
		if in, err := c.IsTeamMember(context.Background(), team, "boris"); err != nil || in != want {
			t.Errorf("%s: %v %v", team, in, err)
		}
	}
}

func TestBulkPairingShowAndOK(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/bulk-pairing/RVAcwgg7", 200, "POST_api_bulk-pairing.json")
	fs.handle("DELETE /api/bulk-pairing/RVAcwgg7", 200, "ok.json")
	fs.handle("POST /inbox/mary", 200, "ok.json")
	fs.handleFunc("POST /api/bulk-pairing/RVAcwgg7/start-clocks", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"ok":false}`))
	})
	c, _ := fs.client(Options{Token: "lip_td"})
	ctx := context.Background()
	bp, err := c.BulkPairing(ctx, "RVAcwgg7")
	if err != nil || len(bp.Games) != 3 || bp.Games[2] != (BulkGame{ID: "wInQr8Sk", White: "lizen4", Black: "lizen5"}) {
		t.Fatalf("bulk %+v %v", bp, err)
	}
	if err := c.CancelBulkPairing(ctx, "RVAcwgg7"); err != nil || fs.last().Method != "DELETE" {
		t.Errorf("cancel: %v", err)
	}
	if err := c.SendMessage(ctx, "mary", "Your pairing is out"); err != nil {
		t.Fatal(err)
	}
	if r := fs.last(); r.Path != "/inbox/mary" || r.Body != "text=Your+pairing+is+out" || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("message request %+v", r)
	}
	if err := c.StartBulkClocks(ctx, "RVAcwgg7"); !errors.Is(err, ErrBadResponse) {
		t.Errorf(`{"ok":false} accepted: %v`, err)
	}
	if err := c.SendMessage(ctx, "mary", " "); err == nil {
		t.Error("an empty message accepted")
	}
}
