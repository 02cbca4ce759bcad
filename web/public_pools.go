package web

import (
	"context"
	"net/http"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// poolView is one pool of a pool stage: its standings and its matches.
type poolView struct {
	Name      string               `json:"name"`
	Seeds     []string             `json:"seeds"`
	Tiebreaks []standings.Tiebreak `json:"tiebreaks"`
	Rows      []standings.Row      `json:"rows"`
	Matches   []arbiter.Match      `json:"matches"`
	// Rounds group the matches for the page.
	Rounds []poolRound `json:"-"`
}

type poolRound struct {
	ID     string
	Number int
	Rows   []pairingRow
}

func (s *Server) pools(ctx context.Context, v *eventView, si int) ([]poolView, error) {
	var out []poolView
	for _, p := range v.Ev.Stages[si].Pools {
		t, err := s.app.PoolStandings(ctx, v.Ev.Slug, si, p.Name)
		if err != nil {
			return nil, err
		}
		pv := poolView{Name: p.Name, Seeds: p.Seeds, Tiebreaks: t.Tiebreaks, Rows: t.Rows, Matches: []arbiter.Match{}}
		if pv.Rows == nil {
			pv.Rows = []standings.Row{}
		}
		for i := range pv.Rows {
			pv.Rows[i].Name = v.name(pv.Rows[i].ID)
		}
		for _, m := range v.Matches {
			if m.Stage != si || m.Pool != p.Name {
				continue
			}
			pv.Matches = append(pv.Matches, m)
			if n := len(pv.Rounds); n == 0 || pv.Rounds[n-1].Number != m.Round {
				pv.Rounds = append(pv.Rounds, poolRound{ID: roundID(m.Stage, m.Round), Number: m.Round})
			}
			row := pairingRow{ID: m.ID, Board: m.Board, Status: m.Status, Home: entrantLink{m.Home, v.name(m.Home)}, Scheduled: stampOf(m.ScheduledAt)}
			if m.Decision == "disregarded" {
				row.Status = "disregarded"
			}
			if !m.IsBye() {
				row.Away = entrantLink{m.Away, v.name(m.Away)}
			}
			row.Result = matchLine(m, row.Home.Name, row.Away.Name)
			rd := &pv.Rounds[len(pv.Rounds)-1]
			rd.Rows = append(rd.Rows, row)
		}
		out = append(out, pv)
	}
	return out, nil
}

// poolsData is the pools page.
type poolsData struct {
	Ev     arbiter.Event
	Nav    []navLink
	Tabs   stageTabs
	Stage  stageRef
	Notice string
	Pools  []poolView
}

// poolsPage shows a pool stage (?stage=N; default the pool stage being
// played, else the first): each pool's standings and its matches round
// by round.
func (s *Server) poolsPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := poolsData{Ev: v.Ev, Nav: v.nav("Pools")}
	for _, sg := range v.stageKinds() {
		if sg.Kind == format.Pool {
			d.Tabs.Stages = append(d.Tabs.Stages, sg)
		}
	}
	ref, ok, err := v.pickStage(r, format.Pool)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Stage, d.Tabs.Current = ref, ref
	switch {
	case !ok && ref.Name != "":
		d.Notice = "Stage " + ref.Name + " is a " + words(ref.Kind) + ", not a pool stage."
	case !ok:
		d.Notice = "This event has no pool stage."
	case len(v.Ev.Stages) == 0 || len(v.Ev.Stages[ref.Index].Pools) == 0:
		d.Notice = "The pools are filled once the stage before them ends."
	default:
		if d.Pools, err = s.pools(r.Context(), v, ref.Index); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "pools", page{Title: "Pools: " + v.Ev.Name, Nav: "home", Live: liveURL(v.Ev.Slug), Data: d})
}

// apiPools answers a pool stage's pools (?stage=N as on the page): none
// while they are not filled.
func (s *Server) apiPools(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	ref, ok, err := v.pickStage(r, format.Pool)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := struct {
		Stage int        `json:"stage,omitempty"`
		Pools []poolView `json:"pools"`
	}{Pools: []poolView{}}
	if ok {
		out.Stage = ref.Number()
		if len(v.Ev.Stages) > 0 && len(v.Ev.Stages[ref.Index].Pools) > 0 {
			if out.Pools, err = s.pools(r.Context(), v, ref.Index); err != nil {
				s.apiFail(w, r, err)
				return
			}
		}
	}
	s.writeJSON(w, r, http.StatusOK, out)
}
