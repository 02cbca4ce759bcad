package format

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"arbiter"
	"arbiter/format/strictjson"
)

// Load reads a format file strictly (unknown fields are errors) and
// validates it. Errors name the JSON path and the rule; on error no
// Format is returned.
func Load(r io.Reader) (*Format, error) {
	var f Format
	if err := strictjson.Decode(r, &f, "format"); err != nil {
		var e *arbiter.Error
		if errors.As(err, &e) && e.Field == "calendar.break_weeks_between_stages" {
			e.Message = "no longer a calendar setting: give break_weeks_before on each stage that follows a break (W13)"
		}
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// Write writes the canonical form of f: indented JSON with canonical time
// controls. Load(Write(f)) gives f back unchanged.
func Write(w io.Writer, f *Format) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return arbiter.Errorf(arbiter.EINTERNAL, "encoding format: %v", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

//go:embed presets/*.json
var presetFS embed.FS

// Presets lists the built-in presets' names, sorted.
func Presets() []string {
	entries, _ := presetFS.ReadDir("presets")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	slices.Sort(out)
	return out
}

// Preset loads a built-in preset by name; ENOTFOUND if there is none.
func Preset(name string) (*Format, error) {
	if !slices.Contains(Presets(), name) {
		return nil, arbiter.Errorf(arbiter.ENOTFOUND, "no preset %q (presets: %s)", name, strings.Join(Presets(), ", "))
	}
	data, err := presetFS.ReadFile("presets/" + name + ".json")
	if err != nil {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "reading preset %s: %v", name, err)
	}
	return Load(bytes.NewReader(data))
}
