package arbiter

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Checks of free text and names that users type. They live here, once, so
// that every entry point (app's use cases, the web forms and API, the CLI)
// applies the same rules; each returns an EINVALID error naming the field
// and the rule ("text.name", "text.free", "lichess.username", "date.window").

// Length bounds, in characters, of the text fields people type.
const (
	MaxName   = 100  // event, team and other names shown in lists
	MaxReason = 1000 // a TD's reason, a dispute, an appeal, an outcome note
	MaxText   = 4000 // a report to the TDs
)

// hiddenRune reports whether r is invisible or changes how the text around
// it is laid out: control characters, format characters (the bidirectional
// overrides and isolates such as U+202E, zero-width spaces and joiners, the
// byte-order mark, soft hyphens), line and paragraph separators, and
// non-characters. A name holding one can pose as another name (U+202E
// shows "txt.exe" as "exe.txt") or look empty.
func hiddenRune(r rune) bool {
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		r == utf8.RuneError || r&0xFFFE == 0xFFFE || r >= 0xFDD0 && r <= 0xFDEF
}

// bidiRune reports whether r is one of the bidirectional embeddings,
// overrides, isolates or marks (U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069): they may reorder what a reader sees.
func bidiRune(r rune) bool {
	return r == 0x061C || r == 0x200E || r == 0x200F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// CleanName checks a name (of an event, a team, ...) and returns it with
// surrounding white space removed. It refuses an empty name or one of
// spaces only, invalid UTF-8, control, invisible and direction-changing
// characters (hiddenRune), and more than max characters.
func CleanName(field, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s):
		return "", FieldError(field, "text.name", "the name is not valid UTF-8 text")
	case s == "" || strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || hiddenRune(r) }) == "":
		return "", FieldError(field, "text.name", "the name is empty")
	case utf8.RuneCountInString(s) > max:
		return "", FieldError(field, "text.name", "a name has at most %d characters, this one %d", max, utf8.RuneCountInString(s))
	}
	if i := strings.IndexFunc(s, hiddenRune); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return "", FieldError(field, "text.name", "the name holds an invisible or control character (U+%04X)", r)
	}
	return s, nil
}

// CleanText checks free text (a reason, a report) and returns it trimmed,
// with line ends as "\n". Line breaks and tabs are allowed; other control
// characters, the bidirectional controls (bidiRune), invalid UTF-8 and more
// than max characters are refused. Empty text is allowed: the caller says
// when text is required.
func CleanText(field, s string, max int) (string, error) {
	if !utf8.ValidString(s) {
		return "", FieldError(field, "text.free", "the text is not valid UTF-8")
	}
	s = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"))
	if n := utf8.RuneCountInString(s); n > max {
		return "", FieldError(field, "text.free", "at most %d characters, this text has %d", max, n)
	}
	if i := strings.IndexFunc(s, func(r rune) bool {
		return r != '\n' && r != '\t' && (unicode.Is(unicode.Cc, r) || bidiRune(r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r))
	}); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return "", FieldError(field, "text.free", "the text holds a control or direction-changing character (U+%04X)", r)
	}
	return s, nil
}

// CheckLichessUsername checks a name against Lichess's own rule for
// usernames: 2 to 30 characters, letters, digits, '_' and '-', starting
// with a letter or digit.
func CheckLichessUsername(field, s string) error {
	if len(s) < 2 || len(s) > 30 {
		return FieldError(field, "lichess.username", "a Lichess username has 2 to 30 characters, not %d", utf8.RuneCountInString(s))
	}
	for i, r := range s {
		letterOrDigit := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !letterOrDigit && (i == 0 || r != '_' && r != '-') {
			return FieldError(field, "lichess.username", "%q is not a Lichess username (letters, digits, '_' and '-', starting with a letter or digit)", clip(s, 40))
		}
	}
	return nil
}

// DateWindow is how far from now a date people give (an event's start, a
// deadline, a proposed time) may lie. Beyond it a date is a typo (year
// 0000, 1970, 9999), and dates near the ends of what time.Time can write as
// JSON would fail later instead of now.
const DateWindow = 10 * 365 * 24 * time.Hour

// CheckDate refuses a zero date and one more than DateWindow before or
// after now.
func CheckDate(field string, t, now time.Time) error {
	if t.IsZero() {
		return FieldError(field, "date.window", "no date given")
	}
	if t.Before(now.Add(-DateWindow)) || t.After(now.Add(DateWindow)) {
		return FieldError(field, "date.window", "%s is not within ten years of today", t.UTC().Format("2006-01-02"))
	}
	return nil
}

// clip shortens s for an error message, so that a huge input is not
// echoed back whole.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// Count writes a count with its noun agreeing, "1 round", "3 rounds":
// user-facing text never writes "round(s)". A noun with an irregular
// plural gives it: Count(n, "match", "matches").
func Count(n int, one string, many ...string) string {
	w := one
	if n != 1 {
		w = one + "s"
		if len(many) > 0 {
			w = many[0]
		}
	}
	return strconv.Itoa(n) + " " + w
}
