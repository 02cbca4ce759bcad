package arbiter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Points is a score in hundredths of a point. Every rulebook score is exact
// in this unit: half points (ACWC 1/0.5/0), TC-factor set points (8.5 x 15 =
// 127.5), and Sonneborn-Berger products of half points (0.25). Floating point
// is kept out of scores so that standings are a deterministic total order.
type Points int64

// Point is one whole point.
const Point Points = 100

// P converts a float such as 0.5 or 127.5 to Points, rounding half away from zero.
func P(f float64) Points { return Points(math.Round(f * 100)) }

// Float returns the value as a float64.
func (p Points) Float() float64 { return float64(p) / 100 }

// String formats without trailing zeros: 160, 7.5, 0.25, -3.
func (p Points) String() string {
	neg := p < 0
	if neg {
		p = -p
	}
	s := strconv.FormatInt(int64(p/100), 10)
	if frac := p % 100; frac != 0 {
		f := fmt.Sprintf("%02d", frac)
		s += "." + strings.TrimRight(f, "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// MarshalJSON writes the value as a JSON number (160, 7.5).
func (p Points) MarshalJSON() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalJSON reads a JSON number or a string accepted by ParsePoints.
func (p *Points) UnmarshalJSON(b []byte) error {
	v, err := ParsePoints(strings.Trim(string(b), `"`))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParsePoints reads "12", "7.5", "0,5", "½", "-1.25". At most two decimals.
func ParsePoints(s string) (Points, error) {
	t := strings.TrimSpace(s)
	t = strings.ReplaceAll(t, ",", ".")
	if strings.HasSuffix(t, "½") {
		whole := strings.TrimSuffix(t, "½")
		if whole == "" {
			whole = "0"
		}
		t = whole + ".5"
	}
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	intPart, frac, hasFrac := strings.Cut(t, ".")
	if intPart == "" && !hasFrac || (hasFrac && (frac == "" || len(frac) > 2)) {
		return 0, fmt.Errorf("invalid points %q: want a number with at most two decimals", s)
	}
	if intPart == "" {
		intPart = "0"
	}
	n, err := strconv.ParseInt(intPart, 10, 62)
	if err != nil || strings.ContainsAny(intPart, "+-") {
		return 0, fmt.Errorf("invalid points %q: want a number with at most two decimals", s)
	}
	var f int64
	if hasFrac {
		for len(frac) < 2 {
			frac += "0"
		}
		f, err = strconv.ParseInt(frac, 10, 64)
		if err != nil || strings.ContainsAny(frac, "+-") {
			return 0, fmt.Errorf("invalid points %q: want a number with at most two decimals", s)
		}
	}
	v := Points(n*100 + f)
	if neg {
		v = -v
	}
	return v, nil
}
