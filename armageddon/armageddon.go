// Package armageddon runs the sealed-bid armageddon of A3 and W12: each
// side bids the clock time it accepts to play White with; the lowest bid
// plays White with that time, Black gets three minutes and draw odds, and
// there is no increment. Equal bids are settled by a coin flip.
//
// The rulebooks have a TD collect the bids privately so that neither side
// sees the other's bid first. This package gives the same guarantee without
// a trusted party: a side first commits to sha256 of its bid and a random
// nonce, and only once both commitments are in may either side reveal. The
// coin flip for equal bids is derived from both nonces (see Flip), so each
// side contributes randomness and anyone can verify the flip afterwards.
package armageddon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"arbiter"
)

// Side is one of the two sides of the armageddon, in the order the
// application layer lists the match's entrants.
type Side int

const (
	SideA Side = 0
	SideB Side = 1
)

// Other returns the opposing side.
func (s Side) Other() Side { return 1 - s }

func (s Side) String() string {
	if s == SideA {
		return "A"
	}
	return "B"
}

func (s Side) valid() bool { return s == SideA || s == SideB }

// TieBreak names how a rulebook breaks equal bids. Both are run as the
// commit-reveal flip of this package; the name is kept for messages.
type TieBreak int

const (
	CoinFlip          TieBreak = iota + 1 // A3: a coin flip on the House Discord
	RockPaperScissors                     // W12: a game of rock-paper-scissors
)

// Rules are the armageddon parameters of a rulebook.
type Rules struct {
	Clause    string        // A3 or W12
	BlackTime time.Duration // 3 minutes
	Increment time.Duration // none
	// MinBid and MaxBid bound White's time. The rulebooks set no bounds;
	// 1 s..3 min is this system's choice: a bid of more time than Black has
	// would give White more time and Black draw odds, which no rulebook
	// intends, and a zero bid would lose on time at once.
	MinBid, MaxBid time.Duration
	TieBreak       TieBreak
}

// RulesA3 returns the antichess team cup armageddon (A3).
func RulesA3() Rules {
	return Rules{Clause: "A3", BlackTime: 3 * time.Minute, MinBid: time.Second, MaxBid: 3 * time.Minute, TieBreak: CoinFlip}
}

// RulesW12 returns the ACWC armageddon (W12, "as A3"; equal bids by
// rock-paper-scissors, run here as the verifiable flip).
func RulesW12() Rules {
	r := RulesA3()
	r.Clause, r.TieBreak = "W12", RockPaperScissors
	return r
}

// NonceSize is the length of a bid's secret nonce.
const NonceSize = 32

// Commitment is what a side publishes first: sha256 over the match id,
// the side, the bid and the nonce (see commit). Binding the match and the
// side stops a side from copying the opponent's commitment and later
// revealing the opponent's bid as its own.
type Commitment [sha256.Size]byte

// Secret is what a side keeps until both commitments are in, then reveals.
type Secret struct {
	Bid   time.Duration // White's time, whole seconds
	Nonce [NonceSize]byte
}

// Seal draws a nonce from rand and returns the commitment to publish and
// the secret to keep. rand is crypto/rand.Reader in production and a fixed
// reader in tests.
func Seal(rules Rules, matchID string, side Side, bid time.Duration, rand io.Reader) (Commitment, Secret, error) {
	if err := rules.checkBid(bid); err != nil {
		return Commitment{}, Secret{}, err
	}
	if !side.valid() {
		return Commitment{}, Secret{}, arbiter.FieldError("side", rules.Clause, "side must be A or B")
	}
	s := Secret{Bid: bid}
	if _, err := io.ReadFull(rand, s.Nonce[:]); err != nil {
		return Commitment{}, Secret{}, &arbiter.Error{Code: arbiter.EINTERNAL, Message: "no randomness for the bid nonce", Err: err}
	}
	return commit(matchID, side, s), s, nil
}

