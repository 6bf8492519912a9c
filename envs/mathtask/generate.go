package mathtask

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

func intIn(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// check scores 1 when the answer is Equivalent to gold.
func check(gold string) func(string) float64 {
	return func(ans string) float64 {
		if Equivalent(ans, gold) {
			return 1
		}
		return 0
	}
}

// sampleNumber draws a plausible number: usually a whole number, sometimes
// a fraction or a decimal, so that warm-up sees every form the checker reads.
func sampleNumber(r *rand.Rand) string {
	switch r.IntN(6) {
	case 0:
		return fmt.Sprintf(`\frac{%d}{%d}`, intIn(r, -20, 20), intIn(r, 2, 12))
	case 1:
		return fmt.Sprintf("%d.%d", intIn(r, -50, 50), r.IntN(10))
	default:
		return fmt.Sprint(intIn(r, -100, 1000))
	}
}

// FormatRat writes v as a whole number, a terminating decimal, or p/q.
func FormatRat(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	d := new(big.Int).Set(v.Denom())
	n := 0
	for _, p := range []int64{2, 5} {
		bp, m := big.NewInt(p), new(big.Int)
		for {
			q, rem := new(big.Int).QuoRem(d, bp, m)
			if rem.Sign() != 0 {
				break
			}
			d, n = q, n+1
		}
	}
	if d.IsInt64() && d.Int64() == 1 {
		return strings.TrimRight(strings.TrimRight(v.FloatString(n), "0"), ".")
	}
	return v.String()
}

// expr is a random arithmetic expression tree.
type expr struct {
	op          byte // 0 for a number
	n           int
	left, right *expr
}

func (e *expr) value() (*big.Rat, bool) {
	if e.op == 0 {
		return big.NewRat(int64(e.n), 1), true
	}
	a, ok1 := e.left.value()
	b, ok2 := e.right.value()
	if !ok1 || !ok2 {
		return nil, false
	}
	switch e.op {
	case '+':
		return a.Add(a, b), true
	case '-':
		return a.Sub(a, b), true
	case '*':
		return a.Mul(a, b), true
	default:
		if b.Sign() == 0 {
			return nil, false
		}
		return a.Quo(a, b), true
	}
}

func (e *expr) String() string {
	if e.op == 0 {
		return fmt.Sprint(e.n)
	}
	wrap := func(c *expr) string {
		if c.op == 0 {
			return c.String()
		}
		return "(" + c.String() + ")"
	}
	return fmt.Sprintf("%s %c %s", wrap(e.left), e.op, wrap(e.right))
}

// randomExpr builds a tree with the given number of leaves.
func randomExpr(r *rand.Rand, leaves, maxV int, ops string) *expr {
	if leaves == 1 {
		return &expr{n: intIn(r, 1, maxV)}
	}
	k := intIn(r, 1, leaves-1)
	return &expr{
		op:    ops[r.IntN(len(ops))],
		left:  randomExpr(r, k, maxV, ops),
		right: randomExpr(r, leaves-k, maxV, ops),
	}
}

func buildArithmetic(o *envs.Options) task.Generator {
	terms := o.Int("terms", 3, 2, 6)
	maxV := o.Int("max_value", 12, 2, 100)
	division := o.Bool("division", true)
	ops := "+-*"
	if division {
		ops += "/"
	}
	return func(r *rand.Rand) task.Problem {
		for {
			e := randomExpr(r, terms, maxV, ops)
			v, ok := e.value()
			if !ok {
				continue // division by zero: draw again
			}
			ans := FormatRat(v)
			return task.Problem{
				Question: fmt.Sprintf("Compute %s.", e), Answer: ans,
				Score: check(ans), Sample: sampleNumber,
			}
		}
	}
}

// linear writes a*v + b with signs tidied ("3x - 5", "-x", "7").
func linear(a, b int, v string) string {
	var s string
	switch a {
	case 0:
		return fmt.Sprint(b)
	case 1:
		s = v
	case -1:
		s = "-" + v
	default:
		s = fmt.Sprintf("%d%s", a, v)
	}
	switch {
	case b > 0:
		s += fmt.Sprintf(" + %d", b)
	case b < 0:
		s += fmt.Sprintf(" - %d", -b)
	}
	return s
}

func buildAlgebra(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 10, 1, 100)
	fractions := o.Bool("fractions", false)
	return func(r *rand.Rand) task.Problem {
		v := string("xyzt"[r.IntN(4)])
		a, c := intIn(r, -9, 9), intIn(r, -9, 9)
		for a == c {
			c = intIn(r, -9, 9)
		}
		var x *big.Rat
		if fractions {
			x = big.NewRat(int64(intIn(r, -maxV, maxV)), int64(intIn(r, 1, 6)))
		} else {
			x = big.NewRat(int64(intIn(r, -maxV, maxV)), 1)
		}
		// a x + b = c x + d  with  d = (a - c) x + b: choose b, then d must be
		// whole, so scale when x is a fraction.
		b := intIn(r, -20, 20)
		diff := new(big.Rat).Mul(big.NewRat(int64(a-c), 1), x)
		if !diff.IsInt() {
			k := diff.Denom().Int64()
			a, c = a*int(k), c*int(k)
			diff.Mul(diff, big.NewRat(k, 1))
		}
		d := int(diff.Num().Int64()) + b
		ans := FormatRat(x)
		return task.Problem{
			Question: fmt.Sprintf("Solve for %s: %s = %s", v, linear(a, b, v), linear(c, d, v)),
			Answer:   ans, Score: check(ans), Sample: sampleNumber,
		}
	}
}

