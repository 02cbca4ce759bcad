package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter"
	"arbiter/internal/testshared"
	"arbiter/trf"
)

func corpusFile(t *testing.T, rel string) string {
	return testshared.Path(t, "pairing-corpus", rel)
}

func TestPairStdoutMatchesReference(t *testing.T) {
	t.Parallel()
	in := corpusFile(t, "cases/t010_n015_R07_k02.trf")
	want, err := os.ReadFile(corpusFile(t, "cases/t010_n015_R07_k02.out"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "pair", "--dutch", in, "-p")
	if code != 0 || stdout != string(want) {
		t.Fatalf("code=%d stderr=%q\ngot:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
}

// The bbpPairings command line (--dutch IN -p OUT) writes the output file.
func TestPairBBPCommandLineWritesFile(t *testing.T) {
	t.Parallel()
	in := corpusFile(t, "cases/t001_n006_R05_k00.trf")
	want, err := os.ReadFile(corpusFile(t, "cases/t001_n006_R05_k00.out"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	code, _, stderr := runCLI(t, "", "--dutch", in, "-p", out)
	got, _ := os.ReadFile(out)
	if code != 0 || string(got) != string(want) {
		t.Fatalf("code=%d stderr=%q\ngot:\n%s\nwant:\n%s", code, stderr, got, want)
	}
}

func TestPairNoValidPairingExitsOne(t *testing.T) {
	t.Parallel()
	// The corpus lists this case with expected_rc 1 (bbpPairings: no valid pairing).
	in := corpusFile(t, "cases/t001_n006_R05_k03.trf")
	code, stdout, stderr := runCLI(t, "", "pair", "--dutch", in, "-p")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "no valid pairing") {
		t.Fatalf("code=%d stdout=%q stderr=%q", code, stdout, stderr)
	}
}

func TestPairBadInputExitsThree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trf")
	// Points 5.0 contradict the single win recorded.
	line := "001    1      A                                 2000                             5.0          2 w 1"
	line2 := "001    2      B                                 1900                             0.0          1 b 0"
	os.WriteFile(bad, []byte("XXR 3\nXXC white1\n"+line+"\n"+line2+"\n"), 0o644)
	for _, args := range [][]string{
		{"pair", "--dutch", filepath.Join(dir, "missing.trf"), "-p"},
		{"pair", "--dutch", bad, "-p"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 3 || stderr == "" {
			t.Errorf("%v: code=%d stderr=%q", args, code, stderr)
		}
	}
}

func TestPairUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"pair"},
		{"pair", "--dutch", "x.trf"},             // neither -p nor -c
		{"pair", "--dutch", "x.trf", "-p", "-c"}, // both
		{"pair", "x.trf", "-p"},                  // no system
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: code=%d, want 2", args, code)
		}
	}
}

// -c re-pairs every round of a tournament written by bbpPairings' own
// generator (corpus full/t001.trf: its consistency check agreed on every round).
func TestPairCheckTournament(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI(t, "", "pair", "--dutch", corpusFile(t, "full/t001.trf"), "-c")
	if code != 0 || !strings.Contains(stdout, "round 1: ok") || strings.Contains(stdout, "differs") {
		t.Fatalf("code=%d stderr=%q stdout:\n%s", code, stderr, stdout)
	}
}

