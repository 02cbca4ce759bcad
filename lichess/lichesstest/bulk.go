package lichesstest

import (
	"strconv"
	"strings"
	"time"

	"arbiter/lichess"
)

type bulk struct {
	id, owner     string
	settings      lichess.GameSettings
	games         []bulkGame
	message       string
	pairAt        time.Time
	pairedAt      time.Time // zero until the games exist
	startClocksAt time.Time
	scheduledAt   time.Time
}

type bulkGame struct{ id, white, black string }

// bulkForm are the form parameters of POST /api/bulk-pairing.
var bulkForm = []string{"players", "clock.limit", "clock.increment", "days", "pairAt", "startClocksAt", "rated", "variant",
	"fen", "message", "rules"}

// defaultBulkMessage is Lichess's message when a bulk pairing sets none.
const defaultBulkMessage = "Your game with {opponent} is ready: {game}."

func hCreateBulk(f *Fake, c *call) {
	s, msg := settings(c.form)
	if msg != "" {
		c.error(400, msg)
		return
	}
	now := f.now()
	b := &bulk{id: f.newID(), owner: c.token.UserID, settings: s, message: orDefault(c.form.Get("message"), defaultBulkMessage),
		pairAt: now, scheduledAt: now}
	if !strings.Contains(b.message, "{game}") {
		c.error(400, "message: must contain {game}")
		return
	}
	for _, k := range []string{"pairAt", "startClocksAt"} {
		if v := c.form.Get(k); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			at := time.UnixMilli(n)
			if err != nil || at.After(now.Add(7*24*time.Hour)) {
				c.error(400, k+": want a time in milliseconds within 7 days")
				return
			}
			if k == "pairAt" {
				b.pairAt = at
			} else {
				b.startClocksAt = at
			}
		}
	}
	pairs := splitList(c.form.Get("players"))
	if len(pairs) == 0 || len(pairs) > lichess.MaxBulkGames {
		c.error(400, "players: want 1 to 500 games")
		return
	}
	seenTok, seenUser := map[string]bool{}, map[string]bool{}
	for _, p := range pairs {
		w, bl, ok := strings.Cut(p, ":")
		if !ok {
			c.error(400, "players: want whiteToken:blackToken pairs separated by commas")
			return
		}
		var ids [2]string
		for i, t := range []string{w, bl} {
			tok := f.tokens[t]
			switch {
			case tok == nil:
				c.error(400, "players: a token is missing or invalid")
				return
			case !tok.has(lichess.ScopeChallengeWrite):
				c.error(400, "players: the token of "+tok.UserID+" lacks the challenge:write scope")
				return
			case seenTok[t] && s.Days == 0:
				c.error(400, "players: a token is present more than once")
				return
			case seenUser[tok.UserID] && s.Days == 0:
				c.error(400, "players: "+tok.UserID+" is paired more than once")
				return
			}
			if u := f.users[tok.UserID]; u != nil && u.Disabled {
				c.error(400, "players: the account of "+tok.UserID+" is closed")
				return
			}
			seenTok[t], seenUser[tok.UserID] = true, true
			ids[i] = tok.UserID
		}
		b.games = append(b.games, bulkGame{id: f.newID(), white: ids[0], black: ids[1]})
	}
	f.bulks[b.id] = b
	f.bulkOrder = append(f.bulkOrder, b.id)
	f.tick()
	c.json(200, bulkJSON(b))
}

// tick does what the time brings: the games of bulk pairings whose
// pairAt has come are created (at pairAt, as Lichess's scheduler would),
// and their players told.
func (f *Fake) tick() {
	now := f.now()
	for _, id := range f.bulkOrder {
		b := f.bulks[id]
		if !b.pairedAt.IsZero() || b.pairAt.After(now) {
			continue
		}
		now := b.pairAt
		b.pairedAt = now
		for _, bg := range b.games {
			f.putGame(lichess.Game{ID: bg.id, Rated: b.settings.Rated, Variant: b.settings.Variant, Status: lichess.StatusCreated,
				Source: "api", Clock: b.settings.Clock, Days: b.settings.Days, CreatedAt: now,
				White: f.player(bg.white, b.settings), Black: f.player(bg.black, b.settings)})
			for _, pair := range [][2]string{{bg.white, bg.black}, {bg.black, bg.white}} {
				text := strings.NewReplacer("{opponent}", f.o.GameURL+"/@/"+pair[1], "{game}", f.o.GameURL+"/"+bg.id).Replace(b.message)
				f.messages = append(f.messages, Message{From: b.owner, To: pair[0], Text: text, At: now})
			}
		}
	}
}

func bulkJSON(b *bulk) map[string]any {
	games := []any{}
	for _, g := range b.games {
		games = append(games, map[string]any{"id": g.id, "white": g.white, "black": g.black})
	}
	m := map[string]any{"id": b.id, "games": games, "variant": b.settings.Variant, "rated": b.settings.Rated,
		"pairAt": b.pairAt.UnixMilli(), "pairedAt": ms(b.pairedAt), "startClocksAt": 0, "scheduledAt": b.scheduledAt.UnixMilli()}
	if !b.startClocksAt.IsZero() {
		m["startClocksAt"] = b.startClocksAt.UnixMilli()
	}
	if b.settings.Clock != nil {
		m["clock"] = map[string]any{"limit": b.settings.Clock.Initial, "increment": b.settings.Clock.Increment}
	}
	return m
}

func (f *Fake) ownBulk(c *call) *bulk {
	b := f.bulks[c.arg("id")]
	if b == nil || b.owner != c.token.UserID {
		c.notFound()
		return nil
	}
	return b
}

func hListBulks(f *Fake, c *call) {
	out := []any{}
	for _, id := range f.bulkOrder {
		if b := f.bulks[id]; b.owner == c.token.UserID {
			out = append(out, bulkJSON(b))
		}
	}
	c.json(200, out)
}

func hShowBulk(f *Fake, c *call) {
	if b := f.ownBulk(c); b != nil {
		c.json(200, bulkJSON(b))
	}
}

func hCancelBulk(f *Fake, c *call) {
	b := f.ownBulk(c)
	if b == nil {
		return
	}
	if b.pairedAt.IsZero() {
		// Scheduled in the future: deleted. Once paired, nothing happens.
		delete(f.bulks, b.id)
		for i, id := range f.bulkOrder {
			if id == b.id {
				f.bulkOrder = append(f.bulkOrder[:i], f.bulkOrder[i+1:]...)
				break
			}
		}
	}
	c.ok()
}

func hStartBulkClocks(f *Fake, c *call) {
	b := f.ownBulk(c)
	if b == nil {
		return
	}
	if !b.pairedAt.IsZero() {
		now := f.now()
		if b.startClocksAt.IsZero() || b.startClocksAt.After(now) {
			b.startClocksAt = now
		}
		for _, bg := range b.games {
			if g := f.games[bg.id]; g != nil && g.Status == lichess.StatusCreated {
				g.Status = lichess.StatusStarted
			}
		}
	}
	c.ok()
}

func hBulkGames(f *Fake, c *call) {
	b := f.ownBulk(c)
	if b == nil || !c.ndjsonAccepted() {
		return
	}
	var lines []any
	for _, bg := range b.games {
		if g := f.games[bg.id]; g != nil {
			lines = append(lines, f.gameJSON(g))
		}
	}
	c.ndjson(lines)
}
