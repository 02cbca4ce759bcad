package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"arbiter"
)

// LocalSuffix ends every local account's name. Lichess usernames hold only
// letters, digits, '_' and '-', so a local account can never be mistaken
// for (or taken over by) a Lichess user of the same name.
const LocalSuffix = "@local"

// CheckLocalName checks a local account name: a valid Lichess-style name
// followed by LocalSuffix, such as "td@local".
func CheckLocalName(name string) error {
	base, ok := strings.CutSuffix(name, LocalSuffix)
	if !ok {
		return arbiter.FieldError("username", "local.account", "a local account's name ends in %q, like \"td@local\", not %q", LocalSuffix, name)
	}
	if err := checkUsername(base); err != nil {
		return arbiter.FieldError("username", "local.account", "before %q a local account's name has 2 to 30 letters, digits, '_' or '-', not %q", LocalSuffix, base)
	}
	return nil
}

// CreateLocalAccount creates a user who signs in with a password. The
// caller hashes the password; only the hash is stored. A name already
// taken is ECONFLICT.
func CreateLocalAccount(ctx context.Context, tx *Tx, ch Change, name, passwordHash string) (User, error) {
	if err := ch.check(); err != nil {
		return User{}, err
	}
	if err := CheckLocalName(name); err != nil {
		return User{}, err
	}
	if passwordHash == "" {
		return User{}, arbiter.FieldError("password", "local.account", "a local account needs a password")
	}
	lid := strings.ToLower(name)
	if _, err := userBy(ctx, tx, "lichess_id", lid); err == nil {
		return User{}, arbiter.Errorf(arbiter.ECONFLICT, "the local account %s already exists", name)
	}
	u := User{ID: NewID(), LichessID: lid, LichessUsername: name, DisplayName: name,
		Version: 1, CreatedAt: tx.now, UpdatedAt: tx.now}
	after, err := marshal("user", u)
	if err != nil {
		return User{}, err
	}
	now := tx.dialect.timeArg(tx.now)
	if _, err := tx.exec(ctx, `INSERT INTO users (id, lichess_id, lichess_username, display_name, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, 1, ?, ?)`, u.ID, u.LichessID, u.LichessUsername, u.DisplayName, now, now); err != nil {
		return User{}, internalErr("create local user", err)
	}
	if _, err := tx.exec(ctx, `INSERT INTO local_accounts (user_id, password_hash) VALUES (?, ?)`, u.ID, passwordHash); err != nil {
		return User{}, internalErr("create local account", err)
	}
	return u, writeAudit(ctx, tx, ch, auditRow{kind: UserKind, id: u.ID, version: 1, action: ch.action(UserKind, "create_local"), after: after})
}

// LocalAccount returns the local user of this name and its password hash
// (ENOTFOUND if there is none).
func LocalAccount(ctx context.Context, q Queryer, name string) (User, string, error) {
	u, err := userBy(ctx, q, "lichess_id", strings.ToLower(name))
	if err != nil {
		return User{}, "", err
	}
	var hash string
	err = q.queryRow(ctx, `SELECT password_hash FROM local_accounts WHERE user_id = ?`, u.ID).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, "", arbiter.Errorf(arbiter.ENOTFOUND, "%s is not a local account", name)
	}
	if err != nil {
		return User{}, "", internalErr("read local account", err)
	}
	return u, hash, nil
}

// CountLocalAccounts tells whether first-start set-up has run.
func CountLocalAccounts(ctx context.Context, q Queryer) (int, error) {
	var n int
	if err := q.queryRow(ctx, `SELECT COUNT(*) FROM local_accounts`).Scan(&n); err != nil {
		return 0, internalErr("count local accounts", err)
	}
	return n, nil
}
