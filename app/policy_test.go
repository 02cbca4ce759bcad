package app

import (
	"bytes"
	"fmt"
	"testing"

	"arbiter"
	"arbiter/format"
)

// renamed is a preset written out as a custom format file under another
// name: the rules come from its data, not from the preset's name.
func renamed(t *testing.T, preset, name string) []byte {
	t.Helper()
	f, err := format.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	f.Name = name
	var b bytes.Buffer
	if err := format.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCustomFormatKeepsPresetRules: the antichess preset saved as "my-cup"
// still refuses 9 teams citing A9 (the clause is format data); stripped of
// its clause IDs it cites its field instead. (The calendar and negotiation
// rules derived from the data are compared with the rulebooks' in packages
// calendar and negotiation.)
func TestCustomFormatKeepsPresetRules(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		for _, slug := range []string{"mine", "bare"} {
			doc := renamed(t, "antichess-team-cup", "my-cup")
			if slug == "bare" {
				f := must(format.Load(bytes.NewReader(doc)))
				f.Clauses, f.Sanctions = format.Clauses{}, ""
				var b bytes.Buffer
				if err := format.Write(&b, f); err != nil {
					t.Fatal(err)
				}
				doc = b.Bytes()
			}
			must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: doc, Start: utc(2025, 1, 7, 0, 0)}))
			for i := 1; i <= 9; i++ {
				capt := fmt.Sprintf("%s%02d", slug, i)
				e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, slug, arbiter.Entrant{Name: fmt.Sprintf("Team %s %02d", slug, i),
					Captain: capt, Members: []string{capt, capt + "a", capt + "b", capt + "c"}}))
				must(s.Approve(ctx, td, slug, e.ID, 0))
			}
		}
		_, err := s.CloseRegistration(ctx, td, "mine")
		wantErr(t, err, arbiter.ERULE, "A9")
		_, err = s.CloseRegistration(ctx, td, "bare")
		wantErr(t, err, arbiter.ERULE, "format.min_entrants")
	})
}
