package app

import (
	"context"
	"time"

	"arbiter/sqlstore"
)

// Lease takes or renews the lease name for holder (one process) for ttl,
// and tells whether holder holds it: a job that must run in one process at
// a time, such as the deadline scheduler, runs only while its process
// holds the job's lease (sqlstore.TryLease). The clock is the service's.
func (s *Service) Lease(ctx context.Context, name, holder string, ttl time.Duration) (bool, error) {
	return sqlstore.TryLease(ctx, s.DB, name, holder, s.now(), ttl)
}

// ReleaseLease gives holder's lease up, so that another process may take
// the job over at once rather than after the lease expires.
func (s *Service) ReleaseLease(ctx context.Context, name, holder string) error {
	return sqlstore.ReleaseLease(ctx, s.DB, name, holder)
}
