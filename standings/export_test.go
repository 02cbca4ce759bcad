package standings

// Test helpers for the external tests that read TRF files (corpus_test.go,
// fide_test.go): package trf converts a TRF file into an Input and imports
// this package, so those tests cannot be in package standings.
var (
	CheckTotalOrder = checkTotalOrder
	Column          = column
	CheckColumn     = checkColumn
	Values          = values
	HeldExpected    = heldExpected
)
