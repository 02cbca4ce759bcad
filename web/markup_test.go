package web

import (
	"regexp"
	"strings"
	"testing"
)

// voidElements have no closing tag.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

var tagRE = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>`)

// checkBalanced reports the first tag that is closed out of order or
// left open: every page is well nested, so browsers and screen readers
// see the structure the template meant.
func checkBalanced(body string) string {
	var stack []string
	for _, m := range tagRE.FindAllStringSubmatch(body, -1) {
		closing, name := m[1] == "/", strings.ToLower(m[2])
		if voidElements[name] {
			continue
		}
		if !closing {
			stack = append(stack, name)
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1] != name {
			return "unexpected </" + name + "> with open " + strings.Join(stack, ">")
		}
		stack = stack[:len(stack)-1]
	}
	if len(stack) > 0 {
		return "left open: " + strings.Join(stack, ">")
	}
	return ""
}

var (
	inlineStyleRE   = regexp.MustCompile(`\sstyle=`)
	inlineHandlerRE = regexp.MustCompile(`\son[a-z]+=`)
	inlineScriptRE  = regexp.MustCompile(`<script(\s[^>]*)?>`)
)

// TestPagesWellFormedAndCSPClean renders every page (and error page) and
// checks that the markup nests, that nothing the CSP would block is there
// (inline styles, inline scripts, event handler attributes), and that
// each page has exactly one h1 and one main landmark.
func TestPagesWellFormedAndCSPClean(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	for _, p := range []string{
		"/", "/formats", "/formats/acwc-2023", "/formats/acwc-2023?entrants=40", "/formats/antichess-team-cup?entrants=12",
		"/formats/rkcc-team-three-tc?entrants=8", "/formats/acwc-2023?entrants=x", "/formats/antichess-team-cup?entrants=3",
		"/events/atc", "/events/atc/standings", "/events/atc/standings?stage=2", "/nope", "/events/atc/standings?stage=9",
	} {
		_, body := f.do(t, "GET", p)
		if msg := checkBalanced(body); msg != "" {
			t.Errorf("%s: %s", p, msg)
		}
		if inlineStyleRE.MatchString(body) || inlineHandlerRE.MatchString(body) {
			t.Errorf("%s: inline style or event handler", p)
		}
		for _, m := range inlineScriptRE.FindAllString(body, -1) {
			if !strings.Contains(m, ` src="/static/`) {
				t.Errorf("%s: inline or foreign script %s", p, m)
			}
		}
		if strings.Count(body, "<h1") != 1 || strings.Count(body, "<main") != 1 {
			t.Errorf("%s: want one h1 and one main", p)
		}
	}
}

func TestCheckBalancedCatchesErrors(t *testing.T) {
	t.Parallel()
	for body, bad := range map[string]bool{
		"<div><p>x</p></div>":           false,
		"<div><input name=a><br></div>": false,
		"<div><p>x</div></p>":           true,
		"<table><tr><td>x</td></tr>":    true,
		"</span>":                       true,
	} {
		if got := checkBalanced(body) != ""; got != bad {
			t.Errorf("%q: reported %v, want %v", body, got, bad)
		}
	}
}

// checkPage checks the markup rules every page keeps: balanced tags,
// nothing the CSP blocks, one h1 and one main, a label for every control.
func checkPage(t *testing.T, target, body string) {
	t.Helper()
	if msg := checkBalanced(body); msg != "" {
		t.Errorf("%s: %s", target, msg)
	}
	if inlineStyleRE.MatchString(body) || inlineHandlerRE.MatchString(body) {
		t.Errorf("%s: inline style or event handler", target)
	}
	for _, m := range inlineScriptRE.FindAllString(body, -1) {
		if !strings.Contains(m, ` src="/static/`) {
			t.Errorf("%s: inline script %s", target, m)
		}
	}
	if strings.Count(body, "<h1") != 1 || strings.Count(body, "<main") != 1 {
		t.Errorf("%s: want one h1 and one main", target)
	}
	// Every input, select and textarea has its label.
	for _, m := range inputIDRE.FindAllStringSubmatch(body, -1) {
		if m[1] == "hidden" {
			continue
		}
		if !strings.Contains(body, `for="`+m[2]+`"`) {
			t.Errorf("%s: control #%s has no label", target, m[2])
		}
	}
}

var inputIDRE = regexp.MustCompile(`<(?:input|select|textarea)(?: type="([a-z-]+)")? id="([^"]+)"`)
