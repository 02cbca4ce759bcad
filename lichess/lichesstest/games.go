package lichesstest

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"arbiter/lichess"
)

// AddGames stores games (replacing any with the same id); their players
// become users of the fake.
func (f *Fake) AddGames(gs ...lichess.Game) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, g := range gs {
		f.putGame(g)
	}
}

func (f *Fake) putGame(g lichess.Game) {
	for _, p := range []*lichess.GamePlayer{&g.White, &g.Black} {
		if p.UserID != "" {
			u := f.userLocked(orDefault(p.Name, p.UserID), true)
			p.UserID = u.ID
			if p.Name == "" {
				p.Name = u.Username
			}
		}
	}
	if g.Perf == "" {
		g.Perf = perfOf(g.Variant, g.Clock, g.Days)
	}
	if g.Speed == "" {
		g.Speed = speedOf(g.Clock, g.Days)
	}
	if g.Variant == "" {
		g.Variant = lichess.VariantStandard
	}
	if g.LastMoveAt.IsZero() {
		g.LastMoveAt = g.CreatedAt
	}
	if _, ok := f.games[g.ID]; !ok {
		f.gameOrder = append(f.gameOrder, g.ID)
	}
	f.games[g.ID] = &g
}

// AddGamesNDJSON stores the games of an NDJSON export (the shared fixtures).
func (f *Fake) AddGamesNDJSON(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	var gs []lichess.Game
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var g lichess.Game
		if err := g.UnmarshalJSON([]byte(line)); err != nil {
			return err
		}
		gs = append(gs, g)
	}
	f.AddGames(gs...)
	return nil
}

// Game returns a game by id.
func (f *Fake) Game(id string) (lichess.Game, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.games[id]
	if !ok {
		return lichess.Game{}, false
	}
	return *g, true
}

// Games returns every game, in the order they were made.
func (f *Fake) Games() []lichess.Game {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]lichess.Game, 0, len(f.gameOrder))
	for _, id := range f.gameOrder {
		out = append(out, *f.games[id])
	}
	return out
}

// speedOf is Lichess's speed of a clock: the estimated duration (base +
// 40 increments) below 30 s ultraBullet, 3 min bullet, 8 min blitz,
// 25 min rapid, else classical.
func speedOf(c *lichess.Clock, days int) string {
	if c == nil {
		return "correspondence"
	}
	switch est := c.Initial + 40*c.Increment; {
	case est < 30:
		return "ultraBullet"
	case est < 180:
		return "bullet"
	case est < 480:
		return "blitz"
	case est < 1500:
		return "rapid"
	}
	return "classical"
}

// perfOf is the rating a game counts for: its variant, else its speed.
func perfOf(variant string, c *lichess.Clock, days int) string {
	if variant != "" && variant != lichess.VariantStandard {
		return variant
	}
	return speedOf(c, days)
}

func ongoing(g *lichess.Game) bool {
	return g.Status == lichess.StatusCreated || g.Status == lichess.StatusStarted
}

// gameJSON is a game as the exports write it (GameJson).
func (f *Fake) gameJSON(g *lichess.Game) map[string]any {
	side := func(p lichess.GamePlayer) map[string]any {
		m := map[string]any{}
		if p.UserID != "" {
			m["user"] = map[string]any{"id": p.UserID, "name": orDefault(p.Name, p.UserID)}
			if u := f.users[p.UserID]; u != nil && u.Title != "" {
				m["user"].(map[string]any)["title"] = u.Title
			}
		}
		if p.Rating > 0 {
			m["rating"] = p.Rating
		}
		if p.RatingDiff != 0 {
			m["ratingDiff"] = p.RatingDiff
		}
		if p.Provisional {
			m["provisional"] = true
		}
		if p.AILevel > 0 {
			m["aiLevel"] = p.AILevel
		}
		return m
	}
	m := map[string]any{"id": g.ID, "rated": g.Rated, "variant": g.Variant, "speed": g.Speed, "perf": g.Perf,
		"createdAt": g.CreatedAt.UnixMilli(), "lastMoveAt": g.LastMoveAt.UnixMilli(), "status": g.Status,
		"source": orDefault(g.Source, "friend"), "players": map[string]any{"white": side(g.White), "black": side(g.Black)}}
	if g.Winner != "" {
		m["winner"] = g.Winner
	}
	if g.Clock != nil {
		m["clock"] = map[string]any{"initial": g.Clock.Initial, "increment": g.Clock.Increment,
			"totalTime": g.Clock.Initial + 40*g.Clock.Increment}
	}
	if g.Days > 0 {
		m["daysPerTurn"] = g.Days
	}
	return m
}

