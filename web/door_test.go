package web

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWebReachesDataOnlyThroughApp keeps package app the only door to the
// data: no package under web/ imports the store, database/sql or a
// database driver in its code (tests may build fixtures with them).
func TestWebReachesDataOnlyThroughApp(t *testing.T) {
	t.Parallel()
	forbidden := func(path string) bool {
		for _, p := range []string{"arbiter/sqlstore", "database/sql", "modernc.org/sqlite", "github.com/jackc/", "github.com/riverqueue/", "github.com/lib/pq"} {
			if path == p || strings.HasPrefix(path, p+"/") || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) {
				return true
			}
		}
		return false
	}
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if forbidden(p) {
				t.Errorf("web/%s imports %s: reach the data through package app", filepath.ToSlash(path), p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d files of package web; the walk missed them", files)
	}
	if !forbidden("arbiter/sqlstore") || !forbidden("database/sql/driver") || !forbidden("github.com/jackc/pgx/v5/stdlib") || forbidden("arbiter/app") {
		t.Fatal("the forbidden list does not say what it means")
	}
}
