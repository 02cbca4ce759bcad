package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/eligibility"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Ratings from Lichess (issue 14 §5). Where the format names a perf
// (format.Lichess.Perf: antichess for the antichess presets), every
// player's rating in it is fetched from Lichess by a job right after
// registration (job_ratings.go) and refreshed, all in one request per 300
// players, before round 1 is paired; round 1 then numbers the entrants by
// the refreshed ratings. If Lichess cannot be reached then, round 1 is
// paired with the ratings last fetched and the console says so
// (RatingsRefresh). A team's rating is the average of its best boards'
// ratings (teamRating). Where the format names a Lichess team
// (format.Lichess.Team), the same job checks each player belongs to it and
// shows the TDs who does not; nothing is refused. Formats without a perf
// keep the ratings typed at registration.

const (
	kindRatings        = "ratings"         // an entrant's ratings from Lichess, by entrant
	kindRatingsRefresh = "ratings_refresh" // the event's last refresh, one document (docID)
)

// LichessDefaultRating is the rating Lichess starts every player at in a
// perf they never played rated (Glicko-2's 1500).
const LichessDefaultRating = 1500

// PlayerRating is one player's Lichess rating in the format's perf.
type PlayerRating struct {
	Username    string `json:"username"`
	Rating      int    `json:"rating"`
	Games       int    `json:"games"`
	Provisional bool   `json:"provisional,omitempty"`
	// Listed is false when Lichess lists no such perf for the player (no
	// rated game in it): Rating is then LichessDefaultRating.
	Listed bool `json:"listed"`
	// Missing says why Lichess gave no profile (unknown or closed
	// account); Rating is then the last one known, 0 for none.
	Missing string    `json:"missing,omitempty"`
	At      time.Time `json:"at"` // when Lichess answered
}

// TeamMembership is whether one player belongs to the format's Lichess team.
type TeamMembership struct {
	Username string             `json:"username"`
	Status   eligibility.Status `json:"status"` // pass (a member), fail, unknown (Lichess could not say)
	Detail   string             `json:"detail,omitempty"`
}

// EntrantRatings is what Lichess gave for one entrant: each player's
// rating, the entrant's (the player's, or the team's by Rule), and the
// Lichess team check.
type EntrantRatings struct {
	Entrant string         `json:"entrant"`
	Perf    string         `json:"perf"`
	At      time.Time      `json:"at"` // the last fetch
	Players []PlayerRating `json:"players"`
	Rating  int            `json:"rating"`
	// Rule says how a team's rating came from its players' ratings, with
	// the figures: "average of the 4 best of 5: (…)/4 = 2038.75 → 2039".
	Rule string `json:"rule,omitempty"`
	// Team is the Lichess team the format names; Members one line per
	// player, TeamStatus the worst of them.
	Team       string             `json:"team,omitempty"`
	Members    []TeamMembership   `json:"members,omitempty"`
	TeamStatus eligibility.Status `json:"team_status,omitempty"`

	Version int64 `json:"-"`
}

// RatingsRefresh is the event's last refresh of every rating.
type RatingsRefresh struct {
	At time.Time `json:"at"` // when it was tried
	By string    `json:"by"`
	// Round1 says it ran as round 1 was paired.
	Round1 bool `json:"round1,omitempty"`
	OK     bool `json:"ok"`
	// Error is why Lichess could not be asked; the ratings then stay
	// those of Fetched (zero: never refreshed, the registration's).
	Error   string    `json:"error,omitempty"`
	Fetched time.Time `json:"fetched,omitzero"` // the last refresh that worked
	Players int       `json:"players"`
	// Changes are the entrants whose rating moved: "p01 1800 → 1950".
	Changes []string `json:"changes,omitempty"`

	Version int64 `json:"-"`
}

