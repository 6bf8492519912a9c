package rg

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

const hintNumber = "Give the number only."

func arithSpecs() []spec {
	return []spec{
		{"basic_arithmetic", "evaluate an expression of + - * with precedence; exact; knobs terms [2,8], max_value [1,1000]", hintNumber, buildBasicArithmetic},
		{"chain_sum", "add and subtract a chain of numbers; exact; knobs terms [2,12], digits [1,6]", hintNumber, buildChainSum},
		{"products", "multiply two numbers; exact; knob digits [1,6]", hintNumber, buildProducts},
		{"power_function", "compute base^exponent exactly; exact; knobs max_base [2,20], max_exponent [0,20]", hintNumber, buildPower},
		{"simple_equations", "solve a*x + b = c for a whole x; exact; knob max_value [1,1000]", hintNumber, buildSimpleEquations},
		{"modular_arithmetic", "compute a mod m; exact; knobs digits [1,9], max_modulus [2,1000]", hintNumber, buildModular},
		{"digit_sum", "sum the digits of a number; exact; knob digits [1,18]", hintNumber, buildDigitSum},
		{"decimal_comparison", "pick the larger (or smaller) of two close decimals; exact; knob max_decimals [1,6]", hintNumber, buildDecimalComparison},
		{"unit_conversion", "convert a quantity between metric/time units; exact; no knobs", hintNumber, buildUnitConversion},
		{"leg_counting", "count the legs of a group of animals; exact; knobs kinds [1,6], max_count [1,20]", hintNumber, buildLegCounting},
	}
}

// evalPrecedence evaluates nums joined by ops ('+', '-', '*'), '*' first.
func evalPrecedence(nums []int, ops []byte) int {
	sum, sign, term := 0, 1, nums[0]
	for i, op := range ops {
		if op == '*' {
			term *= nums[i+1]
			continue
		}
		sum += sign * term
		sign = 1
		if op == '-' {
			sign = -1
		}
		term = nums[i+1]
	}
	return sum + sign*term
}

func buildBasicArithmetic(o *envs.Options) task.Generator {
	terms := o.Int("terms", 3, 2, 8)
	maxV := o.Int("max_value", 20, 1, 1000)
	return func(r *rand.Rand) task.Problem {
		nums := make([]int, terms)
		ops := make([]byte, terms-1)
		var b strings.Builder
		for i := range nums {
			nums[i] = intIn(r, 1, maxV)
			if i > 0 {
				ops[i-1] = "+-*"[r.IntN(3)]
				fmt.Fprintf(&b, " %c ", ops[i-1])
			}
			fmt.Fprint(&b, nums[i])
		}
		ans := fmt.Sprint(evalPrecedence(nums, ops))
		return task.Problem{
			Question: fmt.Sprintf("What is %s?", b.String()),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(-maxV*maxV, maxV*maxV),
		}
	}
}

func buildChainSum(o *envs.Options) task.Generator {
	terms := o.Int("terms", 4, 2, 12)
	digits := o.Int("digits", 2, 1, 6)
	hi := pow10(digits) - 1
	return func(r *rand.Rand) task.Problem {
		x := intIn(r, 0, hi)
		total := x
		var b strings.Builder
		fmt.Fprint(&b, x)
		for range terms - 1 {
			x = intIn(r, 0, hi)
			if r.IntN(2) == 0 {
				total += x
				fmt.Fprintf(&b, " + %d", x)
			} else {
				total -= x
				fmt.Fprintf(&b, " - %d", x)
			}
		}
		ans := fmt.Sprint(total)
		return task.Problem{
			Question: fmt.Sprintf("What is %s?", b.String()),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(-hi*terms, hi*terms),
		}
	}
}

func pow10(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}

func buildProducts(o *envs.Options) task.Generator {
	digits := o.Int("digits", 2, 1, 6)
	lo, hi := pow10(digits-1), pow10(digits)-1
	return func(r *rand.Rand) task.Problem {
		a, b := intIn(r, lo, hi), intIn(r, lo, hi)
		ans := fmt.Sprint(a * b)
		return task.Problem{
			Question: fmt.Sprintf("What is %d * %d?", a, b),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(lo*lo, hi*hi),
		}
	}
}

func buildPower(o *envs.Options) task.Generator {
	maxBase := o.Int("max_base", 10, 2, 20)
	maxExp := o.Int("max_exponent", 5, 0, 20)
	return func(r *rand.Rand) task.Problem {
		base, exp := intIn(r, 2, maxBase), intIn(r, 0, maxExp)
		ans := new(big.Int).Exp(big.NewInt(int64(base)), big.NewInt(int64(exp)), nil).String()
		return task.Problem{
			Question: fmt.Sprintf("What is %d^%d?", base, exp),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, 100000),
		}
	}
}

func buildSimpleEquations(o *envs.Options) task.Generator {
	maxV := o.Int("max_value", 20, 1, 1000)
	return func(r *rand.Rand) task.Problem {
		v := string("xyzn"[r.IntN(4)])
		x := intIn(r, -maxV, maxV)
		a := intIn(r, 2, 12)
		if r.IntN(3) == 0 {
			a = -a
		}
		b := intIn(r, -maxV, maxV)
		c := a*x + b
		lhs := fmt.Sprintf("%d*%s", a, v)
		switch {
		case b > 0:
			lhs += fmt.Sprintf(" + %d", b)
		case b < 0:
			lhs += fmt.Sprintf(" - %d", -b)
		}
		ans := fmt.Sprint(x)
		return task.Problem{
			Question: fmt.Sprintf("Solve for %s: %s = %d", v, lhs, c),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(-maxV, maxV),
		}
	}
}

