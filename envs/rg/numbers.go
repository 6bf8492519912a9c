package rg

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/envs/task"
)

func numberSpecs() []spec {
	return []spec{
		{"gcd", "greatest common divisor of 2-4 numbers; exact; knobs count [2,4], max_value [2,10000]", hintNumber, buildGCD},
		{"lcm", "least common multiple of 2-4 numbers; exact; knobs count [2,4], max_value [2,100]", hintNumber, buildLCM},
		{"prime_factorization", "factor a number into primes, e.g. 2 × 2 × 3 or 2^2 * 3; exact (any order); knob max_value [4,1000000]",
			"Write the prime factors separated by ×, e.g. 2 × 2 × 3.", buildPrimeFactorization},
		{"count_primes", "count the primes in a range; exact; knob max_value [10,10000]", hintNumber, buildCountPrimes},
		{"count_bits", "count the 1 bits of a number; exact; knob bits [1,62]", hintNumber, buildCountBits},
		{"base_conversion", "convert a number between bases 2-16; exact (prefixes 0x/0b/0o allowed); knob max_value [1,1000000]",
			"Give the digits only, lower case for letters.", buildBaseConversion},
		{"roman_numerals", "convert to or from Roman numerals; exact; knob max_value [1,3999]", "", buildRoman},
		{"fraction_simplification", "reduce a fraction to lowest terms; 1 for p/q in lowest terms, 0.5 for an equal unreduced fraction; knob max_value [2,100]",
			"Write the fraction as p/q.", buildFractionSimplification},
		{"number_sequence", "give the next term of an arithmetic, geometric, square or Fibonacci-like sequence; exact; knob terms [3,8]", hintNumber, buildNumberSequence},
	}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

func buildGCD(o *envs.Options) task.Generator {
	count := o.Int("count", 2, 2, 4)
	maxV := o.Int("max_value", 100, 2, 10000)
	return func(r *rand.Rand) task.Problem {
		g := intIn(r, 1, max(1, maxV/4))
		xs := make([]int, count)
		ans := 0
		for i := range xs {
			xs[i] = g * intIn(r, 1, max(1, maxV/g))
			ans = gcd(ans, xs[i])
		}
		a := fmt.Sprint(ans)
		return task.Problem{
			Question: fmt.Sprintf("What is the greatest common divisor of %s?", joinInts(xs)),
			Answer:   a, Score: numeric(a), Sample: sampleInt(1, maxV),
		}
	}
}

func buildLCM(o *envs.Options) task.Generator {
	count := o.Int("count", 2, 2, 4)
	maxV := o.Int("max_value", 20, 2, 100)
	return func(r *rand.Rand) task.Problem {
		xs := make([]int, count)
		l := 1
		for i := range xs {
			xs[i] = intIn(r, 2, maxV)
			l = l / gcd(l, xs[i]) * xs[i]
		}
		a := fmt.Sprint(l)
		return task.Problem{
			Question: fmt.Sprintf("What is the least common multiple of %s?", joinInts(xs)),
			Answer:   a, Score: numeric(a), Sample: sampleInt(2, maxV*maxV),
		}
	}
}

// factorize returns the prime factors of n ≥ 2 in ascending order.
func factorize(n int) []int {
	var fs []int
	for p := 2; p*p <= n; p++ {
		for n%p == 0 {
			fs = append(fs, p)
			n /= p
		}
	}
	if n > 1 {
		fs = append(fs, n)
	}
	return fs
}

func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	for p := 2; p*p <= n; p++ {
		if n%p == 0 {
			return false
		}
	}
	return true
}

var (
	reFactorSep = regexp.MustCompile(`\\times|\\cdot|[×*·xX]|\s+`)
	reFactor    = regexp.MustCompile(`^(\d+)(?:(?:\^|\*\*)\{?(\d+)\}?)?$`)
)

