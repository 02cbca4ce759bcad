-- Local accounts: users who sign in with a password instead of Lichess (the
-- TD account created on first start, for offline use). Their names end in
-- "@local", which no Lichess username can, so the two never collide.
CREATE TABLE local_accounts (
	user_id       TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
	password_hash TEXT NOT NULL
);
