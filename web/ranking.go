package web

import (
	"context"
	"net/http"
	"strconv"

	"arbiter"
	"arbiter/app"
)

// The final ranking of a finished event (app.Ranking): a public API route
// and the podium on the event page.

func init() {
	apiPublicRoutes = append(apiPublicRoutes,
		apiRoute{"GET /api/events/{slug}/ranking", func(s *Server) http.HandlerFunc { return s.apiRanking }})
}

// apiRanking answers the final ranking as a JSON list of places (rank,
// entrant ID, name, stage, how the place was decided); an event that is
// not finished is a rule error naming app.ranking.
func (s *Server) apiRanking(w http.ResponseWriter, r *http.Request) {
	ps, err := s.ranking(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if ps == nil {
		ps = []app.Placing{}
	}
	s.writeJSON(w, r, http.StatusOK, ps)
}

func (s *Server) ranking(ctx context.Context, slug string) ([]app.Placing, error) {
	return cachedRead(s.reads, ctx, slug, "ranking", func() ([]app.Placing, error) { return s.app.Ranking(ctx, slug) })
}

// podium is what the event page of a finished event shows: the winner,
// the places up to third (shared places included) and the whole ranking.
type podium struct {
	Winner  app.Placing
	Top     []app.Placing
	Ranking []app.Placing
}

func (s *Server) podiumOf(ctx context.Context, ev arbiter.Event) (*podium, error) {
	if ev.Status != arbiter.EventFinished {
		return nil, nil
	}
	ps, err := s.ranking(ctx, ev.Slug)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	p := &podium{Winner: ps[0], Ranking: ps}
	for _, x := range ps {
		if x.Rank > 3 {
			break
		}
		p.Top = append(p.Top, x)
	}
	return p, nil
}

// ordinal writes a place in words a reader expects: 1st, 2nd, 3rd, 4th,
// 11th, 12th, 13th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
