package armageddon_test

import (
	"bytes"
	"fmt"
	"time"

	"arbiter/armageddon"
)

// Two players seal their bids, then reveal; the lower bid plays White.
// Real code passes crypto/rand.Reader instead of the fixed readers.
func Example() {
	rules := armageddon.RulesA3()
	ca, sa, _ := armageddon.Seal(rules, "final-tb", armageddon.SideA, 95*time.Second, bytes.NewReader(make([]byte, 32)))
	cb, sb, _ := armageddon.Seal(rules, "final-tb", armageddon.SideB, 80*time.Second, bytes.NewReader(bytes.Repeat([]byte{1}, 32)))

	a := armageddon.New(rules, "final-tb")
	a, _ = a.Commit(armageddon.SideA, ca)
	if _, err := a.Reveal(armageddon.SideA, sa); err != nil {
		fmt.Println(err) // B has not sealed yet
	}
	a, _ = a.Commit(armageddon.SideB, cb)
	a, _ = a.Reveal(armageddon.SideA, sa)
	a, _ = a.Reveal(armageddon.SideB, sb)
	o, _ := a.Outcome()
	w, _ := o.Winner(armageddon.Draw)
	fmt.Printf("White: %s with %s; Black: %s with %s; a draw is won by %s\n", o.White, o.WhiteTime, o.Black(), o.BlackTime, w)
	// Output:
	// bids are revealed only after both sides have sealed theirs (rule A3)
	// White: B with 1m20s; Black: A with 3m0s; a draw is won by A
}
