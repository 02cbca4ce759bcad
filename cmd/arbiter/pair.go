package main

import (
	"arbiter"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"arbiter/pairing"
	"arbiter/pairing/dutch"
	"arbiter/trf"
)

func init() {
	register(&command{name: "pair", summary: "pair the next Swiss round of a TRF file (FIDE Dutch, bbpPairings-compatible)", run: runPair})
}

const pairSynopsis = `pair --dutch IN.trf -p [OUT]   pair the next round (stdout when OUT is omitted)
       arbiter pair --dutch IN.trf -c         check every round of a tournament against a re-pairing
       arbiter pair --generate N --rounds R [--total T] [--seed S] [--absent PERMILLE] [--greedy] OUT.trf
         (--greedy: pair the generated history greedily instead of with the engine: fast for big N)

Exit status:
  0  ok: the pairing is written (-p), every round agrees (-c), the file is generated
  1  no valid pairing exists (-p: OUT is written empty, as bbpPairings does; nothing on stdout),
     or -c found rounds that differ
  2  usage: unknown flag, no --dutch, not exactly one of -p and -c, a bad flag value
  3  bad input or file: IN missing or unreadable, malformed TRF, points that contradict the
     results, no XXR, no initial colour (XXC/152) that can be inferred, no round left to pair;
     OUT cannot be written; --generate with fewer than 2 or more than 9999 players
Output format: the number of boards, then "WHITE BLACK" pairing numbers per board,
the pairing-allocated bye as "ID 0" on the last line.`

func pairUsage(e *env) { fmt.Fprintf(e.stderr, "Usage: arbiter %s\n", pairSynopsis) }

type pairArgs struct {
	dutch, check, pair bool
	greedy             bool
	in, out            string
	generate           int
	rounds, total      int
	seed               uint64
	absent             int
}

func parsePairArgs(args []string) (*pairArgs, error) {
	a := &pairArgs{absent: 10}
	intArg := func(i *int, name string, v *int) error {
		if *i+1 >= len(args) {
			return usagef("%s needs a value", name)
		}
		*i++
		n, err := strconv.Atoi(args[*i])
		if err != nil {
			return usagef("%s: want an integer, got %q", name, args[*i])
		}
		*v = n
		return nil
	}
	var pos []string
	for i := 0; i < len(args); i++ {
		switch s := strings.TrimPrefix(args[i], "-"); s {
		case "dutch", "-dutch":
			a.dutch = true
		case "p", "-p":
			a.pair = true
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && a.in != "" {
				i++
				a.out = args[i]
			}
		case "c", "-c":
			a.check = true
		case "greedy", "-greedy":
			a.greedy = true
		case "generate", "-generate":
			if err := intArg(&i, "--generate", &a.generate); err != nil {
				return nil, err
			}
		case "rounds", "-rounds":
			if err := intArg(&i, "--rounds", &a.rounds); err != nil {
				return nil, err
			}
		case "total", "-total":
			if err := intArg(&i, "--total", &a.total); err != nil {
				return nil, err
			}
		case "absent", "-absent":
			if err := intArg(&i, "--absent", &a.absent); err != nil {
				return nil, err
			}
		case "seed", "-seed":
			var s int
			if err := intArg(&i, "--seed", &s); err != nil {
				return nil, err
			}
			a.seed = uint64(s)
		case "h", "help", "-help":
			return nil, errHelp
		default:
			if strings.HasPrefix(args[i], "-") && args[i] != "-" {
				return nil, usagef("unknown flag %s", args[i])
			}
			if a.in == "" && a.generate == 0 {
				a.in = args[i]
			} else {
				pos = append(pos, args[i])
			}
		}
	}
	if a.generate > 0 {
		if len(pos) > 0 || a.in != "" {
			a.out = a.in
			if len(pos) > 0 {
				a.out = pos[0]
			}
		}
		return a, nil
	}
	if len(pos) > 0 {
		return nil, usagef("unexpected argument %q", pos[0])
	}
	if !a.dutch {
		return nil, usagef("only the Dutch system is supported: give --dutch")
	}
	if a.in == "" || a.pair == a.check {
		return nil, usagef("give an input file and exactly one of -p and -c")
	}
	return a, nil
}

var errHelp = errors.New("help")

// pairMemoryLimit is the soft memory limit of a pairing run (unless
// GOMEMLIMIT says otherwise). The pairing's live data stays under it even
// for 9999 players (at most ~350 MB, in the early rounds, since the
// matching holds each distinct weight once); without it the collector lets
// garbage grow the heap to twice the live data first (645 MB of RSS for
// the third round of 9999 players with byes under a 900 MiB limit). Above
// the limit the collector works harder but nothing fails.
const pairMemoryLimit = 500 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(pairMemoryLimit)
	}
}