func TestPairGenerateIsDeterministicAndPairable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.trf"), filepath.Join(dir, "b.trf")
	for _, out := range []string{a, b} {
		if code, _, stderr := runCLI(t, "", "pair", "--generate", "40", "--rounds", "4", "--seed", "3", out); code != 0 {
			t.Fatalf("generate: code=%d stderr=%q", code, stderr)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || string(da) != string(db) {
		t.Fatalf("same seed gave different files")
	}
	code, stdout, stderr := runCLI(t, "", "pair", "--dutch", a, "-p")
	if code != 0 || !strings.HasPrefix(stdout, "20\n") {
		t.Fatalf("pairing the generated file: code=%d stderr=%q stdout=%q", code, stderr, stdout)
	}
	// Every round of the generated file is what the engine pairs again.
	if code, stdout, _ := runCLI(t, "", "pair", "--dutch", a, "-c"); code != 0 {
		t.Fatalf("check: code=%d\n%s", code, stdout)
	}
}

// Every exit status of pair, as documented in its help and docs/pairing.md.
func TestPairExitStatuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noPairing := corpusFile(t, "cases/t001_n006_R05_k03.trf") // expected_rc 1 in the corpus
	ok := corpusFile(t, "cases/t001_n006_R05_k00.trf")
	finished := filepath.Join(dir, "finished.trf")
	fin := &trf.File{Version: 2016, TotalRounds: 1, InitialColour: 'w', PointSystem: trf.DefaultPointSystem(), Players: []trf.Player{
		{ID: 1, Name: "A", Points: arbiter.Point, Rounds: []trf.Round{{Opponent: 2, Colour: 'w', Result: '1'}}},
		{ID: 2, Name: "B", Rounds: []trf.Round{{Opponent: 1, Colour: 'b', Result: '0'}}},
	}}
	os.WriteFile(finished, []byte(fin.String()), 0o644)
	noXXR := filepath.Join(dir, "noxxr.trf")
	os.WriteFile(noXXR, []byte("XXC white1\n001    1      A                                 2000                             0.0\n001    2      B                                 1900                             0.0\n"), 0o644)
	out := func(name string) string { return filepath.Join(dir, name) }
	// A stale OUT from an earlier run must not survive a failed pairing.
	os.WriteFile(out("stale.txt"), []byte("1\n1 2\n"), 0o644)
	cases := []struct {
		name    string
		args    []string
		code    int
		outFile string // "" = not checked; the file must exist with this content ("-" = must not exist)
		want    string
	}{
		{"help", []string{"pair", "-h"}, 0, "", ""},
		{"pairing written", []string{"pair", "--dutch", ok, "-p", out("ok.txt")}, 0, "ok.txt", "3\n4 1\n2 5\n6 3\n"},
		{"no valid pairing, OUT empty", []string{"pair", "--dutch", noPairing, "-p", out("none.txt")}, 1, "none.txt", ""},
		{"no valid pairing, stale OUT emptied", []string{"pair", "--dutch", noPairing, "-p", out("stale.txt")}, 1, "stale.txt", ""},
		{"no valid pairing, bbpPairings command line", []string{"--dutch", noPairing, "-p", out("bbp.txt")}, 1, "bbp.txt", ""},
		{"usage", []string{"pair", "--dutch", ok}, 2, "", ""},
		{"missing input", []string{"pair", "--dutch", out("missing.trf"), "-p", out("m.txt")}, 3, "m.txt", "-"},
		{"missing input, check", []string{"pair", "--dutch", out("missing.trf"), "-c"}, 3, "", ""},
		{"no XXR", []string{"pair", "--dutch", noXXR, "-p"}, 3, "", ""},
		{"no round left to pair", []string{"pair", "--dutch", finished, "-p"}, 3, "", ""},
		{"OUT cannot be written", []string{"pair", "--dutch", ok, "-p", out("no/such/dir.txt")}, 3, "", ""},
		{"generate, too few players", []string{"pair", "--generate", "1", "--rounds", "1", out("g.trf")}, 3, "g.trf", "-"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", c.name, code, c.code, stderr)
		}
		if c.outFile == "" {
			continue
		}
		got, err := os.ReadFile(out(c.outFile))
		switch {
		case c.want == "-" && err == nil:
			t.Errorf("%s: %s was written", c.name, c.outFile)
		case c.want != "-" && (err != nil || string(got) != c.want):
			t.Errorf("%s: %s = %q (%v), want %q", c.name, c.outFile, got, err, c.want)
		}
	}
	_, help, _ := runCLI(t, "", "pair", "-h") // on stdout: asked for
	for _, s := range []string{"\n  0  ok", "\n  1  no valid pairing", "\n  2  usage", "\n  3  bad input", "IN missing"} {
		if !strings.Contains(help, s) {
			t.Errorf("pair -h does not document %q", s)
		}
	}
}
