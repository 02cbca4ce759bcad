package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/app"
)

// auditPageSize is how many entries the audit page shows at once.
const auditPageSize = 50

type tdAuditData struct {
	Ev      arbiter.Event
	Here    string
	Kind    string
	Actor   string
	Record  string
	Entries []app.AuditEntry
	// Older is the "before" of the next page (0: this is the last).
	Older int64
}

// auditQuery reads the audit filters shared by the page and the API:
// kind, actor, record, and paging newest first with before (a seq) and
// limit.
type auditQuery struct {
	Filter app.AuditFilter
	Before int64
	Limit  int
}

func readAuditQuery(r *http.Request, defLimit int) (auditQuery, error) {
	q := r.URL.Query()
	aq := auditQuery{Filter: app.AuditFilter{Kind: strings.TrimSpace(q.Get("kind")), Actor: strings.ToLower(strings.TrimSpace(q.Get("actor"))), // stored lower-case, as app normalises users
		RecordID: strings.TrimSpace(q.Get("record"))}, Limit: defLimit}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return aq, arbiter.FieldError("before", "web.audit", "before must be a positive whole number (an entry's seq)")
		}
		aq.Before = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return aq, arbiter.FieldError("limit", "web.audit", "limit must be a whole number from 1 to 1000")
		}
		aq.Limit = n
	}
	return aq, nil
}

// newestFirst pages the log (oldest first, as app.Audit answers) newest
// first: the entries before aq.Before, at most aq.Limit of them, and the
// "before" of the next page (0 when there is none).
func newestFirst(log []app.AuditEntry, aq auditQuery) ([]app.AuditEntry, int64) {
	slices.Reverse(log)
	if aq.Before > 0 {
		i := slices.IndexFunc(log, func(e app.AuditEntry) bool { return e.Seq < aq.Before })
		if i < 0 {
			return nil, 0
		}
		log = log[i:]
	}
	if len(log) > aq.Limit {
		return log[:aq.Limit], log[aq.Limit-1].Seq
	}
	return log, 0
}

func (s *Server) tdAuditPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	aq, err := readAuditQuery(r, auditPageSize)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, arbiter.EINVALID, userMessage(err))
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD)
	log, err := s.app.Audit(r.Context(), a, ev.Slug, aq.Filter)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdAuditData{Ev: ev, Here: "audit", Kind: aq.Filter.Kind, Actor: aq.Filter.Actor, Record: aq.Filter.RecordID}
	d.Entries, d.Older = newestFirst(log, aq)
	s.render(w, r, http.StatusOK, "td_audit", page{Title: "Audit log: " + ev.Name, Nav: "home", Data: d})
}
