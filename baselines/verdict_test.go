package baselines

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/stats"
)

// Wilson's interval against values computed apart from this code (Python, the textbook formula)
// (z = 1.96): it stays in [0, 1], is not empty at 0 and 1, and narrows
// with the episodes.
func TestWilson(t *testing.T) {
	cases := []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		{0.995, 200, 0.97225, 0.99912},
		{0.5, 100, 0.40383, 0.59617},
		{0, 200, 0, 0.01884},
		{1, 200, 0.98116, 1},
		{0.38, 200, 0.31559, 0.44893},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.p, c.n)
		assert.InDelta(t, c.lo, lo, 5e-5, "p %v n %d", c.p, c.n)
		assert.InDelta(t, c.hi, hi, 5e-5, "p %v n %d", c.p, c.n)
	}
	for k := 0; k <= 50; k++ {
		p := float64(k) / 50
		lo, hi := Wilson(p, 50)
		assert.True(t, 0 <= lo && lo <= p && p <= hi && hi <= 1 && hi-lo > 0, "k %d: [%v, %v]", k, lo, hi)
		lo2, hi2 := Wilson(p, 500)
		assert.Less(t, hi2-lo2, hi-lo, "k %d: ten times the episodes, a narrower interval", k)
	}
	lo, hi := Wilson(0.5, 0)
	assert.True(t, math.IsNaN(lo) && math.IsNaN(hi))
}

// The verdict compares the two intervals: apart above, apart below, and
// "at" whenever they touch; nothing before every seed has finished or
// without reference play.
func TestVerdict(t *testing.T) {
	// random play 199 of 200: [0.97225, 0.99912]
	ref := Reference{Random: 0.995, Episodes: 200, Plays: 200}
	row := func(lo, hi float64, complete int) Row {
		return Row{Name: "c", HasRef: true, Ref: ref, Seeds: 3,
			Sum: compare.ArmSummary{Complete: complete, Final: stats.Stat{N: complete, Mean: (lo + hi) / 2, Lo: lo, Hi: hi}}}
	}
	assert.Equal(t, Below, Verdict(row(0.830, 0.970, 3)))
	assert.Equal(t, At, Verdict(row(0.830, 0.990, 3)), "the interval reaches random play's: at, though the mean is below")
	assert.Equal(t, At, Verdict(row(0.98, 1, 3)))
	assert.Equal(t, Above, Verdict(Row{HasRef: true, Ref: Reference{Random: 0.38, Plays: 200}, Seeds: 3,
		Sum: compare.ArmSummary{Complete: 3, Final: stats.Stat{N: 3, Mean: 0.5, Lo: 0.45, Hi: 0.55}}}))
	assert.Equal(t, At, Verdict(Row{HasRef: true, Ref: Reference{Random: 0.38, Plays: 200}, Seeds: 3,
		Sum: compare.ArmSummary{Complete: 3, Final: stats.Stat{N: 3, Mean: 0.45, Lo: 0.44, Hi: 0.46}}}), "0.44 is inside [0.316, 0.449]")
	assert.Equal(t, "", Verdict(row(0.5, 0.6, 2)), "a seed unfinished")
	r := row(0.5, 0.6, 3)
	r.HasRef = false
	assert.Equal(t, "", Verdict(r), "no reference play")
	r = row(0.5, 0.6, 3)
	r.Ref.Plays = 0
	assert.Equal(t, "", Verdict(r), "reference play without its episode count (a summary from before)")

	rows := []Row{row(0.83, 0.97, 3), row(0.83, 0.99, 3), row(0.5, 0.6, 1)}
	assert.Equal(t, "Of the 2 configs with every seed finished (of 3): 0 above random play's interval, 1 at it (the intervals overlap), 1 below.", Tally(rows))
}
