package app

import (
	"context"

	"arbiter"
	"arbiter/sqlstore"
)

// Mark is where an event's change log stands (see sqlstore.Latest): live
// pages and caches compare marks to learn that an event changed, whichever
// process changed it.
type Mark = sqlstore.Latest

// ParseMark reads a mark written by Mark.String.
func ParseMark(s string) (Mark, bool) { return sqlstore.ParseLatest(s) }

// EventMark is where the event (by its ID) stands now: one indexed query.
func (s *Service) EventMark(ctx context.Context, eventID string) (Mark, error) {
	return sqlstore.LatestChange(ctx, s.DB, eventID)
}

// EventID is the stored ID of the event with this slug (ENOTFOUND if none).
func (s *Service) EventID(ctx context.Context, slug string) (string, error) {
	row, err := sqlstore.GetEventBySlug(ctx, s.DB, slug)
	return row.ID, err
}

// AuditEntry is one entry of an event's audit log; AuditFilter selects
// entries (Audit).
type (
	AuditEntry  = sqlstore.AuditEntry
	AuditFilter = sqlstore.AuditFilter
)

// EventList is every event's name and status, newest first, without
// loading their plans (the home page's list).
func (s *Service) EventList(ctx context.Context) ([]arbiter.Event, error) {
	rows, err := sqlstore.ListEvents(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	out := make([]arbiter.Event, len(rows))
	for i, r := range rows {
		out[i] = arbiter.Event{ID: r.ID, Slug: r.Slug, Name: r.Name, Status: r.Status}
	}
	return out, nil
}
