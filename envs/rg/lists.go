package rg

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/envs/task"
)

func listSpecs() []spec {
	return []spec{
		{"number_sorting", "sort numbers ascending or descending; partial: matching positions / max(len); knobs count [2,20], max_value [1,10000]",
			"Give the numbers separated by commas.", buildNumberSorting},
		{"word_sorting", "sort words alphabetically, ascending or descending; partial: matching positions / max(len); knob count [2,15]",
			"Give the words separated by commas.", buildWordSorting},
		{"set_intersection", "list the common elements of two sets; partial: Jaccard index of the answer set and the true one; knobs count [2,15], max_value [10,1000]",
			"Give the numbers separated by commas.", buildSetIntersection},
		{"mean", "the exact mean of a list of numbers; exact; knobs count [2,12], max_value [1,1000]", "Give the exact value.", buildMean},
		{"median", "the median of a list of numbers; exact; knobs count [2,12], max_value [1,1000]", "Give the exact value.", buildMedian},
	}
}

func buildNumberSorting(o *envs.Options) task.Generator {
	count := o.Int("count", 5, 2, 20)
	maxV := o.Int("max_value", 100, 1, 10000)
	return func(r *rand.Rand) task.Problem {
		xs := make([]int, count)
		for i := range xs {
			xs[i] = intIn(r, -maxV, maxV)
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		order := "ascending"
		if r.IntN(2) == 0 {
			order = "descending"
			slices.Reverse(sorted)
		}
		gold := strings.Split(joinInts(sorted), ", ")
		return task.Problem{
			Question: fmt.Sprintf("Sort these numbers in %s order: %s", order, joinInts(xs)),
			Answer:   joinInts(sorted), Score: positional(gold, eqNumber),
			Sample: func(r *rand.Rand) string {
				s := slices.Clone(xs)
				r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
				return joinInts(s)
			},
		}
	}
}

func buildWordSorting(o *envs.Options) task.Generator {
	count := o.Int("count", 5, 2, 15)
	return func(r *rand.Rand) task.Problem {
		perm := r.Perm(len(words))
		var ws []string
		for _, i := range perm {
			if !slices.Contains(ws, words[i]) {
				ws = append(ws, words[i])
			}
			if len(ws) == count {
				break
			}
		}
		sorted := slices.Clone(ws)
		slices.Sort(sorted)
		order := "ascending"
		if r.IntN(2) == 0 {
			order = "descending"
			slices.Reverse(sorted)
		}
		return task.Problem{
			Question: fmt.Sprintf("Sort these words in %s alphabetical order: %s", order, strings.Join(ws, ", ")),
			Answer:   strings.Join(sorted, ", "), Score: positional(sorted, eqFold),
			Sample: func(r *rand.Rand) string {
				s := slices.Clone(ws)
				r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
				return strings.Join(s, ", ")
			},
		}
	}
}

// scoreJaccard scores the answer's set of numbers against gold: |A∩B|/|A∪B|.
// An answer with an item that is not a number scores 0.
func scoreJaccard(gold []int) func(string) float64 {
	return func(ans string) float64 {
		got := map[string]bool{}
		for _, item := range splitList(ans) {
			v, ok := mathtask.Numbers(mathtask.Normalize(item))
			if !ok || len(v) != 1 {
				return 0
			}
			got[v[0].RatString()] = true
		}
		inter := 0
		union := len(got)
		for _, g := range gold {
			if got[fmt.Sprint(g)] {
				inter++
			} else {
				union++
			}
		}
		if union == 0 {
			return 0
		}
		return float64(inter) / float64(union)
	}
}

func buildSetIntersection(o *envs.Options) task.Generator {
	count := o.Int("count", 5, 2, 15)
	maxV := o.Int("max_value", 30, 10, 1000)
	if maxV < 2*count {
		o.Failf("max_value (%d) must be at least 2*count (%d)", maxV, 2*count)
		maxV = 2 * count
	}
	return func(r *rand.Rand) task.Problem {
		pool := r.Perm(maxV)
		common := intIn(r, 1, count-1)
		a := slices.Clone(pool[:count])
		b := slices.Clone(pool[count-common : 2*count-common])
		for i := range a {
			a[i]++
		}
		for i := range b {
			b[i]++
		}
		var inter []int
		for _, x := range a {
			if slices.Contains(b, x) {
				inter = append(inter, x)
			}
		}
		slices.Sort(inter)
		r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		return task.Problem{
			Question: fmt.Sprintf("What are the common elements of {%s} and {%s}? List them in ascending order.", joinInts(a), joinInts(b)),
			Answer:   joinInts(inter), Score: scoreJaccard(inter),
			Sample: func(r *rand.Rand) string { return joinInts(a[:intIn(r, 1, len(a))]) },
		}
	}
}

func randomList(r *rand.Rand, count, maxV int) []int {
	xs := make([]int, count)
	for i := range xs {
		xs[i] = intIn(r, 1, maxV)
	}
	return xs
}

func buildMean(o *envs.Options) task.Generator {
	count := o.Int("count", 4, 2, 12)
	maxV := o.Int("max_value", 50, 1, 1000)
	return func(r *rand.Rand) task.Problem {
		xs := randomList(r, count, maxV)
		sum := 0
		for _, x := range xs {
			sum += x
		}
		ans := ratString(big.NewRat(int64(sum), int64(count)))
		return task.Problem{
			Question: fmt.Sprintf("What is the mean of %s?", joinInts(xs)),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(1, maxV),
		}
	}
}

func buildMedian(o *envs.Options) task.Generator {
	count := o.Int("count", 5, 2, 12)
	maxV := o.Int("max_value", 50, 1, 1000)
	return func(r *rand.Rand) task.Problem {
		xs := randomList(r, count, maxV)
		s := slices.Clone(xs)
		slices.Sort(s)
		med := big.NewRat(int64(s[count/2]), 1)
		if count%2 == 0 {
			med = big.NewRat(int64(s[count/2-1]+s[count/2]), 2)
		}
		ans := ratString(med)
		return task.Problem{
			Question: fmt.Sprintf("What is the median of %s?", joinInts(xs)),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(1, maxV),
		}
	}
}