func buildFractions(o *envs.Options) task.Generator {
	maxD := o.Int("max_denominator", 12, 2, 100)
	return func(r *rand.Rand) task.Problem {
		for {
			a := big.NewRat(int64(intIn(r, 1, maxD)), int64(intIn(r, 2, maxD)))
			b := big.NewRat(int64(intIn(r, 1, maxD)), int64(intIn(r, 2, maxD)))
			op := "+-*/"[r.IntN(4)]
			v := new(big.Rat)
			switch op {
			case '+':
				v.Add(a, b)
			case '-':
				v.Sub(a, b)
			case '*':
				v.Mul(a, b)
			default:
				v.Quo(a, b)
			}
			if v.IsInt() && r.IntN(2) == 0 {
				continue // mostly fractional answers
			}
			ans := v.RatString()
			return task.Problem{
				Question: fmt.Sprintf(`Compute \frac{%s}{%s} %c \frac{%s}{%s} exactly.`,
					a.Num(), a.Denom(), op, b.Num(), b.Denom()),
				Answer: ans, Score: check(ans), Sample: sampleNumber,
			}
		}
	}
}

func buildPercentages(_ *envs.Options) task.Generator {
	return func(r *rand.Rand) task.Problem {
		p := 5 * intIn(r, 1, 19)
		base := 20 * intIn(r, 1, 50)
		part := new(big.Rat).Mul(big.NewRat(int64(p), 100), big.NewRat(int64(base), 1))
		var q, ans string
		switch r.IntN(3) {
		case 0:
			q, ans = fmt.Sprintf("What is %d%% of %d?", p, base), FormatRat(part)
		case 1:
			q, ans = fmt.Sprintf("%s is what percent of %d?", FormatRat(part), base), fmt.Sprintf("%d%%", p)
		default:
			up := r.IntN(2) == 0
			v := new(big.Rat).SetInt64(int64(base))
			word := "decreased"
			if up {
				v.Add(v, part)
				word = "increased"
			} else {
				v.Sub(v, part)
			}
			q, ans = fmt.Sprintf("A price of %d is %s by %d%%. What is the new price?", base, word, p), FormatRat(v)
		}
		return task.Problem{Question: q, Answer: ans, Score: check(ans), Sample: sampleNumber}
	}
}
