package export

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"arbiter"
	"arbiter/format"
	"arbiter/trf"
)

// The TRF of a Swiss stage, with every round the viewer may see (or up to
// Options.Round). For players, every game as the Dutch engine saw it when
// it paired the next round, so that `arbiter pair --dutch FILE -c`
// re-pairs each round as Arbiter did:
//
//   - a game played over the board: 1, = or 0 with its colours (the home
//     side plays White);
//   - a forfeit: + and - with the colours of the pairing (FIDE keeps them;
//     engines ignore the colours of unplayed games), a double forfeit - on
//     both sides;
//   - a match scored a draw without play (W14's full draw): D on both
//     sides without colours (a draw that does not count as played);
//   - the pairing-allocated bye: 0000 - U;
//   - a round an entrant was not paired in (removed by a sanction): 0000 - Z,
//     and for the next round a 240 Z record (TRF-2016: XXZ);
//   - a game without a final result yet: the opponent and colours, result
//     blank.
//
// Forbidden pairings are 260 records with the rounds they held in
// (TRF-2016: XXP lines for those that held from round 1 and still stand;
// TRF-2016 has no round ranges). Team Swiss stages get the TRF-2026 team
// records (310 with match and game points, 320 byes, 330 forfeits, 362),
// their members as 001 records without games: a board or set of a team
// match is a mini-match of several games, which an 001 round field (one
// game per round) cannot hold. docs/exports.md lists what is left out.

// WriteTRF writes the TRF of stage o.Stage (o as Resolve returned it).
func WriteTRF(w io.Writer, s *Snapshot, o Options) error {
	f, err := TRFFile(s, o)
	if err != nil {
		return err
	}
	return f.Write(w)
}

// TRFFile builds the TRF of stage o.Stage.
func TRFFile(s *Snapshot, o Options) (*trf.File, error) {
	si := o.Stage - 1
	if si < 0 || si >= len(s.Event.Stages) || si >= len(s.StageEntrants) || s.stageKind(si) != format.Swiss {
		return nil, arbiter.FieldError("stage", "export.stage", "stage %d is not a Swiss stage that has begun", o.Stage)
	}
	mf := s.stageMatch(si)
	if mf == nil {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "export: no match format for stage %d", o.Stage)
	}
	sg := s.Event.Stages[si]
	var rounds []arbiter.Round
	for _, r := range s.stageRounds(si) {
		if o.Round == 0 || r.Number <= o.Round {
			rounds = append(rounds, r)
		}
	}
	f := &trf.File{Version: o.TRFVersion, Name: s.Event.Name, City: "Online (lichess.org)", TotalRounds: sg.Rounds}
	f.InitialColour = 'w'
	if s.Event.InitialColour == "black" {
		f.InitialColour = 'b'
	}
	if len(s.Officials) > 0 {
		f.ChiefArbiter = s.Officials[0]
		f.DeputyArbiters = slices.Clone(s.Officials[1:])
	}
	f.TimeControl = timeControlText(mf)
	if len(rounds) > 0 {
		f.StartDate = rounds[0].Start.UTC().Format("2006/01/02")
		f.EndDate = deadlineOf(rounds[len(rounds)-1].End).UTC().Format("2006/01/02")
		for _, r := range rounds {
			f.RoundDates = append(f.RoundDates, r.Start.UTC().Format("06/01/02"))
		}
	}
	mp := mf.MatchPoints
	if s.team() {
		return teamTRF(s, f, si, rounds, mp)
	}
	f.Type = "Individual: Swiss-System"
	if o.TRFVersion == 2026 {
		f.TournamentCode = "FIDE_DUTCH_2025"
	}
	f.PointSystem = trf.PointSystem{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, ForfeitWin: mp.Win, ForfeitLoss: mp.Loss,
		PAB: mp.Win, FullBye: mp.Win, HalfBye: mp.Draw, ZeroBye: 0}
	ids := s.StageEntrants[si]
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
		e := s.entrant(id)
		p := trf.Player{ID: i + 1, Name: fit(s.name(id), 33)}
		if e != nil && e.Rating > 0 && e.Rating <= 9999 {
			p.Rating = e.Rating
		}
		f.Players = append(f.Players, p)
	}
	f.NumPlayers = fmt.Sprint(len(ids))
	for r, rd := range rounds {
		for i := range f.Players {
			f.Players[i].Rounds = append(f.Players[i].Rounds, trf.Round{Colour: '-', Result: 'Z'})
		}
		for _, m := range s.roundMatches(si, rd.Number) {
			h, ok := index[m.Home]
			if !ok {
				continue
			}
			if m.IsBye() {
				f.Players[h].Rounds[r] = trf.Round{Colour: '-', Result: 'U'}
				continue
			}
			a, ok := index[m.Away]
			if !ok {
				continue
			}
			hr, ar := gameRounds(m, mp)
			hr.Opponent, ar.Opponent = a+1, h+1
			f.Players[h].Rounds[r], f.Players[a].Rounds[r] = hr, ar
		}
	}
	ranks := rankOf(s, si)
	for i := range f.Players {
		f.Players[i].Points = f.Players[i].Score(f.PointSystem)
		f.Players[i].Rank = ranks[ids[i]]
	}
	f.ForbiddenPairs = forbiddenRecords(s, si, rounds, sg.Rounds, index, o.TRFVersion)
	// Entrants removed by a sanction are not paired again: absent from
	// the next round (a 240 zero-point bye; TRF-2016: JaVaFo's XXZ), so
	// that an engine pairing it from this file leaves them out too.
	if next := len(rounds) + 1; next <= sg.Rounds {
		var gone []int
		for i, id := range ids {
			if e := s.entrant(id); e != nil && e.Status == arbiter.EntrantRemoved {
				gone = append(gone, i+1)
			}
		}
		switch {
		case len(gone) == 0:
		case o.TRFVersion == 2016:
			f.Absent = gone
		default:
			f.Byes = []trf.ByeRecord{{Type: 'Z', Round: next, IDs: gone}}
		}
	}
	return f, nil
}

