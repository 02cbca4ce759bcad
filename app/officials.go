package app

import (
	"context"
	"strings"

	"arbiter"
	"arbiter/sqlstore"
)

// LocalTD is the local TD: the operator at the machine. The CLI acts as
// this user unless told otherwise, and the web app's first start creates
// a local account of this name to sign in with, so an event created on
// one can be run on the other.
const LocalTD = "td@local"

// RemoveTD ends user's office as a TD of the event; only a TD may, and
// the event keeps at least one TD (who else would run it?).
func (s *Service) RemoveTD(ctx context.Context, a arbiter.Actor, slug, user, reason string) error {
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "remove a TD"); err != nil {
			return err
		}
		u := normUser(user)
		o, v, err := docOfficial.read(ctx, tx, st.row.ID, u)
		if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
			return arbiter.FieldError("user", "app.official", "%s is not a TD of %s", user, slug)
		}
		if err != nil {
			return err
		}
		all, err := docOfficial.list(ctx, tx, st)
		if err != nil {
			return err
		}
		if len(all) == 1 {
			return arbiter.RuleError("app.official", "%s is the only TD of %s: add another TD first", o.User, slug)
		}
		return docOfficial.remove(ctx, tx, change(a, "official.remove", strings.TrimSpace(reason), false), st, u, v)
	})
}

// SetLocalPassword sets the password hash of a local account (creating
// it if needed) and signs it out everywhere. It is for the operator at the
// machine (arbiter td password), so it takes no actor: the audit log names
// the system. The caller hashes the password.
func (s *Service) SetLocalPassword(ctx context.Context, name, hash string) error {
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "arbiter", Role: arbiter.RoleSystem}, Action: "user.set_password",
		Reason: "password reset at the machine (arbiter td password)"}
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.SetLocalPassword(ctx, tx, ch, name, hash)
		return err
	})
}
