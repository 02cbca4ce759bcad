package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/jobs"
	"arbiter/sqlstore"
)

// The Challonge push as a job. RKCC enters its knockout's set scores into
// Challonge (R10, R15's scores of forfeits): a TD links the event to a
// Challonge tournament, then every knockout result that becomes final
// (and the TD's "Push to Challonge") enqueues a push of the whole bracket
// with the server's API key, retried while Challonge is unavailable.
// Pushing is idempotent (challonge.Push sends only what Challonge lacks),
// so one job per event is enough: while it waits, more results join it.

// ChallongeLink is an event's Challonge tournament and its last push.
type ChallongeLink struct {
	// Tournament is Challonge's identifier of the tournament: its URL name
	// ("rkcc_winter"), "subdomain-name" for an organisation's, or its
	// number.
	Tournament string    `json:"tournament"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
	// LastPush is the last push that succeeded.
	LastPush *ChallongePush `json:"last_push,omitempty"`

	Version int64 `json:"-"`
}

// ChallongePush is what a push did.
type ChallongePush struct {
	At        time.Time `json:"at"`
	By        string    `json:"by"`
	Added     int       `json:"added"`   // participants added
	Started   bool      `json:"started"` // the push started the tournament
	Updated   []string  `json:"updated,omitempty"`
	Unchanged int       `json:"unchanged"`
	// Missing are results Challonge has no open match for (its bracket
	// differs, or an earlier result is missing there).
	Missing []string `json:"missing,omitempty"`
}

const (
	kindChallonge   = "challonge"
	challongeClause = "app.challonge"
)

// ChallongePushJob pushes the event's knockout to its Challonge
// tournament. By is the TD who asked ("" for a push after a result).
type ChallongePushJob struct {
	EventSlug string `json:"event"`
	By        string `json:"by,omitempty"`
}

func (ChallongePushJob) Kind() string    { return "challonge_push" }
func (j ChallongePushJob) Key() string   { return "challonge:" + j.EventSlug }
func (j ChallongePushJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: ChallongePushJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			// Repeatable: a push may run again once the last is over.
			jobs.Add(k, jobs.Options{MaxAttempts: 6, Repeatable: true}, s.runChallongeJob)
		},
		what: func(json.RawMessage) string { return "Push of the knockout to Challonge" },
	})
}

// challongeID reads what a TD gives for a tournament: its identifier, or
// its address (https://challonge.com/rkcc_winter, or an organisation's
// https://rkcc.challonge.com/winter, whose identifier is rkcc-winter).
var challongeIDRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,80}$`)

func challongeID(s string) (string, error) {
	s = strings.TrimSpace(s)
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		host := strings.ToLower(u.Hostname())
		path := strings.Trim(u.Path, "/")
		if i := strings.LastIndex(path, "/"); i >= 0 && !strings.HasSuffix(host, ".challonge.com") {
			path = path[i+1:] // https://challonge.com/en/rkcc_winter
		}
		switch {
		case host == "challonge.com" || host == "www.challonge.com":
			s = path
		case strings.HasSuffix(host, ".challonge.com"):
			s = strings.TrimSuffix(host, ".challonge.com") + "-" + path
		default:
			return "", arbiter.FieldError("tournament", challongeClause, "%s is not a Challonge address", u.Host)
		}
	}
	if !challongeIDRe.MatchString(s) {
		return "", arbiter.FieldError("tournament", challongeClause, "give the tournament's Challonge address or its identifier (letters, digits, _ and -), not %q", s)
	}
	return s, nil
}

// challongeLinkOf reads the event's link; nil when none.
func challongeLinkOf(ctx context.Context, q sqlstore.Queryer, st *state) (*ChallongeLink, error) {
	l, err := docChallonge.get(ctx, q, st, docID)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &l, nil
}

// hasKnockout tells whether the event's format has a knockout stage.
func hasKnockout(f *format.Format) bool {
	return slices.ContainsFunc(f.Stages, func(st format.Stage) bool { return st.Kind == format.Knockout })
}