// gameRounds are the round fields of a match between two players, home
// first (see the package comment on TRF for the codes).
func gameRounds(m arbiter.Match, mp format.MatchPoints) (home, away trf.Round) {
	home, away = trf.Round{Colour: 'w', Result: ' '}, trf.Round{Colour: 'b', Result: ' '}
	o := m.Result
	if m.Status != arbiter.MatchFinal || o == nil {
		return home, away
	}
	class := func(p arbiter.Points) int { // as the pairing engine classes it
		switch {
		case p == mp.Win && p != mp.Draw:
			return 2
		case p == mp.Draw:
			return 1
		}
		return 0
	}
	hc, ac := class(o.Home.MatchPoints), class(o.Away.MatchPoints)
	if played(o) {
		home.Result, away.Result = "0=1"[hc], "0=1"[ac]
		return home, away
	}
	if hc == 1 || ac == 1 {
		// Scored a draw but not played: no colours, so that the game
		// counts neither for colours nor as a meeting.
		home.Colour, away.Colour = '-', '-'
	}
	home.Result, away.Result = "-D+"[hc], "-D+"[ac]
	return home, away
}

// rankOf maps the stage's entrants to their rank (0 when unknown).
func rankOf(s *Snapshot, si int) map[string]int {
	out := map[string]int{}
	for _, t := range s.stageTables(si) {
		for _, r := range t.Table.Rows {
			out[r.ID] = r.Rank
		}
	}
	return out
}

// forbiddenRecords turns the stage's forbidden pairings into 260 records
// covering the rounds each held in: from the first round paired after it
// was declared to the last paired before it was lifted (to the stage's
// last round while it stands). TRF-2016 has only XXP (every round): a
// group is written there only when it held from round 1 and still stands.
func forbiddenRecords(s *Snapshot, si int, rounds []arbiter.Round, total int, index map[string]int, version int) []trf.Forbidden {
	var out []trf.Forbidden
	for _, fb := range s.Forbidden {
		if fb.Stage != si {
			continue
		}
		var ids []int
		for _, id := range fb.Entrants {
			if i, ok := index[id]; ok {
				ids = append(ids, i+1)
			}
		}
		if len(ids) < 2 {
			continue
		}
		first, last := 0, 0
		for _, r := range rounds {
			if !r.PairedAt.Before(fb.At) && (fb.RemovedAt.IsZero() || r.PairedAt.Before(fb.RemovedAt)) {
				if first == 0 {
					first = r.Number
				}
				last = r.Number
			}
		}
		if fb.RemovedAt.IsZero() {
			if first == 0 {
				first = len(rounds) + 1 // declared after the last round paired
			}
			last = total
		}
		if first == 0 || first > last {
			continue // lifted before any round was paired under it
		}
		if version == 2016 {
			if first == 1 && fb.RemovedAt.IsZero() {
				out = append(out, trf.Forbidden{IDs: ids, Record: "XXP"})
			}
			continue
		}
		out = append(out, trf.Forbidden{FirstRound: first, LastRound: last, IDs: ids, Record: "260"})
	}
	return out
}

