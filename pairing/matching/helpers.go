package matching

// Small slice helpers of the blossom algorithm.

func fill(n, v int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = v
	}
	return r
}

func reverse(a []int) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}

func index(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	panic("matching: blossom child not found")
}

// at indexes with Python-style negative indexes.
func at(a []int, i int) int {
	if i < 0 {
		i += len(a)
	}
	return a[i]
}
