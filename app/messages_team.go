package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Announcements to the event's Lichess team (issue 14 §4): where the
// format names one (lichess.team) and the event's messages are on, the
// pairings of a round when it is published and its results when it
// closes go to every member of the team as a team update (POST
// /team/{teamId}/pm-all, the organiser's token with team:lead; the
// organiser must lead the team). Each announcement is a document named
// for what it tells ("pairings-s1r2"), made once in the transaction of
// the change; a team_message job sends it, records that it did
// (job_effects) and marks it sent, so it is never sent twice. The texts
// are in docs/lichess.md ("Messages").

const kindTeamPost = "team_message"

// TeamPost is one announcement to the event's Lichess team.
type TeamPost struct {
	ID   string    `json:"id"`
	Team string    `json:"team"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	Sent bool      `json:"sent,omitempty"`

	Version int64 `json:"-"`
}

// TeamPostJob sends one TeamPost.
type TeamPostJob struct {
	EventSlug string `json:"event"`
	Post      string `json:"post"`
}

func (TeamPostJob) Kind() string    { return "team_message" }
func (j TeamPostJob) Key() string   { return "team_message:" + j.EventSlug + ":" + j.Post }
func (j TeamPostJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: TeamPostJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{MaxAttempts: 8}, s.runTeamPostJob)
		},
		what: func(args json.RawMessage) string {
			var j TeamPostJob
			json.Unmarshal(args, &j)
			return "Announcement " + j.Post + " to the event's Lichess team"
		},
	})
}

// teamMessenger is a Lichess client that sends team updates
// (*lichess.Client is one).
type teamMessenger interface {
	SendTeamMessage(ctx context.Context, teamID, text string) error
}

// announce makes the announcement id to the event's Lichess team, unless
// the format names none, messages are off or it was made already.
func (s *Service) announce(ctx context.Context, tx *sqlstore.Tx, st *state, id, text string) error {
	team := st.f.LichessTeam()
	if team == "" || s.queue == nil || !st.ev.Messages {
		return nil
	}
	_, _, err := docTeamPost.read(ctx, tx, st.row.ID, id)
	switch arbiter.ErrorCode(err) {
	case "":
		return nil // announced already
	case arbiter.ENOTFOUND:
	default:
		return err
	}
	if n := len([]rune(text)); n > lichess.MaxMessageLength {
		text = string([]rune(text)[:lichess.MaxMessageLength-1]) + "…"
	}
	p := TeamPost{ID: id, Team: team, Text: text, At: s.now()}
	if _, err := docTeamPost.create(ctx, tx, change(systemJob, "team.announce", id, false), st, id, p); err != nil {
		return err
	}
	_, err = s.queue.Enqueue(ctx, tx, TeamPostJob{EventSlug: st.ev.Slug, Post: id}, p.At)
	return err
}

// announceRound announces a round's pairings when it is published and
// its results when it closes.
func (s *Service) announceRound(ctx context.Context, tx *sqlstore.Tx, st *state, rd arbiter.Round) error {
	if st.f.LichessTeam() == "" {
		return nil
	}
	var b strings.Builder
	var id string
	switch rd.Status {
	case arbiter.RoundPublished:
		id = "pairings-" + rd.ID
		fmt.Fprintf(&b, "%s, round %d: the pairings are out. Deadline %s.\n", st.ev.Name, rd.Number, calendar.Format(rd.End.Add(-time.Minute)))
	case arbiter.RoundClosed:
		id = "results-" + rd.ID
		fmt.Fprintf(&b, "%s, round %d: the results.\n", st.ev.Name, rd.Number)
	default:
		return nil
	}
	for _, mid := range rd.Matches {
		m, err := docMatch.get(ctx, tx, st, mid)
		if err != nil {
			return err
		}
		home, err := docEntrant.get(ctx, tx, st, m.Home)
		if err != nil {
			return err
		}
		if m.IsBye() {
			fmt.Fprintf(&b, "\n- %s: bye", home.Name)
			continue
		}
		away, err := docEntrant.get(ctx, tx, st, m.Away)
		if err != nil {
			return err
		}
		switch {
		case rd.Status == arbiter.RoundPublished:
			fmt.Fprintf(&b, "\n- %s v %s", home.Name, away.Name)
		case m.Result != nil:
			fmt.Fprintf(&b, "\n- %s %s-%s %s", home.Name, m.Result.Home.Points, m.Result.Away.Points, away.Name)
		default:
			fmt.Fprintf(&b, "\n- %s v %s: with the TDs", home.Name, away.Name)
		}
	}
	if rd.Status == arbiter.RoundPublished {
		fmt.Fprintf(&b, "\n\nPairings: %s", s.eventURL(st.ev.Slug, "/rounds/"+rd.ID))
	} else {
		fmt.Fprintf(&b, "\n\nStandings: %s", s.eventURL(st.ev.Slug, "/standings"))
	}
	return s.announce(ctx, tx, st, id, b.String())
}

// eventURL is the address of one of the event's pages.
func (s *Service) eventURL(slug, path string) string {
	base := s.baseURL
	if base == "" {
		base = "http://localhost:8080"
	}
	return base + "/events/" + slug + path
}

func (s *Service) runTeamPostJob(ctx context.Context, j *jobs.Job[TeamPostJob]) error {
	st, err := load(ctx, s.DB, j.Args.EventSlug)
	if err != nil {
		return err
	}
	p, _, err := docTeamPost.read(ctx, s.DB, st.row.ID, j.Args.Post)
	if err != nil || p.Sent || !st.ev.Messages {
		return err // messages turned off meanwhile: not sent
	}
	_, sent, err := j.Effect(ctx)
	if err != nil {
		return err
	}
	if !sent {
		tm, ok := s.lichess.(teamMessenger)
		if !ok {
			return arbiter.Errorf(arbiter.EUNAVAILABLE, "this process has no Lichess client that sends team updates: the announcement waits")
		}
		if err := tm.SendTeamMessage(ctx, p.Team, p.Text); err != nil {
			return jobError(lichessFailure(err, "announcing %s to the Lichess team %s", p.ID, p.Team))
		}
		if err := j.RecordEffect(ctx, p.Team); err != nil {
			return err
		}
	}
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		p, v, err := docTeamPost.read(ctx, tx, st.row.ID, j.Args.Post)
		if err != nil || p.Sent {
			return err
		}
		p.Sent = true
		_, err = docTeamPost.update(ctx, tx, change(systemJob, "team.announced", p.ID, false), st, p.ID, v, p)
		return err
	})
}