// Summary says the refresh in one line, for the console and the CLI.
func (r *RatingsRefresh) Summary() string {
	when := "refreshing ratings"
	if r.Round1 {
		when = "pairing round 1"
	}
	if !r.OK {
		kept := "the ratings fetched at registration"
		if !r.Fetched.IsZero() {
			kept = "the ratings of " + r.Fetched.Format("2006-01-02 15:04 UTC")
		}
		return fmt.Sprintf("Lichess could not be reached when %s (%s, %s): %s stand", when, r.At.Format("2006-01-02 15:04 UTC"), r.Error, kept)
	}
	return fmt.Sprintf("%s fetched from Lichess when %s (%s); %s", arbiter.Count(r.Players, "rating"), when, r.At.Format("2006-01-02 15:04 UTC"),
		arbiter.Count(len(r.Changes), "entrant's rating changed", "entrants' ratings changed"))
}

// ProfileBatch fetches many profiles in one request (POST /api/users);
// *lichess.Client has it. Without it a refresh asks for each profile.
type ProfileBatch interface {
	Users(ctx context.Context, ids []string) ([]lichess.User, error)
}

// TeamMembers answers whether a user belongs to a Lichess team;
// *lichess.Client has it. Without it membership is "unknown".
type TeamMembers interface {
	IsTeamMember(ctx context.Context, teamID, username string) (bool, error)
}

// ratingsFromLichess tells whether the event's ratings come from Lichess.
func (s *Service) ratingsFromLichess(st *state) bool {
	return s.accounts != nil && st.f.RatingPerf() != ""
}

// playerRating reads one player's rating in perf from a profile.
func playerRating(u *lichess.User, perf string, at time.Time) PlayerRating {
	p, ok := u.Perf(perf)
	r := PlayerRating{Username: normUser(u.Username), Rating: p.Rating, Games: p.Games, Provisional: p.Provisional, Listed: ok, At: at}
	if !ok {
		r.Rating, r.Provisional = LichessDefaultRating, true
	}
	return r
}

// teamRating is a team's rating from its players' (issue 14 §5, the
// presets' notes): the average of the n best ratings (n: the boards a
// team plays at most; all of them when it has fewer), rounded half up,
// and the rule in words with its figures. A player without a profile
// does not count.
func teamRating(players []PlayerRating, n int) (int, string) {
	var rs []int
	for _, p := range players {
		if p.Missing == "" || p.Rating > 0 {
			rs = append(rs, p.Rating)
		}
	}
	if len(rs) == 0 {
		return 0, "no player's rating is known"
	}
	slices.SortFunc(rs, func(a, b int) int { return b - a })
	k := min(n, len(rs))
	sum := 0
	terms := make([]string, k)
	for i, r := range rs[:k] {
		sum += r
		terms[i] = fmt.Sprint(r)
	}
	avg := (2*sum + k) / (2 * k) // half up
	exact := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", float64(sum)/float64(k)), "0"), ".")
	rule := fmt.Sprintf("average of the %d best of %d: (%s)/%d = %s", k, len(rs), strings.Join(terms, "+"), k, exact)
	if exact != fmt.Sprint(avg) {
		rule += fmt.Sprintf(" → %d", avg)
	}
	return avg, rule
}

// entrantRating fills an entrant's rating (and, for a team, its rule)
// from its players'.
func entrantRating(st *state, e arbiter.Entrant, r *EntrantRatings) {
	if e.Kind != arbiter.EntrantTeam {
		r.Rating, r.Rule = 0, ""
		if len(r.Players) > 0 {
			r.Rating = r.Players[0].Rating
		}
		return
	}
	r.Rating, r.Rule = teamRating(r.Players, slices.Max(st.f.TeamSizes()))
}