// scoreFactorization scores 1 when ans lists primes (p or p^k) whose product is n.
func scoreFactorization(n int) func(string) float64 {
	return func(ans string) float64 {
		ans = strings.ReplaceAll(mathtask.Normalize(ans), "**", "^")
		prod := big.NewInt(1)
		limit := big.NewInt(int64(n))
		any := false
		for _, tok := range reFactorSep.Split(ans, -1) {
			if tok == "" {
				continue
			}
			m := reFactor.FindStringSubmatch(tok)
			if m == nil {
				return 0
			}
			p, err := strconv.Atoi(m[1])
			if err != nil || !isPrime(p) {
				return 0
			}
			k := 1
			if m[2] != "" {
				if k, err = strconv.Atoi(m[2]); err != nil || k < 1 || k > 64 {
					return 0
				}
			}
			prod.Mul(prod, new(big.Int).Exp(big.NewInt(int64(p)), big.NewInt(int64(k)), nil))
			if prod.Cmp(limit) > 0 {
				return 0
			}
			any = true
		}
		if any && prod.Cmp(limit) == 0 {
			return 1
		}
		return 0
	}
}

func buildPrimeFactorization(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 1000, 4, 1000000)
	return func(r *rand.Rand) task.Problem {
		n := intIn(r, 4, maxV)
		fs := factorize(n)
		parts := make([]string, len(fs))
		for i, f := range fs {
			parts[i] = fmt.Sprint(f)
		}
		return task.Problem{
			Question: fmt.Sprintf("What is the prime factorization of %d?", n),
			Answer:   strings.Join(parts, " × "),
			Score:    scoreFactorization(n),
			Sample: func(r *rand.Rand) string {
				small := []string{"2", "3", "5", "7", "11"}
				k := intIn(r, 1, 4)
				ps := make([]string, k)
				for i := range ps {
					ps[i] = small[r.IntN(len(small))]
				}
				return strings.Join(ps, " × ")
			},
		}
	}
}

func buildCountPrimes(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 100, 10, 10000)
	return func(r *rand.Rand) task.Problem {
		a := intIn(r, 1, maxV-5)
		b := intIn(r, a+5, maxV)
		n := 0
		for x := a; x <= b; x++ {
			if isPrime(x) {
				n++
			}
		}
		ans := fmt.Sprint(n)
		return task.Problem{
			Question: fmt.Sprintf("How many prime numbers are there between %d and %d, inclusive?", a, b),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, (b-a)/2+1),
		}
	}
}

func buildCountBits(o *envs.Options) task.Generator {
	nbits := o.Int("bits", 16, 1, 62)
	return func(r *rand.Rand) task.Problem {
		n := r.Uint64N(uint64(1) << nbits)
		ans := fmt.Sprint(bits.OnesCount64(n))
		return task.Problem{
			Question: fmt.Sprintf("How many 1 bits are there in the binary representation of %d?", n),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, nbits),
		}
	}
}

// normDigits reads a base-b answer: lower case, no 0x/0b/0o prefix or
// subscript, no leading zeros, no spaces or underscores.
func normDigits(s string) string {
	s = strings.ToLower(mathtask.Normalize(s))
	if i := strings.Index(s, "_"); i > 0 { // 1010_2, 1010_{2}
		s = s[:i]
	}
	s = strings.ReplaceAll(s, " ", "")
	for _, pre := range []string{"0x", "0b", "0o"} {
		s = strings.TrimPrefix(s, pre)
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "0"
	}
	return s
}

func buildBaseConversion(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 1000, 1, 1000000)
	return func(r *rand.Rand) task.Problem {
		n := int64(intIn(r, 0, maxV))
		bases := []int{2, 8, 10, 16, intIn(r, 3, 9)}
		from := bases[r.IntN(len(bases))]
		to := from
		for to == from {
			to = bases[r.IntN(len(bases))]
		}
		ans := strconv.FormatInt(n, to)
		gold := normDigits(ans)
		return task.Problem{
			Question: fmt.Sprintf("Convert the base-%d number %s to base %d.", from, strconv.FormatInt(n, from), to),
			Answer:   ans,
			Score: func(a string) float64 {
				if a != "" && normDigits(a) == gold {
					return 1
				}
				return 0
			},
			Sample: func(r *rand.Rand) string { return strconv.FormatInt(int64(r.IntN(maxV+1)), to) },
		}
	}
}

