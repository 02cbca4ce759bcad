package arbiter

import (
	"encoding/json"
	"testing"
)

// TestReportStoredJSON reads a report as stored before the report kept
// its sheet typed (the sheet as raw JSON, a side as a string) and writes
// it back unchanged: existing databases and the API keep their JSON.
func TestReportStoredJSON(t *testing.T) {
	t.Parallel()
	const old = `{"id":"s1r1b1-1","match":"s1r1b1","by":"p01","role":"player","side":"away","at":"2023-03-22T18:00:00Z",` +
		`"sheet":{"home":"p02","away":"p01","boards":[{"board":1,"home_player":"a","parts":[{"tc":"3+2","results":["1","=","0"]}]}],` +
		`"tie":{"armageddon":{"home_bid":100,"away_bid":100,"white":"away","result":"1"}}},` +
		`"result":{"result":"home_win","decision":"played","home":{"match_points":200,"points":150},"away":{"match_points":0,"points":50}},"status":"pending"}`
	var r Report
	if err := json.Unmarshal([]byte(old), &r); err != nil {
		t.Fatal(err)
	}
	if r.Side != Away || r.Sheet == nil || r.Sheet.Away != "p01" || len(r.Sheet.Boards) != 1 ||
		len(r.Sheet.Boards[0].Parts[0].Results) != 3 || r.Sheet.Tie.Armageddon.White != Away {
		t.Fatalf("read %+v (sheet %+v)", r, r.Sheet)
	}
	back, err := json.Marshal(r)
	if err != nil || string(back) != old {
		t.Fatalf("written back as\n%s\nwant\n%s", back, old)
	}

	// A report without a sheet (none is stored today) reads as nil.
	var none Report
	if err := json.Unmarshal([]byte(`{"id":"x","sheet":null}`), &none); err != nil || none.Sheet != nil {
		t.Fatalf("null sheet: %+v, %v", none.Sheet, err)
	}
	// Results written as one string, as a sheet may be sent, read too.
	var sh Sheet
	if err := json.Unmarshal([]byte(`{"parts":[{"tc":"1+2","results":"1 0 ="}]}`), &sh); err != nil || len(sh.Parts[0].Results) != 3 {
		t.Fatalf("results as a string: %+v, %v", sh, err)
	}
}
