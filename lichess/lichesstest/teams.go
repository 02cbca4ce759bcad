package lichesstest

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/lichess"
)

type team struct {
	ID, Name string
	Leader   string
	// Private teams hide their member list from anyone but their members
	// (team:read).
	Private bool
	members []member // most recently joined last
	updates []TeamMessage
}

type member struct {
	id     string
	joined time.Time
}

// AddTeam makes a team led by its first member (created as needed) with
// members joined in order, one minute apart, before now.
func (f *Fake) AddTeam(id, name string, private bool, members ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &team{ID: strings.ToLower(id), Name: name, Private: private}
	at := f.now().Add(-time.Duration(len(members)) * time.Minute)
	for i, m := range members {
		u := f.userLocked(m, true)
		t.members = append(t.members, member{id: u.ID, joined: at.Add(time.Duration(i) * time.Minute)})
	}
	if len(t.members) > 0 {
		t.Leader = t.members[0].id
	}
	f.teams[t.ID] = t
}

// JoinTeam adds user to a team now.
func (f *Fake) JoinTeam(id, user string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t := f.teams[strings.ToLower(id)]; t != nil {
		t.members = append(t.members, member{id: f.userLocked(user, true).ID, joined: f.now()})
	}
}

func (t *team) has(userID string) bool {
	return slices.ContainsFunc(t.members, func(m member) bool { return m.id == userID })
}

func (f *Fake) teamJSON(t *team) map[string]any {
	leader := map[string]any{"id": t.Leader, "name": t.Leader}
	if u := f.users[t.Leader]; u != nil {
		leader = lightUser(u)
	}
	return map[string]any{"id": t.ID, "name": t.Name, "description": t.Name, "open": !t.Private,
		"leader": leader, "leaders": []any{leader}, "nbMembers": len(t.members)}
}

func hTeam(f *Fake, c *call) {
	t := f.teams[strings.ToLower(c.arg("teamId"))]
	if t == nil {
		c.notFound()
		return
	}
	c.json(200, f.teamJSON(t))
}

func hTeamUsers(f *Fake, c *call) {
	t := f.teams[strings.ToLower(c.arg("teamId"))]
	if t == nil {
		c.notFound()
		return
	}
	if t.Private && (c.token == nil || !c.token.has("team:read") || !t.has(c.token.UserID)) {
		c.w.Header().Set("X-Accepted-OAuth-Scopes", "team:read")
		c.error(403, "Missing scope")
		return
	}
	if !c.ndjsonAccepted() {
		return
	}
	var lines []any
	for i := len(t.members) - 1; i >= 0 && len(lines) < 5000; i-- {
		m := t.members[i]
		line := map[string]any{"id": m.id, "name": m.id, "joinedTeamAt": m.joined.UnixMilli()}
		if u := f.users[m.id]; u != nil {
			line["name"] = u.Username
			if u.Title != "" {
				line["title"] = u.Title
			}
		}
		lines = append(lines, line)
	}
	c.ndjson(lines)
}

func hTeamsOf(f *Fake, c *call) {
	u := f.userLocked(c.arg("username"), false)
	if u == nil {
		c.notFound()
		return
	}
	out := []any{}
	ids := make([]string, 0, len(f.teams))
	for id := range f.teams {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		t := f.teams[id]
		// A team hiding its members shows only to a member's token.
		if t.has(u.ID) && (!t.Private || c.token != nil && t.has(c.token.UserID)) {
			out = append(out, f.teamJSON(t))
		}
	}
	c.json(200, out)
}

// ndjsonAccepted refuses a stream asked without Accept: application/x-ndjson
// (Lichess would answer PGN, which Arbiter cannot read).
func (c *call) ndjsonAccepted() bool {
	if !strings.Contains(c.r.Header.Get("Accept"), "application/x-ndjson") {
		c.error(406, "the fake answers this endpoint in NDJSON only: send Accept: application/x-ndjson")
		return false
	}
	return true
}

// TeamMessage is a team update sent to every member of a team (POST
// /team/{teamId}/pm-all).
type TeamMessage struct {
	From string   // the leader who sent it
	To   []string // the team's members then, in the order they joined
	Text string
	At   time.Time
}

// TeamMessages returns the updates sent to a team, oldest first.
func (f *Fake) TeamMessages(id string) []TeamMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tick()
	if t := f.teams[strings.ToLower(id)]; t != nil {
		return slices.Clone(t.updates)
	}
	return nil
}

// hTeamPMAll sends a team update: only the team's leader may (Lichess
// also asks for the leader's "Updates" permission, which every leader of
// the fake has); the update reaches every member but the sender.
func hTeamPMAll(f *Fake, c *call) {
	t := f.teams[strings.ToLower(c.arg("teamId"))]
	text := c.form.Get("message")
	switch {
	case t == nil:
		c.notFound()
	case t.Leader != c.token.UserID:
		c.error(400, "You are not a leader of this team with the Updates permission")
	case strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > lichess.MaxMessageLength:
		c.error(400, "message: required, at most 8000 characters")
	default:
		var to []string
		for _, m := range t.members {
			if m.id != c.token.UserID {
				to = append(to, m.id)
			}
		}
		t.updates = append(t.updates, TeamMessage{From: c.token.UserID, To: to, Text: text, At: f.now()})
		c.ok()
	}
}
