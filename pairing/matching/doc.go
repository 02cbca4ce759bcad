// Package matching computes maximum-weight perfect matchings in general
// graphs (Edmonds' blossom algorithm with dual variables) with integer edge
// weights of arbitrary fixed width, warm-started between solves
// (Incremental): the Dutch engine re-solves after each bracket changes a
// few vertices' edges.
package matching