func runPair(_ context.Context, e *env, args []string) error {
	a, err := parsePairArgs(args)
	if errors.Is(err, errHelp) {
		fmt.Fprintf(e.stdout, "Usage: arbiter %s\n", pairSynopsis)
		return nil
	}
	if err != nil {
		pairUsage(e)
		return err
	}
	if a.generate > 0 {
		return runGenerate(e, a)
	}
	limitMemory()
	data, err := os.ReadFile(a.in)
	if err != nil {
		return &exitError{3, arbiter.Errorf(arbiter.EINVALID, "reading %s: %v", a.in, err)}
	}
	f, err := trf.Parse(bytes.NewReader(data))
	if err != nil {
		return &exitError{3, err}
	}
	if a.check {
		return checkTournament(e, f)
	}
	t, err := trf.PairingInput(f)
	if err != nil {
		return &exitError{3, err}
	}
	pairs, err := dutch.Pair(t)
	if errors.Is(err, dutch.ErrNoPairing) {
		// bbpPairings leaves OUT empty: scripts that read it see no boards.
		if a.out != "" {
			if err := os.WriteFile(a.out, nil, 0o644); err != nil {
				return &exitError{3, arbiter.Errorf(arbiter.EINVALID, "writing %s: %v", a.out, err)}
			}
		}
		return &exitError{1, arbiter.Errorf(arbiter.ENOPAIRING, "%s: no valid pairing exists", a.in)}
	}
	if err != nil {
		return &exitError{3, err}
	}
	var out bytes.Buffer
	if err := trf.WriteBBP(&out, t, pairs); err != nil {
		return err
	}
	if a.out == "" {
		_, err = io.Copy(e.stdout, &out)
		return err
	}
	if err := os.WriteFile(a.out, out.Bytes(), 0o644); err != nil {
		return &exitError{3, arbiter.Errorf(arbiter.EINVALID, "writing %s: %v", a.out, err)}
	}
	return nil
}

func runGenerate(e *env, a *pairArgs) error {
	if a.rounds < 0 {
		return usagef("--rounds must not be negative")
	}
	f, err := trf.Generate(trf.GenerateOptions{Players: a.generate, Rounds: a.rounds, Total: a.total, Seed: a.seed, AbsentPermille: a.absent, Greedy: a.greedy}, dutch.Pair)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := f.Write(&out); err != nil {
		return err
	}
	if a.out == "" {
		_, err = io.Copy(e.stdout, &out)
		return err
	}
	if err := os.WriteFile(a.out, out.Bytes(), 0o644); err != nil {
		return &exitError{3, arbiter.Errorf(arbiter.EINVALID, "writing %s: %v", a.out, err)}
	}
	return nil
}

// checkTournament re-pairs every round of f from the rounds before it and
// reports the rounds where the engine's pairing differs from the file.
func checkTournament(e *env, f *trf.File) error {
	full, err := finishedTournament(f)
	if err != nil {
		return &exitError{3, err}
	}
	diffs := 0
	for k := 0; k < full.PlayedRounds; k++ {
		t, index := truncate(full, k)
		want := actualPairs(full, k, index)
		got, err := dutch.Pair(t)
		var gotText, wantText bytes.Buffer
		if err == nil {
			trf.WriteBBP(&gotText, t, got)
		} else {
			gotText.WriteString(err.Error() + "\n")
		}
		trf.WriteBBP(&wantText, t, want)
		if err == nil && samePairs(got, want, colourless(full, k, index)) {
			fmt.Fprintf(e.stdout, "round %d: ok\n", k+1)
			continue
		}
		diffs++
		fmt.Fprintf(e.stdout, "round %d: differs\n  file:\n%s  engine:\n%s", k+1, indent(wantText.String()), indent(gotText.String()))
	}
	if diffs > 0 {
		return &exitError{1, arbiter.Errorf(arbiter.ERULE, "%d of %d rounds differ", diffs, full.PlayedRounds)}
	}
	return nil
}

