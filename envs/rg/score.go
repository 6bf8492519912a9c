package rg

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs/mathtask"
)

// numeric scores 1 when the answer is the number gold in any written form.
func numeric(gold string) func(string) float64 {
	return func(ans string) float64 {
		if mathtask.Equivalent(ans, gold) {
			return 1
		}
		return 0
	}
}

// normText lower-cases s and collapses runs of space.
func normText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// exactText scores 1 when the answer equals gold ignoring case and spacing.
func exactText(gold string) func(string) float64 {
	g := normText(gold)
	return func(ans string) float64 {
		if normText(ans) == g {
			return 1
		}
		return 0
	}
}

// splitList reads a list answer: items separated by commas, or by spaces
// when there is no comma. Surrounding brackets are ignored.
func splitList(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimSuffix(s, "]"), "[")
	var parts []string
	if strings.Contains(s, ",") {
		parts = strings.Split(s, ",")
	} else {
		parts = strings.Fields(s)
	}
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// positional scores an ordered list: the number of positions where the
// answer's item equals the reference's (by eq), over the longer length.
func positional(gold []string, eq func(a, b string) bool) func(string) float64 {
	return func(ans string) float64 {
		got := splitList(ans)
		n := max(len(got), len(gold))
		if n == 0 {
			return 0
		}
		hit := 0
		for i := range min(len(got), len(gold)) {
			if eq(got[i], gold[i]) {
				hit++
			}
		}
		return float64(hit) / float64(n)
	}
}

// positionalWords is positional over space-separated words, ignoring case.
func positionalWords(gold string) func(string) float64 {
	g := strings.Fields(strings.ToLower(gold))
	return func(ans string) float64 {
		got := strings.Fields(strings.ToLower(ans))
		n := max(len(got), len(g))
		if n == 0 {
			return 0
		}
		hit := 0
		for i := range min(len(got), len(g)) {
			if got[i] == g[i] {
				hit++
			}
		}
		return float64(hit) / float64(n)
	}
}

func eqNumber(a, b string) bool { return mathtask.Equivalent(a, b) }
func eqFold(a, b string) bool   { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// joinInts writes xs as "1, 2, 3".
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// intIn draws a whole number in [lo, hi].
func intIn(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// sampleInt returns a sampler of whole numbers in [lo, hi].
func sampleInt(lo, hi int) func(*rand.Rand) string {
	return func(r *rand.Rand) string { return fmt.Sprint(intIn(r, lo, hi)) }
}

// sampleWord returns a sampler of one word from words.
func sampleWord(words []string) func(*rand.Rand) string {
	return func(r *rand.Rand) string { return words[r.IntN(len(words))] }
}
