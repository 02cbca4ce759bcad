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
// Scores use arbiter.Points (hundredths of a point) so that sums are exact.
// See docs/trf.md for the supported records with examples.
package trf
