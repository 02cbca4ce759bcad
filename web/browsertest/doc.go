// Package browsertest drives Arbiter's web app in a real headless Chromium
// (Debian's chromium, through chromedp): a TD creates an event and runs
// registration, a captain submits a lineup, players agree a time, report
// and confirm a result, and the standings update live; plus keyboard use
// and phone-width layout. The package holds only tests; see
// docs/web-browser-tests.md.
//
// Without a chromium binary the tests skip, unless $CI is set: then they
// fail, so that CI never passes without running them.
package browsertest
