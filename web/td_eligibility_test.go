package web

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/eligibility"
	"arbiter/internal/testshared"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// fakeLichessAccounts is a fake Lichess holding the shared user fixtures
// (playera, somebot, flagged, closedguy; anyone else is unknown) and the
// hand-made antichess match's games.
func fakeLichessAccounts(t *testing.T) *lichesstest.Fake {
	t.Helper()
	lc := fakeLichessGames(t)
	for _, name := range []string{"user_antichess_provisional.json", "user_bot.json", "user_tos.json", "user_closed.json"} {
		b, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "synthetic", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := lc.AddUserJSON(b); err != nil {
			t.Fatal(err)
		}
	}
	return lc
}

// eligibilityEvent is an Antichess Team Cup in registration with one
// team registered on 2025-01-01 12:00 by its captain PlayerA: members
// PlayerA, SomeBot, Flagged and Ghost (not on Lichess), substitute
// ClosedGuy.
func eligibilityEvent(t *testing.T, f *fixture) arbiter.Entrant {
	t.Helper()
	ctx := context.Background()
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "elig", Name: "Eligibility Cup", Preset: "antichess-team-cup",
		Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)}))
	e, err := f.app.Register(ctx, arbiter.Actor{Name: "PlayerA", Role: arbiter.RoleCaptain}, "elig", arbiter.Entrant{Name: "Fixture Five",
		Captain: "PlayerA", Members: []string{"PlayerA", "SomeBot", "Flagged", "Ghost"}, Substitute: "ClosedGuy", Rating: 1900})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestTDCheckEligibility: the console's "Check eligibility" form and the
