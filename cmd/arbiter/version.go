package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

func init() {
	register(&command{name: "version", summary: "print the version of this binary", run: runVersion})
}

func runVersion(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "version", "version")
	if err := fs.Parse(args); err != nil {
		return err
	}
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				v = s.Value
			}
		}
	}
	fmt.Fprintln(e.stdout, "arbiter", v)
	return nil
}
