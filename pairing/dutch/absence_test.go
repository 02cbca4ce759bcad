package dutch

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"arbiter/trf"
)

// The three ways a TRF file can say that a player is not paired in the round
// being paired: an entry in that round's column ("0000 - Z", "0000 - H"), a
// TRF-2026 240 record for that round, or the XXZ list (bbpPairings'
// extension). The pairing must not depend on which one is used.
const (
	formColumn = "round column"
	form240    = "240 records"
	formXXZ    = "XXZ"
)

var absenceForms = []string{formColumn, form240, formXXZ}

// rewriteAbsences returns a copy of f in which every player not to be paired
// in the round being paired is written in the given form, and no other form
// is used for that round. The type of bye (F, H, Z) is kept where the form
// can say it (XXZ cannot: it only says "not paired").
func rewriteAbsences(f *trf.File, form string) (*trf.File, error) {
	t, err := trf.PairingInput(f)
	if err != nil {
		return nil, err
	}
	k := t.PlayedRounds // 0-based index of the round being paired
	kind := map[int]byte{}
	for _, id := range f.Absent {
		kind[id] = 'Z'
	}
	for _, b := range f.Byes {
		if b.Round == k+1 {
			for _, id := range b.IDs {
				kind[id] = b.Type
			}
		}
	}
	g := *f
	g.Records = nil // regenerate every record from the fields
	g.Absent = nil
	g.Byes = nil
	for _, b := range f.Byes {
		if b.Round != k+1 {
			g.Byes = append(g.Byes, b)
		}
	}
	g.Players = make([]trf.Player, len(f.Players))
	for i, p := range f.Players {
		if k < len(p.Rounds) {
			switch c := p.Rounds[k].Result; c {
			case 'F', 'H', 'Z':
				kind[p.ID] = c
			default:
				kind[p.ID] = 'Z'
			}
			p.Rounds = p.Rounds[:k]
		}
		p.Rounds = slices.Clone(p.Rounds)
		g.Players[i] = p
	}
	ids := make([]int, 0, len(kind))
	for id := range kind {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	switch form {
	case formColumn:
		for i := range g.Players {
			p := &g.Players[i]
			if c, ok := kind[p.ID]; ok {
				for len(p.Rounds) < k {
					p.Rounds = append(p.Rounds, trf.Round{Colour: '-', Result: 'Z'})
				}
				p.Rounds = append(p.Rounds, trf.Round{Colour: '-', Result: c})
			}
		}
	case form240:
		for _, c := range []byte("FHZ") {
			b := trf.ByeRecord{Type: c, Round: k + 1}
			for _, id := range ids {
				if kind[id] == c {
					b.IDs = append(b.IDs, id)
				}
			}
			if len(b.IDs) > 0 {
				g.Byes = append(g.Byes, b)
				g.Version = 2026
			}
		}
	case formXXZ:
		g.Absent = ids
	default:
		return nil, fmt.Errorf("unknown form %q", form)
	}
	// Through the writer and the parser, as a file would come.
	var buf bytes.Buffer
	if err := g.Write(&buf); err != nil {
		return nil, err
	}
	return trf.Parse(&buf)
}

// pairTRF pairs a parsed file: bbpPairings' output and exit status (0 ok,
// 1 no valid pairing, 3 bad input).
func pairTRF(f *trf.File) (string, int, error) {
	tour, err := trf.PairingInput(f)
	if err != nil {
		return "", 3, err
	}
	pairs, err := Pair(tour)
	if err == ErrNoPairing {
		return "", 1, nil
	}
	if err != nil {
		return "", 3, err
	}
	var b bytes.Buffer
	if err := trf.WriteBBP(&b, tour, pairs); err != nil {
		return "", 3, err
	}
	return b.String(), 0, nil
}

// roundOne is a tournament before round 1 whose players are 1..n (rated in
// that order), absent those in absent, with the given initial colour.
func roundOne(n int, colour byte, absent ...int) *trf.File {
	f := &trf.File{Version: 2016, Name: "absences", TotalRounds: 5, InitialColour: colour, PointSystem: trf.DefaultPointSystem()}
	for i := 1; i <= n; i++ {
		p := trf.Player{ID: i, Name: fmt.Sprintf("Player%02d", i), Rating: 2500 - 10*i}
		if slices.Contains(absent, i) {
			p.Rounds = []trf.Round{{Colour: '-', Result: 'Z'}}
		}
		f.Players = append(f.Players, p)
	}
	return f
}

// TestAbsenceFormsInitialColour: players never paired and absent in the
// round being paired do not count for the pairing numbers whose parity
// gives the initial colour (C.04.3 5.2.5), whichever way the absence is
// written. Expected pairings worked out by hand:
//
//   - 5 players, 1 absent, XXC white1: the present players 2-5 have the
//     effective pairing numbers 1-4; S1 = {2, 3}, S2 = {4, 5} (C.04.3 3.3,
//     homogeneous bracket, S1 = the first MaxPairs players); 2 (odd) gets
//     the initial colour White, 3 (even) the other: 2-4 and 5-3.
//   - 7 players, 1 and 3 absent, XXC black1: present 2, 4, 5, 6, 7 are
//     1-5; two pairs, the last (7) is left over for the PAB (the first
//     candidate of 3.3 already meets every criterion); S1 = {2, 4}, S2 = {5, 6, 7}: 2 (odd) Black: 5-2;
//     4 (even) White: 4-6.
//   - 6 players, 4 absent, XXC white1: 4 is below both S1 players, so
//     nothing changes for them; five present, two pairs: S1 = {1, 2},
//     S2 = {3, 5, 6}: 1-3 (1 odd, White), 5-2 (2 even, Black), 6 the PAB.
//
// In the first two cases counting the absent players would swap the
// colours of the boards.
func TestAbsenceFormsInitialColour(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		f    *trf.File
		want string
	}{
		{"first absent", roundOne(5, 'w', 1), "2\n2 4\n5 3\n"},
		{"first and third absent", roundOne(7, 'b', 1, 3), "3\n5 2\n4 6\n7 0\n"},
		{"absent below S1", roundOne(6, 'w', 4), "3\n1 3\n5 2\n6 0\n"},
	}
	for _, c := range cases {
		for _, form := range absenceForms {
			g, err := rewriteAbsences(c.f, form)
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, form, err)
			}
			got, rc, err := pairTRF(g)
			if rc != 0 || got != c.want {
				t.Errorf("%s, absences as %s: rc %d err %v\ngot:\n%swant:\n%s", c.name, form, rc, err, got, c.want)
			}
		}
	}
}

