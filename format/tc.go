package format

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter"
)

// TimeControl is base time plus increment. The base is kept in whole
// seconds so that fractional minutes (0.75 = 45 s, 1.5 = 90 s) are exact.
type TimeControl struct {
	BaseSeconds      int
	IncrementSeconds int
}

// ParseTimeControl reads "3+2", "1.5+1", "1,5+1", "0.75+0", "¾+0",
// "3/4+0", "0.5+1", "½+1": base minutes (decimal, decimal comma, unicode
// vulgar fraction or a/b) "+" increment seconds (a whole number).
func ParseTimeControl(s string) (TimeControl, error) {
	base, inc, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		return TimeControl{}, fmt.Errorf("time control %q: want BASE+INCREMENT, e.g. 3+2 or 0.75+0", s)
	}
	secs, err := parseMinutes(strings.TrimSpace(base))
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: base: %v", s, err)
	}
	incr, err := strconv.Atoi(strings.TrimSpace(inc))
	if err != nil || incr < 0 || strings.HasPrefix(strings.TrimSpace(inc), "+") {
		return TimeControl{}, fmt.Errorf("time control %q: increment must be whole seconds >= 0", s)
	}
	if secs == 0 && incr == 0 {
		return TimeControl{}, fmt.Errorf("time control %q: no time at all", s)
	}
	return TimeControl{BaseSeconds: secs, IncrementSeconds: incr}, nil
}

var vulgar = map[string][2]int{"½": {1, 2}, "¼": {1, 4}, "¾": {3, 4}, "⅓": {1, 3}, "⅔": {2, 3}}

// parseMinutes returns the number of seconds in a minutes value; it must be
// a whole number of seconds.
func parseMinutes(s string) (int, error) {
	num, den := 0, 1 // minutes = num/den
	whole := s
	for sym, f := range vulgar {
		if w, ok := strings.CutSuffix(s, sym); ok {
			whole = w
			num, den = f[0], f[1]
			break
		}
	}
	switch {
	case whole == "" && den > 1:
	case strings.Contains(whole, "/"):
		if den > 1 {
			return 0, fmt.Errorf("%q is not a number of minutes", s)
		}
		a, b, _ := strings.Cut(whole, "/")
		n, err1 := strconv.Atoi(a)
		d, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || n < 0 || d <= 0 {
			return 0, fmt.Errorf("%q is not a fraction of minutes", s)
		}
		num, den = n, d
	default:
		w := strings.ReplaceAll(whole, ",", ".")
		ip, fp, hasFrac := strings.Cut(w, ".")
		if ip == "" && hasFrac {
			ip = "0"
		}
		n, err := strconv.Atoi(ip)
		if err != nil || n < 0 || strings.HasPrefix(ip, "+") || (hasFrac && fp == "") {
			return 0, fmt.Errorf("%q is not a number of minutes", s)
		}
		d := 1
		if hasFrac {
			for _, r := range fp {
				if r < '0' || r > '9' {
					return 0, fmt.Errorf("%q is not a number of minutes", s)
				}
			}
			if len(fp) > 6 {
				return 0, fmt.Errorf("%q has too many decimals", s)
			}
			f, _ := strconv.Atoi(fp)
			for range fp {
				d *= 10
			}
			n = n*d + f
		}
		// whole part plus an optional vulgar fraction: n/d + num/den
		num, den = n*den+num*d, d*den
	}
	if (num*60)%den != 0 {
		return 0, fmt.Errorf("%q minutes is not a whole number of seconds", s)
	}
	return num * 60 / den, nil
}

// String is the canonical spelling: minutes with a decimal point ("1.5+1",
// "0.75+0"), or a reduced fraction when the decimal would not be exact
// ("1/3+0" for 20 seconds).
func (tc TimeControl) String() string {
	return minutes(tc.BaseSeconds) + "+" + strconv.Itoa(tc.IncrementSeconds)
}

func minutes(secs int) string {
	if secs%60 == 0 {
		return strconv.Itoa(secs / 60)
	}
	if (secs*100)%60 == 0 {
		return arbiter.Points(secs * 100 / 60).String()
	}
	g := gcd(secs, 60)
	return strconv.Itoa(secs/g) + "/" + strconv.Itoa(60/g)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// MarshalText writes the canonical spelling.
func (tc TimeControl) MarshalText() ([]byte, error) { return []byte(tc.String()), nil }

// UnmarshalText parses with ParseTimeControl; errors carry rule format.tc.
func (tc *TimeControl) UnmarshalText(b []byte) error {
	v, err := ParseTimeControl(string(b))
	if err != nil {
		return arbiter.FieldError("", "format.tc", "%v", err)
	}
	*tc = v
	return nil
}