var romanTable = []struct {
	v int
	s string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

// toRoman writes 1 ≤ n ≤ 3999 in Roman numerals.
func toRoman(n int) string {
	var b strings.Builder
	for _, t := range romanTable {
		for n >= t.v {
			b.WriteString(t.s)
			n -= t.v
		}
	}
	return b.String()
}

func buildRoman(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 100, 1, 3999)
	return func(r *rand.Rand) task.Problem {
		n := intIn(r, 1, maxV)
		if r.IntN(2) == 0 {
			ans := toRoman(n)
			return task.Problem{
				Question: fmt.Sprintf("Write %d in Roman numerals.", n),
				Answer:   ans, Score: exactText(ans),
				Sample: func(r *rand.Rand) string { return toRoman(intIn(r, 1, maxV)) },
			}
		}
		ans := fmt.Sprint(n)
		return task.Problem{
			Question: fmt.Sprintf("What number is the Roman numeral %s?", toRoman(n)),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(1, maxV),
		}
	}
}

var reFraction = regexp.MustCompile(`^(-?\d+)\s*/\s*(\d+)$|^\\frac\{(-?\d+)\}\{(\d+)\}$|^(-?\d+)$`)

// parseFraction reads p/q, \frac{p}{q} or a whole p (q = 1).
func parseFraction(s string) (p, q int, ok bool) {
	m := reFraction.FindStringSubmatch(mathtask.Normalize(s))
	if m == nil {
		return 0, 0, false
	}
	ps, qs := m[1]+m[3]+m[5], m[2]+m[4]
	if qs == "" {
		qs = "1"
	}
	p, err1 := strconv.Atoi(ps)
	q, err2 := strconv.Atoi(qs)
	if err1 != nil || err2 != nil || q == 0 {
		return 0, 0, false
	}
	return p, q, true
}

// scoreFraction: 1 for gp/gq in lowest terms, 0.5 for an equal unreduced fraction.
func scoreFraction(gp, gq int) func(string) float64 {
	return func(ans string) float64 {
		p, q, ok := parseFraction(ans)
		if !ok || int64(p)*int64(gq) != int64(gp)*int64(q) {
			return 0
		}
		if gcd(p, q) == 1 {
			return 1
		}
		return 0.5
	}
}

func buildFractionSimplification(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 20, 2, 100)
	return func(r *rand.Rand) task.Problem {
		var p, q int
		for {
			p, q = intIn(r, 1, maxV), intIn(r, 2, maxV)
			if g := gcd(p, q); g != 1 {
				p, q = p/g, q/g
			}
			if q != 1 {
				break
			}
		}
		k := intIn(r, 2, 12)
		ans := fmt.Sprintf("%d/%d", p, q)
		return task.Problem{
			Question: fmt.Sprintf("Simplify the fraction %d/%d to lowest terms.", p*k, q*k),
			Answer:   ans, Score: scoreFraction(p, q),
			Sample: func(r *rand.Rand) string { return fmt.Sprintf("%d/%d", intIn(r, 1, maxV), intIn(r, 2, maxV)) },
		}
	}
}

func buildNumberSequence(o *envs.Options) task.Generator {
	terms := o.Int("terms", 5, 3, 8)
	return func(r *rand.Rand) task.Problem {
		seq := make([]int, terms+1)
		switch r.IntN(4) {
		case 0: // arithmetic
			a, d := intIn(r, -20, 50), intIn(r, -9, 12)
			for i := range seq {
				seq[i] = a + i*d
			}
		case 1: // geometric
			a, q := intIn(r, 1, 5), intIn(r, 2, 3)
			if r.IntN(3) == 0 {
				q = -q
			}
			seq[0] = a
			for i := 1; i < len(seq); i++ {
				seq[i] = seq[i-1] * q
			}
		case 2: // shifted squares
			s, c := intIn(r, 0, 5), intIn(r, -5, 10)
			for i := range seq {
				seq[i] = (s+i)*(s+i) + c
			}
		default: // Fibonacci-like
			seq[0], seq[1] = intIn(r, 0, 5), intIn(r, 1, 5)
			for i := 2; i < len(seq); i++ {
				seq[i] = seq[i-1] + seq[i-2]
			}
		}
		ans := fmt.Sprint(seq[terms])
		return task.Problem{
			Question: fmt.Sprintf("What is the next number in the sequence %s, ...?", joinInts(seq[:terms])),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(-100, 500),
		}
	}
}
