package web

import (
	"strings"
	"testing"

	"arbiter/sqlstore/storetest"
)

func TestAPIPublicEntrants(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	var list struct {
		Entrants []map[string]any `json:"entrants"`
	}
	apiDo(t, f, "GET", "/api/events/atc/entrants", 200, &list)
	if len(list.Entrants) != 10 || list.Entrants[0]["id"] != "team-01" || list.Entrants[0]["seed"] != float64(1) ||
		list.Entrants[0]["captain"] != "cap01" || list.Entrants[9]["id"] != "team-10" {
		t.Fatalf("entrants %v", list.Entrants)
	}
	// Who registered a team, and the TDs' values, stay private.
	for _, k := range []string{"registered_by", "reason", "values"} {
		if _, ok := list.Entrants[0][k]; ok {
			t.Errorf("entrant carries %s", k)
		}
	}
	var one struct {
		Entrant publicEntrant  `json:"entrant"`
		Matches []entrantMatch `json:"matches"`
	}
	apiDo(t, f, "GET", "/api/events/atc/entrants/team-01", 200, &one)
	if one.Entrant.Name != "Team 01" || len(one.Entrant.Members) != 4 || len(one.Matches) != 1 {
		t.Fatalf("team-01 %+v", one)
	}
	m := one.Matches[0]
	if m.ID != "s1r1b1" || m.RoundID != "s1r1" || m.Stage != 1 || m.Opponent.ID != "team-06" || m.Colour != "white" ||
		m.Sym != "1" || m.Word != "won" || m.Score != "348–228" {
		t.Errorf("team-01's match %+v", m)
	}
	wantAPIError(t, f, "GET", "/api/events/atc/entrants/nope", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/events/nope/entrants", 404, "not_found", "")
}

func TestAPIPublicCrosstable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	// Before registration closes there is no table.
	var out struct {
		Stage  int          `json:"stage"`
		Kind   string       `json:"kind"`
		Tables []crossTable `json:"tables"`
	}
	apiDo(t, f, "GET", "/api/events/atc/crosstable", 200, &out)
	if len(out.Tables) != 0 || out.Stage != 1 || out.Kind != "swiss" {
		t.Errorf("during registration %+v", out)
	}
	playRound1(t, f)
	apiDo(t, f, "GET", "/api/events/atc/crosstable", 200, &out)
	if out.Stage != 1 || len(out.Tables) != 1 || len(out.Tables[0].Rows) != 10 {
		t.Fatalf("crosstable %+v", out)
	}
	last := out.Tables[0].Rows[9]
	c := last.Cells[0]
	if last.ID != "team-06" || c.Opponent != "team-01" || c.OppPos != 1 || c.Colour != "black" || c.Sym != "0" || c.Score != "228–348" {
		t.Errorf("team-06 row %+v", last)
	}
	// The knockout stage has no crosstable; bad and unknown stages.
	apiDo(t, f, "GET", "/api/events/atc/crosstable?stage=2", 200, &out)
	if out.Stage != 2 || out.Kind != "knockout" || len(out.Tables) != 0 {
		t.Errorf("knockout crosstable %+v", out)
	}
	wantAPIError(t, f, "GET", "/api/events/atc/crosstable?stage=0", 400, "invalid", "stage")
	wantAPIError(t, f, "GET", "/api/events/atc/crosstable?stage=3", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/events/atc/bracket?stage=3", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/events/atc/pools?stage=x", 400, "invalid", "stage")
	// No knockout yet, no pools at all: empty, not an error.
	var br struct {
		Stage  int            `json:"stage"`
		Rounds []bracketRound `json:"rounds"`
	}
	apiDo(t, f, "GET", "/api/events/atc/bracket", 200, &br)
	if br.Stage != 2 || len(br.Rounds) != 0 {
		t.Errorf("bracket before the knockout %+v", br)
	}
	var pl struct {
		Stage int        `json:"stage"`
		Pools []poolView `json:"pools"`
	}
	apiDo(t, f, "GET", "/api/events/atc/pools", 200, &pl)
	if pl.Stage != 0 || len(pl.Pools) != 0 {
		t.Errorf("pools of a format without pools %+v", pl)
	}
}

// TestPublicPagesWellFormed renders every public page of the fixture
// and checks the markup.
func TestPublicPagesWellFormed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	for _, p := range []string{"/events/atc", "/events/atc/rounds/s1r1", "/events/atc/rounds/s1r2", "/events/atc/crosstable",
		"/events/atc/crosstable?stage=2", "/events/atc/bracket", "/events/atc/pools", "/events/atc/entrants", "/events/atc/entrants/team-01",
		"/events/atc/rounds/nope", "/events/atc/crosstable?stage=x"} {
		_, body := f.do(t, "GET", p)
		checkPage(t, p, body)
		if strings.Contains(body, "{{") {
			t.Errorf("%s: template text leaked", p)
		}
	}
}

// TestPublicPostgres renders the public pages on PostgreSQL when
// $ARBITER_TEST_POSTGRES names a server (skipped otherwise).
func TestPublicPostgres(t *testing.T) {
	t.Parallel()
	f := newFixtureOn(t, storetest.Postgres(t))
	antichessEvent(t, f)
	playRound1(t, f)
	body := getPage(t, f, "/events/atc/rounds/s1r1")
	if rows := rowsOf(body, "pairings"); len(rows) != 5 || rows[0] != "1|Team 01|Team 06|348–228, Team 01 won|final|–|s1r1b1" {
		t.Errorf("pairings %q", rows)
	}
	body = getPage(t, f, "/events/atc/crosstable")
	if rows := rowsOf(body, "crosstable"); len(rows) != 10 || rows[0] != "1|1|Team 01|10w1348–228|1|120|348|0" {
		t.Errorf("crosstable %q", rows)
	}
	for _, p := range []string{"/events/atc/bracket", "/events/atc/pools", "/events/atc/entrants", "/events/atc/entrants/team-06"} {
		getPage(t, f, p)
	}
}
