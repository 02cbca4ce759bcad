package web

import (
	"fmt"

	"arbiter/app"
)

// tdNow is the top of the console: app.NeedsAttention in words and links.
type tdNow struct {
	Next  *app.NextStep
	Items []tdNowItem
}

type tdNowItem struct {
	Kind string
	Text string
	Link string
}

// nowOf words what needs the TDs; a match item with one match links to it,
// with more to the table of results that need attention.
func nowOf(slug string, at app.Attention) tdNow {
	out := tdNow{Next: at.Next}
	console := consoleURL(slug)
	for _, it := range at.Items {
		row := tdNowItem{Kind: it.Kind}
		matchLink := console + "#attention"
		if len(it.Matches) == 1 {
			matchLink = console + "/matches/" + it.Matches[0]
		}
		switch it.Kind {
		case app.AttendRegistrations:
			row.Text, row.Link = count(it.Count, "registration waits", "registrations wait")+" for approval", console+"#registrations"
		case app.AttendPairingsDue:
			row.Text, row.Link = fmt.Sprintf("The pairings of round %s are late: they were due by %s", it.Round, deadlineText(deadlineOf(it.Due))), console+"#now"
		case app.AttendDeadlinePassed:
			row.Text, row.Link = fmt.Sprintf("Round %s's deadline passed %s: close it", it.Round, deadlineText(deadlineOf(it.Due))), console+"#now"
		case app.AttendAppeals:
			row.Text, row.Link = count(it.Count, "appeal waits", "appeals wait")+" for a decision", console+"/appeals"
		case app.AttendDisputed:
			row.Text, row.Link = count(it.Count, "result is", "results are")+" disputed: decide", matchLink
		case app.AttendHeld:
			row.Text, row.Link = count(it.Count, "match is", "matches are")+" held for the TDs at the deadline", matchLink
		case app.AttendUnconfirmed:
			row.Text, row.Link = count(it.Count, "result is", "results are")+" reported but not confirmed, the deadline "+deadlineText(deadlineOf(it.Due)), matchLink
		case app.AttendFailedJobs:
			row.Text, row.Link = count(it.Count, "background job", "background jobs")+" failed", console+"#jobs"
		default:
			row.Text, row.Link = fmt.Sprintf("%d %s", it.Count, it.Kind), console
		}
		out.Items = append(out.Items, row)
	}
	return out
}
