package web

import (
	"html/template"
	"net/http"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing/knockout"
)

// bracketView is a knockout stage as a bracket: every round with every
// position of the draw, filled as far as the results go.
type bracketView struct {
	Rounds []bracketRound `json:"rounds"`
	// Champion is the final's winner (its entrant ID) once decided.
	Champion     string `json:"champion,omitempty"`
	ChampionName string `json:"-"`
}

type bracketRound struct {
	Number  int            `json:"number"`
	Name    string         `json:"name"` // Final, Semifinals, Quarterfinals, Round of N
	Matches []bracketMatch `json:"matches"`
}

// bracketMatch is one position of the draw.
type bracketMatch struct {
	ID         string `json:"id"`   // its place in the bracket: R1-M2, R2-3P
	Slot       int    `json:"slot"` // 1-based, top to bottom
	ThirdPlace bool   `json:"third_place,omitempty"`
	// Match is the paired match's ID; empty until its round is published.
	Match string `json:"match,omitempty"`
	// Status is the match's state, "bye" for a seed going through
	// without play, or "to be paired".
	Status string      `json:"status"`
	Home   bracketSide `json:"home"`
	Away   bracketSide `json:"away"`
	// Note says how a result came about when not simply played.
	Note string `json:"note,omitempty"`
}

// bracketSide is one line of a position: an entrant, or who will be
// there ("Winner of Semifinal 1") while that is not known.
type bracketSide struct {
	ID     string `json:"id,omitempty"`
	Name   string `json:"name"`
	Seed   int    `json:"seed,omitempty"` // seed in the stage
	Score  string `json:"score,omitempty"`
	Winner bool   `json:"winner,omitempty"`
}

// bracket builds the bracket of knockout stage si from its seeds and the
// matches its reader sees (nil while the stage's entrants are not known).
func (v *eventView) bracket(si int) (*bracketView, error) {
	seeds := v.stageEntrants(si)
	if len(seeds) == 0 {
		return nil, nil
	}
	b, err := knockout.New(len(seeds), knockout.Options{ThirdPlace: v.F.Stages[si].ThirdPlace})
	if err != nil {
		return nil, err
	}
	seedOf := map[string]int{}
	for i, id := range seeds {
		seedOf[id] = i + 1
	}
	stored := map[string]arbiter.Match{}
	for _, m := range v.Matches {
		if m.Stage == si && m.Bracket != "" {
			stored[m.Bracket] = m
		}
	}
	label := map[string]string{}
	for _, rd := range b.Rounds {
		for _, km := range rd.Matches {
			label[km.ID] = positionName(rd.Name, km)
		}
	}
	movedUp := v.Ev.Stages[si].MovedUp
	side := func(id string) bracketSide {
		return bracketSide{ID: id, Name: v.name(id), Seed: seedOf[id]}
	}
	// Rounds in order: each result moves its winner on (SetWinner), so
	// the later rounds' positions know who is there before being paired.
	out := &bracketView{}
	for ri := range b.Rounds {
		rd := bracketRound{Number: b.Rounds[ri].Number, Name: b.Rounds[ri].Name}
		for _, km := range b.Rounds[ri].Matches {
			bm := bracketMatch{ID: km.ID, Slot: km.Slot, ThirdPlace: km.ThirdPlace, Status: "to be paired"}
			if m, ok := stored[km.ID]; ok {
				bm.Match, bm.Status = m.ID, m.Status
				bm.Home = side(m.Home)
				bm.Away = bracketSide{Name: "bye"}
				if !m.IsBye() {
					bm.Away = side(m.Away)
				}
				r := resultFor(m, m.Home)
				bm.Note = r.Note
				if m.Result != nil && m.Status == arbiter.MatchFinal && !m.IsBye() {
					bm.Home.Score, bm.Away.Score = m.Result.Home.Points.String(), m.Result.Away.Points.String()
				}
				winner := ""
				switch {
				case r.Word == "won":
					bm.Home.Winner, winner = true, m.Home
				case r.Word == "lost" && m.Result.Result == "away_win":
					bm.Away.Winner, winner = true, m.Away
				}
				if s := seedOf[winner]; s > 0 {
					// A withdrawal's move-up (W17) may put an entrant where
					// the draw does not expect it: the stored matches say
					// who played; the bracket only guides the positions
					// still to come.
					_ = b.SetWinner(km.ID, s)
				}
			} else {
				cur := b.Match(km.ID)
				bm.Home = v.bracketSource(cur.Home, cur.HomeSeed, seeds, label, movedUp, km.ThirdPlace)
				bm.Away = v.bracketSource(cur.Away, cur.AwaySeed, seeds, label, movedUp, km.ThirdPlace)
				if cur.Walkover {
					bm.Status = "bye"
					bm.Home.Winner = cur.Winner != 0 && cur.Winner == cur.HomeSeed
					bm.Away.Winner = cur.Winner != 0 && cur.Winner == cur.AwaySeed
				}
			}
			bm.Home.Seed, bm.Away.Seed = seedOf[bm.Home.ID], seedOf[bm.Away.ID]
			rd.Matches = append(rd.Matches, bm)
		}
		out.Rounds = append(out.Rounds, rd)
	}
	if n := len(out.Rounds); n > 0 {
		for _, bm := range out.Rounds[n-1].Matches {
			if bm.ThirdPlace {
				continue
			}
			for _, sd := range []bracketSide{bm.Home, bm.Away} {
				if sd.Winner && sd.ID != "" {
					out.Champion, out.ChampionName = sd.ID, sd.Name
				}
			}
		}
	}
	return out, nil
}

