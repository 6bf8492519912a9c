package qa

import (
	"strings"
	"unicode"
)

// Normalize is SQuAD's answer normalisation: lower case, punctuation
// removed, the articles "a", "an" and "the" removed as whole words, and
// runs of whitespace collapsed to one space.
func Normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) && r < 128 {
			return -1
		}
		return r
	}, s)
	fields := strings.Fields(s)
	out := fields[:0]
	for _, f := range fields {
		if f != "a" && f != "an" && f != "the" {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// ExactMatch is 1 when pred equals one of golds after Normalize, else 0.
func ExactMatch(pred string, golds []string) float64 {
	p := Normalize(pred)
	for _, g := range golds {
		if Normalize(g) == p {
			return 1
		}
	}
	return 0
}

// F1 is SQuAD's token F1 of pred against the best of golds: with the
// normalised tokens of both, precision = common/len(pred), recall =
// common/len(gold), F1 = 2pr/(p+r), where common counts shared tokens with
// multiplicity. When either side has no tokens, F1 is 1 if both are empty
// and 0 otherwise.
func F1(pred string, golds []string) float64 {
	pt := strings.Fields(Normalize(pred))
	best := 0.0
	for _, g := range golds {
		best = max(best, tokenF1(pt, strings.Fields(Normalize(g))))
	}
	return best
}

func tokenF1(pred, gold []string) float64 {
	if len(pred) == 0 || len(gold) == 0 {
		if len(pred) == len(gold) {
			return 1
		}
		return 0
	}
	counts := map[string]int{}
	for _, t := range gold {
		counts[t]++
	}
	common := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(pred))
	r := float64(common) / float64(len(gold))
	return 2 * p * r / (p + r)
}
