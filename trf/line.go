package trf

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"arbiter"
)

// line gives column access to one input line. TRF columns count characters:
// a UTF-8 line is indexed by rune, anything else (Latin-1 files) by byte.
type line struct {
	num   int
	text  string
	runes []rune // nil in byte mode
}

func newLine(num int, text string) *line {
	l := &line{num: num, text: text}
	if utf8.ValidString(text) {
		l.runes = []rune(text)
	}
	return l
}

func (l *line) len() int {
	if l.runes != nil {
		return len(l.runes)
	}
	return len(l.text)
}

// raw returns columns from..to (1-based, inclusive), clipped to the line.
func (l *line) raw(from, to int) string {
	n := l.len()
	if to > n {
		to = n
	}
	if from < 1 {
		from = 1
	}
	if from > to {
		return ""
	}
	if l.runes != nil {
		return string(l.runes[from-1 : to])
	}
	return l.text[from-1 : to]
}

// field returns columns from..to trimmed of blanks.
func (l *line) field(from, to int) string { return trim(l.raw(from, to)) }

// rest returns everything from column from, trimmed.
func (l *line) rest(from int) string { return l.field(from, l.len()) }

// at returns the character in column c, or ' ' past the end.
func (l *line) at(c int) rune {
	if c < 1 || c > l.len() {
		return ' '
	}
	if l.runes != nil {
		return l.runes[c-1]
	}
	return rune(l.text[c-1])
}

func trim(s string) string { return strings.Trim(s, " \t") }

// firstNonBlank returns the column of the first non-blank character in
// from..to, or from.
func (l *line) firstNonBlank(from, to int) int {
	for c := from; c <= to && c <= l.len(); c++ {
		if r := l.at(c); r != ' ' && r != '\t' {
			return c
		}
	}
	return from
}

// blank requires columns cols to be spaces (separators between fields):
// a character there means the line is shifted and every field would be
// misread.
func (l *line) blank(name string, cols ...int) error {
	for _, c := range cols {
		if r := l.at(c); r != ' ' {
			return errorf(l.num, c, name, "column %d must be blank (found %q): fields are misaligned", c, r)
		}
	}
	return nil
}

// int reads an unsigned integer in from..to; blank reads as 0.
func (l *line) int(name string, from, to int) (int, error) {
	s := l.field(from, to)
	if s == "" {
		return 0, nil
	}
	return l.atoi(name, l.firstNonBlank(from, to), s)
}

func (l *line) atoi(name string, col int, s string) (int, error) {
	if len(s) > 9 || strings.Trim(s, "0123456789") != "" {
		return 0, errorf(l.num, col, name, "want a whole number, found %q", s)
	}
	n, _ := strconv.Atoi(s)
	return n, nil
}

// points reads a score such as "11.5" in from..to; blank reads as 0.
func (l *line) points(name string, from, to int) (arbiter.Points, error) {
	s := l.field(from, to)
	if s == "" {
		return 0, nil
	}
	return l.parsePoints(name, l.firstNonBlank(from, to), s)
}

func (l *line) parsePoints(name string, col int, s string) (arbiter.Points, error) {
	p, err := arbiter.ParsePoints(s)
	if err != nil || len(s) > 12 {
		return 0, errorf(l.num, col, name, "want a score such as 1.5, found %q", s)
	}
	if p > maxPoints || p < -maxPoints {
		return 0, errorf(l.num, col, name, "score %s out of range (at most %s in absolute value)", p, maxPoints)
	}
	return p, nil
}

// maxPoints bounds any score read: far above any real total, and small
// enough that the written form stays short.
const maxPoints = 999_999 * arbiter.Point

// token is a blank-separated word with its starting column.
type token struct {
	col int
	s   string
}

// tokens splits columns from.. on blanks (spaces and tabs).
func (l *line) tokens(from int) []token {
	var out []token
	start := 0
	for c := from; c <= l.len()+1; c++ {
		r := l.at(c)
		if c > l.len() || r == ' ' || r == '\t' {
			if start != 0 {
				out = append(out, token{start, l.raw(start, c-1)})
				start = 0
			}
			continue
		}
		if start == 0 {
			start = c
		}
	}
	return out
}

// ids reads blank-separated start numbers from column from.
func (l *line) ids(name string, from int) ([]int, error) {
	var out []int
	for _, t := range l.tokens(from) {
		n, err := l.atoi(name, t.col, t.s)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
