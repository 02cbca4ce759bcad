package app

import (
	"strings"
	"sync"

	"arbiter/format"
)

// Every use case loads its event (load) and with it the event's stored
// format, whose parse (strict JSON twice, then Validate) cost more than
// the rest of a typical read: about a fifth of the web tests' CPU. Equal
// texts parse to equal formats, so parses are kept by the text itself,
// not by event or version: a format changed in the store is new text and
// a new entry, and no entry can be stale.
//
// The *format.Format handed out is shared by every caller and goroutine,
// so it is read-only: nothing outside package format writes into a
// Format, a Stage, a Match or a Part (an audit of every assignment,
// append, sort and address-of into a format value, Dec 2026, found
// only reads), and format's own methods other than the decoder and
// Validate (run before an entry is kept) only read.
//
// At most formatCacheSize texts are kept; beyond that the cache starts
// over, so custom formats uploaded without end cannot grow memory.

const formatCacheSize = 64

var formatCache struct {
	mu sync.Mutex
	by map[string]*format.Format
}

// loadFormat parses a stored format text, or returns the format parsed
// from the same text before. The result must not be modified.
func loadFormat(text []byte) (*format.Format, error) {
	formatCache.mu.Lock()
	f, ok := formatCache.by[string(text)]
	formatCache.mu.Unlock()
	if ok {
		return f, nil
	}
	key := string(text)
	f, err := format.Load(strings.NewReader(key))
	if err != nil {
		return nil, err // not kept: a text that fails is rare and fails again the same way
	}
	formatCache.mu.Lock()
	if len(formatCache.by) >= formatCacheSize || formatCache.by == nil {
		formatCache.by = make(map[string]*format.Format, formatCacheSize)
	}
	formatCache.by[key] = f
	formatCache.mu.Unlock()
	return f, nil
}
