package odds

import (
	"crypto/sha256"
	"encoding/binary"

	"arbiter/pairing"
	"arbiter/pairing/teamswiss"
)

// dutchDigest is a digest of everything the Dutch engine reads of t.
func dutchDigest(t *pairing.Tournament) [32]byte {
	b := make([]byte, 0, 64+len(t.Players)*(16+6*t.PlayedRounds))
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	num(int64(t.PlayedRounds))
	num(int64(t.TotalRounds))
	num(int64(t.InitialColour))
	ps := t.Points
	for _, v := range []int64{int64(ps.Win), int64(ps.Draw), int64(ps.Loss), int64(ps.ZeroBye), int64(ps.ForfeitLoss), int64(ps.PairingBye)} {
		num(v)
	}
	for _, pl := range t.Players {
		num(int64(pl.ID))
		num(int64(pl.Score))
		b = append(b, b2b(pl.Absent))
		num(int64(len(pl.Games)))
		for _, g := range pl.Games {
			num(int64(g.Opponent))
			b = append(b, byte(g.Colour), byte(g.Outcome), b2b(g.Played), b2b(g.Paired))
		}
		num(int64(len(pl.Accelerations)))
		for _, a := range pl.Accelerations {
			num(int64(a))
		}
	}
	for _, f := range t.Forbidden {
		num(int64(f.FirstRound))
		num(int64(f.LastRound))
		num(int64(len(f.Players)))
		for _, i := range f.Players {
			num(int64(i))
		}
	}
	return sha256.Sum256(b)
}

// teamDigest is a digest of everything package teamswiss reads of ev.
func teamDigest(ev *teamswiss.Event) [32]byte {
	var b []byte
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str := func(s string) { num(int64(len(s))); b = append(b, s...) }
	num(int64(ev.TotalRounds))
	str(ev.InitialColour)
	for _, v := range []int64{int64(ev.Points.Win), int64(ev.Points.Draw), int64(ev.Points.Loss), int64(ev.Points.Bye)} {
		num(v)
	}
	b = append(b, b2b(ev.ForfeitBlocksRematch))
	for _, tm := range ev.Teams {
		str(tm.ID)
		num(int64(tm.Seed))
		b = append(b, b2b(tm.Withdrawn))
		num(int64(len(tm.Rounds)))
		for _, r := range tm.Rounds {
			str(r.Opponent)
			b = append(b, b2b(r.White))
			str(string(r.Result))
			num(int64(r.MatchPoints))
			num(int64(r.Secondary))
		}
	}
	for _, f := range ev.Forbidden {
		num(int64(f.FirstRound))
		num(int64(f.LastRound))
		num(int64(len(f.Teams)))
		for _, id := range f.Teams {
			str(id)
		}
	}
	return sha256.Sum256(b)
}

func b2b(v bool) byte {
	if v {
		return 1
	}
	return 0
}
