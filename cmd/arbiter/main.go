// Command arbiter runs online chess competitions: formats, pairings,
// scoring and standings from the command line, and the web app (serve).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"arbiter"
)

// command is one subcommand. Each lives in its own file and registers
// itself from init, so that adding a command touches no shared table.
type command struct {
	name    string
	summary string
	// run gets the arguments after the command name.
	run func(ctx context.Context, env *env, args []string) error
}

// env is what a command may touch: its streams. Tests run commands with buffers.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("arbiter: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// exitError carries a specific exit status (bbpPairings-compatible codes for pair).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
}

// run dispatches to a command and maps its error to an exit status:
// 0 ok, 1 failure (or "no valid pairing" for pair), 2 usage, 3 bad input.
func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--dutch" {
		// bbpPairings' own command line ("bbpPairings --dutch IN -p OUT"):
		// tools written for the reference engine can drive this binary.
		args = append([]string{"pair"}, args...)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "arbiter: unknown command %q\n\n", args[0])
		usage(e.stderr)
		return 2
	}
	err := c.run(ctx, e, args[1:])
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var xe *exitError
	if errors.As(err, &xe) {
		if xe.err != nil {
			fmt.Fprintf(e.stderr, "arbiter %s: %s\n", c.name, arbiter.ErrorMessage(xe.err))
		}
		return xe.code
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(e.stderr, "arbiter %s: %s\n", c.name, ue.msg)
		return 2
	}
	msg := arbiter.ErrorMessage(err)
	if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
		msg = err.Error() // the CLI user is the operator: show the cause
	}
	fmt.Fprintf(e.stderr, "arbiter %s: %s\n", c.name, msg)
	if arbiter.ErrorCode(err) == arbiter.EINVALID {
		return 3
	}
	return 1
}

// usageError reports wrong command-line usage (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Arbiter runs online chess competitions on Lichess.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: arbiter COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'arbiter COMMAND --help' for the flags of a command.")
}

// newFlagSet returns a FlagSet that prints its usage to e.stderr with a
// one-line synopsis and returns errors instead of exiting.
func newFlagSet(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: arbiter %s\n", synopsis)
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintln(e.stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseInterspersed parses flags that may appear before or after positional
// arguments ("format explain acwc-2023 --entrants 40"), which the flag
// package alone does not allow.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
		if len(args) == 0 {
			return pos, nil
		}
	}
}
