package armageddon

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"arbiter"
)

func wantErr(t *testing.T, err error, code, clause string) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Code != code || e.Rule != clause {
		t.Fatalf("want %s error naming %q, got %#v", code, clause, err)
	}
}

// fixedRand yields the bytes 0x01.. for side A and 0x81.. for side B style
// deterministic nonces.
func fixedRand(start byte) *bytes.Reader {
	b := make([]byte, NonceSize)
	for i := range b {
		b[i] = start + byte(i)
	}
	return bytes.NewReader(b)
}

func TestRulebookParameters(t *testing.T) {
	for _, r := range []Rules{RulesA3(), RulesW12()} {
		if r.BlackTime != 3*time.Minute || r.Increment != 0 {
			t.Errorf("%s: Black %s increment %s, want 3m and none", r.Clause, r.BlackTime, r.Increment)
		}
	}
	if RulesA3().TieBreak != CoinFlip || RulesW12().TieBreak != RockPaperScissors {
		t.Error("tie breaks")
	}
}

func TestCommitmentEncoding(t *testing.T) {
	// The documented encoding, assembled by hand: tag, len(match id) as 8
	// bytes big-endian, match id, side byte, bid seconds as 8 bytes, nonce.
	c, s, err := Seal(RulesA3(), "m7", SideB, 75*time.Second, fixedRand(1))
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	want = append(want, "arbiter/armageddon/bid/v1\x00"...)
	want = append(want, 0, 0, 0, 0, 0, 0, 0, 2, 'm', '7', 1)
	want = append(want, 0, 0, 0, 0, 0, 0, 0, 75)
	for i := 0; i < NonceSize; i++ {
		want = append(want, byte(1+i))
	}
	if c != Commitment(sha256.Sum256(want)) {
		t.Errorf("commitment %x does not follow the documented encoding", c)
	}
	if s.Bid != 75*time.Second || s.Nonce[0] != 1 || s.Nonce[31] != 32 {
		t.Errorf("secret %+v", s)
	}
}