func (r Rules) checkBid(bid time.Duration) error {
	switch {
	case bid%time.Second != 0:
		return arbiter.FieldError("bid", r.Clause, "a bid is a whole number of seconds, got %s", bid)
	case bid < r.MinBid || bid > r.MaxBid:
		return arbiter.FieldError("bid", r.Clause, "a bid for White's time must be between %s and %s, got %s", r.MinBid, r.MaxBid, bid)
	}
	return nil
}

// commit hashes a domain tag, the length-prefixed match id, the side, the
// bid in seconds (8 bytes big-endian) and the nonce.
func commit(matchID string, side Side, s Secret) Commitment {
	h := sha256.New()
	h.Write([]byte("arbiter/armageddon/bid/v1\x00"))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(matchID)))
	h.Write(n[:])
	h.Write([]byte(matchID))
	h.Write([]byte{byte(side)})
	binary.BigEndian.PutUint64(n[:], uint64(s.Bid/time.Second))
	h.Write(n[:])
	h.Write(s.Nonce[:])
	var c Commitment
	h.Sum(c[:0])
	return c
}

// Auction is the sealed-bid state of one armageddon game. The zero value
// with MatchID and Rules set is an auction waiting for both commitments.
// Methods return a new Auction and never modify the receiver.
type Auction struct {
	MatchID   string
	Rules     Rules
	Committed [2]*Commitment
	Revealed  [2]*Secret
}

// New returns an empty auction for a match.
func New(rules Rules, matchID string) Auction { return Auction{MatchID: matchID, Rules: rules} }

// Commit records side's commitment. Each side commits once.
func (a Auction) Commit(side Side, c Commitment) (Auction, error) {
	if !side.valid() {
		return a, arbiter.FieldError("side", a.Rules.Clause, "side must be A or B")
	}
	if a.Committed[side] != nil {
		return a, arbiter.RuleError(a.Rules.Clause, "side %s has already sealed its bid; a bid cannot be changed", side)
	}
	a.Committed[side] = &c
	return a, nil
}

// BothCommitted reports whether both sealed bids are in.
func (a Auction) BothCommitted() bool { return a.Committed[0] != nil && a.Committed[1] != nil }

// Reveal opens side's bid. It is refused until both sides have committed
// (so nobody sees a bid before both are in), when the secret does not match
// the commitment (a changed bid or nonce), or when the bid is out of range.
func (a Auction) Reveal(side Side, s Secret) (Auction, error) {
	if !side.valid() {
		return a, arbiter.FieldError("side", a.Rules.Clause, "side must be A or B")
	}
	if !a.BothCommitted() {
		return a, arbiter.RuleError(a.Rules.Clause, "bids are revealed only after both sides have sealed theirs")
	}
	if a.Revealed[side] != nil {
		return a, arbiter.RuleError(a.Rules.Clause, "side %s has already revealed its bid", side)
	}
	if commit(a.MatchID, side, s) != *a.Committed[side] {
		return a, arbiter.RuleError(a.Rules.Clause, "side %s's revealed bid does not match its sealed bid", side)
	}
	if err := a.Rules.checkBid(s.Bid); err != nil {
		return a, err
	}
	a.Revealed[side] = &s
	return a, nil
}

// Outcome is the settled armageddon: who plays White and the clocks.
type Outcome struct {
	White     Side
	WhiteTime time.Duration // the lowest bid
	BlackTime time.Duration // Rules.BlackTime
	Increment time.Duration
	ByFlip    bool // the bids were equal and Flip chose White
}

// Black is the side playing Black.
func (o Outcome) Black() Side { return o.White.Other() }

