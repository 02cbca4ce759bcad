package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"arbiter/app"
	"arbiter/sqlstore"
)

func init() {
	register(&command{name: "td", summary: "the local TD account: reset its password", run: runTD})
}

// runTD is "arbiter td password": a new password for the local TD account
// (td@local, the CLI's own identity), for the operator who lost the one
// printed at the first start. The password is $ARBITER_TD_PASSWORD, or a
// random one printed once. The account is signed out everywhere.
func runTD(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "td", "td password [--db DSN]   (the new password: $ARBITER_TD_PASSWORD, else a random one printed once)")
	dsn := addDBFlag(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 1 || pos[0] != "password" {
		fs.Usage()
		return usagef("want: arbiter td password")
	}
	db, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	chosen := os.Getenv("ARBITER_TD_PASSWORD")
	pw, err := app.New(db, time.Now).ResetLocalTD(ctx, chosen)
	if err != nil {
		return err
	}
	if chosen != "" {
		fmt.Fprintf(e.stdout, "The local TD account %s now has the password in $ARBITER_TD_PASSWORD; its sessions are signed out\n", app.LocalTD)
		return nil
	}
	fmt.Fprintf(e.stdout, "The local TD account %s now has the password %s\n(shown only now; its sessions are signed out; sign in at /login)\n", app.LocalTD, pw)
	return nil
}