// run seals, commits and reveals both bids and returns the outcome.
func run(t *testing.T, rules Rules, id string, bidA, bidB time.Duration, ra, rb *bytes.Reader) Outcome {
	t.Helper()
	ca, sa, err := Seal(rules, id, SideA, bidA, ra)
	if err != nil {
		t.Fatal(err)
	}
	cb, sb, err := Seal(rules, id, SideB, bidB, rb)
	if err != nil {
		t.Fatal(err)
	}
	a := New(rules, id)
	for _, step := range []func(Auction) (Auction, error){
		func(a Auction) (Auction, error) { return a.Commit(SideB, cb) },
		func(a Auction) (Auction, error) { return a.Commit(SideA, ca) },
		func(a Auction) (Auction, error) { return a.Reveal(SideA, sa) },
		func(a Auction) (Auction, error) { return a.Reveal(SideB, sb) },
	} {
		if a, err = step(a); err != nil {
			t.Fatal(err)
		}
	}
	o, err := a.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestLowestBidPlaysWhite(t *testing.T) {
	cases := []struct {
		bidA, bidB time.Duration
		white      Side
		whiteTime  time.Duration
	}{
		{60 * time.Second, 90 * time.Second, SideA, 60 * time.Second},
		{90 * time.Second, 60 * time.Second, SideB, 60 * time.Second},
		{180 * time.Second, time.Second, SideB, time.Second},
		{time.Second, 180 * time.Second, SideA, time.Second},
		{150 * time.Second, 151 * time.Second, SideA, 150 * time.Second},
	}
	for _, tc := range cases {
		o := run(t, RulesA3(), "m1", tc.bidA, tc.bidB, fixedRand(1), fixedRand(100))
		if o.White != tc.white || o.WhiteTime != tc.whiteTime || o.BlackTime != 3*time.Minute || o.ByFlip || o.Black() != tc.white.Other() {
			t.Errorf("bids %s/%s: %+v", tc.bidA, tc.bidB, o)
		}
	}
}

func TestEqualBidsFlip(t *testing.T) {
	o := run(t, RulesW12(), "final", 100*time.Second, 100*time.Second, fixedRand(1), fixedRand(100))
	if !o.ByFlip || o.WhiteTime != 100*time.Second {
		t.Fatalf("%+v", o)
	}
	// Anyone can verify the flip from the revealed nonces, computed by hand
	// from the documented scores.
	var na, nb [NonceSize]byte
	fixedRand(100).Read(nb[:])
	fixedRand(1).Read(na[:])
	score := func(own, other [NonceSize]byte) [32]byte {
		b := append([]byte("arbiter/armageddon/flip/v1\x005:final"), own[:]...)
		return sha256.Sum256(append(b, other[:]...))
	}
	sa, sb := score(na, nb), score(nb, na)
	want := SideB
	if bytes.Compare(sa[:], sb[:]) < 0 {
		want = SideA
	}
	if o.White != want {
		t.Errorf("flip gave %s, the documented scores give %s", o.White, want)
	}
	if _, ok := Flip("x", na, na); ok {
		t.Error("equal nonces flipped")
	}
}

func TestRefusals(t *testing.T) {
	r := RulesA3()
	ca, sa, _ := Seal(r, "m", SideA, 60*time.Second, fixedRand(1))
	cb, sb, _ := Seal(r, "m", SideB, 70*time.Second, fixedRand(50))
	a := New(r, "m")

	// Neither side may reveal before both are sealed.
	a1, err := a.Commit(SideA, ca)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a1.Reveal(SideA, sa)
	wantErr(t, err, arbiter.ERULE, "A3")
	// A sealed bid cannot be replaced.
	_, err = a1.Commit(SideA, cb)
	wantErr(t, err, arbiter.ERULE, "A3")
	if a.Committed[SideA] != nil {
		t.Error("Commit modified its receiver")
	}
	both, err := a1.Commit(SideB, cb)
	if err != nil {
		t.Fatal(err)
	}
	_, err = both.Outcome()
	wantErr(t, err, arbiter.ERULE, "A3")

	tampered := []struct {
		name string
		side Side
		s    Secret
	}{
		{"changed bid", SideA, Secret{Bid: 59 * time.Second, Nonce: sa.Nonce}},
		{"changed nonce", SideA, Secret{Bid: sa.Bid, Nonce: sb.Nonce}},
		{"opponent's secret", SideA, sb},
		{"flipped nonce bit", SideB, func() Secret { s := sb; s.Nonce[7] ^= 1; return s }()},
	}
	for _, tc := range tampered {
		_, err := both.Reveal(tc.side, tc.s)
		wantErr(t, err, arbiter.ERULE, "A3")
	}
	revealed, err := both.Reveal(SideA, sa)
	if err != nil {
		t.Fatal(err)
	}
	_, err = revealed.Reveal(SideA, sa)
	wantErr(t, err, arbiter.ERULE, "A3")
	_, err = revealed.Outcome()
	wantErr(t, err, arbiter.ERULE, "A3")

	// Copying the opponent's commitment does not let a side reuse the
	// opponent's bid: the side is bound into the hash.
	copyCat, _ := New(r, "m").Commit(SideA, ca)
	copyCat, _ = copyCat.Commit(SideB, ca)
	copyCat, _ = copyCat.Reveal(SideA, sa)
	_, err = copyCat.Reveal(SideB, sa)
	wantErr(t, err, arbiter.ERULE, "A3")
	// Nor is a commitment for another match valid here.
	cOther, sOther, _ := Seal(r, "other", SideA, 60*time.Second, fixedRand(9))
	x, _ := New(r, "m").Commit(SideA, cOther)
	x, _ = x.Commit(SideB, cb)
	_, err = x.Reveal(SideA, sOther)
	wantErr(t, err, arbiter.ERULE, "A3")
	// The same secret does open it in its own match.
	y, _ := New(r, "other").Commit(SideA, cOther)
	y, _ = y.Commit(SideB, cb)
	if _, err = y.Reveal(SideA, sOther); err != nil {
		t.Fatal(err)
	}

	bids := []time.Duration{0, -time.Second, 181 * time.Second, 1500 * time.Millisecond, time.Hour}
	for _, b := range bids {
		_, _, err := Seal(r, "m", SideA, b, fixedRand(1))
		var e *arbiter.Error
		if !errors.As(err, &e) || e.Code != arbiter.EINVALID || e.Field != "bid" || e.Rule != "A3" {
			t.Errorf("bid %s: %v", b, err)
		}
	}
	if _, _, err := Seal(RulesW12(), "m", Side(2), time.Minute, fixedRand(1)); err == nil {
		t.Error("side 2 accepted")
	}
	if _, _, err := Seal(r, "m", SideA, time.Minute, bytes.NewReader(nil)); arbiter.ErrorCode(err) != arbiter.EINTERNAL {
		t.Errorf("empty randomness: %v", err)
	}
}

func TestWinnerDrawOdds(t *testing.T) {
	o := Outcome{White: SideB}
	cases := []struct {
		r    GameResult
		want Side
	}{{WhiteWins, SideB}, {BlackWins, SideA}, {Draw, SideA}}
	for _, tc := range cases {
		if got, err := o.Winner(tc.r); err != nil || got != tc.want {
			t.Errorf("result %d: %s %v", tc.r, got, err)
		}
	}
	if _, err := o.Winner(0); err == nil {
		t.Error("unknown result accepted")
	}
}

// TestSwapSymmetry: relabelling the sides relabels the outcome — for
// unequal bids and for the flip.
func TestSwapSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	flipsA := 0
	for i := 0; i < 500; i++ {
		bidA := time.Duration(1+rng.IntN(180)) * time.Second
		bidB := time.Duration(1+rng.IntN(180)) * time.Second
		if i%3 == 0 {
			bidB = bidA
		}
		na, nb := make([]byte, NonceSize), make([]byte, NonceSize)
		for j := range na {
			na[j], nb[j] = byte(rng.Uint32()), byte(rng.Uint32())
		}
		o := run(t, RulesA3(), "p", bidA, bidB, bytes.NewReader(na), bytes.NewReader(nb))
		s := run(t, RulesA3(), "p", bidB, bidA, bytes.NewReader(nb), bytes.NewReader(na))
		if s.White != o.White.Other() || s.WhiteTime != o.WhiteTime || s.ByFlip != o.ByFlip || o.ByFlip != (bidA == bidB) {
			t.Fatalf("bids %s/%s: %+v, swapped %+v", bidA, bidB, o, s)
		}
		if o.WhiteTime != min(bidA, bidB) {
			t.Fatalf("white time %s for bids %s/%s", o.WhiteTime, bidA, bidB)
		}
		if o.ByFlip && o.White == SideA {
			flipsA++
		}
	}
	// 167 flips; a fair flip gives side A about half (deterministic seed).
	if flipsA < 60 || flipsA > 107 {
		t.Errorf("side A won %d of 167 flips", flipsA)
	}
}

