package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/lineup"
)

// tdRankBoards is the TDs' board order of a team (A12), given as the
// CLI's "boards --rank" takes it: members with ratings ("a01:2200, ..."),
// the comm-banned among them (A16) and the comparable pairs ("x/y") the
// TDs allow to trade places (A12 interchanges, A14 substitutions).
func (s *Server) tdRankBoards(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		members, comp, err := parseRanking(r.FormValue("rank"), r.FormValue("comm_banned"), r.FormValue("comparable"))
		if err != nil {
			return "", err
		}
		bt, err := s.app.RankBoards(r.Context(), a, slug, strings.TrimSpace(r.FormValue("entrant")), members, comp)
		return bt.Entrant + " boards: " + strings.Join(bt.Team.Boards, ", ") + ".", err
	})
}

func parseRanking(rank, banned, comparable string) ([]lineup.Member, lineup.Comparable, error) {
	ban := splitList(strings.ToLower(banned))
	var members []lineup.Member
	for _, item := range splitList(rank) {
		name, rt, ok := strings.Cut(item, ":")
		rating, err := strconv.Atoi(strings.TrimSpace(rt))
		if !ok || err != nil {
			return nil, nil, arbiter.FieldError("rank", "web.rank", "give each member as USER:RATING, not %q", item)
		}
		name = strings.TrimSpace(name)
		members = append(members, lineup.Member{Name: name, Rating: rating, CommBanned: slices.Contains(ban, strings.ToLower(name))})
	}
	if len(members) == 0 {
		return nil, nil, arbiter.FieldError("rank", "web.rank", "give the members with their ratings: a01:2200, b01:2150, ...")
	}
	var comp lineup.Comparable
	for _, item := range splitList(comparable) {
		x, y, ok := strings.Cut(item, "/")
		if !ok {
			return nil, nil, arbiter.FieldError("comparable", "web.comparable", "give each pair as X/Y, not %q", item)
		}
		comp = append(comp, lineup.Pair{strings.ToLower(strings.TrimSpace(x)), strings.ToLower(strings.TrimSpace(y))})
	}
	return members, comp, nil
}
