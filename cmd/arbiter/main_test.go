package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs the binary's command dispatcher in-process and returns its
// exit status and output; command tests in this package use it.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, "", "frobnicate")
	if code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Fatalf("code=%d stderr=%q", code, stderr)
	}
}

func TestHelpListsCommands(t *testing.T) {
	t.Parallel()
	code, stdout, _ := runCLI(t, "", "--help")
	if code != 0 || !strings.Contains(stdout, "version") {
		t.Fatalf("code=%d stdout=%q", code, stdout)
	}
}
