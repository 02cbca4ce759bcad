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
	if c.Fixed != nil && *c.Fixed < minValue {
		return fieldErr(path+".fixed", "format.count", "must be at least %d", minValue)
	}
	if c.Log2 != nil && (c.Log2.Mul < 0 || c.Log2.Mul == 0 && c.Log2.Add < minValue) {
		return fieldErr(path+".log2", "format.count", "mul must be >= 0 and the value at least %d", minValue)
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
		if s.Value != nil && *s.Value < minValue {
			return fieldErr(p+".value", "format.steps", "must be at least %d", minValue)
		}
	}
	return nil
}
