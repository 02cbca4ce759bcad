package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"arbiter/sqlstore"
)

// TestDocHandles stores a document of every kind and reads it back by get
// and by list: a kind whose type keeps a Version must come back with the
// store's version both ways (list[BoardTeam] once returned 0, and the old
// kind switch missed BoardTeam, Replacement and TCGrace).
func TestDocHandles(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "docs", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		seen := map[string]bool{}
		err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			st, err := load(ctx, tx, "docs")
			if err != nil {
				return err
			}
			for _, k := range docKinds {
				if seen[k.kind] {
					t.Errorf("two handles of kind %q", k.kind)
				}
				seen[k.kind] = true
				got, listed, err := k.probe(ctx, tx, change(td, "test.probe", "", false), st, "probe")
				if err != nil {
					t.Errorf("%s: %v", k.kind, err)
					continue
				}
				f, ok := k.typ.FieldByName("Version")
				if !ok {
					continue
				}
				if f.Type.Kind() != reflect.Int64 {
					t.Errorf("%s: %s.Version is a %s, want int64", k.kind, k.typ, f.Type)
					continue
				}
				for how, v := range map[string]any{"get": got, "list": listed} {
					rv := reflect.ValueOf(v)
					if !rv.IsValid() {
						t.Errorf("%s read by %s: nothing", k.kind, how)
					} else if got := rv.FieldByIndex(f.Index).Int(); got != 1 {
						t.Errorf("%s read by %s: version %d, want 1 (the handle does not set %s.Version)", k.kind, how, got, k.typ)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestEveryKindHasAHandle reads app's sources: each kind constant has a
// handle, and only records.go calls the store's document functions, so
// no document is read without its version.
func TestEveryKindHasAHandle(t *testing.T) {
	t.Parallel()
	handles := map[string]bool{}
	for _, k := range docKinds {
		handles[k.kind] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if !strings.HasPrefix(id.Name, "kind") || i >= len(n.Values) {
						continue
					}
					if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if v, _ := strconv.Unquote(lit.Value); !handles[v] {
							t.Errorf("%s: document kind %s (%q) has no handle in records.go", fset.Position(id.Pos()), id.Name, v)
						}
					}
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "sqlstore" && name != "records.go" {
					switch n.Sel.Name {
					case "Get", "List", "Create", "Update", "Delete":
						t.Errorf("%s: sqlstore.%s outside records.go: use a document handle", fset.Position(n.Pos()), n.Sel.Name)
					}
				}
			}
			return true
		})
	}
}
