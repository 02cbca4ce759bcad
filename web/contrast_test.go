package web

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The palette of static/style.css, light and dark, against WCAG 2.1 AA:
// 4.5:1 for text on every background it is written on, 3:1 for what is
// not text but must be seen (the focus outline, field borders, SC 1.4.11).

var varRE = regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})`)

// palettes reads the light :root variables and the dark ones of the
// prefers-color-scheme: dark block.
func palettes(t *testing.T) (light, dark map[string]string) {
	t.Helper()
	b, err := os.ReadFile("static/style.css")
	if err != nil {
		t.Fatal(err)
	}
	css := string(b)
	i := strings.Index(css, "@media (prefers-color-scheme: dark)")
	if i < 0 {
		t.Fatal("style.css has no dark palette")
	}
	read := func(s string) map[string]string {
		m := map[string]string{}
		for _, v := range varRE.FindAllStringSubmatch(s, -1) {
			if _, seen := m[v[1]]; !seen {
				m[v[1]] = v[2]
			}
		}
		return m
	}
	light = read(css[:i])
	end := strings.Index(css[i:], "\n}\n")
	dark = read(css[i : i+end])
	return light, dark
}

// luminance is WCAG 2.1's relative luminance of an sRGB colour "#rrggbb".
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 7 {
		t.Fatalf("colour %q", hex)
	}
	ch := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(v>>16&0xff) + 0.7152*ch(v>>8&0xff) + 0.0722*ch(v&0xff)
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func TestContrastFormula(t *testing.T) {
	t.Parallel()
	// WCAG's own extremes and a known pair: black on white is 21:1,
	// #767676 on white the lightest grey that passes AA (4.54:1).
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#000000", "#ffffff", 21}, {"#767676", "#ffffff", 4.54}, {"#ffffff", "#ffffff", 1}} {
		if got := contrast(t, c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.2f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

func TestPaletteContrast(t *testing.T) {
	t.Parallel()
	light, dark := palettes(t)
	// Text colours and every background the pages write them on.
	texts := []string{"text", "muted", "link", "error"}
	backgrounds := []string{"bg", "band", "ok-bg", "err-bg", "win-bg", "loss-bg", "draw-bg"}
	for name, pal := range map[string]map[string]string{"light": light, "dark": dark} {
		need := func(fg, bg string, min float64) {
			f, okf := pal[fg]
			b, okb := pal[bg]
			if !okf || !okb {
				t.Errorf("%s palette lacks --%s or --%s", name, fg, bg)
				return
			}
			if r := contrast(t, f, b); r < min {
				t.Errorf("%s: --%s %s on --%s %s is %.2f:1, want at least %.1f:1", name, fg, f, bg, b, r, min)
			}
		}
		for _, fg := range texts {
			for _, bg := range backgrounds {
				need(fg, bg, 4.5)
			}
		}
		need("on-link", "link", 4.5) // a button's label
		need("text", "line", 1)      // (the line is decoration only)
		for _, bg := range []string{"bg", "band"} {
			need("focus", bg, 3)
			need("field", bg, 3)
			need("bar", bg, 3)
			need("bar-certain", bg, 3)
		}
		need("ok-line", "ok-bg", 3)
		need("err-line", "err-bg", 3)
	}
	if len(light) != len(dark) {
		t.Errorf("light palette has %d colours, dark %d: each needs both", len(light), len(dark))
	}
}