// FetchRatings fetches an entrant's ratings (and Lichess team membership)
// from Lichess, stores them and sets the entrant's rating (audited). A TD,
// or the job a registration starts. Lichess failing is EUNAVAILABLE and
// nothing is stored; an unknown or closed account is kept as such.
func (s *Service) FetchRatings(ctx context.Context, a arbiter.Actor, slug, entrantID string) (EntrantRatings, error) {
	var out EntrantRatings
	const what = "fetch an entrant's ratings from Lichess"
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if err := requireTDOrJob(ctx, s.DB, st, a, what); err != nil {
		return out, err
	}
	if s.accounts == nil {
		return out, arbiter.RuleError("app.lichess", "ratings from Lichess are unavailable: this server has no Lichess client (give --lichess-url)")
	}
	perf, team := st.f.RatingPerf(), st.f.LichessTeam()
	if perf == "" && team == "" {
		return out, arbiter.RuleError("format.lichess.perf", "format %s names no Lichess rating (lichess.perf): its ratings are typed at registration", st.f.Name)
	}
	e, err := docEntrant.get(ctx, s.DB, st, normUser(entrantID))
	if err != nil {
		return out, err
	}
	old, err := optional(docRatings.get(ctx, s.DB, st, e.ID))
	if err != nil {
		return out, err
	}
	out = EntrantRatings{Entrant: e.ID, Perf: perf, At: s.now(), Team: team}
	for _, p := range e.Users() {
		u, err := s.accounts.User(ctx, p)
		switch {
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND || err == nil && u.Disabled:
			r := PlayerRating{Username: p, Missing: "no such Lichess account", At: s.now()}
			if err == nil {
				r.Missing = "account closed"
			}
			r.Rating = oldRating(old, p)
			out.Players = append(out.Players, r)
		case err != nil:
			return EntrantRatings{}, &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: fmt.Sprintf("fetching the Lichess account %s failed; try again later", p), Err: err}
		default:
			out.Players = append(out.Players, playerRating(u, perf, s.now()))
		}
	}
	if team != "" {
		s.checkMembership(ctx, &out)
	}
	if perf != "" {
		entrantRating(st, e, &out)
	} else {
		out.Rating = e.Rating
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTDOrJob(ctx, tx, st, a, what); err != nil {
			return err
		}
		return s.storeRatings(ctx, tx, st, a, &out, nil)
	})
	return out, err
}

func oldRating(old *EntrantRatings, player string) int {
	if old == nil {
		return 0
	}
	for _, p := range old.Players {
		if p.Username == player {
			return p.Rating
		}
	}
	return 0
}

// checkMembership checks each player of r belongs to r.Team.
func (s *Service) checkMembership(ctx context.Context, r *EntrantRatings) {
	src, _ := s.accounts.(TeamMembers)
	r.Members, r.TeamStatus = nil, eligibility.Pass
	for _, p := range r.Players {
		m := TeamMembership{Username: p.Username}
		var in bool
		var err error
		if src == nil {
			err = fmt.Errorf("this server cannot ask Lichess for teams")
		} else {
			in, err = src.IsTeamMember(ctx, r.Team, p.Username)
		}
		switch {
		case err != nil:
			m.Status, m.Detail = eligibility.Unknown, "Lichess could not say: "+err.Error()
		case in:
			m.Status = eligibility.Pass
		default:
			m.Status, m.Detail = eligibility.Fail, "not a member of the Lichess team "+r.Team
		}
		r.Members = append(r.Members, m)
		r.TeamStatus = eligibility.Worst([]eligibility.Check{{Status: r.TeamStatus}, {Status: m.Status}})
	}
}

// storeRatings writes an entrant's ratings and, when it moved, the
// entrant's rating (audited); changes collects "id old → new".
func (s *Service) storeRatings(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, r *EntrantRatings, changes *[]string) error {
	e, err := docEntrant.get(ctx, tx, st, r.Entrant)
	if err != nil {
		return err
	}
	what := r.Perf
	if what == "" {
		what = "team " + r.Team
	}
	ch := change(a, "entrant.ratings", fmt.Sprintf("%s: %s from Lichess", e.ID, what), false)
	old, err := optional(docRatings.get(ctx, tx, st, e.ID))
	if err != nil {
		return err
	}
	if old == nil {
		r.Version, err = docRatings.create(ctx, tx, ch, st, e.ID, *r)
	} else {
		r.Version, err = docRatings.update(ctx, tx, ch, st, e.ID, old.Version, *r)
	}
	if err != nil || r.Perf == "" || r.Rating == e.Rating || r.Rating == 0 {
		return err
	}
	note := fmt.Sprintf("%s %d → %d", e.ID, e.Rating, r.Rating)
	if changes != nil {
		*changes = append(*changes, note)
	}
	e.Rating = r.Rating
	_, err = docEntrant.update(ctx, tx, change(a, "entrant.rating", "Lichess "+r.Perf+": "+note, false), st, e.ID, e.Version, e)
	return err
}

