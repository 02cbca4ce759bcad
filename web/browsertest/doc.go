// Package browsertest drives Arbiter's web app in a real headless Chromium
// (Debian's chromium, through chromedp): a TD creates an event, runs
// registration, reviews and edits a round's pairings, retries a job and
// adds a webhook; a captain submits a lineup; players agree a time, report
// and confirm a result, and the standings and the chances to qualify
// update live; visitors copy the share buttons' exports; plus sign-in
// throttling, keyboard use and phone-width layout. The package holds only
// tests; see docs/web-browser-tests.md.
//
// Without a chromium binary the tests skip, unless $CI is set: then they
// fail, so that CI never passes without running them.
package browsertest
