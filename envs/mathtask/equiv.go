package mathtask

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// Equivalent reports whether the predicted answer pred means the same as the
// reference answer gold. Both are normalised first: the content of the last
// \boxed{...} (nested boxes unwrapped), the part after a GSM8K "####", LaTeX
// spacing, \left/\right, \text{...}, dollar signs, degree marks, LaTeX
// thousands marks (1{,}000, 1\,000) and a leading "x =" (one letter, or a
// Greek one) are removed, and \dfrac and \tfrac read as \frac.
//
// Numbers compare as exact rationals (math/big.Rat), in any written form:
// 1/2, 0.5, \frac{1}{2}, \frac12, 1,000 (thousands separators), 5e3,
// -\frac{3}{4}, (5), and with a trailing unit word ("5 cm", "5 dollars",
// "3 km/h"). A percentage (p%, p\%, "p percent") equals both p/100 and p (so
// 50% matches 0.5 and 50).
// Decimals are never rounded: 0.33 does not equal 1/3. Sets ("\{1, 2\}")
// compare in any order, matrices (pmatrix, bmatrix, array) cell by cell,
// tuples and intervals, "(1, 2)" or "[0, \frac{1}{2})", element by element
// with the same brackets. Text compares with spaces removed and case
// folded. Last, expressions of numbers, roots, π and i compare as exact
// values (algebra.go): \sqrt{117} equals 3\sqrt{13}, \frac{1}{\sqrt2} equals
// \frac{\sqrt2}{2}, 9i+6 equals 6+9i, and 3.14 never equals \pi.
// docs/grading.md tabulates what is equal and what is not.
//
// Equivalent is symmetric, never panics, does bounded work (see
// algebra.go and maxComparisons), and returns false when either side is
// empty.
func Equivalent(pred, gold string) bool {
	a, b := Normalize(pred), Normalize(gold)
	if a > b {
		a, b = b, a // one order of work for both orders of the arguments
	}
	c := comparer{budget: maxComparisons, values: map[string]parsedValue{}, calc: newCalc()}
	eq := c.equiv(a, b, 0)
	return eq && c.budget >= 0
}

const maxDepth = 8

var (
	reText      = regexp.MustCompile(`\\(?:text|textbf|textrm|textit|textnormal|mathrm|mathbf|mbox|operatorname)\s*\{([^{}]*)\}`)
	reDegree    = regexp.MustCompile(`\^\s*\{?\s*\\circ\s*\}?|°|\\circ`)
	reAssign    = regexp.MustCompile(`^(?:[a-zA-Z](?:_\{?[a-zA-Z0-9]+\}?)?|\\(?:alpha|beta|gamma|delta|theta|phi|varphi|lambda|mu|omega|sigma|rho|tau))\s*=\s*([^=]+)$`)
	reSingleBr  = regexp.MustCompile(`\{(\w)\}`)
	reSpace     = regexp.MustCompile(`\s+`)
	spacingCmds = strings.NewReplacer(
		`\\`, `\\`, // a matrix row break, kept whole (not read as "\ ")
		`\left`, "", `\right`, "", `\!`, "", `\,`, " ", `\;`, " ", `\:`, " ", `\ `, " ", `~`, " ",
		`\dfrac`, `\frac`, `\tfrac`, `\frac`, `\%`, "%", `\$`, "", "$", "", `{,}`, ",",
		"−", "-", `\displaystyle`, "", `\cdot`, `\cdot `,
	)
)

// MaxAnswerLen is the longest answer (in bytes, after unboxing) that
// Normalize rewrites and Numbers reads; longer ones compare as raw text, so a
// megabyte-long response costs linear time.
const MaxAnswerLen = 4096

