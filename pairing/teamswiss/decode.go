package teamswiss

import (
	"io"

	"arbiter/format/strictjson"
)

// Decode reads an Event from its JSON form (docs/team-swiss.md) and checks it
// as Pair would. Unknown fields, wrong types and every rule Pair checks are
// EINVALID errors naming the JSON path; on error no Event is returned.
func Decode(r io.Reader) (*Event, error) {
	var ev Event
	if err := strictjson.Decode(r, &ev, "teamswiss"); err != nil {
		return nil, err
	}
	if _, err := build(&ev); err != nil {
		return nil, err
	}
	return &ev, nil
}