// finishedTournament converts a tournament whose rounds may all be played.
// trf.PairingInput wants a round left to pair, so it is given XXR raised by one; the
// tournament then gets the file's number of rounds back (or the rounds
// played, when XXR is missing or smaller), so that re-pairing the final
// round applies the last-round rules (topscorers, C.04.3 1.8 and C3).
// Baku acceleration depends on the number of rounds too: when it applies
// and XXR had to be raised, the accelerations are taken from the file
// without its last round, converted with the file's own XXR.
func finishedTournament(f *trf.File) (*pairing.Tournament, error) {
	played := 0
	for _, p := range f.Players {
		played = max(played, len(p.Rounds))
	}
	total := max(f.TotalRounds, played)
	if f.TotalRounds > played {
		return trf.PairingInput(f)
	}
	g := *f
	g.TotalRounds = played + 1
	full, err := trf.PairingInput(&g)
	if err != nil {
		return nil, err
	}
	full.TotalRounds = total
	if !bakuAccelerated(f) || full.PlayedRounds < 2 {
		return full, nil
	}
	// The file without its last round, points as after round k-1.
	k := full.PlayedRounds
	byID := map[int]*pairing.Player{}
	for i := range full.Players {
		byID[full.Players[i].ID] = &full.Players[i]
	}
	h := *f
	h.TotalRounds = total
	h.Players = make([]trf.Player, len(f.Players))
	for i, p := range f.Players {
		if len(p.Rounds) >= k {
			p.Rounds = p.Rounds[:k-1]
			if q := byID[p.ID]; q != nil {
				p.Points = q.Score - full.Points.For(q.Games[k-1])
			}
		}
		h.Players[i] = p
	}
	before, err := trf.PairingInput(&h)
	if err != nil {
		return nil, err
	}
	for _, q := range before.Players {
		if p := byID[q.ID]; p != nil {
			p.Accelerations = q.Accelerations
		}
	}
	return full, nil
}

// bakuAccelerated: record 192 names Baku acceleration and no XXA or 250
// record gives the accelerations explicitly (as trf.PairingInput reads it).
func bakuAccelerated(f *trf.File) bool {
	return len(f.Accelerations) == 0 && len(f.AccelerationRanges) == 0 &&
		strings.HasSuffix(strings.ToUpper(strings.TrimSpace(f.TournamentCode)), "_BAKU")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}

// truncate returns the tournament before round k+1: games 1..k, players who
// did not take part in round k+1's pairing marked absent, and players who
// took part in no pairing yet and are absent left out (as bbpPairings' -c:
// they do not count for the effective pairing numbers). index maps the
// full tournament's player indexes to the truncated one's (-1 if left out).
func truncate(full *pairing.Tournament, k int) (t *pairing.Tournament, index []int) {
	c := *full
	t = &c
	t.PlayedRounds = k
	t.Players = nil
	index = make([]int, len(full.Players))
	for i, p := range full.Players {
		index[i] = -1
		absent := !p.Games[k].Paired
		valid := !absent
		for _, g := range p.Games[:k] {
			valid = valid || g.Paired
		}
		if valid {
			index[i] = len(t.Players)
			q := p
			q.Absent = absent
			t.Players = append(t.Players, q)
		}
	}
	for i := range t.Players {
		q := &t.Players[i]
		games := make([]pairing.Game, k)
		q.Score = 0
		for r, g := range q.Games[:k] {
			if g.Opponent >= 0 {
				g.Opponent = index[g.Opponent]
			}
			games[r] = g
			q.Score += full.Points.For(g)
		}
		q.Games = games
	}
	var forb []pairing.ForbiddenGroup
	for _, fg := range full.Forbidden {
		g := fg
		g.Players = nil
		for _, x := range fg.Players {
			if index[x] >= 0 {
				g.Players = append(g.Players, index[x])
			}
		}
		forb = append(forb, g)
	}
	t.Forbidden = forb
	return t, index
}

// actualPairs lists round k+1 as played (white first, the PAB as Black -1),
// with player indexes of the truncated tournament.
func actualPairs(full *pairing.Tournament, k int, index []int) []pairing.Pair {
	var pairs []pairing.Pair
	for i, p := range full.Players {
		g := p.Games[k]
		switch {
		case g.IsPAB():
			pairs = append(pairs, pairing.Pair{White: index[i], Black: -1})
		case g.Paired && g.Opponent >= 0 && (g.Colour == pairing.White || (g.Colour == pairing.NoColour && i < g.Opponent)):
			pairs = append(pairs, pairing.Pair{White: index[i], Black: index[g.Opponent]})
		}
	}
	return pairs
}

// colourless lists the boards of round k+1 that the file gives no colours
// (a game scored without play, such as a draw awarded to both, "D" with
// colour "-"), as actualPairs writes them: their colours are unknown, so
// the engine's board matches either way round.
func colourless(full *pairing.Tournament, k int, index []int) map[pairing.Pair]bool {
	out := map[pairing.Pair]bool{}
	for i, p := range full.Players {
		if g := p.Games[k]; g.Paired && g.Opponent > i && g.Colour == pairing.NoColour {
			out[pairing.Pair{White: index[i], Black: index[g.Opponent]}] = true
		}
	}
	return out
}

// samePairs compares two rounds as sets of boards (colours included,
// except on the boards in noColour, which match either way round).
func samePairs(a, b []pairing.Pair, noColour map[pairing.Pair]bool) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[pairing.Pair]bool{}
	for _, p := range a {
		set[p] = true
	}
	for _, p := range b {
		rev := pairing.Pair{White: p.Black, Black: p.White}
		if !set[p] && !((noColour[p] || noColour[rev]) && set[rev]) {
			return false
		}
	}
	return true
}
