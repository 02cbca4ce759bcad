package teamswiss

import "arbiter/pairing"

// Tournament returns ev as the Dutch engine sees it, for reviewing and
// checking a pairing by hand (pairing/dutch Profiles, Check, Colours):
// Players[i] is ev.Teams[i], scored in match points and ranked for the
// round to pair; players beyond len(ev.Teams) are absent padding. Bad
// input is refused as by Pair.
func Tournament(ev *Event) (*pairing.Tournament, error) {
	m, err := build(ev)
	if err != nil {
		return nil, err
	}
	return m.t, nil
}