// TestCorpusAbsenceForms is the differential property over the corpus:
// every case with players not to be paired in the round being paired,
// rewritten with those absences in each form, pairs exactly as the
// reference paired the original.
func TestCorpusAbsenceForms(t *testing.T) {
	t.Parallel()
	dir, cases := loadCorpus(t)
	type job struct {
		c    corpusCase
		form string
	}
	var jobs []job
	files := map[string]*trf.File{}
	for _, c := range cases {
		f, err := readTRF(filepath.Join(dir, c.TRF))
		if err != nil {
			t.Fatalf("%s: %v", c.Case, err)
		}
		if !hasAbsences(f) {
			continue
		}
		files[c.Case] = f
		for _, form := range absenceForms {
			jobs = append(jobs, job{c, form})
		}
	}
	if len(jobs) < 3*40 {
		t.Fatalf("only %d rewritten cases: the corpus should have about 50 with absences", len(jobs)/3)
	}
	errs := make([]string, len(jobs))
	onEveryCore(len(jobs), func(i int) {
		j := jobs[i]
		g, err := rewriteAbsences(files[j.c.Case], j.form)
		if err != nil {
			errs[i] = err.Error()
			return
		}
		got, rc, err := pairTRF(g)
		want := ""
		if j.c.ExpectedRC == 0 {
			w, err := readText(filepath.Join(dir, j.c.Expected))
			if err != nil {
				errs[i] = err.Error()
				return
			}
			want = w
		}
		if rc != j.c.ExpectedRC || got != want {
			errs[i] = fmt.Sprintf("rc %d (want %d) err %v\ngot:\n%swant:\n%s", rc, j.c.ExpectedRC, err, got, want)
		}
	})
	for i, e := range errs {
		if e != "" {
			t.Errorf("%s with absences as %s: %s", jobs[i].c.Case, jobs[i].form, e)
		}
	}
	t.Logf("%d cases with absences, each paired in %d forms", len(jobs)/3, len(absenceForms))
}

// hasAbsences reports whether some player of f is not to be paired in the
// round being paired.
func hasAbsences(f *trf.File) bool {
	t, err := trf.PairingInput(f)
	if err != nil {
		return false
	}
	for _, p := range f.Players {
		if t.PlayedRounds < len(p.Rounds) {
			return true
		}
	}
	for _, b := range f.Byes {
		if b.Round == t.PlayedRounds+1 {
			return true
		}
	}
	return len(f.Absent) > 0
}

func readTRF(path string) (*trf.File, error) {
	s, err := readText(path)
	if err != nil {
		return nil, err
	}
	return trf.Parse(strings.NewReader(s))
}

func readText(path string) (string, error) {
	b, err := os.ReadFile(path)
	return strings.ReplaceAll(string(b), "\r\n", "\n"), err
}