// LinkChallonge links the event to a Challonge tournament ("" unlinks
// it): from then on each knockout result made final is pushed there. TD
// only; audited. An event without a knockout stage has nothing to push.
func (s *Service) LinkChallonge(ctx context.Context, a arbiter.Actor, slug, tournament string) (*ChallongeLink, error) {
	id := ""
	if strings.TrimSpace(tournament) != "" {
		var err error
		if id, err = challongeID(tournament); err != nil {
			return nil, err
		}
	}
	var out *ChallongeLink
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "link the event to Challonge"); err != nil {
			return err
		}
		if !hasKnockout(st.f) {
			return arbiter.RuleError(challongeClause, "%s has no knockout stage: Challonge holds knockout brackets", slug)
		}
		link, err := challongeLinkOf(ctx, tx, st)
		if err != nil {
			return err
		}
		exists := link != nil
		var cur ChallongeLink
		if exists {
			cur = *link
		}
		switch {
		case id == "" && !exists:
			return nil
		case id == "":
			return docChallonge.remove(ctx, tx, change(a, "challonge.unlink", cur.Tournament, false), st, docID, cur.Version)
		case exists && cur.Tournament == id:
			out = &cur
			return nil
		}
		l := ChallongeLink{Tournament: id, By: normUser(a.Name), At: s.now()}
		ch := change(a, "challonge.link", id, false)
		if exists {
			l.Version, err = docChallonge.update(ctx, tx, ch, st, docID, cur.Version, l)
		} else {
			l.Version, err = docChallonge.create(ctx, tx, ch, st, docID, l)
		}
		out = &l
		return err
	})
	return out, err
}

// ChallongeStatus is the Challonge section of the console.
type ChallongeStatus struct {
	// Knockout: the event has a knockout stage (else nothing applies).
	Knockout bool           `json:"knockout"`
	Link     *ChallongeLink `json:"link,omitempty"`
	// Key: the server has a Challonge API key.
	Key bool `json:"key"`
	// Job is the latest push job, if any.
	Job *Job `json:"job,omitempty"`
}

// Challonge returns the event's Challonge link, whether the server can
// push, and the latest push job. TD only.
func (s *Service) Challonge(ctx context.Context, a arbiter.Actor, slug string) (ChallongeStatus, error) {
	out := ChallongeStatus{Key: s.integrations.challonge != nil}
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "see the event's Challonge link"); err != nil {
			return err
		}
		out.Knockout = hasKnockout(st.f)
		out.Link, err = challongeLinkOf(ctx, tx, st)
		return err
	})
	if err != nil || s.queue == nil {
		return out, err
	}
	infos, err := s.queue.List(ctx, jobs.Filter{Event: slug, Key: ChallongePushJob{EventSlug: slug}.Key(), Limit: 1})
	if err == nil && len(infos) > 0 {
		j := jobOf(infos[0])
		out.Job = &j
	}
	return out, err
}

// RequestChallongePush asks for the knockout to be pushed to Challonge
// now. TD only. With a job queue it is a job (one at a time: asked again
// while one waits, that one is returned); without, it runs at once.
func (s *Service) RequestChallongePush(ctx context.Context, a arbiter.Actor, slug string) (Job, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "push the bracket to Challonge"); err != nil {
		return Job{}, err
	}
	link, err := challongeLinkOf(ctx, s.DB, st)
	if err != nil {
		return Job{}, err
	}
	if link == nil {
		return Job{}, arbiter.RuleError(challongeClause, "link %s to a Challonge tournament first", slug)
	}
	if s.queue == nil {
		p, err := s.pushChallonge(ctx, a, slug)
		j := Job{Info: jobs.Info{Kind: ChallongePushJob{}.Kind(), State: jobs.Done}, What: "Push of the knockout to Challonge"}
		if err == nil {
			j.Outcome = p.Summary()
		}
		return j, err
	}
	j, _, err := s.enqueue(ctx, nil, ChallongePushJob{EventSlug: slug, By: normUser(a.Name)})
	return j, err
}

