package mathtask

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// buildProducts is math:Products-v0: the exact product of a digits_a-digit
// and a digits_b-digit whole number (default 4 and 3), a task whose answer
// has more digits than a small model computes reliably, and which a Python
// tool solves in one call. The sampler answers with a random number of the
// product's size (right about once in ten million tries).
func buildProducts(o *envs.Options) task.Generator {
	da := o.Int("digits_a", 4, 1, 9)
	db := o.Int("digits_b", 3, 1, 9)
	return func(r *rand.Rand) task.Problem {
		a, b := nDigits(r, da), nDigits(r, db)
		gold := strconv.FormatInt(a*b, 10)
		return task.Problem{
			Question: fmt.Sprintf("Compute %d × %d exactly.", a, b),
			Answer:   gold,
			Score:    check(gold),
			Sample: func(r *rand.Rand) string {
				return strconv.FormatInt(nDigits(r, len(gold)), 10)
			},
		}
	}
}

// nDigits draws a whole number with exactly n decimal digits.
func nDigits(r *rand.Rand, n int) int64 {
	lo := int64(1)
	for range n - 1 {
		lo *= 10
	}
	return lo + r.Int64N(9*lo)
}
