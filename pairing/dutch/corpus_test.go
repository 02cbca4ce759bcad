package dutch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/internal/testshared"
	"arbiter/pairing/matching"
	"arbiter/trf"
)

type corpusCase struct {
	Case       string `json:"case"`
	TRF        string `json:"trf"`
	Expected   string `json:"expected"`
	ExpectedRC int    `json:"expected_rc"`
}

func loadCorpus(t *testing.T) (string, []corpusCase) {
	dir := testshared.Path(t, "pairing-corpus")
	f, err := os.Open(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return dir, cases
}

// pairFile runs the engine on a TRF file and returns bbpPairings' stdout
// format and exit status (0 ok, 1 no valid pairing, 3 bad input).
func pairFile(path string) (string, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 3, err
	}
	f, err := trf.Parse(bytes.NewReader(data))
	if err != nil {
		return "", 3, err
	}
	tour, err := trf.PairingInput(f)
	if err != nil {
		return "", 3, err
	}
	pairs, err := Pair(tour)
	if errors.Is(err, ErrNoPairing) {
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

// TestCorpus runs every case of the bbpPairings differential corpus and
// compares the exact output (boards, colours, order) and exit status. Cases
// listed in testdata/known_failing.txt must fail (so that the list shrinks
// as the engine improves and regressions are caught).
//
// Parallel, like the other tests that only read the engine's package
// switches (firstRoundShortcut, TypedFrom, verifyBase,
// matching.PairStartFrom): parallel tests start only once every
// sequential one, which may flip a switch for its run, has returned.
func TestCorpus(t *testing.T) {
	t.Parallel()
	runCorpus(t)
}

// TestCorpusPairStart runs the corpus with every fresh solve started by
// matching's pairStart (in production only graphs of more than
// matching.PairStartFrom vertices, which the corpus does not reach): the
// start must not change any pairing.
func TestCorpusPairStart(t *testing.T) {
	defer func(p int) { matching.PairStartFrom = p }(matching.PairStartFrom)
	matching.PairStartFrom = 0
	runCorpus(t)
}

// TestCorpusTyped runs the corpus with every bracket graph solved from the
// duals of its type problem (in production only graphs of more than
// TypedFrom vertices, which the corpus does not reach).
func TestCorpusTyped(t *testing.T) {
	defer func(p int) { TypedFrom = p }(TypedFrom)
	TypedFrom = 0
	runCorpus(t)
}

func runCorpus(t *testing.T) {
	dir, cases := loadCorpus(t)
	if len(cases) == 0 {
		t.Fatal("empty manifest")
	}
	known := map[string]bool{}
	kb, err := os.ReadFile("testdata/known_failing.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(kb), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			known[l] = true
		}
	}
	// Run the cases on every core; results are checked in manifest order.
	type result struct {
		got     string
		rc      int
		err     error
		elapsed time.Duration
	}
	results := make([]result, len(cases))
	onEveryCore(len(cases), func(i int) {
		start := time.Now()
		got, rc, err := pairFile(filepath.Join(dir, cases[i].TRF))
		results[i] = result{got, rc, err, time.Since(start)}
	})
	var failing []string
	for i, c := range cases {
		got, rc, err := results[i].got, results[i].rc, results[i].err
		ok := rc == c.ExpectedRC
		var want []byte
		if ok && rc == 0 {
			want, err = os.ReadFile(filepath.Join(dir, c.Expected))
			if err != nil {
				t.Fatal(err)
			}
			ok = strings.ReplaceAll(string(want), "\r\n", "\n") == got
		}
		if el := results[i].elapsed; el > 2*time.Second {
			t.Logf("%s took %v", c.Case, el)
		}
		if !ok {
			failing = append(failing, c.Case)
			if !known[c.Case] {
				t.Errorf("%s: rc %d (want %d) err %v\ngot:\n%s\nwant:\n%s", c.Case, rc, c.ExpectedRC, err, got, want)
			}
		}
	}
	sort.Strings(failing)
	var stale []string
	for k := range known {
		if !slices.Contains(failing, k) {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("cases now pass; remove them from testdata/known_failing.txt: %v", stale)
	}
	t.Logf("corpus: %d/%d cases agree with bbpPairings", len(cases)-len(failing), len(cases))
}

// onEveryCore calls f(0) … f(n-1) on GOMAXPROCS goroutines and returns
// when all have returned; f stores its answer at index i, so callers check
// the answers in order afterwards (the corpus tests' messages stay in
// manifest order).
func onEveryCore(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
