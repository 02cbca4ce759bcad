package arbiter_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRuleCoverageCitesRealTests keeps docs/rule-coverage.md honest: every
// test it cites as proof of a clause (`pkg.TestName` or
// `pkg.TestName/subtest`) must exist in that package, so renaming or
// deleting a test without updating the page fails CI. Running the cited
// tests is the page's own "How to re-check" script; this only checks names.
func TestRuleCoverageCitesRealTests(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "rule-coverage.md"))
	if err != nil {
		t.Fatal(err)
	}
	cites := regexp.MustCompile("`([a-z][a-z/]*)\\.(Test[A-Za-z0-9_]*)(/[^`]*)?`").FindAllStringSubmatch(string(doc), -1)
	if len(cites) < 100 {
		t.Fatalf("found %d cited tests; the pattern no longer matches the page", len(cites))
	}
	sources := map[string]string{} // package dir -> its test files, concatenated
	for _, c := range cites {
		pkg, name := c[1], c[2]
		src, ok := sources[pkg]
		if !ok {
			files, _ := filepath.Glob(filepath.Join(filepath.FromSlash(pkg), "*_test.go"))
			var b strings.Builder
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(data)
			}
			src = b.String()
			sources[pkg] = src
		}
		if src == "" {
			t.Errorf("%s.%s: package %s has no tests", pkg, name, pkg)
			continue
		}
		if !strings.Contains(src, "func "+name+"(") {
			t.Errorf("docs/rule-coverage.md cites %s.%s, which does not exist", pkg, name)
		}
	}
}
