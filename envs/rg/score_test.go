package rg

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

func TestPositional(t *testing.T) {
	s := positional([]string{"1", "2", "3"}, eqNumber)
	for ans, want := range map[string]float64{
		"1, 2, 3":    1,
		"[1, 2, 3]":  1,
		"1 2 3":      1,
		"1, 3, 2":    1.0 / 3,
		"1, 2":       2.0 / 3,
		"1, 2, 3, 4": 3.0 / 4,
		"3, 2, 1":    1.0 / 3,
		"":           0,
		"1.0, 2, 3":  1,
	} {
		assert.InDelta(t, want, s(ans), 1e-12, "positional(%q)", ans)
	}
	w := positionalWords("hello big world")
	assert.InDelta(t, 1.0/4, w("Hello there big world"), 1e-12)
	assert.InDelta(t, 1.0, w("HELLO  big world"), 1e-12)
	assert.InDelta(t, 2.0/3, w("hello big"), 1e-12)
}

func TestScoreJaccard(t *testing.T) {
	s := scoreJaccard([]int{2, 5})
	for ans, want := range map[string]float64{
		"2, 5":    1,
		"5, 2":    1,
		"2":       0.5,
		"2, 7":    1.0 / 3,
		"2, 5, 9": 2.0 / 3,
		"2, x":    0,
		"":        0,
	} {
		assert.InDelta(t, want, s(ans), 1e-12, "jaccard(%q)", ans)
	}
}

func TestScoreFraction(t *testing.T) {
	s := scoreFraction(2, 3)
	for ans, want := range map[string]float64{
		"2/3": 1, `\frac{2}{3}`: 1, " 2 / 3 ": 1, "4/6": 0.5, `\dfrac{20}{30}`: 0.5,
		"3/2": 0, "0.666": 0, "2/0": 0, "two thirds": 0,
	} {
		assert.Equal(t, want, s(ans), "fraction(%q)", ans)
	}
	assert.Equal(t, 1.0, scoreFraction(-1, 4)("-1/4"))
}

func TestScoreFactorization(t *testing.T) {
	s := scoreFactorization(360)
	for ans, want := range map[string]float64{
		"2 × 2 × 2 × 3 × 3 × 5":    1,
		"2^3 * 3^2 * 5":            1,
		`2^{3} \times 3^2 \cdot 5`: 1,
		"5 x 3 x 3 x 2 x 2 x 2":    1,
		"2**3*3**2*5":              1,
		"8 × 45":                   0, // not primes
		"2 × 2 × 2 × 3 × 3":        0, // product 72
		"2^100":                    0,
		"":                         0,
	} {
		assert.Equal(t, want, s(ans), "factorization(%q)", ans)
	}
	assert.Equal(t, []int{2, 2, 2, 3, 3, 5}, factorize(360))
	assert.Equal(t, []int{97}, factorize(97))
}

func TestNumberHelpers(t *testing.T) {
	assert.Equal(t, 14, evalPrecedence([]int{2, 3, 4}, []byte{'+', '*'}))
	assert.Equal(t, 4, evalPrecedence([]int{10, 2, 3}, []byte{'-', '*'}))
	assert.Equal(t, 2, evalPrecedence([]int{2, 3, 4}, []byte{'*', '-'}))
	assert.Equal(t, -1, evalPrecedence([]int{1, 2}, []byte{'-'}))
	assert.Equal(t, "MCMXCIV", toRoman(1994))
	assert.Equal(t, "MMMCMXCIX", toRoman(3999))
	assert.Equal(t, "IV", toRoman(4))
	assert.Equal(t, 6, gcd(12, 18))
	assert.Equal(t, 5, gcd(-5, 0))
	assert.Equal(t, "1f", normDigits("0x1F"))
	assert.Equal(t, "10b", normDigits("10b"))
	assert.Equal(t, "1010", normDigits("1010_2"))
	assert.Equal(t, "0", normDigits("000"))
	assert.Equal(t, "0.25", ratString(big.NewRat(1, 4)))
	assert.Equal(t, "1/3", ratString(big.NewRat(1, 3)))
	assert.Equal(t, "-1.5", ratString(big.NewRat(-3, 2)))
	assert.Equal(t, "5", ratString(big.NewRat(10, 2)))
	assert.Equal(t, "DEF ABC", shift("abc xyz", 3))
	assert.Equal(t, "elppa", reverse("apple"))
}

func TestParseClock(t *testing.T) {
	v, ok := parseClock("9:05")
	assert.True(t, ok)
	assert.Equal(t, 545, v)
	v, ok = parseClock("23:59")
	assert.True(t, ok)
	assert.Equal(t, 1439, v)
	for _, bad := range []string{"24:00", "12:60", "1205", "12:5", ""} {
		_, ok := parseClock(bad)
		assert.False(t, ok, bad)
	}
	assert.Equal(t, "00:07", clock(7))
}

// Every task's scorer, on any string, returns a score in [0, 1] without
// panicking (the env clamps too, but the scorers themselves must be safe).
func FuzzScorers(f *testing.F) {
	for _, s := range []string{"1, 2, 3", "2^3 * 5", `\frac{2}{3}`, "12:05", "2024-02-29", "MCM", "0x1f", "", "{}}{", "1e400"} {
		f.Add(s, uint64(0))
	}
	type entry struct {
		name string
		gen  func(seed uint64) func(string) float64
	}
	var all []entry
	for _, s := range specs() {
		o := envs.NewOptions("fuzz")
		g := s.build(o)
		all = append(all, entry{s.name, func(seed uint64) func(string) float64 {
			return g(task.Seeded(seed)).Score
		}})
	}
	f.Fuzz(func(t *testing.T, ans string, seed uint64) {
		for _, e := range all {
			score := e.gen(seed % 8)(ans)
			if !(score >= 0 && score <= 1) {
				t.Fatalf("%s: score(%q) = %v, want [0, 1]", e.name, ans, score)
			}
		}
	})
}

func TestStringOps(t *testing.T) {
	want := []string{"elppA", "APPLE", "apple", "ppl", "ppleA"}
	for i, op := range stringOps {
		assert.Equal(t, want[i], op.fn("Apple"), op.desc)
	}
	assert.Equal(t, "x", stringOps[4].fn("x"))
}
