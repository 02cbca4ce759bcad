package arbiter

import (
	"encoding/json"
	"testing"
)

func TestPointsString(t *testing.T) {
	for _, tc := range []struct {
		p    Points
		want string
	}{{16000, "160"}, {750, "7.5"}, {25, "0.25"}, {-300, "-3"}, {0, "0"}, {-50, "-0.5"}, {12750, "127.5"}} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("Points(%d).String() = %q, want %q", int64(tc.p), got, tc.want)
		}
	}
}

func TestParsePoints(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Points
		ok   bool
	}{
		{"12", 1200, true}, {"7.5", 750, true}, {"0,5", 50, true}, {"½", 50, true}, {"2½", 250, true},
		{"-1.25", -125, true}, {".5", 50, true}, {"1.", 0, false}, {"1.234", 0, false}, {"abc", 0, false},
		{"", 0, false}, {"1-2", 0, false}, {"+1", 0, false},
	} {
		got, err := ParsePoints(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParsePoints(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestPointsJSONRoundTrip(t *testing.T) {
	in := []Points{16000, 750, 25, -50}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "[160,7.5,0.25,-0.5]" {
		t.Fatalf("marshal = %s", b)
	}
	var out []Points
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if in[i] != out[i] {
			t.Fatalf("round trip %v != %v", out, in)
		}
	}
}

func TestErrorText(t *testing.T) {
	err := FieldError("stages[0].rounds", "format.rounds", "must be at least 1")
	if got := err.Error(); got != "stages[0].rounds: must be at least 1 (rule format.rounds)" {
		t.Fatalf("Error() = %q", got)
	}
	if ErrorCode(err) != EINVALID || ErrorMessage(err) != err.Error() {
		t.Fatalf("code/message wrong: %q %q", ErrorCode(err), ErrorMessage(err))
	}
	internal := &Error{Code: EINTERNAL, Message: "db", Err: err}
	if ErrorMessage(internal) != "internal error" {
		t.Fatalf("internal error leaks: %q", ErrorMessage(internal))
	}
}
