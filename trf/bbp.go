package trf

import (
	"bufio"
	"fmt"
	"io"

	"arbiter/pairing"
)

// WriteBBP writes a round in bbpPairings' output format, the answer a
// pairing engine gives to a TRF(x) file: the number of boards, then one
// "white black" line per board with pairing numbers, the pairing-allocated
// bye as "id 0".
func WriteBBP(w io.Writer, t *pairing.Tournament, pairs []pairing.Pair) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d\n", len(pairs))
	for _, p := range pairs {
		b := 0
		if p.Black >= 0 {
			b = t.Players[p.Black].ID
		}
		fmt.Fprintf(bw, "%d %d\n", t.Players[p.White].ID, b)
	}
	return bw.Flush()
}
