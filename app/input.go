package app

import (
	"fmt"
	"strings"
	"time"

	"arbiter"
)

// Checks of what people type, applied at the start of each use case so
// that bad input is refused before anything is read or stored. The rules
// themselves are the root package's (arbiter.CleanName, CleanText,
// CheckLichessUsername, CheckDate); these say which field gets which.

// localSuffix ends the names of local accounts (the offline TD), which are
// not Lichess usernames and never play.
const localSuffix = "@local"

// checkUser checks a Lichess username given in field.
func checkUser(field, name string) error {
	return arbiter.CheckLichessUsername(field, strings.TrimSpace(name))
}

// checkOfficial checks the name of a TD to add: a Lichess username or a
// local account ("td@local").
func checkOfficial(field, name string) error {
	name = strings.TrimSpace(name)
	if base, ok := strings.CutSuffix(strings.ToLower(name), localSuffix); ok {
		return arbiter.CheckLichessUsername(field, base)
	}
	return arbiter.CheckLichessUsername(field, name)
}

// checkEntrantText checks the names of an entrant to register: the team's
// name, and every player as a Lichess username. Empty fields are left to
// the format's checks (normaliseEntrant), which say what each kind needs.
func checkEntrantText(e *arbiter.Entrant) error {
	if e.Name != "" {
		name, err := arbiter.CleanName("name", e.Name, arbiter.MaxName)
		if err != nil {
			return err
		}
		e.Name = name
	}
	one := func(field, v string) error {
		if strings.TrimSpace(v) == "" {
			return nil
		}
		return checkUser(field, v)
	}
	if err := one("player", e.Player); err != nil {
		return err
	}
	if err := one("captain", e.Captain); err != nil {
		return err
	}
	if err := one("substitute", e.Substitute); err != nil {
		return err
	}
	for i, m := range e.Members {
		if err := one(fmt.Sprintf("members[%d]", i), m); err != nil {
			return err
		}
	}
	for i, b := range e.Boards {
		if err := one(fmt.Sprintf("boards[%d]", i), b); err != nil {
			return err
		}
	}
	return nil
}

// checkEntrantEdit checks a TD's correction of an entrant as
// checkEntrantText checks a registration: the new name, members and
// substitute, and the version.
func checkEntrantEdit(req *EntrantEdit) error {
	if err := checkExpect(req.Version); err != nil {
		return err
	}
	probe := arbiter.Entrant{Members: req.Members}
	if req.Name != nil {
		probe.Name = *req.Name
	}
	if req.Substitute != nil {
		probe.Substitute = *req.Substitute
	}
	if err := checkEntrantText(&probe); err != nil {
		return err
	}
	if req.Name != nil && probe.Name != "" {
		*req.Name = probe.Name
	}
	return nil
}

// checkTimes checks the dates of a request against the sane window around
// now (arbiter.CheckDate); zero times are left to the caller.
func checkTimes(field string, now time.Time, ts ...time.Time) error {
	for i, t := range ts {
		if t.IsZero() {
			continue
		}
		f := field
		if len(ts) > 1 {
			f = fmt.Sprintf("%s[%d]", field, i)
		}
		if err := arbiter.CheckDate(f, t, now); err != nil {
			return err
		}
	}
	return nil
}

// checkExpect refuses a negative version: a caller sends the version it
// saw (1 or more) or 0 for "whatever is current"; a negative one would
// skip the check that nobody changed the record meanwhile.
func checkExpect(v int64) error {
	if v < 0 {
		return arbiter.FieldError("version", "app.version", "a version is 1 or more (or 0 for the current one), not %d", v)
	}
	return nil
}

// checkTiebreakKey checks the key of a TD-entered tiebreak value
// (td_value:<key>, as a format names it): 1 to 40 letters, digits, '_'
// and '-'.
func checkTiebreakKey(key string) error {
	ok := len(key) <= 40
	for _, r := range key {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}
	if !ok {
		return arbiter.FieldError("key", "app.tiebreak", "a tiebreak key has 1 to 40 letters, digits, '_' and '-', as the format's td_value:<key> names it")
	}
	return nil
}
