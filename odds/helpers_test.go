package odds

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/ranking"
)

// newEvent is an event of a preset just closed with n entrants, rated
// from 2400 down in steps of 25 and seeded in that order. Team entrants
// have four members, the captain on board 1.
func newEvent(tb testing.TB, preset string, n int) *Input {
	tb.Helper()
	f, err := format.Preset(preset)
	if err != nil {
		tb.Fatal(err)
	}
	x, err := f.Explain(n)
	if err != nil || !x.Runs {
		tb.Fatalf("%s with %d entrants: %v %s", preset, n, err, x.Reason)
	}
	ev := arbiter.Event{Slug: "test", Status: arbiter.EventRunning, Format: f.Name, Preset: true, Entrants: n, InitialColour: "white"}
	for _, se := range x.Stages {
		st := arbiter.Stage{Name: se.Name, Kind: se.Kind, Pairing: se.Pairing, Entrants: *se.Entrants, Rounds: *se.Rounds, Tiebreak: se.Tiebreaks}
		if se.Advance != nil {
			st.Advance = *se.Advance
		}
		ev.Stages = append(ev.Stages, st)
	}
	in := &Input{Format: f, Event: ev}
	for i := range n {
		e := arbiter.Entrant{ID: fmt.Sprintf("e%02d", i+1), Name: fmt.Sprintf("Entrant %d", i+1), Rating: 2400 - 25*i,
			Status: arbiter.EntrantApproved, Seed: i + 1, Kind: arbiter.EntrantPlayer}
		if f.Entrant == format.Team {
			e.Kind = arbiter.EntrantTeam
			for b := range 4 {
				e.Members = append(e.Members, fmt.Sprintf("%s-p%d", e.ID, b+1))
			}
			e.Captain, e.Boards = e.Members[0], slices.Clone(e.Members)
		}
		in.Entrants = append(in.Entrants, e)
	}
	return in
}

// playTo plays the event on with the simulation's own engines and model
// until stage `stage` (0-based) has `rounds` rounds with final results,
// advancing stages on the way.
func playTo(tb testing.TB, in *Input, stage, rounds int, seed uint64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	for {
		p, err := prepare(in, Options{Sims: 1})
		if err != nil {
			tb.Fatal(err)
		}
		r := newRun(p)
		r.stages = slices.Clone(in.Event.Stages)
		r.rng = rng
		r.rounds = make([][][]arbiter.Match, len(r.stages))
		r.order = make([][]string, len(r.stages))
		r.pools = make([][][]string, len(r.stages))
		r.rank = make([]ranking.Stage, len(r.stages))
		cur := in.Event.Stage
		ids := p.stageIDs(cur, r.stages[cur].Seeds)
		if cur == stage && len(p.played) >= rounds {
			return
		}
		if len(p.played) < r.stages[cur].Rounds {
			next, err := r.pair(cur, ids, p.played)
			if err != nil {
				tb.Fatal(err)
			}
			if err := r.resolve(cur, next); err != nil {
				tb.Fatal(err)
			}
			for i := range next {
				next[i].Decision = "confirmed"
			}
			in.Matches = append(in.Matches, next...)
			continue
		}
		if cur+1 >= len(r.stages) {
			in.Event.Status = arbiter.EventFinished
			return
		}
		r.rounds[cur] = p.played
		if err := r.rankStage(cur); err != nil {
			tb.Fatal(err)
		}
		if err := r.advance(cur); err != nil {
			tb.Fatal(err)
		}
		in.Event.Stages = r.stages
		in.Event.Stage++
	}
}

func newRNG(i uint64) *rand.Rand { return rand.New(rand.NewPCG(99, i)) }