// autoPushChallonge enqueues the push, in tx, when the event is linked to
// a Challonge tournament (a knockout result was just made final).
func (s *Service) autoPushChallonge(ctx context.Context, tx *sqlstore.Tx, st *state) error {
	link, err := challongeLinkOf(ctx, tx, st)
	if err != nil || link == nil {
		return err
	}
	_, _, err = s.enqueue(ctx, tx, ChallongePushJob{EventSlug: st.row.Slug})
	return err
}

// errNoChallongeKey fails a push on a server without a key.
var errNoChallongeKey = arbiter.Errorf(arbiter.EINVALID,
	"this server has no Challonge API key: start it with --challonge-key-file or $CHALLONGE_API_KEY, then retry")

func (s *Service) runChallongeJob(ctx context.Context, j *jobs.Job[ChallongePushJob]) error {
	ctx = asJob(ctx)
	_, err := s.pushChallonge(ctx, jobActor(j.Args.By), j.Args.EventSlug)
	if errors.Is(err, errBracketMoved) {
		// A result came while pushing: its job was this one, so push again.
		return jobs.Snooze(time.Second, err)
	}
	return err
}

var errBracketMoved = errors.New("a result changed while pushing: pushing again")

// pushChallonge pushes the event's knockout to its tournament as a and
// records what it did; errBracketMoved when the bracket changed
// meanwhile.
func (s *Service) pushChallonge(ctx context.Context, a arbiter.Actor, slug string) (ChallongePush, error) {
	c := s.integrations.challonge
	if c == nil {
		return ChallongePush{}, errNoChallongeKey
	}
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return ChallongePush{}, err
	}
	link, err := challongeLinkOf(ctx, s.DB, st)
	if err != nil {
		return ChallongePush{}, err
	}
	if link == nil {
		return ChallongePush{}, arbiter.RuleError(challongeClause, "%s is not linked to a Challonge tournament", slug)
	}
	in, err := s.challongeBracket(ctx, a, slug, 0)
	if err != nil {
		return ChallongePush{}, err
	}
	rep, err := pushBracket(ctx, c, link.Tournament, in)
	if err != nil {
		return ChallongePush{}, err
	}
	p := ChallongePush{At: s.now(), By: normUser(a.Name), Added: rep.Added, Started: rep.Started, Updated: rep.Updated,
		Unchanged: len(rep.Unchanged), Missing: rep.Missing}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		cur, err := challongeLinkOf(ctx, tx, st)
		if err != nil || cur == nil || cur.Tournament != link.Tournament {
			return err // unlinked or relinked meanwhile: the push is history
		}
		cur.LastPush = &p
		_, err = docChallonge.update(ctx, tx, change(a, "challonge.push", link.Tournament+": "+p.Summary(), false), st, docID, cur.Version, *cur)
		return err
	})
	if err != nil {
		return p, err
	}
	after, err := s.challongeBracket(ctx, a, slug, 0)
	if err == nil && !reflect.DeepEqual(in, after) {
		err = errBracketMoved
	}
	return p, err
}

// Summary says what a push did in plain words.
func (p ChallongePush) Summary() string {
	var parts []string
	if p.Added > 0 {
		parts = append(parts, countOf(p.Added, "participant")+" added")
	}
	if p.Started {
		parts = append(parts, "tournament started")
	}
	parts = append(parts, countOf(len(p.Updated), "result")+" sent", countOf(p.Unchanged, "result")+" already there")
	if len(p.Missing) > 0 {
		parts = append(parts, countOf(len(p.Missing), "result")+" without an open match on Challonge ("+strings.Join(p.Missing, "; ")+")")
	}
	return strings.Join(parts, ", ")
}

// countOf is "1 result", "3 results".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// PushChallongeNow pushes the knockout to the linked tournament at once,
// in this process (arbiter event challonge-push), and records it like the
// job does. TD only.
func (s *Service) PushChallongeNow(ctx context.Context, a arbiter.Actor, slug string) (ChallongePush, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return ChallongePush{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "push the bracket to Challonge"); err != nil {
		return ChallongePush{}, err
	}
	p, err := s.pushChallonge(ctx, a, slug)
	if errors.Is(err, errBracketMoved) {
		err = nil // pushed what it read; the job for the newer result follows
	}
	return p, err
}