func TestTextEncodings(t *testing.T) {
	c, s, err := Seal(RulesA3(), "m", SideA, 42*time.Second, fixedRand(3))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.String()) != 64 {
		t.Fatalf("hex %q", c)
	}
	p, err := ParseCommitment(c.String())
	if err != nil || p != c {
		t.Fatalf("round trip: %v", err)
	}
	var u Commitment
	text, _ := c.MarshalText()
	if err := u.UnmarshalText(text); err != nil || u != c {
		t.Fatalf("text round trip: %v", err)
	}
	if s.NonceHex()[:4] != "0304" {
		t.Errorf("nonce hex %s", s.NonceHex())
	}
	s2, err := ParseSecret(42, s.NonceHex())
	if err != nil || s2 != s {
		t.Fatalf("secret round trip: %v", err)
	}
	for _, bad := range []string{"", "zz", c.String()[:62], c.String() + "00"} {
		if _, err := ParseCommitment(bad); arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("ParseCommitment(%q): %v", bad, err)
		}
		if err := u.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
	if _, err := ParseSecret(42, "00"); arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Errorf("short nonce: %v", err)
	}
}

// Malformed input names its field and a rule.
func TestParseErrorsNameFieldAndRule(t *testing.T) {
	_, err1 := ParseCommitment("zz")
	_, err2 := ParseSecret(60, "12")
	_, err3 := Outcome{}.Winner(GameResult(9))
	for i, c := range []struct {
		err         error
		field, rule string
	}{{err1, "commitment", "armageddon.commitment"}, {err2, "nonce", "armageddon.nonce"}, {err3, "result", "armageddon.result"}} {
		var e *arbiter.Error
		if !errors.As(c.err, &e) || e.Code != arbiter.EINVALID || e.Field != c.field || e.Rule != c.rule {
			t.Errorf("case %d: got %#v, want field %s rule %s", i, c.err, c.field, c.rule)
		}
	}
}
