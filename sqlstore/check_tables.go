package sqlstore

import "context"

// tableDocs adds to out the event's documents kept in tables of their own
// rather than in records, as their audit entries record them: API tokens
// (without their last use) and webhooks (without their secret). Check
// compares them with the log like the records.
func tableDocs(ctx context.Context, tx *Tx, eventID string, out map[RecordKey]Replayed) error {
	toks, err := APITokens(ctx, tx, eventID)
	if err != nil {
		return err
	}
	for _, t := range toks {
		doc, err := t.audited()
		if err != nil {
			return err
		}
		v := int64(1)
		if t.Revoked() {
			v = 2
		}
		out[RecordKey{eventID, APITokenKind, t.ID}] = Replayed{Version: v, Data: doc}
	}
	hooks, err := Webhooks(ctx, tx, eventID)
	if err != nil {
		return err
	}
	for _, w := range hooks {
		doc, err := marshal("webhook", w)
		if err != nil {
			return err
		}
		out[RecordKey{eventID, WebhookKind, w.ID}] = Replayed{Version: w.Version, Data: doc}
	}
	return nil
}