// Normalize is the canonical text form Equivalent compares: see Equivalent.
func Normalize(s string) string {
	for range maxDepth {
		c, ok := envs.LastBoxed(s)
		if !ok {
			break
		}
		s = c
	}
	if i := strings.LastIndex(s, "####"); i >= 0 {
		s = s[i+4:]
	}
	s = strings.TrimSpace(s)
	if len(s) > MaxAnswerLen {
		return s // no answer is this long: skip the regexps, compare as text
	}
	for _, w := range [][2]string{{`\(`, `\)`}, {`\[`, `\]`}} {
		if strings.HasPrefix(s, w[0]) && strings.HasSuffix(s, w[1]) && len(s) >= 4 {
			s = s[2 : len(s)-2]
		}
	}
	s = spacingCmds.Replace(dropThousandsMarks(s))
	for range maxDepth {
		if !strings.Contains(s, `\`) {
			break
		}
		t := reText.ReplaceAllString(s, "$1")
		if t == s {
			break
		}
		s = t
	}
	if strings.Contains(s, "circ") || strings.Contains(s, "°") {
		s = reDegree.ReplaceAllString(s, "")
	}
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, ".")
	if strings.Contains(s, "=") {
		if m := reAssign.FindStringSubmatch(s); m != nil {
			s = m[1]
		}
	}
	s = strings.TrimSpace(reSpace.ReplaceAllString(s, " "))
	for range maxDepth {
		inner, ok := wrapped(s)
		if !ok {
			break
		}
		s = inner
	}
	return s
}

// dropThousandsMarks removes the LaTeX thousands separators {,} and \, when
// they stand between a digit and a group of exactly three digits (1{,}000,
// 1\,000), so that they read as 1000; a comma that might be a tuple's
// stays.
func dropThousandsMarks(s string) string {
	if !strings.Contains(s, "{,}") && !strings.Contains(s, `\,`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		for _, mark := range []string{"{,}", `\,`} {
			j := i + len(mark)
			if strings.HasPrefix(s[i:], mark) && i > 0 && isDigit(s[i-1]) &&
				j+3 <= len(s) && isDigit(s[j]) && isDigit(s[j+1]) && isDigit(s[j+2]) &&
				(j+3 == len(s) || !isDigit(s[j+3])) {
				i = j
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// wrapped returns the inside of "( x )" when the outer parentheses match
// each other and x has no top-level comma (so "(5)" reads as 5, while the
// tuple "(1, 2)" and "(1)(2)" stay as they are).
func wrapped(s string) (string, bool) {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return "", false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 && i != len(s)-1 {
				return "", false
			}
		case ',':
			if depth == 1 {
				return "", false
			}
		}
	}
	if depth != 0 {
		return "", false
	}
	return strings.TrimSpace(s[1 : len(s)-1]), true
}

// compact is the text form of a non-numeric answer: no spaces, lower case,
// braces around single characters dropped (x^{2} = x^2).
func compact(s string) string {
	if len(s) > MaxAnswerLen {
		return s
	}
	s = strings.ToLower(strings.ReplaceAll(s, " ", ""))
	if !strings.Contains(s, "{") {
		return s
	}
	return reSingleBr.ReplaceAllString(s, "$1")
}

var (
	// number: sign, then \frac{a}{b}, \frac ab, a/b, a decimal with optional
	// thousands separators, and an optional exponent.
	reNumber = regexp.MustCompile(`^([+-]?)\s*(\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}|\\frac\s*(\d)\s*(\d)|(\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?(?:\s*/\s*(\d+))?)`)
	reUnit   = regexp.MustCompile(`^(?:[a-zA-Z][a-zA-Z .]*?(?:/[a-zA-Z]+)?(?:\^\{?\d\}?|²|³)?)?\s*(%?)$`)
	reThou   = regexp.MustCompile(`^\d{1,3}(?:,\d{3})+(?:\.\d*)?$`)
)

// notUnits are the words after a number that are not units: the
// imaginary unit, π and e (6i is not 6), and the usual variable names (5x
// is not 5).
var notUnits = map[string]bool{"i": true, "pi": true, "e": true, "x": true, "y": true, "z": true, "n": true}

// maxExp bounds decimal exponents so that 1e999999999 cannot exhaust memory.
const maxExp = 400

// Numbers reads s (already normalised) as a number with an optional unit or
// percent sign. ok is false when s is not a number. A percentage gives two
// values, p/100 and p; anything else gives one.
func Numbers(s string) (vals []*big.Rat, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) > MaxAnswerLen {
		return nil, false
	}
	m := reNumber.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	rest := strings.TrimSpace(s[len(m[0]):])
	if strings.EqualFold(rest, "percent") {
		rest = "%"
	}
	u := reUnit.FindStringSubmatch(rest)
	if u == nil || notUnits[strings.TrimSpace(strings.TrimSuffix(rest, u[1]))] {
		return nil, false
	}
	var v *big.Rat
	switch {
	case m[3] != "" || m[4] != "": // \frac{a}{b}
		num, ok1 := plainNumber(m[3])
		den, ok2 := plainNumber(m[4])
		if !ok1 || !ok2 || den.Sign() == 0 {
			return nil, false
		}
		v = new(big.Rat).Quo(num, den)
	case m[5] != "": // \frac12
		v = big.NewRat(int64(m[5][0]-'0'), 1)
		d := int64(m[6][0] - '0')
		if d == 0 {
			return nil, false
		}
		v.Quo(v, big.NewRat(d, 1))
	default:
		num, ok1 := decimal(m[7], m[8])
		if !ok1 {
			return nil, false
		}
		v = num
		if m[9] != "" {
			den, ok2 := decimal(m[9], "")
			if !ok2 || den.Sign() == 0 {
				return nil, false
			}
			v.Quo(v, den)
		}
	}
	if m[1] == "-" {
		v.Neg(v)
	}
	if u[1] == "%" {
		return []*big.Rat{new(big.Rat).Quo(v, big.NewRat(100, 1)), v}, true
	}
	return []*big.Rat{v}, true
}

// plainNumber reads a signed decimal, as found inside \frac{...}{...}.
func plainNumber(s string) (*big.Rat, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	v, ok := decimal(s, "")
	if !ok {
		return nil, false
	}
	if neg {
		v.Neg(v)
	}
	return v, true
}

// decimal reads digits (with valid thousands separators) and an exponent.
func decimal(digits, exp string) (*big.Rat, bool) {
	if digits == "" || len(digits) > 1000 {
		return nil, false
	}
	if strings.Contains(digits, ",") {
		if !reThou.MatchString(digits) {
			return nil, false
		}
		digits = strings.ReplaceAll(digits, ",", "")
	}
	for _, c := range digits {
		if (c < '0' || c > '9') && c != '.' {
			return nil, false
		}
	}
	if strings.Count(digits, ".") > 1 {
		return nil, false
	}
	digits = strings.TrimSuffix(digits, ".")
	if digits == "" {
		return nil, false
	}
	v, ok := new(big.Rat).SetString(digits)
	if !ok {
		return nil, false
	}
	if exp != "" {
		e, err := strconv.Atoi(exp)
		if err != nil || e > maxExp || e < -maxExp {
			return nil, false
		}
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(absInt(e))), nil)
		if e >= 0 {
			v.Mul(v, new(big.Rat).SetInt(p))
		} else {
			v.Quo(v, new(big.Rat).SetInt(p))
		}
	}
	return v, true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// splitTuple splits "(a, b, ...)" or "[a, b)" at its top-level commas. A
// bare list "a, b" (commas that are not thousands separators) splits too,
// with empty brackets. ok is false when s has no top-level comma.
func splitTuple(s string) (elems []string, open, close byte, ok bool) {
	inner := s
	if len(s) >= 2 && (s[0] == '(' || s[0] == '[') && (s[len(s)-1] == ')' || s[len(s)-1] == ']') {
		open, close = s[0], s[len(s)-1]
		inner = s[1 : len(s)-1]
	}
	depth, start := 0, 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return nil, 0, 0, false
			}
		case ',':
			if depth == 0 {
				elems = append(elems, strings.TrimSpace(inner[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 || len(elems) == 0 {
		return nil, 0, 0, false
	}
	elems = append(elems, strings.TrimSpace(inner[start:]))
	return elems, open, close, true
}
