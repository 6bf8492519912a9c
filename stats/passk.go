package stats

import "math"

// PassAtK is the unbiased estimator of pass@k from n samples of which c
// are correct (Chen et al., 2021): 1 − C(n−c, k)/C(n, k), the chance that
// k samples drawn without replacement from the n hold a correct one. It is
// computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i), which never forms the large
// binomials. It is NaN unless 0 ≤ c ≤ n and 1 ≤ k ≤ n.
func PassAtK(n, c, k int) float64 {
	if n < 1 || c < 0 || c > n || k < 1 || k > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod
}

// PassKs are the k reported for n samples: 1, 2, 4, … below n, and n.
func PassKs(n int) []int {
	var ks []int
	for k := 1; k < n; k *= 2 {
		ks = append(ks, k)
	}
	return append(ks, n)
}
