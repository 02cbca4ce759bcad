package web

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// The bracket's geometry, in SVG user units: one column per round, each
// position a box of two lines, connectors from two positions to the one
// their winners meet in.
const (
	svgColW   = 220 // a position's width
	svgGapX   = 40  // between columns, where the connectors run
	svgLineH  = 24  // one side's line
	svgPitch  = 64  // vertical room per first-round position
	svgTop    = 32  // room for the round names
	svgMargin = 4
	svgMaxLen = 24 // longer names are cut with an ellipsis
)

// bracketSVG draws the bracket as an inline SVG. It carries no style
// attribute (the CSP forbids them): classes styled in public.css and
// presentation attributes only. Every element is closed explicitly so
// that the page's markup stays balanced.
func bracketSVG(b *bracketView) template.HTML {
	if len(b.Rounds) == 0 {
		return ""
	}
	first := 0
	for _, m := range b.Rounds[0].Matches {
		if !m.ThirdPlace {
			first++
		}
	}
	third := false
	for _, m := range b.Rounds[len(b.Rounds)-1].Matches {
		third = third || m.ThirdPlace
	}
	width := svgMargin*2 + len(b.Rounds)*svgColW + (len(b.Rounds)-1)*svgGapX
	height := svgTop + first*svgPitch + svgMargin
	if third {
		height += svgPitch + svgTop
	}
	var w strings.Builder
	fmt.Fprintf(&w, `<svg class="bracket" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="bracket-title">`,
		width, height, width, height)
	w.WriteString(`<title id="bracket-title">Knockout bracket; the table of matches below gives the same results as text</title>`)
	colX := func(ri int) int { return svgMargin + ri*(svgColW+svgGapX) }
	// centre is the middle of position slot (1-based) in round ri: each
	// round's positions sit halfway between the two that feed them.
	centre := func(ri, slot int) int {
		span := svgPitch << ri
		return svgTop + span*(slot-1) + span/2
	}
	for ri, rd := range b.Rounds {
		x := colX(ri)
		fmt.Fprintf(&w, `<text class="round-name" x="%d" y="%d" text-anchor="middle">%s</text>`, x+svgColW/2, svgTop-12, esc(rd.Name))
		for _, m := range rd.Matches {
			cy := centre(ri, m.Slot)
			if m.ThirdPlace {
				cy = svgTop + first*svgPitch + svgTop + svgPitch/2
				fmt.Fprintf(&w, `<text class="round-name" x="%d" y="%d" text-anchor="middle">Third place</text>`, x+svgColW/2, cy-svgLineH-12)
			} else if ri > 0 {
				// Connectors from the two feeding positions.
				px := colX(ri-1) + svgColW
				mx := px + svgGapX/2
				for _, feeder := range []int{2*m.Slot - 1, 2 * m.Slot} {
					fmt.Fprintf(&w, `<path class="link" d="M%d %dH%dV%dH%d" fill="none"></path>`, px, centre(ri-1, feeder), mx, cy, x)
				}
			}
			svgPosition(&w, x, cy-svgLineH, m)
		}
	}
	w.WriteString(`</svg>`)
	return template.HTML(w.String())
}

// svgPosition draws one position: two lines, the winner's marked.
func svgPosition(w *strings.Builder, x, y int, m bracketMatch) {
	cls := "position"
	if m.Match == "" {
		cls += " unpaired"
	}
	fmt.Fprintf(w, `<g class="%s">`, cls)
	for i, sd := range []bracketSide{m.Home, m.Away} {
		ly := y + i*svgLineH
		lc := "side"
		switch {
		case sd.Winner:
			lc += " winner"
		case sd.ID == "":
			lc += " tbd"
		}
		fmt.Fprintf(w, `<rect class="%s" x="%d" y="%d" width="%d" height="%d"></rect>`, lc, x, ly, svgColW, svgLineH)
		name := sd.Name
		if sd.Seed > 0 {
			name = fmt.Sprintf("%d. %s", sd.Seed, name)
		}
		fmt.Fprintf(w, `<text class="%s" x="%d" y="%d">%s</text>`, lc, x+8, ly+16, esc(cut(name, svgMaxLen)))
		if sd.Score != "" {
			fmt.Fprintf(w, `<text class="%s score" x="%d" y="%d" text-anchor="end">%s</text>`, lc, x+svgColW-8, ly+16, esc(sd.Score))
		}
	}
	fmt.Fprintf(w, `<rect class="frame" x="%d" y="%d" width="%d" height="%d" fill="none"></rect>`, x, y, svgColW, 2*svgLineH)
	w.WriteString(`</g>`)
}

func esc(s string) string { return html.EscapeString(s) }

// cut shortens s to n runes with an ellipsis.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
