package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/teamswiss"
)

// Initial colours of the top seed in round 1 (arbiter.Event.InitialColour).
const (
	ColourWhite = "white"
	ColourBlack = "black"
)

// drawInitialColour draws the top seed's round-1 colour by lot (C.04.3
// Art. 5.2.5) from a source anyone can recompute: the SHA-256 of the
// event's slug, a newline and the close instant (RFC 3339, UTC); an even
// first byte of the digest is white. It returns the colour and the lot's
// record (input and digest) for the event and the audit log.
func drawInitialColour(slug string, at time.Time) (colour, lot string) {
	in := slug + "\n" + at.UTC().Format(time.RFC3339Nano)
	sum := sha256.Sum256([]byte(in))
	colour = ColourWhite
	if sum[0]&1 == 1 {
		colour = ColourBlack
	}
	return colour, fmt.Sprintf("sha256(%q)=%s (first byte even: white)", in, hex.EncodeToString(sum[:]))
}

// normColour checks a TD-given initial colour.
func normColour(c string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(c)) {
	case "w", ColourWhite:
		return ColourWhite, nil
	case "b", ColourBlack:
		return ColourBlack, nil
	}
	return "", arbiter.FieldError("initial_colour", "C.04.3 5.2.5", "the top seed's round-1 colour is white or black, not %q", c)
}

// dutchColour and teamColour give the event's initial colour to the pairing
// engines; an event without one (closed before it was drawn) keeps white.
func dutchColour(ev arbiter.Event) pairing.Colour {
	if ev.InitialColour == ColourBlack {
		return pairing.Black
	}
	return pairing.White
}

func teamColour(ev arbiter.Event) string {
	if ev.InitialColour == ColourBlack {
		return teamswiss.Black
	}
	return teamswiss.White
}
