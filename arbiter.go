// Package arbiter holds the domain vocabulary shared by every part of the
// system: errors with codes, points, and the words of the rulebooks (Event,
// Stage, Round, Match, Part, Game, Entrant, ...). The pure engines live in
// packages named for what they hold (format, score, standings, pairing, trf);
// adapters (store, lichess, http) and the wiring in cmd/ sit around them.
package arbiter