// RefreshRatings fetches every entered player's rating again (one request
// per 300 players) and stores them; TD only. When Lichess cannot be
// reached the ratings stay as they were, the attempt is recorded for the
// console and the error is EUNAVAILABLE.
func (s *Service) RefreshRatings(ctx context.Context, a arbiter.Actor, slug string) (RatingsRefresh, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return RatingsRefresh{}, err
	}
	if err := requireTDOrJob(ctx, s.DB, st, a, "refresh the ratings from Lichess"); err != nil {
		return RatingsRefresh{}, err
	}
	if st.f.RatingPerf() == "" {
		return RatingsRefresh{}, arbiter.RuleError("format.lichess.perf", "format %s names no Lichess rating (lichess.perf): its ratings are typed", st.f.Name)
	}
	if s.accounts == nil {
		return RatingsRefresh{}, arbiter.RuleError("app.lichess", "ratings from Lichess are unavailable: this server has no Lichess client (give --lichess-url)")
	}
	return s.refreshRatings(ctx, a, st, false)
}

// refreshRatings refreshes the ratings of the entrants in the event
// (pending or approved); round1 says round 1 is being paired.
func (s *Service) refreshRatings(ctx context.Context, a arbiter.Actor, st *state, round1 bool) (RatingsRefresh, error) {
	perf := st.f.RatingPerf()
	out := RatingsRefresh{At: s.now(), By: normUser(a.Name), Round1: round1}
	all, err := docEntrant.list(ctx, s.DB, st)
	if err != nil {
		return out, err
	}
	var es []arbiter.Entrant
	var ids []string
	for _, e := range all {
		if e.Status == arbiter.EntrantPending || e.Status == arbiter.EntrantApproved {
			es = append(es, e)
			ids = append(ids, e.Users()...)
		}
	}
	profiles, ferr := s.profiles(ctx, ids)
	if ferr == nil {
		out.OK, out.Fetched, out.Players = true, out.At, len(ids)
	} else {
		out.Error = lichessTrouble(ferr)
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, st.ev.Slug)
		if err != nil {
			return err
		}
		prev, err := optional(docRatingsRefresh.get(ctx, tx, st, docID))
		if err != nil {
			return err
		}
		if !out.OK && prev != nil {
			out.Fetched = prev.Fetched
		}
		if out.OK {
			for _, e := range es {
				old, err := optional(docRatings.get(ctx, tx, st, e.ID))
				if err != nil {
					return err
				}
				r := EntrantRatings{Entrant: e.ID, Perf: perf, At: out.At}
				if old != nil {
					r.Team, r.Members, r.TeamStatus = old.Team, old.Members, old.TeamStatus
				}
				for _, p := range e.Users() {
					if u, ok := profiles[p]; ok {
						r.Players = append(r.Players, playerRating(u, perf, out.At))
					} else {
						r.Players = append(r.Players, PlayerRating{Username: p, Missing: "no such Lichess account, or closed", Rating: oldRating(old, p), At: out.At})
					}
				}
				entrantRating(st, e, &r)
				if err := s.storeRatings(ctx, tx, st, a, &r, &out.Changes); err != nil {
					return err
				}
			}
		}
		ch := change(a, "ratings.refresh", out.Summary(), false)
		if prev == nil {
			out.Version, err = docRatingsRefresh.create(ctx, tx, ch, st, docID, out)
		} else {
			out.Version, err = docRatingsRefresh.update(ctx, tx, ch, st, docID, prev.Version, out)
		}
		return err
	})
	if err == nil && ferr != nil {
		err = &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: "Lichess could not be reached to refresh the ratings; they stay as they were", Err: ferr}
	}
	return out, err
}

// lichessTrouble is a Lichess failure in a few words for the TDs.
func lichessTrouble(err error) string {
	if d := lichess.RetryAfter(err); d > 0 {
		return "Lichess asked to wait (429)"
	}
	msg := err.Error()
	if e, ok := err.(*arbiter.Error); ok && e.Err != nil {
		msg = e.Err.Error()
	}
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}

