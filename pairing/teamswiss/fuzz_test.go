package teamswiss

import (
	"bytes"
	"encoding/json"
	"testing"

	"arbiter"
)

// FuzzDecodePair: any document is either rejected with an EINVALID error or
// paired (or found unpairable) without a panic, every present team once.
func FuzzDecodePair(f *testing.F) {
	ev := newEvent(5, "a", "b", "c", "d", "e")
	ev.addRound("e", won("a", "c", 400, 320), match{home: "d", away: "b", res: Forfeit, homeMP: 0, awayMP: 100})
	ev.Forbidden = []ForbiddenGroup{{Teams: []string{"a", "b"}, FirstRound: 2}}
	seed, _ := json.Marshal(ev)
	f.Add(seed)
	f.Add([]byte(`{"points":{"win":2,"draw":1,"loss":0,"bye":1},"total_rounds":3,"initial_colour":"black","teams":[{"id":"x","rounds":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Decode(bytes.NewReader(data))
		if err != nil {
			if arbiter.ErrorCode(err) != arbiter.EINVALID {
				t.Fatalf("Decode error %v is not %s", err, arbiter.EINVALID)
			}
			return
		}
		if len(ev.Teams) > 40 || ev.TotalRounds > 40 {
			return // keep each input cheap
		}
		p, err := Pair(ev)
		if err != nil {
			if arbiter.ErrorCode(err) != arbiter.ENOPAIRING {
				t.Fatalf("Pair error %v", err)
			}
			return
		}
		seen := map[string]int{}
		for _, b := range p.Boards {
			seen[b.Home]++
			seen[b.Away]++
		}
		if p.Bye != "" {
			seen[p.Bye]++
		}
		for _, tm := range ev.Teams {
			if want := 1 - b2i(tm.Withdrawn); seen[tm.ID] != want {
				t.Fatalf("team %q appears %d times", tm.ID, seen[tm.ID])
			}
		}
	})
}
