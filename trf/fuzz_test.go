package trf

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"arbiter/internal/testshared"
)

// FuzzParse checks that Parse never panics and that whatever parses is
// written and parsed back to the same File, and that writing is idempotent.
// Seeds: the small shared files and the lines of the table tests.
func FuzzParse(f *testing.F) {
	for _, dir := range [][]string{{"pairing-corpus", "extra"}, {"reference", "trf"}} {
		m, _ := filepath.Glob(testshared.Path(f, append(dir, "*.trf")...))
		for _, path := range m {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) <= 20_000 {
				f.Add(data)
			}
		}
	}
	for _, s := range []string{
		base,
		"012 x\r\nXXR 9\r\nXXC rank white1\r\nBBW  3.0\r\nBBF  0.5\r\nXXS FL=0.25 HPB=0.75",
		"142 7\r152 B\r162  W 3.0    D 1.0    A 0.5    P 1.5\r240 H   3   26   47\r250      01.0 001 003 0001 0024\r260   1   3    1    2    3",
		"310   1 India                            IND     2486   15.0   28.0  11     1    5   15   28   44\n320  2.0  4.0 011 009 006\n330 +-   4  23  33\n300   2   1   4   10    7 0000 0000\n013 Armenia                           16   56   38\n362 TW 3.0   TD 1.0",
		"XXP 1 7\nXXZ 3 9\nXXA    1  1.0  1.0  0.5\n### c\n132" + "                                                                                        24/12/01",
		"001    3 m    K\xe4ding, Taro                      1944 GER    34679880 2008/00/00 -.75    4    11 b 1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(bytes.NewReader(data))
		if err != nil {
			if file != nil {
				t.Fatal("file returned with an error")
			}
			return
		}
		var out bytes.Buffer
		if err := file.Write(&out); err != nil {
			t.Fatalf("Write of a parsed file: %v", err)
		}
		again, err := Parse(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("re-Parse: %v\ninput %q\noutput %q", err, data, out.Bytes())
		}
		if d := diffFiles(file, again); d != "" {
			t.Fatalf("round trip differs:\n%s\ninput %q\noutput %q", d, data, out.Bytes())
		}
		var out2 bytes.Buffer
		if err := again.Write(&out2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("second write differs:\n%q\n%q", out.Bytes(), out2.Bytes())
		}
	})
}