// bracketSource names who fills one side of a position not paired yet.
func (v *eventView) bracketSource(src knockout.Source, seed int, seeds []string, label map[string]string, movedUp map[string]string, third bool) bracketSide {
	if seed > 0 && seed <= len(seeds) {
		id := seeds[seed-1]
		if l, ok := movedUp[id]; ok && !third {
			id = l
		}
		return bracketSide{ID: id, Name: v.name(id)}
	}
	switch src.Kind {
	case knockout.FromBye:
		return bracketSide{Name: "bye"}
	case knockout.FromWinner:
		return bracketSide{Name: "Winner of " + label[src.Match]}
	case knockout.FromLoser:
		return bracketSide{Name: "Loser of " + label[src.Match]}
	}
	return bracketSide{Name: "to be decided"}
}

// positionName is how the pages name a position: "Semifinal 2",
// "Final", "Third-place match", "Round of 16, match 3".
func positionName(round string, km knockout.Match) string {
	switch {
	case km.ThirdPlace:
		return "Third-place match"
	case round == "Final":
		return "Final"
	case strings.HasSuffix(round, "finals"):
		return strings.TrimSuffix(round, "s") + " " + itoa(km.Slot)
	}
	return round + ", match " + itoa(km.Slot)
}

// bracketView reads the event's brackets as the request's user may see
// them, in one read (app.BracketView).
func (s *Server) bracketView(r *http.Request) (*eventView, error) {
	b, err := s.app.BracketView(r.Context(), currentUser(r), r.PathValue("slug"))
	if err != nil {
		return nil, err
	}
	return newEventView(b.Event, b.Format, b.Entrants, b.Rounds, b.Matches), nil
}

// bracketData is the bracket page.
type bracketData struct {
	Ev     arbiter.Event
	Nav    []navLink
	Tabs   stageTabs
	Stage  stageRef
	Notice string
	B      *bracketView
	SVG    template.HTML
}

// bracketPage draws a knockout stage (?stage=N; default the knockout
// being played, else the first knockout) as an SVG bracket, with the
// same matches as a table for readers who cannot see it. An event whose
// knockout has not started, or that has none, gets a notice.
func (s *Server) bracketPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.bracketView(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := bracketData{Ev: v.Ev, Nav: v.nav("Bracket")}
	for _, sg := range v.stageKinds() {
		if sg.Kind == format.Knockout {
			d.Tabs.Stages = append(d.Tabs.Stages, sg)
		}
	}
	ref, ok, err := v.pickStage(r, format.Knockout)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Stage, d.Tabs.Current = ref, ref
	switch {
	case !ok && ref.Name != "":
		d.Notice = "Stage " + ref.Name + " is a " + words(ref.Kind) + ", not a knockout: it has no bracket."
	case !ok:
		d.Notice = "This event has no knockout stage, so it has no bracket."
	case len(v.Ev.Stages) == 0:
		d.Notice = "Registration is open: the knockout bracket is drawn once its entrants are known."
	default:
		if d.B, err = v.bracket(ref.Index); err != nil {
			s.fail(w, r, err)
			return
		}
		if d.B == nil {
			d.Notice = "The knockout has not started: its entrants are known once the stage before it ends."
		} else {
			d.SVG = bracketSVG(d.B)
		}
	}
	s.render(w, r, http.StatusOK, "bracket", page{Title: "Bracket: " + v.Ev.Name, Nav: "home", Live: liveURL(v.Ev.Slug), Data: d})
}

// apiBracket answers a knockout stage's bracket (?stage=N as on the
// page); no rounds while it has none.
func (s *Server) apiBracket(w http.ResponseWriter, r *http.Request) {
	v, err := s.bracketView(r)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	ref, ok, err := v.pickStage(r, format.Knockout)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := struct {
		Stage int `json:"stage,omitempty"`
		bracketView
	}{bracketView: bracketView{Rounds: []bracketRound{}}}
	if ok {
		out.Stage = ref.Number()
	}
	if ok && len(v.Ev.Stages) > 0 {
		b, err := v.bracket(ref.Index)
		if err != nil {
			s.apiFail(w, r, err)
			return
		}
		if b != nil {
			out.bracketView = *b
		}
	}
	s.writeJSON(w, r, http.StatusOK, out)
}