// API route against a fake Lichess serving the shared user fixtures, A2
// judged at the registration (2025-01-01 12:00), checked on 2026-01-02
// 12:00: PlayerA's account is too new, has 7 games, none in the 3 months
// before registering, and is provisional (unknown before the pairings); SomeBot is a BOT with 900 games; Flagged has a TOS mark;
// Ghost is not on Lichess; ClosedGuy's account is closed. Refused without
// a Lichess client and for the captain; Lichess failing is "unavailable".
func TestTDCheckEligibility(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	e := eligibilityEvent(t, f)
	tdTok, capTok := f.signIn(t, "ArbiterTD"), f.signIn(t, "PlayerA")
	console := "/events/elig/td"
	form := console + "/entrants/" + e.ID + "/eligibility"
	api := "/api/events/elig/entrants/" + e.ID + "/eligibility"

	// The console offers the form; nothing checked yet.
	res, body := f.as(t, tdTok, "GET", console, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<th scope="col">Eligibility on Lichess</th>`, `<form id="eligibility-form-fixture-five" class="td-row" method="post" action="/events/elig/td/entrants/fixture-five/eligibility">`,
		`Check eligibility<span class="visually-hidden"> of Fixture Five</span>`, "not checked")
	// Without a Lichess client: refused with the reason.
	f.submit(t, tdTok, form, nil).wantRefused(t, "eligibility checks are unavailable: this server has no Lichess client")
	wantAPIErrorAs(t, f, tdTok, api, 422, "rule")

	lc := fakeLichessAccounts(t)
	c, err := lichess.New(lichess.Options{BaseURL: lc.URL, MinInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.app.SetAccountSource(c)

	// The captain may not check (form and API); Lichess is not asked.
	res, body = f.as(t, capTok, "POST", form, nil)
	wantStatus(t, res, body, 403)
	wantAPIErrorAs(t, f, capTok, api, 403, "forbidden")
	if len(lc.Log()) != 0 {
		t.Fatalf("refused checks sent %d requests", len(lc.Log()))
	}

	f.now = time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	tdTok = f.signIn(t, "ArbiterTD") // the session of a year ago has expired
	const summary = "fail: PlayerA fails A2.age, A2.games, A2.recent; SomeBot fails A2.age, A2.games, A2.recent, A2.bot; " +
		"Flagged fails A2.age, A2.games, A2.recent, A2.tos; ghost fails account; ClosedGuy fails A2.closed (19 checks for the TD to confirm)"
	f.submit(t, tdTok, form, nil).wantOK(t, "Eligibility of fixture-five checked on Lichess: "+summary+".")
	// 5 profiles and, for the 3 open accounts, the games of the 3 months
	// before registering (their totals, under 1000, settle A2.games).
	if len(lc.Log()) != 8 {
		t.Fatalf("%d requests", len(lc.Log()))
	}
	res, body = f.as(t, tdTok, "GET", console, nil)
	wantStatus(t, res, body, 200)
	checkPage(t, console, body)
	wantContains(t, body, `<details id="eligibility-fixture-five">`,
		`<summary><strong>not eligible</strong> <span class="note">(checked Fri 2 Jan 2026 12:00 UTC by arbitertd, judged at Wed 1 Jan 2025 12:00 UTC)</span></summary>`,
		"<li>PlayerA: fail — account created at least 6 months before registering (A2.age): created 2024-11-27: 6 months old only from 2025-05-27</li>",
		"<li>PlayerA: fail — at least 1000 rated antichess games on this account (A2.games): at most 7 rated antichess games so far (needs 1000)</li>",
		"<li>PlayerA: fail — at least 100 rated antichess games in the last 3 months (A2.recent): 0 rated antichess games in the 3 months since 2024-10-01 (needs 100)</li>",
		"<li>PlayerA: unknown — non-provisional antichess rating at the announcement of the initial pairings (A2.provisional): provisional (1850?, RD 150) now; must be established by 2025-01-07</li>",
		"<li>SomeBot: fail — not a BOT account (A2.bot): BOT account</li>",
		"<li>SomeBot: fail — at least 1000 rated antichess games on this account (A2.games): at most 900 rated antichess games so far (needs 1000)</li>",
		"<li>Flagged: fail — not banned by Lichess (no TOS-violation mark) (A2.tos): Lichess marks this account for a Terms of Service violation</li>",
		"<li>ghost: fail — a Lichess account (account): no such Lichess account</li>",
		"<li>ClosedGuy: fail — the account is open (A2.closed): the account is closed</li>",
		"<li>ClosedGuy: unknown — not a BOT account (A2.bot): closed account: Lichess shows no profile data</li>")
	details := body[strings.Index(body, `<details id="eligibility-fixture-five">`):]
	details = details[:strings.Index(details, "</details>")]
	if n := strings.Count(details, "<li>"); n != 13+19 {
		t.Fatalf("%d failing or unknown checks listed, want 32:\n%s", n, details)
	}
	if strings.Contains(details, ": pass — ") {
		t.Fatal("a passing check listed")
	}
	// The entrant is still pending: the TD decides.
	if es, err := f.app.Entrants(context.Background(), "elig"); err != nil || len(es) != 1 || es[0].Status != arbiter.EntrantPending {
		t.Fatalf("entrants %+v, %v", es, err)
	}

	// The API answers the same check, stored again (version 2).
	f.now = time.Date(2026, 1, 3, 8, 0, 0, 0, time.UTC)
	var raw map[string]json.RawMessage
	f.apiAs(t, tdTok, "POST", api, nil, 200, &raw)
	for _, k := range []string{"entrant", "ruleset", "at", "by", "judged", "status", "reports"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("API answer lacks %s", k)
		}
	}
	b, _ := json.Marshal(raw)
	var v app.EligibilityCheck
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Entrant != "fixture-five" || v.Ruleset != "antichess-team-cup" || v.By != "arbitertd" || !v.At.Equal(f.now) ||
		!v.Judged.Equal(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)) || v.Status != eligibility.Fail || len(v.Reports) != 5 || v.Summary() != summary {
		t.Fatalf("API check %+v", v)
	}
	if got := v.Reports[3]; got.Username != "ghost" || got.Status != eligibility.Fail || len(got.Checks) != 1 ||
		got.Checks[0] != (eligibility.Check{Rule: "account", Clause: "A2", Text: "a Lichess account", Status: eligibility.Fail, Detail: "no such Lichess account"}) {
		t.Fatalf("ghost %+v", got)
	}
	if got := v.Reports[1].Checks[8]; got != (eligibility.Check{Rule: "A2.bot", Clause: "A2", Text: "not a BOT account", Status: eligibility.Fail, Detail: "BOT account"}) {
		t.Fatalf("SomeBot's A2.bot %+v", got)
	}
	if stored, err := f.app.Eligibility(context.Background(), "elig", e.ID); err != nil || stored == nil || stored.Version != 2 {
		t.Fatalf("stored %+v, %v", stored, err)
	}
}

// TestTDCheckEligibilityLichessDown: Lichess answering 500 is
// "unavailable" (API 503, the form's message "try again later"), and
// nothing is stored.
func TestTDCheckEligibilityLichessDown(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	e := eligibilityEvent(t, f)
	tdTok := f.signIn(t, "ArbiterTD")
	c, err := lichess.New(lichess.Options{BaseURL: lichessDown(t).URL, MinInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.app.SetAccountSource(c)
	wantAPIErrorAs(t, f, tdTok, "/api/events/elig/entrants/"+e.ID+"/eligibility", 503, "unavailable")
	f.submit(t, tdTok, "/events/elig/td/entrants/"+e.ID+"/eligibility", nil).
		wantRefused(t, "fetching the Lichess account playera failed; try again later")
	if stored, err := f.app.Eligibility(context.Background(), "elig", e.ID); err != nil || stored != nil {
		t.Fatalf("stored %+v, %v", stored, err)
	}
}
