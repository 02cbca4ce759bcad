package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"arbiter/sqlstore"
)

// 'arbiter event audit': the event's audit log.

var auditSub = &eventSub{name: "audit", synopsis: "audit SLUG [--json]",
	summary: "the event's audit log (TD)",
	min:     1, max: 1, new: plain(evAudit)}

func evAudit(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	log, err := c.svc.Audit(ctx, c.actor, pos[0], sqlstore.AuditFilter{})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, log)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tACTOR\tACTION\tRECORD\tVERSION\tREASON")
	for _, en := range log {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s %s\t%d\t%s\n", en.At.Format("2006-01-02 15:04:05"), en.Actor, en.Action, en.Kind, en.RecordID, en.Version, en.Reason)
	}
	return tw.Flush()
}
