package mathtask

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// buildProducts is math:Products-v0: the exact product of a digits_a-digit
// and a digits_b-digit whole number (default 4 and 3), a task whose answer
// has more digits than a small model computes reliably, and which a Python
// tool solves in one call. The sampler answers with a random number of the
// product's size (right about once in ten million tries).
//
// Option partial_credit (default false: GEM's 0 or 1) pays a wrong answer
// of the product's length half the share of its digits that are right in
// place (digitCredit): a reward shaping for training, below every solve,
// that pays an answer copied with a slip more than a random one. Success
// is still the exact product only.
func buildProducts(o *envs.Options) task.Generator {
	da := o.Int("digits_a", 4, 1, 9)
	db := o.Int("digits_b", 3, 1, 9)
	partial := o.Bool("partial_credit", false)
	return func(r *rand.Rand) task.Problem {
		a, b := nDigits(r, da), nDigits(r, db)
		gold := strconv.FormatInt(a*b, 10)
		score := check(gold)
		if partial {
			exact := score
			score = func(ans string) float64 {
				if s := exact(ans); s >= 1 {
					return s
				}
				return digitCredit(ans, gold)
			}
		}
		return task.Problem{
			Question: fmt.Sprintf("Compute %d × %d exactly.", a, b),
			Answer:   gold,
			Score:    score,
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

// digitCredit is the partial credit of a wrong answer ans to the whole
// number gold: half the share of gold's digits that ans matches in place
// when ans is a digit string of gold's length (surrounding space ignored),
// else 0. It stays below 1/2, so no wrong answer pays as much as a solve.
func digitCredit(ans, gold string) float64 {
	ans = strings.TrimSpace(ans)
	if len(ans) != len(gold) {
		return 0
	}
	right := 0
	for i := range len(ans) {
		if ans[i] < '0' || ans[i] > '9' {
			return 0
		}
		if ans[i] == gold[i] {
			right++
		}
	}
	if right == len(gold) {
		return 0 // the exact answer, scored by check
	}
	return 0.5 * float64(right) / float64(len(gold))
}
