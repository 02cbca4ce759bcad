package web

import (
	"net/url"
	"strconv"
)

// Long lists of the TD console are shown a page at a time, so that a
// crowded event (or a flood of reports) keeps the console small and fast.
// Each list has its own query parameter (?entrants=2&reports=3); the
// links keep the other lists' pages.

// Page sizes of the console's lists.
const (
	entrantsPerPage = 50
	reportsPerPage  = 20
	bansPerPage     = 50
)

// pager is one list's position, for the template's "pager" links.
type pager struct {
	Label       string // what the list holds, for the links' accessible names
	Page, Pages int    // 1-based
	First, Last int    // the items shown, 1-based
	Total       int
	Prev, Next  string // links ("" at the ends)
	Anchor      string // the list's section
}

// pageOf returns the items of page (1-based, clamped) of size, and the
// pager of the list named by param in query q.
func pageOf[T any](items []T, q url.Values, param, anchor, label string, size int) ([]T, pager) {
	p := pager{Label: label, Total: len(items), Pages: max(1, (len(items)+size-1)/size), Anchor: anchor}
	p.Page, _ = strconv.Atoi(q.Get(param))
	p.Page = min(max(p.Page, 1), p.Pages)
	lo, hi := (p.Page-1)*size, min(p.Page*size, len(items))
	p.First, p.Last = min(lo+1, hi), hi
	link := func(n int) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set(param, strconv.Itoa(n))
		return "?" + v.Encode() + "#" + anchor
	}
	if p.Page > 1 {
		p.Prev = link(p.Page - 1)
	}
	if p.Page < p.Pages {
		p.Next = link(p.Page + 1)
	}
	return items[lo:hi], p
}
