package lichess

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// TimeControl is a part's clock in Lichess's terms: base time and increment
// in whole seconds. The rulebooks write it in minutes ("0.75+0" is 45 s + 0,
// "1.5+1" is 90 s + 1).
type TimeControl struct {
	Base      int // seconds
	Increment int // seconds per move
}

// ParseTimeControl reads "minutes+increment" as the rulebooks write it:
// "3+2", "1.5+1", "1,5+1", "0.75+0", "¾+0", "½+1". The base must come to
// whole seconds (Lichess clocks have no fractions of a second).
func ParseTimeControl(s string) (TimeControl, error) {
	base, inc, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		return TimeControl{}, fmt.Errorf("time control %q: want minutes+increment, e.g. 1.5+1", s)
	}
	m := strings.ReplaceAll(strings.TrimSpace(base), ",", ".")
	for frac, dec := range map[string]string{"¾": ".75", "½": ".5", "¼": ".25"} {
		if strings.HasSuffix(m, frac) {
			m = strings.TrimSuffix(m, frac) + dec
		}
	}
	if strings.HasPrefix(m, ".") {
		m = "0" + m
	}
	r, okR := new(big.Rat).SetString(m)
	if !okR || r.Sign() < 0 || strings.ContainsAny(m, "/eE") {
		return TimeControl{}, fmt.Errorf("time control %q: base %q is not a number of minutes", s, base)
	}
	secs := new(big.Rat).Mul(r, big.NewRat(60, 1))
	if !secs.IsInt() || !secs.Num().IsInt64() {
		return TimeControl{}, fmt.Errorf("time control %q: base is not a whole number of seconds", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(inc))
	if err != nil || n < 0 {
		return TimeControl{}, fmt.Errorf("time control %q: increment %q is not a whole number of seconds", s, inc)
	}
	tc := TimeControl{Base: int(secs.Num().Int64()), Increment: n}
	if tc.Base == 0 && tc.Increment == 0 {
		return TimeControl{}, fmt.Errorf("time control %q: a clock needs a base time or an increment", s)
	}
	return tc, nil
}

// String writes the rulebook form, minutes+increment ("0.75+0").
func (tc TimeControl) String() string {
	var m string
	if tc.Base%60 == 0 {
		m = strconv.Itoa(tc.Base / 60)
	} else {
		m = strconv.FormatFloat(float64(tc.Base)/60, 'f', -1, 64)
	}
	return m + "+" + strconv.Itoa(tc.Increment)
}

// TimeControl returns the game's clock as a TimeControl; ok is false for a
// game without a real-time clock (correspondence or unlimited).
func (g *Game) TimeControl() (tc TimeControl, ok bool) {
	if g.Clock == nil {
		return TimeControl{}, false
	}
	return TimeControl{Base: g.Clock.Initial, Increment: g.Clock.Increment}, true
}