func buildModular(o *envs.Options) task.Generator {
	digits := o.Int("digits", 4, 1, 9)
	maxM := o.Int("max_modulus", 50, 2, 1000)
	return func(r *rand.Rand) task.Problem {
		a, m := intIn(r, 0, pow10(digits)-1), intIn(r, 2, maxM)
		ans := fmt.Sprint(a % m)
		return task.Problem{
			Question: fmt.Sprintf("What is %d mod %d?", a, m),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, maxM-1),
		}
	}
}

func buildDigitSum(o *envs.Options) task.Generator {
	digits := o.Int("digits", 5, 1, 18)
	return func(r *rand.Rand) task.Problem {
		var b strings.Builder
		sum := 0
		for i := range digits {
			d := r.IntN(10)
			if i == 0 && digits > 1 {
				d = intIn(r, 1, 9)
			}
			sum += d
			b.WriteByte(byte('0' + d))
		}
		ans := fmt.Sprint(sum)
		return task.Problem{
			Question: fmt.Sprintf("What is the sum of the digits of %s?", b.String()),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, 9*digits),
		}
	}
}

func buildDecimalComparison(o *envs.Options) task.Generator {
	maxDec := o.Int("max_decimals", 3, 1, 6)
	return func(r *rand.Rand) task.Problem {
		whole := intIn(r, 0, 99)
		var x, y string
		var xv, yv *big.Rat
		for {
			x = decimalString(r, whole, intIn(r, 1, maxDec))
			y = decimalString(r, whole, intIn(r, 1, maxDec))
			xv, _ = new(big.Rat).SetString(x)
			yv, _ = new(big.Rat).SetString(y)
			if xv.Cmp(yv) != 0 {
				break
			}
		}
		larger := r.IntN(2) == 0
		ans := x
		if (xv.Cmp(yv) < 0) == larger {
			ans = y
		}
		word := "smaller"
		if larger {
			word = "larger"
		}
		return task.Problem{
			Question: fmt.Sprintf("Which number is %s: %s or %s?", word, x, y),
			Answer:   ans, Score: numeric(ans),
			Sample: func(r *rand.Rand) string { return []string{x, y}[r.IntN(2)] },
		}
	}
}

// decimalString writes whole.ddd with dec random decimals.
func decimalString(r *rand.Rand, whole, dec int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d.", whole)
	for range dec {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	return b.String()
}

// units are conversions with a whole factor: 1 big = factor small.
var units = []struct {
	big, small string
	factor     int64
}{
	{"kilometers", "meters", 1000}, {"meters", "centimeters", 100}, {"meters", "millimeters", 1000},
	{"kilograms", "grams", 1000}, {"liters", "milliliters", 1000}, {"hours", "minutes", 60},
	{"minutes", "seconds", 60}, {"days", "hours", 24}, {"weeks", "days", 7},
	{"feet", "inches", 12}, {"yards", "feet", 3}, {"tonnes", "kilograms", 1000},
}

func buildUnitConversion(_ *envs.Options) task.Generator {
	return func(r *rand.Rand) task.Problem {
		u := units[r.IntN(len(units))]
		q := big.NewRat(int64(intIn(r, 1, 200)), 2) // a whole or half quantity
		small := new(big.Rat).Mul(q, big.NewRat(u.factor, 1))
		from, to, ans := ratString(q), u.small, ratString(small)
		fromUnit := u.big
		if r.IntN(2) == 0 {
			from, fromUnit, to, ans = ratString(small), u.small, u.big, ratString(q)
		}
		return task.Problem{
			Question: fmt.Sprintf("How many %s are in %s %s?", to, from, fromUnit),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, 10000),
		}
	}
}

// ratString writes v as a terminating decimal when it has one, else as p/q.
func ratString(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	d := new(big.Int).Set(v.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		bp := big.NewInt(p)
		m := new(big.Int)
		for {
			q, rem := new(big.Int).QuoRem(d, bp, m)
			if rem.Sign() != 0 {
				break
			}
			d = q
			digits++
		}
	}
	if d.Cmp(big.NewInt(1)) == 0 {
		s := v.FloatString(digits)
		return strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return v.String()
}

func buildLegCounting(o *envs.Options) task.Generator {
	kinds := o.Int("kinds", 3, 1, 6)
	maxCount := o.Int("max_count", 5, 1, 20)
	return func(r *rand.Rand) task.Problem {
		perm := r.Perm(len(animals))[:kinds]
		total := 0
		parts := make([]string, kinds)
		for i, k := range perm {
			n := intIn(r, 1, maxCount)
			total += n * animals[k].legs
			parts[i] = fmt.Sprintf("%d %s", n, animals[k].name)
		}
		ans := fmt.Sprint(total)
		return task.Problem{
			Question: fmt.Sprintf("How many legs are there in total if you have %s?", strings.Join(parts, ", ")),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, 10*kinds*maxCount),
		}
	}
}
