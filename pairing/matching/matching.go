// Package matching computes maximum-weight matchings in general graphs
// (Edmonds' blossom algorithm with dual variables, O(n^3) per solve) with
// integer edge weights of arbitrary fixed width.
package matching

// Graph is an undirected graph on vertices 0..N-1 with multi-word weights.
// A zero weight means "no edge". Weights must be non-negative and leave the
// top two bits of the width free (the solver doubles them and the duals
// need headroom).
type Graph struct {
	n, words int
	w        []uint64 // lower triangle, edge (i>j) at ((i*(i-1))/2+j)*words
}

// New returns an edgeless graph with n vertices and weights of the given
// number of 64-bit words.
func New(n, words int) *Graph {
	return &Graph{n: n, words: words, w: make([]uint64, n*(n-1)/2*words)}
}

// Words is the weight width in 64-bit words.
func (g *Graph) Words() int { return g.words }

// Len is the number of vertices.
func (g *Graph) Len() int { return g.n }

func (g *Graph) at(i, j int) []uint64 {
	if i < j {
		i, j = j, i
	}
	o := (i*(i-1)/2 + j) * g.words
	return g.w[o : o+g.words : o+g.words]
}

// Set sets the weight of edge {i, j}; w is copied (shorter slices are
// zero-extended).
func (g *Graph) Set(i, j int, w []uint64) {
	d := g.at(i, j)
	n := copy(d, w)
	clear(d[n:])
}

// Clear removes edge {i, j}.
func (g *Graph) Clear(i, j int) { clear(g.at(i, j)) }

// Weight returns the weight of edge {i, j} (a view: do not modify).
func (g *Graph) Weight(i, j int) []uint64 { return g.at(i, j) }

// MaxWeight returns a maximum-weight matching on the given vertices (edges to
// other vertices are ignored): mate[v] is v's partner or -1, for every vertex
// of the graph (vertices outside active get -1).
func (g *Graph) MaxWeight(active []int) []int {
	s := newSolver(g, active)
	s.solve()
	mate := make([]int, g.n)
	for i := range mate {
		mate[i] = -1
	}
	for v, p := range s.mate {
		if p >= 0 {
			mate[active[v]] = active[s.endpoint[p]]
		}
	}
	return mate
}
