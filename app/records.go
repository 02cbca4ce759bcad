package app

import (
	"context"
	"reflect"

	"arbiter"
	"arbiter/sqlstore"
)

// doc is the typed handle of one document kind in the store: its kind
// name and where its Go type keeps the store's version. Every read and
// write of an event's documents goes through a handle, so a document read
// always carries its version (an update with it is safe against a
// concurrent change) and a new kind cannot be added without saying where
// its version goes: newDoc takes the accessor, and TestDocHandles checks
// every handle against its type.
type doc[T any] struct {
	kind string
	// version points at the document's Version field; nil for documents
	// that keep none (their callers use read to get it).
	version func(*T) *int64
}

// docKind is a handle as the tests see it, whatever its type.
type docKind struct {
	kind  string
	typ   reflect.Type
	probe func(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change, st *state, id string) (got, listed any, err error)
}

// docKinds lists every handle made by newDoc.
var docKinds []docKind

func newDoc[T any](kind string, version func(*T) *int64) doc[T] {
	d := doc[T]{kind: kind, version: version}
	docKinds = append(docKinds, docKind{kind: kind, typ: reflect.TypeFor[T](), probe: d.probe})
	return d
}

// The document kinds of an event, each with its handle.
var (
	docEvent    = newDoc(kindEvent, func(d *arbiter.Event) *int64 { return &d.Version })
	docOfficial = newDoc[arbiter.Official](kindOfficial, nil)
	docEntrant  = newDoc(kindEntrant, func(d *arbiter.Entrant) *int64 { return &d.Version })
	docRound    = newDoc(kindRound, func(d *arbiter.Round) *int64 { return &d.Version })
	docMatch    = newDoc(kindMatch, func(d *arbiter.Match) *int64 { return &d.Version })
	docReport   = newDoc(kindReport, func(d *arbiter.Report) *int64 { return &d.Version })
	docAppeal   = newDoc(kindAppeal, func(d *arbiter.Appeal) *int64 { return &d.Version })
	docSanction = newDoc(kindSanction, func(d *arbiter.Sanction) *int64 { return &d.Version })

	docArmageddon        = newDoc(kindArmageddon, func(d *Armageddon) *int64 { return &d.Version })
	docBan               = newDoc(kindBan, func(d *Ban) *int64 { return &d.Version })
	docBoards            = newDoc(kindBoards, func(d *BoardTeam) *int64 { return &d.Version })
	docChallonge         = newDoc(kindChallonge, func(d *ChallongeLink) *int64 { return &d.Version })
	docCheatReport       = newDoc(kindCheatReport, func(d *CheatReport) *int64 { return &d.Version })
	docEligibility       = newDoc(kindEligibility, func(d *EligibilityCheck) *int64 { return &d.Version })
	docForbidden         = newDoc(kindForbidden, func(d *Forbidden) *int64 { return &d.Version })
	docJobRetry          = newDoc[JobRetry](kindJobRetry, nil)
	docLichessImport     = newDoc(kindLichessImport, func(d *LichessImport) *int64 { return &d.Version })
	docLineup            = newDoc(kindLineup, func(d *Lineups) *int64 { return &d.Version })
	docMatchGames        = newDoc(kindMatchGames, func(d *MatchGames) *int64 { return &d.Version })
	docNegotiation       = newDoc(kindNegotiation, func(d *Negotiation) *int64 { return &d.Version })
	docOptOut            = newDoc[bool](kindOptOut, nil)
	docOutbox            = newDoc(kindOutbox, func(d *Outbox) *int64 { return &d.Version })
	docPairingEdit       = newDoc[PairingEdit](kindPairingEdit, nil)
	docRatings           = newDoc(kindRatings, func(d *EntrantRatings) *int64 { return &d.Version })
	docRatingsRefresh    = newDoc(kindRatingsRefresh, func(d *RatingsRefresh) *int64 { return &d.Version })
	docReplacement       = newDoc(kindReplacement, func(d *Replacement) *int64 { return &d.Version })
	docSeparated         = newDoc(kindSeparated, func(d *Separated) *int64 { return &d.Version })
	docTCGrace           = newDoc(kindTCGrace, func(d *TCGrace) *int64 { return &d.Version })
	docTeamPost          = newDoc(kindTeamPost, func(d *TeamPost) *int64 { return &d.Version })
	docTeamCheck         = newDoc(kindTeamCheck, func(d *TeamCheck) *int64 { return &d.Version })
	docVerification      = newDoc(kindVerification, func(d *MatchVerification) *int64 { return &d.Version })
	docWebhookRedelivery = newDoc[WebhookRedelivery](kindWebhookRedelivery, nil)
)

func (d doc[T]) set(v *T, version int64) {
	if d.version != nil {
		*d.version(v) = version
	}
}

// read returns the document of event eventID with its version (also set
// in the document when it keeps one).
func (d doc[T]) read(ctx context.Context, q sqlstore.Queryer, eventID, id string) (T, int64, error) {
	v, version, err := sqlstore.Get[T](ctx, q, eventID, d.kind, id)
	if err == nil {
		d.set(&v, version)
	}
	return v, version, err
}

// get returns the event's document id; a missing one is ENOTFOUND.
func (d doc[T]) get(ctx context.Context, q sqlstore.Queryer, st *state, id string) (T, error) {
	v, _, err := d.read(ctx, q, st.row.ID, id)
	return v, err
}

// records lists the documents of event eventID with their versions, by id.
func (d doc[T]) records(ctx context.Context, q sqlstore.Queryer, eventID string) ([]sqlstore.Record[T], error) {
	recs, err := sqlstore.List[T](ctx, q, eventID, d.kind)
	for i := range recs {
		d.set(&recs[i].Value, recs[i].Version)
	}
	return recs, err
}

// list returns the event's documents of this kind, by id.
func (d doc[T]) list(ctx context.Context, q sqlstore.Queryer, st *state) ([]T, error) {
	recs, err := d.records(ctx, q, st.row.ID)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(recs))
	for i, r := range recs {
		out[i] = r.Value
	}
	return out, nil
}

// create stores v as the event's new document id and returns its version.
func (d doc[T]) create(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change, st *state, id string, v T) (int64, error) {
	return d.createIn(ctx, tx, ch, st.row.ID, id, v)
}

func (d doc[T]) createIn(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change, eventID, id string, v T) (int64, error) {
	return sqlstore.Create(ctx, tx, ch, eventID, d.kind, id, v)
}

// update replaces the document id if it is still at version expected and
// returns its new version.
func (d doc[T]) update(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change, st *state, id string, expected int64, v T) (int64, error) {
	return sqlstore.Update(ctx, tx, ch, st.row.ID, d.kind, id, expected, v)
}

// remove deletes the document id if it is still at version expected.
func (d doc[T]) remove(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change, st *state, id string, expected int64) error {
	return sqlstore.Delete(ctx, tx, ch, st.row.ID, d.kind, id, expected)
}

// probe stores a zero document id and reads it back by get and by list,
// for TestDocHandles.
func (d doc[T]) probe(ctx context.Context, tx *sqlstore.Tx, ch sqlstore.Change, st *state, id string) (any, any, error) {
	var zero T
	if _, err := d.create(ctx, tx, ch, st, id, zero); err != nil {
		return nil, nil, err
	}
	got, err := d.get(ctx, tx, st, id)
	if err != nil {
		return nil, nil, err
	}
	all, err := d.list(ctx, tx, st)
	if err != nil || len(all) == 0 {
		return got, nil, err
	}
	return got, all[len(all)-1], nil
}