// profiles fetches profiles by lower-case username: in batches of
// lichess.MaxUsersIDs where the source can, else one by one.
func (s *Service) profiles(ctx context.Context, ids []string) (map[string]*lichess.User, error) {
	out := map[string]*lichess.User{}
	if b, ok := s.accounts.(ProfileBatch); ok {
		for chunk := range slices.Chunk(ids, lichess.MaxUsersIDs) {
			us, err := b.Users(ctx, chunk)
			if err != nil {
				return nil, err
			}
			for i := range us {
				out[normUser(us[i].Username)] = &us[i]
			}
		}
		return out, nil
	}
	for _, id := range ids {
		u, err := s.accounts.User(ctx, id)
		switch {
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
		case err != nil:
			return nil, err
		case !u.Disabled:
			out[normUser(u.Username)] = u
		}
	}
	return out, nil
}

// ratingsBeforeRoundOne refreshes the ratings before round 1 of the first
// stage is paired, where they come from Lichess. Lichess failing does not
// stop the pairing: the failure is recorded for the console and the
// ratings last fetched stand.
func (s *Service) ratingsBeforeRoundOne(ctx context.Context, a arbiter.Actor, slug string) error {
	st, err := load(ctx, s.DB, slug)
	if err != nil || !s.ratingsFromLichess(st) || st.ev.Status != arbiter.EventRunning || st.ev.Stage != 0 {
		return err
	}
	if err := requireTD(ctx, s.DB, st, a, "pair a round"); err != nil {
		return err
	}
	if rounds, err := stageRounds(ctx, s.DB, st, 0); err != nil || len(rounds) > 0 {
		return err
	}
	_, err = s.refreshRatings(ctx, a, st, true)
	if arbiter.ErrorCode(err) == arbiter.EUNAVAILABLE {
		return nil
	}
	return err
}

// reseed numbers the first stage's entrants again by rating (then ID, as
// at the close of registration) before its round 1 is paired, where the
// ratings come from Lichess and were just refreshed (C.04.2: the pairing
// numbers follow the ratings at round 1).
func reseed(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor) error {
	es, err := approvedBySeed(ctx, tx, st)
	if err != nil {
		return err
	}
	sorted := slices.Clone(es)
	slices.SortStableFunc(sorted, func(p, q arbiter.Entrant) int {
		if p.Rating != q.Rating {
			return q.Rating - p.Rating
		}
		return strings.Compare(p.ID, q.ID)
	})
	ch := change(a, "entrant.seed", "round 1: numbered by the ratings refreshed from Lichess", false)
	for i, e := range sorted {
		if e.Seed == i+1 {
			continue
		}
		e.Seed = i + 1
		if _, err := docEntrant.update(ctx, tx, ch, st, e.ID, e.Version, e); err != nil {
			return err
		}
	}
	return nil
}

// EventRatings is what the TDs see of the event's ratings.
type EventRatings struct {
	Perf    string                    `json:"perf"` // "" when typed
	Team    string                    `json:"team,omitempty"`
	Refresh *RatingsRefresh           `json:"refresh,omitempty"`
	ByID    map[string]EntrantRatings `json:"entrants"`
}

// Ratings returns the ratings fetched from Lichess for each entrant and
// the last refresh, for the event's TDs (u).
func (s *Service) Ratings(ctx context.Context, u *arbiter.User, slug string) (EventRatings, error) {
	var out EventRatings
	err := s.tdRead(ctx, slug, u, "its ratings from Lichess", func(q sqlstore.Queryer, st *state) error {
		out.Perf, out.Team = st.f.RatingPerf(), st.f.LichessTeam()
		xs, err := docRatings.list(ctx, q, st)
		if err != nil {
			return err
		}
		out.ByID = make(map[string]EntrantRatings, len(xs))
		for _, x := range xs {
			out.ByID[x.Entrant] = x
		}
		out.Refresh, err = optional(docRatingsRefresh.get(ctx, q, st, docID))
		return err
	})
	return out, err
}

// ratingsOf is an entrant's stored ratings, nil when none was fetched.
func ratingsOf(ctx context.Context, q sqlstore.Queryer, st *state, id string) (*EntrantRatings, error) {
	return optional(docRatings.get(ctx, q, st, id))
}
