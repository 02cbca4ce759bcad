package app

import (
	"strings"
	"testing"
)

// The tests of packages web and web/browsertest lower PasswordIterations
// to keep the suite fast; this one checks the cost production hashes with
// (OWASP's 2023 advice for PBKDF2-HMAC-SHA256) and that such a hash checks.
func TestPasswordHashCost(t *testing.T) {
	t.Parallel()
	if PasswordIterations != 600_000 {
		t.Fatalf("PasswordIterations = %d, want 600000", PasswordIterations)
	}
	h, err := hashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(h, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" || parts[1] != "600000" {
		t.Fatalf("hash %q, want pbkdf2-sha256$600000$SALT$KEY", h)
	}
	if !checkPassword(h, "correct horse battery") || checkPassword(h, "correct horse batterz") {
		t.Errorf("the hash does not tell the password from another")
	}
}
