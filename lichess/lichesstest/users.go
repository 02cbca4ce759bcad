package lichesstest

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"arbiter/lichess"
)

// AllScopes are every scope Lichess grants (the API document's list).
var AllScopes = []string{"preference:read", "preference:write", "email:read", "engine:read", "engine:write",
	"challenge:read", "challenge:write", "challenge:bulk", "study:read", "study:write", "tournament:write",
	"racer:write", "puzzle:read", "puzzle:write", "team:read", "team:write", "team:lead", "follow:read",
	"follow:write", "msg:write", "board:play", "bot:play", "web:mod"}

type token struct {
	UserID  string
	Scopes  []string
	Expires time.Time
}

func (t *token) has(scope string) bool { return slices.Contains(t.Scopes, scope) }

// AddToken makes token belong to user (created if unknown) with scopes.
func (f *Fake) AddToken(tok, user string, scopes ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.userLocked(user, true)
	f.tokens[tok] = &token{UserID: u.ID, Scopes: slices.Clone(scopes)}
}

// Scopes returns the scopes of a token the fake knows (nil otherwise).
func (f *Fake) Scopes(tok string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t := f.tokens[tok]; t != nil {
		return slices.Clone(t.Scopes)
	}
	return nil
}

// AddUser adds (or replaces) an account. Perfs with Games 0 are kept as
// given: Lichess lists a variant only once it was played rated.
func (f *Fake) AddUser(u lichess.User) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if u.ID == "" {
		u.ID = strings.ToLower(u.Username)
	}
	if u.Username == "" {
		u.Username = u.ID
	}
	u.ID = strings.ToLower(u.ID)
	f.users[u.ID] = &u
}

// AddUserJSON adds an account from a profile as Lichess writes it (the
// shared fixtures).
func (f *Fake) AddUserJSON(b []byte) error {
	var u lichess.User
	if err := json.Unmarshal(b, &u); err != nil {
		return err
	}
	f.AddUser(u)
	return nil
}

// AddPlayer adds an ordinary account: created two years before now, with
// games rated games at rating in perf (e.g. PerfAntichess, 1200, 1850).
func (f *Fake) AddPlayer(name, perf string, games, rating int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.userLocked(name, true)
	u.Perfs[perf] = lichess.Perf{Games: games, Rating: rating, RD: 60}
}

// SetRating sets a user's perf (the user must exist, or AutoUsers).
func (f *Fake) SetRating(name, perf string, p lichess.Perf) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if u := f.userLocked(name, true); u != nil {
		u.Perfs[perf] = p
	}
}

// SetHistory sets a user's daily ratings in one perf.
func (f *Fake) SetHistory(name, perf string, points []lichess.RatingPoint) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := strings.ToLower(name)
	if f.history[id] == nil {
		f.history[id] = map[string][]lichess.RatingPoint{}
	}
	f.history[id][perf] = slices.Clone(points)
}

// userLocked finds a user by name; create makes a default account when
// the name is unknown (always for create, else with AutoUsers).
func (f *Fake) userLocked(name string, create bool) *lichess.User {
	id := strings.ToLower(name)
	if u := f.users[id]; u != nil {
		if u.Perfs == nil {
			u.Perfs = map[string]lichess.Perf{}
		}
		return u
	}
	if !create && !f.o.AutoUsers {
		return nil
	}
	now := f.now().UTC()
	u := &lichess.User{ID: id, Username: name, CreatedAt: now.AddDate(-2, 0, 0), SeenAt: now,
		Perfs: map[string]lichess.Perf{}}
	if f.o.AutoUsers {
		// A rehearsal player: an established antichess and blitz player.
		r := 1500 + f.rng.IntN(600)
		u.Perfs[lichess.PerfAntichess] = lichess.Perf{Games: 1500, Rating: r, RD: 60}
		u.Perfs[lichess.PerfBlitz] = lichess.Perf{Games: 800, Rating: r - 200, RD: 70}
		u.Perfs[lichess.PerfBullet] = lichess.Perf{Games: 800, Rating: r - 150, RD: 70}
	}
	f.users[id] = u
	return u
}

// userJSON is a profile as GET /api/user/{username} writes it; a closed
// account is its id, username and disabled only.
func (f *Fake) userJSON(u *lichess.User) map[string]any {
	m := map[string]any{"id": u.ID, "username": u.Username, "url": f.o.GameURL + "/@/" + u.Username}
	if u.Disabled {
		m["disabled"] = true
		return m
	}
	perfs := map[string]any{}
	for k, p := range u.Perfs {
		pm := map[string]any{"games": p.Games, "rating": p.Rating, "rd": p.RD, "prog": 0}
		if p.Provisional {
			pm["prov"] = true
		}
		perfs[k] = pm
	}
	m["perfs"] = perfs
	if !u.CreatedAt.IsZero() {
		m["createdAt"] = u.CreatedAt.UnixMilli()
	}
	if !u.SeenAt.IsZero() {
		m["seenAt"] = u.SeenAt.UnixMilli()
	}
	if u.Title != "" {
		m["title"] = u.Title
	}
	if u.TosViolation {
		m["tosViolation"] = true
	}
	if u.Verified {
		m["verified"] = true
	}
	return m
}

func lightUser(u *lichess.User) map[string]any {
	m := map[string]any{"id": u.ID, "name": u.Username}
	if u.Title != "" {
		m["title"] = u.Title
	}
	return m
}

func hUser(f *Fake, c *call) {
	u := f.userLocked(c.arg("username"), false)
	if u == nil {
		c.notFound()
		return
	}
	c.json(200, f.userJSON(u))
}

func hAccount(f *Fake, c *call) {
	c.json(200, f.userJSON(f.userLocked(c.token.UserID, true)))
}

func hUsers(f *Fake, c *call) {
	ids := splitList(c.body)
	if len(ids) == 0 || len(ids) > lichess.MaxUsersIDs {
		c.error(400, "Too many ids: 300 max")
		return
	}
	out := []any{}
	for _, id := range ids {
		if u := f.userLocked(id, false); u != nil && !u.Disabled {
			m := f.userJSON(u)
			delete(m, "url") // User, not UserExtended
			out = append(out, m)
		}
	}
	c.json(200, out)
}

func hRatingHistory(f *Fake, c *call) {
	u := f.userLocked(c.arg("username"), false)
	if u == nil {
		c.notFound()
		return
	}
	out := []any{}
	for _, perf := range []string{"ultraBullet", lichess.PerfBullet, lichess.PerfBlitz, lichess.PerfRapid, lichess.PerfClassical,
		"correspondence", "crazyhouse", "chess960", "kingOfTheHill", "threeCheck", lichess.PerfAntichess, "atomic", "horde",
		"racingKings", "puzzle"} {
		points := [][4]int{}
		for _, p := range f.history[u.ID][perf] {
			// Lichess counts months from 0.
			points = append(points, [4]int{p.Date.Year(), int(p.Date.Month()) - 1, p.Date.Day(), p.Rating})
		}
		out = append(out, map[string]any{"name": lichess.PerfName(perf), "points": points})
	}
	c.json(200, out)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
