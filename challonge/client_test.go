package challonge_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arbiter/challonge"
	"arbiter/challonge/challongetest"
)

var ctx = context.Background()

func client(fake *challongetest.Server, key string) *challonge.Client {
	c := challonge.New(key)
	c.BaseURL = fake.URL
	return c
}

func TestKeyFrom(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "key")
	os.WriteFile(file, []byte("  s3cr3t \nsecond line\n"), 0o600)
	if k, err := challonge.KeyFrom(file); err != nil || k != "s3cr3t" {
		t.Errorf("from a file: %q, %v", k, err)
	}
	os.WriteFile(file, []byte("\n"), 0o600)
	if _, err := challonge.KeyFrom(file); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
	t.Setenv(challonge.KeyEnv, "from-env")
	if k, err := challonge.KeyFrom(""); err != nil || k != "from-env" {
		t.Errorf("from the environment: %q, %v", k, err)
	}
	t.Setenv(challonge.KeyEnv, "")
	if _, err := challonge.KeyFrom(""); err == nil || !strings.Contains(err.Error(), challonge.KeyEnv) {
		t.Errorf("no key: %v", err)
	}
}

func TestClientAgainstFake(t *testing.T) {
	t.Parallel()
	fake := challongetest.New(t, "k3y")
	fake.AddTournament("rkcc_winter", "RKCC Winter", true)
	c := client(fake, "k3y")
	added, err := c.BulkAddParticipants(ctx, "rkcc_winter", []challonge.NewParticipant{
		{Name: "Knights", Seed: 1, Misc: "knights"}, {Name: "Rooks", Seed: 2, Misc: "rooks"},
		{Name: "Bishops", Seed: 3, Misc: "bishops"}, {Name: "Pawns", Seed: 4, Misc: "pawns"}})
	if err != nil || len(added) != 4 || added[3].Seed != 4 || added[0].Misc != "knights" {
		t.Fatalf("bulk add: %+v, %v", added, err)
	}
	// All or none: a taken name rolls the whole request back.
	_, err = c.BulkAddParticipants(ctx, "rkcc_winter", []challonge.NewParticipant{{Name: "Queens", Seed: 5}, {Name: "rooks", Seed: 6}})
	var ce *challonge.Error
	if !errors.As(err, &ce) || ce.Status != 422 || ce.Temporary() || !slices.Contains(ce.Messages, "Name has already been taken") {
		t.Errorf("taken name: %v", err)
	}
	if ps, _ := c.Participants(ctx, "rkcc_winter"); len(ps) != 4 {
		t.Errorf("after a refused bulk add: %d participants", len(ps))
	}
	if _, err := c.Start(ctx, "rkcc_winter"); err != nil {
		t.Fatal(err)
	}
	ms, err := c.Matches(ctx, "rkcc_winter")
	if err != nil {
		t.Fatal(err)
	}
	// Standard seeding: 1 v 4, 2 v 3, then the final and third place.
	id := map[string]int64{}
	for _, p := range added {
		id[p.Misc] = p.ID
	}
	if len(ms) != 4 || ms[0].Player1ID != id["knights"] || ms[0].Player2ID != id["pawns"] || ms[1].Player1ID != id["rooks"] ||
		ms[0].State != "open" || ms[2].State != "pending" || ms[2].Round != 2 || ms[3].Identifier != "D" {
		t.Fatalf("bracket: %+v", ms)
	}
	// A winner needs scores, and must play in the match.
	if _, err := c.UpdateMatch(ctx, "rkcc_winter", ms[0].ID, "", id["knights"]); !isStatus(err, 422) {
		t.Errorf("winner without scores: %v", err)
	}
	if _, err := c.UpdateMatch(ctx, "rkcc_winter", ms[0].ID, "3-0", id["rooks"]); !isStatus(err, 422) {
		t.Errorf("winner not in the match: %v", err)
	}
	m, err := c.UpdateMatch(ctx, "rkcc_winter", ms[0].ID, "160-80,144-96,127.5-112.5", id["knights"])
	if err != nil || m.State != "complete" || m.WinnerID != id["knights"] || m.LoserID != id["pawns"] {
		t.Fatalf("update: %+v, %v", m, err)
	}
	ms, _ = c.Matches(ctx, "rkcc_winter")
	if ms[2].Player1ID != id["knights"] || ms[3].Player1ID != id["pawns"] {
		t.Errorf("the winner and loser did not move on: %+v", ms)
	}
	// Errors: a wrong key, an unknown tournament, a server failure.
	if _, err := client(fake, "wrong").Matches(ctx, "rkcc_winter"); !isStatus(err, http.StatusUnauthorized) || challonge.Temporary(err) {
		t.Errorf("wrong key: %v", err)
	}
	if _, err := c.Tournament(ctx, "nope"); !isStatus(err, http.StatusNotFound) {
		t.Errorf("unknown tournament: %v", err)
	}
	fake.FailNext = 1
	if _, err := c.Tournament(ctx, "rkcc_winter"); !isStatus(err, 500) || !challonge.Temporary(err) {
		t.Errorf("server failure: %v", err)
	}
	if tour, err := c.Tournament(ctx, "rkcc_winter"); err != nil || tour.State != "underway" || !tour.HoldThirdPlaceMatch {
		t.Errorf("tournament: %+v, %v", tour, err)
	}
	for _, r := range fake.Requests() {
		if !strings.HasSuffix(r, ".json") {
			t.Errorf("request %s is not a .json path", r)
		}
	}
}

