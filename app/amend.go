package app

import (
	"context"

	"arbiter"
	"arbiter/sqlstore"
)

// amendAsTD is the shape of the TDs' follow-up decisions on a record
// (lifting a forbidden pairing, a list of separated players or a ban,
// closing a report): in one transaction it loads the event, requires a
// TD of it (what names the action for the refusal), reads the record,
// lets edit change it and name the audit entry, and stores it.
func amendAsTD[T any](ctx context.Context, s *Service, a arbiter.Actor, slug string, d doc[T], id, what string, edit func(v *T) (sqlstore.Change, error)) (T, error) {
	var v T
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, what); err != nil {
			return err
		}
		var version int64
		if v, version, err = d.read(ctx, tx, st.row.ID, id); err != nil {
			return err
		}
		ch, err := edit(&v)
		if err != nil {
			return err
		}
		if version, err = d.update(ctx, tx, ch, st, id, version, v); err != nil {
			return err
		}
		d.set(&v, version)
		return nil
	})
	return v, err
}
