package lichess_test

import (
	"fmt"
	"strings"
)

// A small YAML reader for the bundled OpenAPI document (no allowed
// dependency parses YAML). It reads the block style the bundler writes:
// mappings, sequences ("- " items, also at their key's indentation),
// plain scalars over several lines, single- and double-quoted scalars
// over several lines, and the flow forms [] {} [a, b]. Scalars stay
// strings ("true", "300"); that is all the checks need.

type yamlLine struct {
	indent int
	text   string // without the indentation; "" for a blank line
	no     int
}

type yamlReader struct {
	lines []yamlLine
	i     int
}

func parseYAML(src string) (any, error) {
	r := &yamlReader{}
	for n, l := range strings.Split(src, "\n") {
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(t, "#") {
			t = ""
		}
		r.lines = append(r.lines, yamlLine{indent: len(l) - len(t), text: strings.TrimRight(t, " \r"), no: n + 1})
	}
	r.skipBlank()
	if r.i >= len(r.lines) {
		return nil, nil
	}
	v, err := r.node(r.lines[r.i].indent)
	r.skipBlank()
	if err == nil && r.i < len(r.lines) {
		err = fmt.Errorf("line %d: unexpected indentation", r.lines[r.i].no)
	}
	return v, err
}

func (r *yamlReader) skipBlank() {
	for r.i < len(r.lines) && r.lines[r.i].text == "" {
		r.i++
	}
}

// node reads the mapping or sequence whose lines start at indent.
func (r *yamlReader) node(indent int) (any, error) {
	r.skipBlank()
	l := r.lines[r.i]
	if l.text == "-" || strings.HasPrefix(l.text, "- ") {
		return r.seq(indent)
	}
	return r.mapping(indent)
}

func (r *yamlReader) seq(indent int) (any, error) {
	out := []any{}
	for r.skipBlank(); r.i < len(r.lines); r.skipBlank() {
		l := r.lines[r.i]
		if l.indent != indent || !(l.text == "-" || strings.HasPrefix(l.text, "- ")) {
			if l.indent > indent {
				return nil, fmt.Errorf("line %d: unexpected indentation in a sequence", l.no)
			}
			break
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(l.text, "-"), " ")
		switch {
		case rest == "":
			r.i++
			r.skipBlank()
			v, err := r.node(r.lines[r.i].indent)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		case isKey(rest):
			// "- key: value": a mapping whose first key sits after the dash.
			r.lines[r.i] = yamlLine{indent: indent + 2, text: rest, no: l.no}
			v, err := r.mapping(indent + 2)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		default:
			r.i++
			v, err := r.scalar(rest, indent)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", l.no, err)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

func (r *yamlReader) mapping(indent int) (any, error) {
	out := map[string]any{}
	for r.skipBlank(); r.i < len(r.lines); r.skipBlank() {
		l := r.lines[r.i]
		if l.indent < indent || strings.HasPrefix(l.text, "- ") && l.indent == indent {
			break
		}
		if l.indent > indent {
			return nil, fmt.Errorf("line %d: unexpected indentation in a mapping", l.no)
		}
		key, rest, ok := splitKey(l.text)
		if !ok {
			return nil, fmt.Errorf("line %d: want key: value, got %q", l.no, l.text)
		}
		r.i++
		if rest != "" {
			v, err := r.scalar(rest, indent)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", l.no, err)
			}
			out[key] = v
			continue
		}
		r.skipBlank()
		switch {
		case r.i >= len(r.lines):
			out[key] = nil
		case r.lines[r.i].indent > indent:
			v, err := r.node(r.lines[r.i].indent)
			if err != nil {
				return nil, err
			}
			out[key] = v
		case r.lines[r.i].indent == indent && strings.HasPrefix(r.lines[r.i].text, "- "):
			v, err := r.seq(indent)
			if err != nil {
				return nil, err
			}
			out[key] = v
		default:
			out[key] = nil
		}
	}
	return out, nil
}

// scalar reads a value that starts with first, continued on the lines
// indented more than parent (and blank lines between them).
func (r *yamlReader) scalar(first string, parent int) (any, error) {
	more := func() (string, bool) {
		if r.i < len(r.lines) && (r.lines[r.i].text == "" || r.lines[r.i].indent > parent) {
			r.i++
			return r.lines[r.i-1].text, true
		}
		return "", false
	}
	switch first[0] {
	case '\'', '"':
		q := first[0]
		raw := first
		for !closed(raw, q) {
			next, ok := more()
			if !ok {
				return nil, fmt.Errorf("unterminated quoted scalar")
			}
			raw += "\n" + next
		}
		return unquote(raw, q), nil
	case '[':
		if first == "[]" {
			return []any{}, nil
		}
		var out []any
		for _, item := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(first, "["), "]"), ",") {
			out = append(out, strings.Trim(strings.TrimSpace(item), `'"`))
		}
		return out, nil
	case '{':
		if first == "{}" {
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("flow mapping %q not supported", first)
	}
	s := first
	for {
		next, ok := more()
		if !ok {
			break
		}
		if next != "" {
			s += " " + next
		}
	}
	return s, nil
}

// closed reports whether raw (starting with the quote q) holds its
// closing quote.
func closed(raw string, q byte) bool {
	for i := 1; i < len(raw); i++ {
		switch {
		case q == '"' && raw[i] == '\\':
			i++
		case raw[i] == q && q == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			i++
		case raw[i] == q:
			return true
		}
	}
	return false
}

// unquote folds a quoted scalar: line breaks become spaces, blank lines
// newlines; ” and the common backslash escapes are undone.
func unquote(raw string, q byte) string {
	body := raw[1:strings.LastIndexByte(raw, q)]
	lines := strings.Split(body, "\n")
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			switch {
			case l == "":
				b.WriteString("\n")
				continue
			case q == '"' && strings.HasSuffix(lines[i-1], `\`):
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString(strings.TrimSuffix(l, `\`))
	}
	s := b.String()
	if q == '\'' {
		return strings.ReplaceAll(s, "''", "'")
	}
	return strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\\`, `\`, `\t`, "\t").Replace(s)
}

func isKey(s string) bool { _, _, ok := splitKey(s); return ok && s[0] != '[' && s[0] != '{' }

// splitKey splits "key: rest" or "key:" with a plain or quoted key.
func splitKey(s string) (key, rest string, ok bool) {
	if s[0] == '\'' || s[0] == '"' {
		end := strings.IndexByte(s[1:], s[0])
		for s[0] == '\'' && end >= 0 && end+2 < len(s) && s[end+2] == '\'' {
			next := strings.IndexByte(s[end+3:], '\'')
			if next < 0 {
				return "", "", false
			}
			end += next + 2
		}
		if end < 0 || !strings.HasPrefix(s[end+2:], ":") {
			return "", "", false
		}
		return unquote(s[:end+2], s[0]), strings.TrimSpace(s[end+3:]), true
	}
	if k, v, found := strings.Cut(s, ": "); found && !strings.ContainsAny(k, "'\"") {
		return k, strings.TrimSpace(v), true
	}
	if strings.HasSuffix(s, ":") && !strings.Contains(s, ": ") {
		return strings.TrimSuffix(s, ":"), "", true
	}
	return "", "", false
}