// gamesQuery are the query parameters of GET /api/games/user/{username}.
var gamesQuery = []string{"since", "until", "max", "vs", "rated", "perfType", "color", "analysed", "moves", "pgnInJson",
	"tags", "clocks", "evals", "accuracy", "opening", "division", "ongoing", "finished", "literate", "lastFen",
	"withBookmarked", "sort"}

// exportQuery are the query parameters of the exports by id.
var exportQuery = []string{"moves", "pgnInJson", "tags", "clocks", "evals", "accuracy", "opening", "division", "literate"}

func hGamesOfUser(f *Fake, c *call) {
	u := f.userLocked(c.arg("username"), false)
	if u == nil {
		c.notFound()
		return
	}
	if !c.ndjsonAccepted() {
		return
	}
	q := c.r.URL.Query()
	num := func(k string) (int64, bool) {
		n, err := strconv.ParseInt(q.Get(k), 10, 64)
		return n, err == nil
	}
	boolean := func(k string, def bool) bool {
		if v := q.Get(k); v != "" {
			return v == "true"
		}
		return def
	}
	for _, k := range []string{"since", "until", "max"} {
		if q.Has(k) {
			if _, ok := num(k); !ok {
				c.error(400, k+": want an integer")
				return
			}
		}
	}
	vs := strings.ToLower(q.Get("vs"))
	perfs := splitList(q.Get("perfType"))
	var out []*lichess.Game
	for _, id := range f.gameOrder {
		g := f.games[id]
		w, b := g.White.UserID, g.Black.UserID
		switch {
		case w != u.ID && b != u.ID:
			continue
		case vs != "" && w != vs && b != vs:
			continue
		case q.Has("since") && g.CreatedAt.UnixMilli() < must(num("since")):
			continue
		case q.Has("until") && g.CreatedAt.UnixMilli() > must(num("until")):
			continue
		case q.Has("rated") && g.Rated != boolean("rated", false):
			continue
		case len(perfs) > 0 && !slices.Contains(perfs, g.Perf):
			continue
		case q.Get("color") != "" && (q.Get("color") == "white") != (w == u.ID):
			continue
		case ongoing(g) && !boolean("ongoing", false):
			continue
		case !ongoing(g) && !boolean("finished", true):
			continue
		}
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b *lichess.Game) int { return a.CreatedAt.Compare(b.CreatedAt) })
	if q.Get("sort") != "dateAsc" {
		slices.Reverse(out)
	}
	if n, ok := num("max"); ok && int(n) < len(out) {
		out = out[:n]
	}
	lines := make([]any, len(out))
	for i, g := range out {
		lines[i] = f.gameJSON(g)
	}
	c.ndjson(lines)
}

func hExportGame(f *Fake, c *call) {
	g := f.games[c.arg("gameId")]
	if g == nil {
		c.notFound()
		return
	}
	if !strings.Contains(c.r.Header.Get("Accept"), "application/json") {
		c.error(406, "the fake answers this endpoint in JSON only: send Accept: application/json")
		return
	}
	c.json(200, f.gameJSON(g))
}

func hExportIDs(f *Fake, c *call) {
	ids := splitList(c.body)
	if len(ids) == 0 || len(ids) > lichess.MaxExportIDs {
		c.error(400, "Too many ids: 300 max")
		return
	}
	if !c.ndjsonAccepted() {
		return
	}
	var lines []any
	for _, id := range ids {
		if g := f.games[id]; g != nil {
			lines = append(lines, f.gameJSON(g))
		}
	}
	c.ndjson(lines)
}

func must(n int64, _ bool) int64 { return n }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
