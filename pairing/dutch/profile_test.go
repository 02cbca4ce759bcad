package dutch

import (
	"os"
	"testing"

	"arbiter/trf"
)

// TestProfileFile pairs the TRF named by ARBITER_DUTCH_PROFILE (skipped
// without it), for profiling one round with go test -cpuprofile/-memprofile:
//
//	ARBITER_DUTCH_PROFILE=/tmp/g9999_r2.trf go test -run TestProfileFile -cpuprofile cpu.out ./pairing/dutch/
func TestProfileFile(t *testing.T) {
	uncheckedTies()
	path := os.Getenv("ARBITER_DUTCH_PROFILE")
	if path == "" {
		t.Skip("ARBITER_DUTCH_PROFILE not set")
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := trf.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := trf.PairingInput(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pair(tt); err != nil {
		t.Fatal(err)
	}
}
