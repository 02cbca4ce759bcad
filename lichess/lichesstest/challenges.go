package lichesstest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/lichess"
)

// challenge is a challenge Arbiter (or a test) created. Its game, once
// played, has the same id.
type challenge struct {
	ID        string
	Open      bool
	Users     [2]string // open: who may join, White first; direct: challenger, challenged
	Creator   string    // the token's owner, "" when anonymous
	Settings  lichess.GameSettings
	Name      string
	Color     string // direct: the colour asked
	Status    string // created, canceled, accepted
	CreatedAt time.Time
	ExpiresAt time.Time
}

// validClockLimits are the base times Lichess accepts (seconds): 0, 15,
// 30, 45, 60, 90 and any multiple of 60 up to 10800.
func validClockLimit(n int) bool {
	return slices.Contains([]int{0, 15, 30, 45, 60, 90}, n) || n > 0 && n <= 10800 && n%60 == 0
}

var variants = []string{"standard", "chess960", "crazyhouse", "antichess", "atomic", "horde", "kingOfTheHill",
	"racingKings", "threeCheck", "fromPosition"}

var gameRules = []string{lichess.RuleNoAbort, lichess.RuleNoRematch, lichess.RuleNoGiveTime, lichess.RuleNoClaimWin, lichess.RuleNoEarlyDraw}