// teamTRF fills f with the team records of a team Swiss stage.
func teamTRF(s *Snapshot, f *trf.File, si int, rounds []arbiter.Round, mp format.MatchPoints) (*trf.File, error) {
	f.Type = "Team Swiss-System"
	if f.Version == 2026 {
		f.TournamentCode = "CUSTOM_TEAM_SWISS"
		f.TeamPoints = trf.TeamPointSystem{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss}
	}
	ids := s.StageEntrants[si]
	index := map[string]int{}
	ranks := rankOf(s, si)
	next := 1
	bye := trf.TeamBye{MatchPoints: mp.Win, Teams: make([]int, len(rounds))}
	hasBye := false
	for i, id := range ids {
		index[id] = i
		e := s.entrant(id)
		t := trf.Team{Number: i + 1, Name: fit(s.name(id), 32), Rank: ranks[id], Record: "310"}
		if f.Version == 2016 {
			t = trf.Team{Number: i + 1, Name: fit(s.name(id), 32), Record: "013"}
		}
		if e != nil {
			if e.Rating > 0 && f.Version == 2026 {
				t.Strength = fmt.Sprint(e.Rating)
			}
			for _, u := range e.Users() {
				f.Players = append(f.Players, trf.Player{ID: next, Name: fit(u, 33)})
				t.Members = append(t.Members, next)
				next++
			}
		}
		f.Teams = append(f.Teams, t)
	}
	for r, rd := range rounds {
		for _, m := range s.roundMatches(si, rd.Number) {
			h, ok := index[m.Home]
			if !ok {
				continue
			}
			if m.IsBye() {
				bye.Teams[r], hasBye = h+1, true
				if m.Result != nil {
					f.Teams[h].MatchPoints += m.Result.Home.MatchPoints
				}
				continue
			}
			a, ok := index[m.Away]
			if !ok || m.Status != arbiter.MatchFinal || m.Result == nil {
				continue
			}
			o := m.Result
			f.Teams[h].MatchPoints += o.Home.MatchPoints
			f.Teams[a].MatchPoints += o.Away.MatchPoints
			f.Teams[h].GamePoints += o.Home.Points
			f.Teams[a].GamePoints += o.Away.Points
			if played(o) {
				continue
			}
			switch {
			case o.Result == "home_win":
				f.TeamForfeits = append(f.TeamForfeits, trf.TeamForfeit{Result: "+-", Round: rd.Number, White: h + 1, Black: a + 1})
			case o.Result == "away_win":
				f.TeamForfeits = append(f.TeamForfeits, trf.TeamForfeit{Result: "-+", Round: rd.Number, White: h + 1, Black: a + 1})
			case o.Home.MatchPoints == mp.Loss && o.Away.MatchPoints == mp.Loss:
				f.TeamForfeits = append(f.TeamForfeits, trf.TeamForfeit{Result: "--", Round: rd.Number, White: h + 1, Black: a + 1})
			}
		}
	}
	if f.Version == 2016 {
		f.TeamForfeits = nil
		for i := range f.Teams {
			f.Teams[i].MatchPoints, f.Teams[i].GamePoints = 0, 0
		}
	} else if hasBye {
		f.TeamByes = []trf.TeamBye{bye}
	}
	f.NumTeams = fmt.Sprint(len(ids))
	f.NumPlayers = fmt.Sprint(len(f.Players))
	f.ForbiddenPairs = forbiddenRecords(s, si, rounds, s.Event.Stages[si].Rounds, index, f.Version)
	return f, nil
}

// timeControlText describes a match format's parts: "10 games 1+2".
func timeControlText(mf *format.Match) string {
	var parts []string
	for _, p := range mf.Parts {
		parts = append(parts, fmt.Sprintf("%d games %s", p.Games, p.TC.String()))
	}
	return strings.Join(parts, ", ")
}

// fit cuts s to n characters (the TRF's columns).
func fit(s string, n int) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}
