package main

import (
	"flag"
	"strings"
	"testing"
)

// The help lists every subcommand of the table once, in the table's
// order, with its summary.
func TestEventHelpOrder(t *testing.T) {
	t.Parallel()
	code, stdout, _ := runCLI(t, "", "event", "--help")
	if code != 0 {
		t.Fatalf("event --help: exit %d", code)
	}
	var listed []string
	in := false
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case line == "Subcommands:":
			in = true
		case in && strings.HasPrefix(line, "  "):
			listed = append(listed, strings.Fields(line)[0])
		case in:
			in = false
		}
	}
	seen := map[string]bool{}
	for i, s := range eventSubs {
		if seen[s.name] {
			t.Errorf("%s is in the table twice", s.name)
		}
		seen[s.name] = true
		if i >= len(listed) || listed[i] != s.name {
			t.Fatalf("help lists %v,\nthe table has %q at %d", listed, s.name, i)
		}
		if !strings.Contains(stdout, s.summary) {
			t.Errorf("help misses the summary of %s", s.name)
		}
	}
	if len(listed) != len(eventSubs) {
		t.Fatalf("help lists %d subcommands, the table %d", len(listed), len(eventSubs))
	}
}

// Every subcommand's -h prints its synopsis and every flag it binds, and
// exits 0 without opening a database.
func TestEventSubcommandHelp(t *testing.T) {
	t.Parallel()
	for _, s := range eventSubs {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			if !strings.HasPrefix(s.synopsis, s.name+" ") && s.synopsis != s.name {
				t.Errorf("synopsis %q does not start with the name", s.synopsis)
			}
			code, stdout, stderr := runCLI(t, "", "event", s.name, "-h")
			if code != 0 || stdout != "" {
				t.Fatalf("exit %d, stdout %q", code, stdout)
			}
			if !strings.HasPrefix(stderr, "Usage: arbiter event "+s.synopsis+"\n") {
				t.Errorf("usage starts %q", firstLine(stderr))
			}
			fs := flag.NewFlagSet(s.name, flag.ContinueOnError)
			s.new().flags(fs)
			fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(stderr, "  -"+f.Name+" ") && !strings.Contains(stderr, "  -"+f.Name+"\n") {
					t.Errorf("help misses --%s", f.Name)
				}
			})
			for _, common := range []string{"db", "as", "role", "now", "json"} {
				if !strings.Contains(stderr, "  -"+common) {
					t.Errorf("help misses the common --%s", common)
				}
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
