package browsertest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The screenshots of docs/screenshots.md. Not part of the normal run:
//
//	go test ./web/browsertest/ -run TestScreenshots -screenshots ../../docs/screenshots
//
// (the directory is relative to web/browsertest). They show the demo
// events of `arbiter serve --demo` at a fixed clock, so a run on the same
// code gives the same pictures.
var shotsDir = flag.String("screenshots", "", "write the screenshots of docs/screenshots.md into this directory")

// shotPages are the pages shown, with who looks at them.
var shotPages = []struct{ name, who string }{
	{"event", "visitor"}, {"standings", "visitor"}, {"round", "visitor"}, {"match", "captain"}, {"console", "td"},
}

func TestScreenshots(t *testing.T) {
	if *shotsDir == "" {
		t.Skip("no -screenshots directory: the screenshots are made on demand (docs/screenshots.md)")
	}
	noErr(t, os.MkdirAll(*shotsDir, 0o755))
	d := newDemoSite(t)
	d.App.SetOddsSims(0) // the standings show the simulation production runs
	tabs := map[string]*tab{"visitor": d.tab(t, "visitor", ""), "captain": d.tab(t, "captain", ""), "td": d.tab(t, "td", "")}
	tabs["captain"].signInDemo(d.captain, "/me")
	tabs["td"].signInTD("/")
	total := 0
	for _, p := range shotPages {
		b := tabs[p.who]
		for _, dark := range []bool{false, true} {
			for _, phone := range []bool{true, false} {
				b.window(phone, dark)
				if !phone {
					b.do("desktop window", chromedp.EmulateViewport(1100, 760))
				}
				b.goTo(d.pages[p.name])
				// The live updates' connection and the local times settle.
				time.Sleep(300 * time.Millisecond)
				raw := b.capture()
				out, err := shrinkPNG(raw)
				noErr(t, err)
				name := fmt.Sprintf("%s-%s-%s.png", p.name, map[bool]string{true: "phone", false: "desktop"}[phone], map[bool]string{false: "light", true: "dark"}[dark])
				noErr(t, os.WriteFile(filepath.Join(*shotsDir, name), out, 0o644))
				total += len(out)
				t.Logf("%s: %d KB", name, len(out)/1024)
			}
		}
	}
	t.Logf("%d screenshots, %d KB in all", 2*2*len(shotPages), total/1024)
}

// capture is a PNG of the window (not the whole page: a console is
// thousands of pixels long, and the top of each page is what it is about).
func (b *tab) capture() []byte {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("%s: screenshot: %v", b.name, err)
	}
	return png
}

// shrinkPNG re-encodes a screenshot with a palette of its 256 most used
// colours (a page is mostly a few flat colours and the anti-aliasing of
// its text) at the best compression: a tenth of the size, and the pictures
// stay sharp.
func shrinkPNG(raw []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	r := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			counts[rgba(img.At(x, y))]++
		}
	}
	cs := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		if counts[cs[i]] != counts[cs[j]] {
			return counts[cs[i]] > counts[cs[j]]
		}
		a, b := cs[i], cs[j]
		return uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B) < uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B)
	})
	if len(cs) > 256 {
		cs = cs[:256]
	}
	pal := make(color.Palette, len(cs))
	for i, c := range cs {
		pal[i] = c
	}
	out := image.NewPaletted(r, pal)
	nearest := map[color.RGBA]uint8{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := rgba(img.At(x, y))
			i, ok := nearest[c]
			if !ok {
				i = uint8(pal.Index(c))
				nearest[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func rgba(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
}