// Outcome settles the auction once both bids are revealed.
func (a Auction) Outcome() (Outcome, error) {
	if a.Revealed[0] == nil || a.Revealed[1] == nil {
		return Outcome{}, arbiter.RuleError(a.Rules.Clause, "both bids must be revealed before White is known")
	}
	ba, bb := a.Revealed[0].Bid, a.Revealed[1].Bid
	o := Outcome{BlackTime: a.Rules.BlackTime, Increment: a.Rules.Increment}
	switch {
	case ba < bb:
		o.White, o.WhiteTime = SideA, ba
	case bb < ba:
		o.White, o.WhiteTime = SideB, bb
	default:
		w, ok := Flip(a.MatchID, a.Revealed[0].Nonce, a.Revealed[1].Nonce)
		if !ok {
			return Outcome{}, arbiter.RuleError(a.Rules.Clause,
				"both bids used the same nonce, so no fair flip exists; the TD decides who plays White")
		}
		o.White, o.WhiteTime, o.ByFlip = w, ba, true
	}
	return o, nil
}

// Flip chooses White for equal bids from both sides' nonces. Each side
// scores sha256(tag || match id || own nonce || other nonce); the lower
// score plays White. Neither side can steer it: both nonces were fixed by
// the commitments before either was seen. Swapping the sides swaps the
// result, and anyone holding the revealed nonces can recompute it. ok is
// false only when the nonces are equal (then there is no fair flip).
func Flip(matchID string, nonceA, nonceB [NonceSize]byte) (white Side, ok bool) {
	if nonceA == nonceB {
		return SideA, false
	}
	sa, sb := flipScore(matchID, nonceA, nonceB), flipScore(matchID, nonceB, nonceA)
	for i := range sa {
		if sa[i] != sb[i] {
			if sa[i] < sb[i] {
				return SideA, true
			}
			return SideB, true
		}
	}
	return SideA, false // a sha256 collision: no fair flip either
}

func flipScore(matchID string, own, other [NonceSize]byte) [sha256.Size]byte {
	b := fmt.Appendf(nil, "arbiter/armageddon/flip/v1\x00%d:%s", len(matchID), matchID)
	b = append(b, own[:]...)
	b = append(b, other[:]...)
	return sha256.Sum256(b)
}

// GameResult is the result of the armageddon game on the board.
type GameResult int

const (
	WhiteWins GameResult = iota + 1
	BlackWins
	Draw
)

// Winner returns the side that wins the armageddon: a draw counts as a win
// for Black (A3 draw odds).
func (o Outcome) Winner(r GameResult) (Side, error) {
	switch r {
	case WhiteWins:
		return o.White, nil
	case BlackWins, Draw:
		return o.Black(), nil
	}
	return 0, arbiter.FieldError("result", "armageddon.result", "unknown game result %d", r)
}

// String returns the commitment in lowercase hex, as players publish it.
func (c Commitment) String() string { return hex.EncodeToString(c[:]) }

// MarshalText encodes the commitment as hex (so JSON carries a string).
func (c Commitment) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText decodes a hex commitment.
func (c *Commitment) UnmarshalText(b []byte) error {
	p, err := ParseCommitment(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// ParseCommitment reads a commitment written as 64 hex digits.
func ParseCommitment(s string) (Commitment, error) {
	var c Commitment
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(c) {
		return c, arbiter.FieldError("commitment", "armageddon.commitment", "a sealed bid is %d hex digits", 2*len(c))
	}
	copy(c[:], b)
	return c, nil
}

// NonceHex returns the secret's nonce in hex, as a player reveals it.
func (s Secret) NonceHex() string { return hex.EncodeToString(s.Nonce[:]) }

// ParseSecret reads a revealed bid: whole seconds and the nonce in hex.
func ParseSecret(seconds int, nonceHex string) (Secret, error) {
	s := Secret{Bid: time.Duration(seconds) * time.Second}
	b, err := hex.DecodeString(nonceHex)
	if err != nil || len(b) != NonceSize {
		return s, arbiter.FieldError("nonce", "armageddon.nonce", "a nonce is %d hex digits", 2*NonceSize)
	}
	copy(s.Nonce[:], b)
	return s, nil
}