// settings reads the game settings shared by challenges and bulk
// pairings, as the API document constrains them; msg is "" when valid.
func settings(form map[string][]string) (s lichess.GameSettings, msg string) {
	get := func(k string) string {
		if v := form[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	num := func(k string) (int, bool) {
		n, err := strconv.Atoi(get(k))
		return n, err == nil
	}
	switch r := get("rated"); r {
	case "", "false":
	case "true":
		s.Rated = true
	default:
		return s, "rated: want true or false"
	}
	limit, inc := get("clock.limit"), get("clock.increment")
	switch {
	case limit != "" || inc != "":
		l, okL := num("clock.limit")
		i, okI := num("clock.increment")
		if !okL || !okI || !validClockLimit(l) || i < 0 || i > 60 || l+i == 0 {
			return s, "clock: limit must be 0, 15, 30, 45, 60, 90 or a multiple of 60 up to 10800, increment 0 to 60"
		}
		if get("days") != "" {
			return s, "days: a correspondence game has no clock"
		}
		s.Clock = &lichess.Clock{Initial: l, Increment: i}
	case get("days") != "":
		d, _ := num("days")
		if !slices.Contains([]int{1, 2, 3, 5, 7, 10, 14}, d) {
			return s, "days: want 1, 2, 3, 5, 7, 10 or 14"
		}
		s.Days = d
	}
	s.Variant = orDefault(get("variant"), lichess.VariantStandard)
	if !slices.Contains(variants, s.Variant) {
		return s, "variant: unknown " + s.Variant
	}
	if r := get("rules"); r != "" {
		for _, x := range strings.Split(r, ",") {
			if !slices.Contains(gameRules, x) {
				return s, "rules: unknown rule " + x
			}
			s.Rules = append(s.Rules, x)
		}
	}
	if s.Rated && s.Variant == "fromPosition" {
		return s, "rated: a game from a position cannot be rated"
	}
	return s, ""
}

func (f *Fake) challengeUser(id string, s lichess.GameSettings) map[string]any {
	u := f.userLocked(id, true)
	m := lightUser(u)
	if p, ok := u.Perfs[perfOf(s.Variant, s.Clock, s.Days)]; ok {
		m["rating"] = p.Rating
	}
	return m
}

func (f *Fake) challengeJSON(ch *challenge) map[string]any {
	s := ch.Settings
	tc := map[string]any{"type": "unlimited"}
	switch {
	case s.Clock != nil:
		show := lichess.TimeControl{Base: s.Clock.Initial, Increment: s.Clock.Increment}.String()
		tc = map[string]any{"type": "clock", "limit": s.Clock.Initial, "increment": s.Clock.Increment, "show": show}
	case s.Days > 0:
		tc = map[string]any{"type": "correspondence", "daysPerTurn": s.Days}
	}
	perf := perfOf(s.Variant, s.Clock, s.Days)
	m := map[string]any{"id": ch.ID, "url": f.o.GameURL + "/" + ch.ID, "status": ch.Status,
		"variant": map[string]any{"key": s.Variant, "name": s.Variant, "short": s.Variant},
		"rated":   s.Rated, "speed": speedOf(s.Clock, s.Days), "timeControl": tc, "color": orDefault(ch.Color, "random"),
		"finalColor": "white", "perf": map[string]any{"icon": "", "name": perf}}
	if ch.Open {
		m["challenger"], m["destUser"] = nil, nil
		m["urlWhite"] = f.o.GameURL + "/" + ch.ID + "?color=white"
		m["urlBlack"] = f.o.GameURL + "/" + ch.ID + "?color=black"
		open := map[string]any{}
		if ch.Users[0] != "" {
			open["userIds"] = []string{ch.Users[0], ch.Users[1]}
		}
		m["open"] = open
		return m
	}
	m["challenger"], m["destUser"], m["direction"] = f.challengeUser(ch.Users[0], s), f.challengeUser(ch.Users[1], s), "out"
	if ch.Color == "black" {
		m["finalColor"] = "black"
	}
	return m
}

// openForm are the form parameters of POST /api/challenge/open.
var openForm = []string{"rated", "clock.limit", "clock.increment", "days", "variant", "fen", "name", "rules", "users", "expiresAt"}

func hOpenChallenge(f *Fake, c *call) {
	s, msg := settings(c.form)
	if msg != "" {
		c.error(400, msg)
		return
	}
	if slices.Contains(s.Rules, lichess.RuleNoAbort) {
		c.error(400, "rules: noAbort is for Lichess admins only")
		return
	}
	now := f.now()
	ch := &challenge{ID: f.newID(), Open: true, Settings: s, Name: c.form.Get("name"), Status: "created",
		CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
	if c.token != nil {
		ch.Creator = c.token.UserID
	}
	if us := c.form.Get("users"); us != "" {
		names := splitList(us)
		if len(names) != 2 || strings.EqualFold(names[0], names[1]) {
			c.error(400, "users: want two different usernames separated by a comma")
			return
		}
		for i, n := range names {
			u := f.userLocked(n, false)
			if u == nil || u.Disabled {
				c.error(400, "users: no such player "+n)
				return
			}
			ch.Users[i] = u.ID
		}
	}
	if e := c.form.Get("expiresAt"); e != "" {
		n, err := strconv.ParseInt(e, 10, 64)
		at := time.UnixMilli(n)
		if err != nil || !at.After(now) || at.After(now.Add(14*24*time.Hour)) {
			c.error(400, "expiresAt: want a time in milliseconds within 2 weeks from now")
			return
		}
		ch.ExpiresAt = at
	}
	f.challenges[ch.ID] = ch
	c.json(200, f.challengeJSON(ch))
}

// directForm are the form parameters of POST /api/challenge/{username}.
var directForm = []string{"rated", "clock.limit", "clock.increment", "days", "color", "variant", "fen", "keepAliveStream", "rules"}

func hChallenge(f *Fake, c *call) {
	dest := f.userLocked(c.arg("username"), false)
	if dest == nil {
		c.error(400, "No such user: "+c.arg("username"))
		return
	}
	s, msg := settings(c.form)
	if msg != "" {
		c.error(400, msg)
		return
	}
	color := orDefault(c.form.Get("color"), "random")
	if !slices.Contains([]string{"random", "white", "black"}, color) {
		c.error(400, "color: want random, white or black")
		return
	}
	ch := &challenge{ID: f.newID(), Users: [2]string{c.token.UserID, dest.ID}, Creator: c.token.UserID, Settings: s,
		Color: color, Status: "created", CreatedAt: f.now(), ExpiresAt: f.now().Add(20 * time.Second)}
	f.challenges[ch.ID] = ch
	c.json(200, f.challengeJSON(ch))
}

// hShowChallenge answers in the document's ChallengeJson shape, also for
// an open challenge: its creator is the challenger and nobody the
// destination (the join links are in the creation's answer only).
func hShowChallenge(f *Fake, c *call) {
	ch := f.challenges[c.arg("challengeId")]
	if ch == nil {
		c.notFound()
		return
	}
	m := f.challengeJSON(ch)
	if ch.Open && ch.Creator != "" {
		for _, k := range []string{"urlWhite", "urlBlack", "open"} {
			delete(m, k)
		}
		m["challenger"], m["direction"] = f.challengeUser(ch.Creator, ch.Settings), "out"
	}
	c.json(200, m)
}

func hCancelChallenge(f *Fake, c *call) {
	ch := f.challenges[c.arg("challengeId")]
	if ch == nil || ch.Creator != c.token.UserID {
		c.notFound()
		return
	}
	if g := f.games[ch.ID]; g != nil && ongoing(g) {
		// Lichess aborts a game that has not started yet.
		g.Status, g.LastMoveAt = lichess.StatusAborted, f.now()
	}
	ch.Status = "canceled"
	c.ok()
}

func hStartClocks(f *Fake, c *call) {
	g := f.games[c.arg("gameId")]
	if g == nil {
		c.notFound()
		return
	}
	for _, k := range []string{"token1", "token2"} {
		if t := c.r.URL.Query().Get(k); t != "" {
			tok := f.tokens[t]
			if tok == nil || !tok.has(lichess.ScopeChallengeWrite) || tok.UserID != g.White.UserID && tok.UserID != g.Black.UserID {
				c.error(400, k+": not a challenge:write token of a player of this game")
				return
			}
		}
	}
	if g.Status == lichess.StatusCreated {
		g.Status = lichess.StatusStarted
	}
	c.ok()
}

// Pending is a game to be played: a challenge not yet finished, or a game
// of a bulk pairing. White and Black are user ids ("" for an open
// challenge that names nobody).
type Pending struct {
	ID, Name     string
	White, Black string
	Settings     lichess.GameSettings
	CreatedAt    time.Time
}

// Result is how a game ends: the winner's colour ("" for a draw or no
// result) and Lichess's status name.
type Result struct {
	Winner string
	Status string
}

// Results a script picks from. A win without a status ends by variantEnd
// in antichess and by resignation otherwise.
var (
	WhiteWins = Result{Winner: "white"}
	BlackWins = Result{Winner: "black"}
	Drawn     = Result{Status: lichess.StatusDraw}
	Aborted   = Result{Status: lichess.StatusAborted}
	Unplayed  = Result{Status: lichess.StatusNoStart}
	Playing   = Result{Status: lichess.StatusStarted}
)

// Pending lists the games waiting for a result, oldest first.
func (f *Fake) Pending() []Pending {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tick()
	return f.pendingLocked()
}

func (f *Fake) pendingLocked() []Pending {
	var out []Pending
	for _, ch := range f.challenges {
		g := f.games[ch.ID]
		if ch.Status == "canceled" || g != nil && !ongoing(g) {
			continue
		}
		white, black := ch.Users[0], ch.Users[1]
		if !ch.Open && ch.Color == "black" {
			white, black = black, white
		}
		out = append(out, Pending{ID: ch.ID, Name: ch.Name, White: white, Black: black, Settings: ch.Settings, CreatedAt: ch.CreatedAt})
	}
	for _, id := range f.bulkOrder {
		for _, bg := range f.bulks[id].games {
			if g := f.games[bg.id]; g != nil && ongoing(g) {
				out = append(out, Pending{ID: g.ID, White: g.White.UserID, Black: g.Black.UserID,
					Settings: f.bulks[id].settings, CreatedAt: g.CreatedAt})
			}
		}
	}
	slices.SortFunc(out, func(a, b Pending) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// Finish ends the game of a challenge (or a bulk game) with r; an open
// challenge naming nobody is played by white and black (user names).
// The game is created, as when both players join, if it does not exist.
func (f *Fake) Finish(id string, r Result, players ...string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.finishLocked(id, r, players...)
}

func (f *Fake) finishLocked(id string, r Result, players ...string) error {
	g := f.games[id]
	if g == nil {
		ch := f.challenges[id]
		if ch == nil {
			return fmt.Errorf("lichesstest: no challenge or game %q", id)
		}
		if ch.Status == "canceled" {
			return fmt.Errorf("lichesstest: challenge %s was cancelled", id)
		}
		white, black := ch.Users[0], ch.Users[1]
		if !ch.Open && ch.Color == "black" {
			white, black = black, white
		}
		if len(players) == 2 {
			white, black = f.userLocked(players[0], true).ID, f.userLocked(players[1], true).ID
		}
		if white == "" || black == "" {
			return fmt.Errorf("lichesstest: open challenge %s names nobody: give the white and black players", id)
		}
		ng := lichess.Game{ID: id, Rated: ch.Settings.Rated, Variant: ch.Settings.Variant, Status: lichess.StatusStarted,
			Source: "friend", Clock: ch.Settings.Clock, Days: ch.Settings.Days, CreatedAt: f.now(),
			White: f.player(white, ch.Settings), Black: f.player(black, ch.Settings)}
		if ch.Open {
			ng.Source = "api"
		}
		f.putGame(ng)
		ch.Status = "accepted"
		g = f.games[id]
	}
	if !ongoing(g) {
		return fmt.Errorf("lichesstest: game %s is already over (%s)", id, g.Status)
	}
	if r.Winner != "" && r.Winner != "white" && r.Winner != "black" {
		return fmt.Errorf("lichesstest: winner %q: want white, black or none", r.Winner)
	}
	g.Status, g.Winner = r.Status, r.Winner
	switch {
	case g.Status != "":
	case r.Winner == "":
		g.Status = lichess.StatusDraw
	case g.Variant == lichess.VariantAntichess:
		g.Status = lichess.StatusVariantEnd
	default:
		g.Status = "resign"
	}
	g.LastMoveAt = f.now()
	return nil
}

func (f *Fake) player(id string, s lichess.GameSettings) lichess.GamePlayer {
	u := f.userLocked(id, true)
	p := lichess.GamePlayer{UserID: u.ID, Name: u.Username, Title: u.Title}
	if perf, ok := u.Perfs[perfOf(s.Variant, s.Clock, s.Days)]; ok {
		p.Rating, p.Provisional = perf.Rating, perf.Provisional
	}
	return p
}

// FinishAll gives every pending game the result script picks, oldest
// first, and returns the ids finished.
func (f *Fake) FinishAll(script func(Pending) Result) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tick()
	var done []string
	for _, p := range f.pendingLocked() {
		if err := f.finishLocked(p.ID, script(p)); err != nil {
			return done, err
		}
		done = append(done, p.ID)
	}
	return done, nil
}

// Random is a script of seeded random results: White wins 45%, Black
// 45%, a draw 10% (antichess wins by variantEnd, others by resignation,
// mate or flag).
func (f *Fake) Random(p Pending) Result {
	// Called under f.mu by FinishAll.
	n := f.rng.IntN(100)
	status := []string{"resign", "mate", "outoftime"}[f.rng.IntN(3)]
	if p.Settings.Variant == lichess.VariantAntichess {
		status = lichess.StatusVariantEnd
	}
	switch {
	case n < 45:
		return Result{Winner: "white", Status: status}
	case n < 90:
		return Result{Winner: "black", Status: status}
	}
	return Drawn
}