func isStatus(err error, status int) bool {
	var ce *challonge.Error
	return errors.As(err, &ce) && ce.Status == status
}

func TestTransportErrorHidesTheKey(t *testing.T) {
	t.Parallel()
	c := challonge.New("very-secret-key")
	c.BaseURL = "http://127.0.0.1:1/v1" // nothing listens
	_, err := c.Matches(ctx, "x")
	if err == nil || strings.Contains(err.Error(), "very-secret-key") || !challonge.Temporary(err) {
		t.Errorf("err = %v", err)
	}
}

// TestPush: a 5-team bracket (the top three seeds wait for round 2)
// pushed after the first round, then in full; pushing again changes
// nothing; a result with the away side as Challonge's player 1 has its
// scores turned round.
func TestPush(t *testing.T) {
	t.Parallel()
	fake := challongetest.New(t, "k")
	fake.AddTournament("ko", "KO", false)
	c := client(fake, "k")
	b := challonge.Bracket{}
	for i, n := range []string{"a", "b", "c", "d", "e"} {
		b.Participants = append(b.Participants, challonge.NewParticipant{Name: strings.ToUpper(n), Seed: i + 1, Misc: n})
	}
	// Round 1: 4 v 5 (e wins, home d). Round 2: a v e (home e as the
	// lower line's winner: Challonge has a as player 1), b v c.
	r1 := challonge.Result{Round: 1, Home: "d", Away: "e", Scores: [][2]string{{"2", "4"}}, Winner: "e"}
	rep, err := challonge.Push(ctx, c, "ko", challonge.Bracket{Participants: b.Participants, Results: []challonge.Result{r1}})
	if err != nil || rep.Added != 5 || !rep.Started || len(rep.Updated) != 1 {
		t.Fatalf("first push: %+v, %v", rep, err)
	}
	b.Results = []challonge.Result{r1,
		{Round: 2, Home: "e", Away: "a", Scores: [][2]string{{"1", "3"}, {"2", "2"}}, Winner: "a"},
		{Round: 2, Home: "b", Away: "c", Scores: [][2]string{{"3", "1"}}, Winner: "b"},
		{Round: 3, Home: "a", Away: "b", Scores: [][2]string{{"157.5", "82.5"}}, Winner: "a"},
	}
	rep, err = challonge.Push(ctx, c, "ko", b)
	if err != nil || rep.Added != 0 || rep.Started || len(rep.Updated) != 3 || len(rep.Unchanged) != 1 || len(rep.Missing) != 0 {
		t.Fatalf("second push: %+v, %v", rep, err)
	}
	fake.Do("ko", func(tour *challongetest.Tournament) {
		name := map[int64]string{}
		for _, p := range tour.Participants {
			name[p.ID] = p.Misc
		}
		var got []string
		for _, m := range tour.Matches {
			got = append(got, m.Identifier+":"+name[m.Player1ID]+"-"+name[m.Player2ID]+" "+m.ScoresCSV+" "+name[m.WinnerID]+" "+m.State)
		}
		want := []string{"A:d-e 2-4 e complete", "B:a-e 3-1,2-2 a complete", "C:b-c 3-1 b complete", "D:a-b 157.5-82.5 a complete"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("Challonge holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	before := len(fake.Requests())
	rep, err = challonge.Push(ctx, c, "ko", b)
	if err != nil || len(rep.Updated) != 0 || len(rep.Unchanged) != 4 {
		t.Fatalf("third push: %+v, %v", rep, err)
	}
	for _, r := range fake.Requests()[before:] {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("an unchanged push wrote: %s", r)
		}
	}
	// A participant Challonge lacks once started cannot be added.
	b.Participants = append(b.Participants, challonge.NewParticipant{Name: "F", Seed: 6, Misc: "f"})
	if _, err := challonge.Push(ctx, c, "ko", b); err == nil || !strings.Contains(err.Error(), "lacks 1 participant") {
		t.Errorf("late participant: %v", err)
	}
}
