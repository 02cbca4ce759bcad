package sqlstore

import (
	"context"

	"arbiter"
)

// SetLocalPassword replaces the password hash of a local account, or
// creates the account when there is none of that name, and ends every
// session of the account: whoever signed in with the old password is
// signed out. The caller hashes the password; only the hash is stored.
// The audit entry names the change, never the hash.
func SetLocalPassword(ctx context.Context, tx *Tx, ch Change, name, passwordHash string) (User, error) {
	if err := ch.check(); err != nil {
		return User{}, err
	}
	if passwordHash == "" {
		return User{}, arbiter.FieldError("password", "local.account", "a local account needs a password")
	}
	u, _, err := LocalAccount(ctx, tx, name)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		// No local account of that name: create it (a Lichess user's
		// name cannot end in LocalSuffix, so none is taken over).
		return CreateLocalAccount(ctx, tx, ch, name, passwordHash)
	}
	if err != nil {
		return User{}, err
	}
	if _, err := tx.exec(ctx, `UPDATE local_accounts SET password_hash = ? WHERE user_id = ?`, passwordHash, u.ID); err != nil {
		return User{}, internalErr("set local password", err)
	}
	if _, err := tx.exec(ctx, `DELETE FROM sessions WHERE user_id = ?`, u.ID); err != nil {
		return User{}, internalErr("end sessions", err)
	}
	return u, writeAudit(ctx, tx, ch, auditRow{kind: UserKind, id: u.ID, version: u.Version, action: ch.action(UserKind, "set_password")})
}
