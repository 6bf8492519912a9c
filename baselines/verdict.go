package baselines

import (
	"fmt"
	"math"
)

// Verdicts of a trained config against random play, by interval.
const (
	Above = "above" // the trained interval lies wholly above random play's
	At    = "at"    // the two intervals overlap
	Below = "below" // the trained interval lies wholly below random play's
)

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the Wilson score 95% interval of a success rate p measured on
// n episodes (each a success or not). It stays inside [0, 1] and is not
// empty at p = 0 or 1, where the normal approximation's is: 199 of 200
// gives [0.972, 0.999]. n < 1 gives [NaN, NaN].
func Wilson(p float64, n int) (lo, hi float64) {
	if n < 1 || math.IsNaN(p) {
		return math.NaN(), math.NaN()
	}
	nf, z2 := float64(n), z95*z95
	den := 1 + z2/nf
	mid := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

// RandomInterval is the Wilson 95% interval of random play's success
// (GEM's draw) over the episodes it was played on.
func (r Reference) RandomInterval() (lo, hi float64) { return Wilson(r.Random, r.Plays) }

// Verdict places a row's trained interval (the bootstrap 95% interval of
// the mean over seeds) against random play's Wilson interval: Above or
// Below when they do not overlap, At when they do; "" when the row has no
// reference play or not every seed finished.
func Verdict(r Row) string {
	f := r.Sum.Final
	if !r.HasRef || r.Ref.Plays < 1 || f.N == 0 || r.Sum.Complete < r.Seeds {
		return ""
	}
	lo, hi := r.Ref.RandomInterval()
	switch {
	case f.Lo > hi:
		return Above
	case f.Hi < lo:
		return Below
	}
	return At
}

// Tally is the sentence under the table: how many configs with every seed
// finished lie above, at and below random play's interval.
func Tally(rows []Row) string {
	n := map[string]int{}
	done := 0
	for _, r := range rows {
		if v := Verdict(r); v != "" {
			n[v]++
			done++
		}
	}
	return fmt.Sprintf("Of the %d configs with every seed finished (of %d): %d above random play's interval, %d at it (the intervals overlap), %d below.",
		done, len(rows), n[Above], n[At], n[Below])
}
