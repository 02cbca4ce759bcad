package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
)

// The OpenAPI document is written by hand in parts: openapi.json holds the
// info, the shared components and the public read routes; each file in
// openapi/ adds the paths and schemas of one group of routes (sign-in, TD
// console, captains and players, ...). mergeOpenAPI joins them at start-up
// and refuses a path, method or schema defined twice.
//
//go:embed openapi/*.json
var openAPIParts embed.FS

type openAPIPart struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
	} `json:"components"`
}

func mergeOpenAPI() ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		return nil, fmt.Errorf("web: openapi.json: %w", err)
	}
	paths, _ := doc["paths"].(map[string]any)
	comps, _ := doc["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	if paths == nil || schemas == nil {
		return nil, fmt.Errorf("web: openapi.json lacks paths or components.schemas")
	}
	names, err := fs.Glob(openAPIParts, "openapi/*.json")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	for _, n := range names {
		b, err := openAPIParts.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var part openAPIPart
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("web: %s: %w", n, err)
		}
		for p, ops := range part.Paths {
			cur, _ := paths[p].(map[string]any)
			if cur == nil {
				cur = map[string]any{}
				paths[p] = cur
			}
			for m, op := range ops {
				if _, dup := cur[m]; dup {
					return nil, fmt.Errorf("web: %s: %s %s is defined twice", n, m, p)
				}
				cur[m] = op
			}
		}
		for name, sch := range part.Components.Schemas {
			if _, dup := schemas[name]; dup {
				return nil, fmt.Errorf("web: %s: schema %s is defined twice", n, name)
			}
			schemas[name] = sch
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}
