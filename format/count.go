package format

import (
	"fmt"
	"math/bits"
)

// Resolve returns the count for n entrants. ok is false when the band has
// no value (the TDs decide: note says why) or no band covers n.
func (c *Count) Resolve(n int) (value int, note string, ok bool) {
	switch {
	case c == nil:
		return 0, "", false
	case c.Fixed != nil:
		return *c.Fixed, "", true
	case c.Log2 != nil:
		if n < 1 {
			return 0, "", false
		}
		return c.Log2.Mul*(bits.Len(uint(n))-1) + c.Log2.Add, "", true
	}
	for _, s := range c.Steps {
		if (s.Min == nil || n >= *s.Min) && (s.Max == nil || n <= *s.Max) {
			if s.Value == nil {
				return 0, s.Note, false
			}
			return *s.Value, s.Note, true
		}
	}
	return 0, fmt.Sprintf("no band covers %d entrants", n), false
}

// values returns every value the count can take (for validation); nil
// entries of step tables are skipped.
func (c *Count) values() []int {
	switch {
	case c == nil:
		return nil
	case c.Fixed != nil:
		return []int{*c.Fixed}
	case c.Log2 != nil:
		return nil
	}
	var out []int
	for _, s := range c.Steps {
		if s.Value != nil {
			out = append(out, *s.Value)
		}
	}
	return out
}

// Upper bounds keep every count and total far from integer overflow; no
// competition comes near them.
const (
	maxCount   = 100000
	maxLog2Mul = 1000
)

func (c *Count) validate(path string, minValue int) error {
	set := 0
	if c.Fixed != nil {
		set++
	}
	if len(c.Steps) > 0 {
		set++
	}
	if c.Log2 != nil {
		set++
	}
	if set != 1 {
		return fieldErr(path, "format.count", "give exactly one of fixed, steps or log2")
	}
	if c.Fixed != nil && (*c.Fixed < minValue || *c.Fixed > maxCount) {
		return fieldErr(path+".fixed", "format.count", "must be %d to %d, got %d", minValue, maxCount, *c.Fixed)
	}
	// mul x floor(log2 N) + add never decreases with N, so its smallest
	// value is add (N = 1): add bounds every value from below.
	if l := c.Log2; l != nil {
		switch {
		case l.Mul < 0 || l.Mul > maxLog2Mul:
			return fieldErr(path+".log2.mul", "format.count", "must be 0 to %d, got %d", maxLog2Mul, l.Mul)
		case l.Add < minValue || l.Add > maxCount:
			return fieldErr(path+".log2.add", "format.count", "must be %d to %d (the value for 1 entrant), got %d", minValue, maxCount, l.Add)
		}
	}
	for i, s := range c.Steps {
		p := fmt.Sprintf("%s.steps[%d]", path, i)
		if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
			return fieldErr(p, "format.steps", "min %d is above max %d", *s.Min, *s.Max)
		}
		if s.Min != nil && *s.Min < 0 {
			return fieldErr(p+".min", "format.steps", "must be >= 0")
		}
		if i > 0 {
			prev := c.Steps[i-1]
			if prev.Max == nil || s.Min == nil || *s.Min != *prev.Max+1 {
				return fieldErr(p+".min", "format.steps", "bands must be in order and contiguous: want min = previous max + 1")
			}
		}
		if i < len(c.Steps)-1 && s.Max == nil {
			return fieldErr(p+".max", "format.steps", "only the last band may be unbounded")
		}
		if s.Value == nil && s.Note == "" {
			return fieldErr(p+".value", "format.steps", "a band without a value must say in note who decides")
		}
		if s.Value != nil && (*s.Value < minValue || *s.Value > maxCount) {
			return fieldErr(p+".value", "format.steps", "must be %d to %d, got %d", minValue, maxCount, *s.Value)
		}
	}
	return nil
}
