package arbiter_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// engines are the pure packages (with every package under them): they
// take plain domain inputs and do no I/O. File formats (trf, resultsfile,
// export), Lichess (lichess), storage, app, web and the binary are
// adapters around them.
var engines = []string{"format", "score", "standings", "ranking", "pairing", "odds", "calendar", "negotiation",
	"lineup", "armageddon", "sanction", "eligibility"}

// engineIOImports are standard packages an engine must not use: it gets
// readers, writers and the time from its caller.
var engineIOImports = map[string]bool{"os": true, "os/exec": true, "net": true, "net/http": true,
	"database/sql": true, "log": true, "log/slog": true}

// TestEnginesImportNoAdapter keeps the layering of DEVELOPERS.md true: an
// engine imports only the standard library (nothing that does I/O), the
// root package arbiter and other engines, never an adapter such as trf,
// lichess, export or resultsfile. Tests may (reference data comes as TRF).
func TestEnginesImportNoAdapter(t *testing.T) {
	t.Parallel()
	isEngine := func(path string) bool {
		for _, e := range engines {
			if path == "arbiter/"+e || strings.HasPrefix(path, "arbiter/"+e+"/") {
				return true
			}
		}
		return path == "arbiter"
	}
	checked := 0
	for _, root := range engines {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == "testdata" {
				if err == nil {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			checked++
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				first, _, _ := strings.Cut(p, "/")
				switch {
				case first == "arbiter" && !isEngine(p):
					t.Errorf("%s imports %s: an engine takes plain domain inputs; convert in the adapter", path, p)
				case first != "arbiter" && strings.Contains(first, "."):
					t.Errorf("%s imports %s: engines use the standard library only", path, p)
				case engineIOImports[p]:
					t.Errorf("%s imports %s: engines do no I/O", path, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d engine files", checked)
	}
}
