// Package trf reads and writes FIDE Tournament Report Files: TRF-2016, the
// TRF-2026 superset (team records, byes, accelerations, prohibited pairs,
// tie-break lists, "###" comments) and the JaVaFo/bbpPairings TRF(x)
// extensions (XXR, XXC, XXP, XXA, XXS, XXZ, BBW..BBU) that pairing engines use.
//
// The package is pure: it reads from an io.Reader and writes to an io.Writer.
// Parse never panics; a malformed file yields a *SyntaxError that names the
// line and column and also matches *arbiter.Error (code EINVALID) through
// errors.As. Records the package does not model are kept verbatim in
// File.Records and written back in place, so a file round-trips.
//
// It is also the adapter between TRF and the engines, which never import a
// file format: PairingInput and StandingsInput turn a file into the plain
// inputs of packages pairing and standings, WriteBBP writes a pairing in
// bbpPairings' output format, and Generate plays a synthetic tournament
// with a pairing engine.
//
// Scores use arbiter.Points (hundredths of a point) so that sums are exact.
// See docs/trf.md for the supported records with examples.
package trf
