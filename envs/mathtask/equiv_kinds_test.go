package mathtask

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// equalCore are hand-picked pairs of one answer in two written forms, one
// group per kind of answer (docs/grading.md lists the same kinds).
var equalCore = [][2]string{
	// radicals: simplified, rationalised, in any order
	{`\sqrt{117}`, `3\sqrt{13}`}, {`\sqrt{8}`, `2\sqrt{2}`}, {`\sqrt{8}`, `2\sqrt2`},
	{`\frac{1}{\sqrt{2}}`, `\frac{\sqrt{2}}{2}`}, {`\dfrac{\sqrt{3}}{3}`, `\frac{1}{\sqrt3}`},
	{`\frac{1}{1+\sqrt{2}}`, `\sqrt{2}-1`}, {`\sqrt{2}\sqrt{3}`, `\sqrt{6}`}, {`\sqrt{12}+\sqrt{3}`, `3\sqrt{3}`},
	{`\sqrt{\frac{1}{4}}`, `0.5`}, {`\sqrt[3]{27}`, `3`}, {`4^{1/2}`, `2`}, {`(\sqrt{2})^2`, `2`},
	{`2\sqrt{3}+1`, `1+2\sqrt{3}`}, {`\frac{\sqrt{2}+\sqrt{6}}{4}`, `\frac{\sqrt6+\sqrt2}{4}`},
	{`\frac{3}{2\sqrt{3}}`, `\frac{\sqrt{3}}{2}`}, {`\sqrt{18} \cdot \sqrt{2}`, `6`},
	// π
	{`2\pi`, `\pi \cdot 2`}, {`\frac{\pi}{2}`, `0.5\pi`}, {`\frac{3\pi}{4}`, `\frac{3}{4}\pi`}, {`π`, `\pi`}, {`2 pi`, `2\pi`}, {`\frac{pi}{3}`, `\frac{\pi}{3}`},
	{`\pi^2/4`, `\frac{\pi^{2}}{4}`}, {`4\pi\sqrt{3}`, `\sqrt{48}\pi`}, {`\frac{1}{\pi}`, `\pi^{-1}`},
	// complex numbers
	{`9i+6`, `6+9i`}, {`3-2i`, `-2i+3`}, {`i`, `1i`}, {`\frac{1}{1+i}`, `\frac{1-i}{2}`}, {`i^2`, `-1`},
	{`\sqrt{-4}`, `2i`}, {`(1+i)(1-i)`, `2`}, {`2+i\sqrt{3}`, `\sqrt{3}i+2`}, {`-i`, `\frac{1}{i}`},
	// fractions and decimals
	{`\dfrac{3}{4}`, `0.75`}, {`\tfrac{3}{4}`, `3/4`}, {`\frac34`, `\frac{6}{8}`}, {`-\frac{1}{2}`, `\frac{-1}{2}`},
	{`\frac{1}{2}+\frac{1}{3}`, `\frac{5}{6}`}, {`2^{-1}`, `0.5`}, {`1.50`, `\frac{3}{2}`},
	// LaTeX dressing
	{`\left(3\right)`, `3`}, {`3\!`, `3`}, {`\text{ }3`, `3`}, {`\displaystyle\frac{1}{2}`, `1/2`}, {`\$3`, `3`},
	{`\(\sqrt{2}\)`, `\sqrt{2}`}, {`\boxed{2\sqrt{2}}`, `\sqrt{8}`},
	// units and degrees
	{`90^\circ`, `90`}, {`90^{\circ}`, `90°`}, {`5\text{ cm}`, `5`}, {`5\mbox{ cm}`, `5 cm`}, {`12 m^2`, `12`},
	// thousands separators
	{`1,000`, `1000`}, {`1{,}000`, `1000`}, {`1\,000`, `1000`}, {`1{,}234{,}567`, `1234567`}, {`(1{,}000, 2)`, `(1000, 2)`},
	// tuples and intervals: brackets matter, elements by value
	{`(1,2)`, `\left(1, 2\right)`}, {`(\frac{1}{2}, \sqrt{8})`, `(0.5, 2\sqrt{2})`}, {`[1,2)`, `\left[1,2\right)`},
	{`(-\infty, 3]`, `\left(-\infty,3\right]`}, {`[0,\frac{1}{2}]`, `[0, 0.5]`}, {`(1,(2,3))`, `(1, (2, 3))`},
	// sets: order and repeats free
	{`\{1,2\}`, `\{2,1\}`}, {`\left\{1,2,3\right\}`, `\{3,1,2\}`}, {`\{1,2\}`, `2, 1`}, {`\{\sqrt{8}, 1\}`, `\{1, 2\sqrt2\}`},
	{`\emptyset`, `\varnothing`}, {`\{1,1,2\}`, `\{2,1\}`},
	// matrices: pmatrix = bmatrix, cells by value
	{`\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}`, `\begin{bmatrix}1&2\\3&4\end{bmatrix}`},
	{`\begin{pmatrix} \frac{1}{2} \\ \sqrt{8} \end{pmatrix}`, `\begin{pmatrix}0.5\\2\sqrt{2}\end{pmatrix}`},
	{`\begin{array}{cc} 1 & 0 \\ 0 & 1 \end{array}`, `\begin{pmatrix}1&0\\0&1\end{pmatrix}`},
	// equations with a one-letter left side (GEM's graders read "x = 3" as 3)
	{`x = 3`, `3`}, {`y=\frac{1}{2}`, `0.5`}, {`k = 2\sqrt{2}`, `\sqrt{8}`}, {`x_1 = 4`, `4`}, {`\theta = 30^\circ`, `30`},
	// text answers
	{`\text{Evelyn}`, `Evelyn`}, {`\textbf{Evelyn}`, `evelyn`}, {`\mbox{Monday}`, `MONDAY`}, {`\text{(C)}`, `(C)`},
}

// unequalCore are near-misses: each differs from a right answer by one
// slip (a digit, a sign, a dropped factor, a bracket, an order).
var unequalCore = [][2]string{
	{`\sqrt{13}`, `13`}, {`\sqrt{117}`, `3\sqrt{11}`}, {`\sqrt{8}`, `2\sqrt{3}`}, {`\sqrt{8}`, `4\sqrt{2}`},
	{`\frac{1}{\sqrt{2}}`, `\sqrt{2}`}, {`\frac{\sqrt{2}}{2}`, `\frac{\sqrt{3}}{2}`}, {`\sqrt{2}+1`, `\sqrt{2}-1`},
	{`\sqrt[3]{27}`, `9`}, {`\sqrt{2}`, `1.41421356`}, {`\sqrt{2}`, `2`},
	{`3.14`, `\pi`}, {`3.14159265358979`, `\pi`}, {`2\pi`, `\pi`}, {`\frac{\pi}{2}`, `\frac{1}{2}`}, {`\pi^2`, `2\pi`},
	{`22/7`, `\pi`}, {`2 pi`, `2`}, {`pin`, `\pi n`}, {`\pi`, `-\pi`},
	{`6+9i`, `9+6i`}, {`6+9i`, `6-9i`}, {`6+9i`, `6`}, {`6i`, `6`}, {`i`, `-1`}, {`i^2`, `1`}, {`\sqrt{-4}`, `2`},
	{`\frac{3}{4}`, `\frac{4}{3}`}, {`-\frac{1}{2}`, `\frac{1}{2}`}, {`0.33`, `\frac{1}{3}`}, {`2^{-1}`, `2`},
	{`2\frac{1}{2}`, `1`}, {`2\frac{1}{2}`, `2.5`}, {`2^10`, `1024`}, {`2^10`, `20`},
	{`1,001`, `1000`}, {`1{,}00`, `100`}, {`(1,000)`, `1000`},
	{`91^\circ`, `90`}, {`5\text{ cm}`, `50`},
	{`(1,2)`, `[1,2]`}, {`[1,2)`, `[1,2]`}, {`(1,2]`, `[1,2]`}, {`(2,1)`, `(1,2)`}, {`(1,2)`, `(1,2,3)`},
	{`(1,2)`, `1,2`}, {`(-\infty, 3]`, `(-\infty, 3)`}, {`(\sqrt{2}, 1)`, `(1, \sqrt{2})`},
	{`\{1,2\}`, `\{1,3\}`}, {`\{1,2\}`, `\{1\}`}, {`\{1,2\}`, `(1,2)`}, {`\emptyset`, `\{0\}`}, {`\{1,2\}`, `1,2,3`},
	{`\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}`, `\begin{pmatrix} 1 & 3 \\ 2 & 4 \end{pmatrix}`},
	{`\begin{pmatrix} 1 & 2 \end{pmatrix}`, `\begin{pmatrix} 1 \\ 2 \end{pmatrix}`},
	{`\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}`, `\begin{vmatrix} 1 & 2 \\ 3 & 4 \end{vmatrix}`},
	{`x = 3`, `4`}, {`x + y = 3`, `3`}, {`total = 5`, `5`}, {`x = 3`, `x`}, {`x=3`, `-3`},
	{`\text{Evelyn}`, `Evelin`}, {`\text{Evelyn}`, `Eve`}, {`2x+1`, `2x-1`}, {`x^2`, `x^3`},
	{`10^{10^{10}}`, `10^{10^{11}}`}, {`1/0`, `0`}, {`5`, ``}, {`\frac{1}{0}`, `1`},
}

// squarefrees are the radicands of the generated cases.
var squarefrees = []int{2, 3, 5, 6, 7, 10, 11, 13, 14, 15}

// generatedPairs returns template pairs: equal ones and, from the same
// templates, a near-miss for each (a factor off by one, a sign flipped,
// a bracket changed, a factor dropped).
func generatedPairs() (equal, unequal [][2]string) {
	eq := func(a, b string) { equal = append(equal, [2]string{a, b}) }
	ne := func(a, b string) { unequal = append(unequal, [2]string{a, b}) }
	for k := 1; k <= 50; k++ {
		m := squarefrees[k%len(squarefrees)]
		// √(4k²m) = 2k√m; off by one in k, or the root dropped, is wrong
		eq(fmt.Sprintf(`\sqrt{%d}`, 4*k*k*m), fmt.Sprintf(`%d\sqrt{%d}`, 2*k, m))
		ne(fmt.Sprintf(`\sqrt{%d}`, 4*k*k*m), fmt.Sprintf(`%d\sqrt{%d}`, 2*k+2, m))
		ne(fmt.Sprintf(`\sqrt{%d}`, 4*k*k*m), fmt.Sprintf(`%d`, 2*k*m))
		// k/√m = k√m/m; dropping the denominator is wrong
		eq(fmt.Sprintf(`\frac{%d}{\sqrt{%d}}`, k, m), fmt.Sprintf(`\dfrac{%d\sqrt{%d}}{%d}`, k, m, m))
		ne(fmt.Sprintf(`\frac{%d}{\sqrt{%d}}`, k, m), fmt.Sprintf(`%d\sqrt{%d}`, k, m))
		// complex numbers in either order; a flipped sign is wrong
		eq(fmt.Sprintf(`%d+%di`, k, k+1), fmt.Sprintf(`%di + %d`, k+1, k))
		ne(fmt.Sprintf(`%d+%di`, k, k+1), fmt.Sprintf(`%d-%di`, k, k+1))
		// kπ/2 = (k/2)π; dropping π is wrong
		eq(fmt.Sprintf(`\frac{%d\pi}{2}`, k), fmt.Sprintf(`\frac{%d}{2}\pi`, k))
		ne(fmt.Sprintf(`\frac{%d\pi}{2}`, k), fmt.Sprintf(`\frac{%d}{2}`, k))
		// fractions: any equal form; the reciprocal is wrong
		eq(fmt.Sprintf(`\frac{%d}{%d}`, k, k+1), fmt.Sprintf(`\tfrac{%d}{%d}`, 3*k, 3*k+3))
		ne(fmt.Sprintf(`\frac{%d}{%d}`, k, k+1), fmt.Sprintf(`\frac{%d}{%d}`, k+1, k))
		// tuples and intervals: brackets and order matter
		eq(fmt.Sprintf(`(%d, \sqrt{%d})`, k, 4*m), fmt.Sprintf(`\left(%d,2\sqrt{%d}\right)`, k, m))
		ne(fmt.Sprintf(`(%d, %d)`, k, k+1), fmt.Sprintf(`(%d, %d)`, k+1, k))
		eq(fmt.Sprintf(`[%d, %d)`, -k, k), fmt.Sprintf(`\left[%d,%d\right)`, -k, k))
		ne(fmt.Sprintf(`[%d, %d)`, -k, k), fmt.Sprintf(`[%d, %d]`, -k, k))
		// thousands separators; a wrong digit is wrong
		n := 1000*k + 7*k
		eq(fmt.Sprintf(`%d{,}%03d`, n/1000, n%1000), fmt.Sprint(n))
		ne(fmt.Sprintf(`%d,%03d`, n/1000, n%1000), fmt.Sprint(n+10))
		// sets in any order; one element changed is wrong
		eq(fmt.Sprintf(`\{%d, %d, \sqrt{%d}\}`, k, -k, m), fmt.Sprintf(`\left\{\sqrt{%d}, %d, %d\right\}`, m, -k, k))
		ne(fmt.Sprintf(`\{%d, %d\}`, k, -k), fmt.Sprintf(`\{%d, %d\}`, k, k+1))
		// matrices: bracket kind free; transposed is wrong
		eq(fmt.Sprintf(`\begin{pmatrix} %d & %d \\ 0 & 1 \end{pmatrix}`, k, k+1), fmt.Sprintf(`\begin{bmatrix}%d&%d\\0&1\end{bmatrix}`, k, k+1))
		ne(fmt.Sprintf(`\begin{pmatrix} %d & %d \\ 0 & 1 \end{pmatrix}`, k, k+1), fmt.Sprintf(`\begin{pmatrix} %d & 0 \\ %d & 1 \end{pmatrix}`, k, k+1))
		// degrees and equations; a wrong sign is wrong
		eq(fmt.Sprintf(`%d^\circ`, 10*k), fmt.Sprintf(`x = %d`, 10*k))
		ne(fmt.Sprintf(`%d^\circ`, 10*k), fmt.Sprintf(`-%d`, 10*k))
	}
	return equal, unequal
}

func TestEquivalentKinds(t *testing.T) {
	genEq, genNe := generatedPairs()
	equal := append(append([][2]string{}, equalCore...), genEq...)
	unequal := append(append([][2]string{}, unequalCore...), genNe...)
	require.GreaterOrEqual(t, len(equal), 300)
	require.GreaterOrEqual(t, len(unequal), 300)
	for _, c := range equal {
		assert.True(t, Equivalent(c[0], c[1]), "Equivalent(%q, %q) should be true", c[0], c[1])
		assert.True(t, Equivalent(c[1], c[0]), "Equivalent(%q, %q) should be true (swapped)", c[1], c[0])
	}
	for _, c := range unequal {
		assert.False(t, Equivalent(c[0], c[1]), "Equivalent(%q, %q) should be false", c[0], c[1])
		assert.False(t, Equivalent(c[1], c[0]), "Equivalent(%q, %q) should be false (swapped)", c[1], c[0])
	}
}

// TestEquivalentBounded: answers whose exact value is out of reach (a
// tower of powers, a huge radicand, deep nesting) are refused quickly
// instead of computed; each is compared to itself as text only.
func TestEquivalentBounded(t *testing.T) {
	deep := ""
	for range 200 {
		deep = `\sqrt{` + deep
	}
	deep += "2"
	for range 200 {
		deep += "}"
	}
	for _, s := range []string{`10^{10^{10}}`, `2^{1000000}`, `\sqrt{99999999999999999999999999999}`, deep,
		`(1+\sqrt{2}+\sqrt{3}+\sqrt{5}+\sqrt{7}+\sqrt{11}+\sqrt{13})^{400}`, `\pi^{1000}`} {
		_, ok := parseValue(Normalize(s))
		assert.False(t, ok, "parseValue(%.40q) should give up", s)
		assert.True(t, Equivalent(s, s), "%.40q equals itself as text", s)
	}
	assert.False(t, Equivalent(`10^{10^{10}}`, `10^{10000000000}`), "no exact value: compared as text")
}

func TestAlgebraOperations(t *testing.T) {
	v := func(s string) value {
		x, ok := parseValue(s)
		require.True(t, ok, "parseValue(%q)", s)
		return x
	}
	// canonical terms: √117 = 3√13, one term
	assert.Equal(t, value{{rad: 13}: ratOf(3)}, v(`\sqrt{117}`))
	// rationalised: 1/(√2+√3) = √3 − √2
	assert.True(t, v(`\frac{1}{\sqrt{2}+\sqrt{3}}`).equal(v(`\sqrt{3}-\sqrt{2}`)))
	// 1/(1+√2+√3) = (2+√2−√6)/4
	assert.True(t, v(`\frac{1}{1+\sqrt{2}+\sqrt{3}}`).equal(v(`\frac{2+\sqrt{2}-\sqrt{6}}{4}`)))
	// 1/(2+i) = (2−i)/5
	assert.True(t, v(`1/(2+i)`).equal(v(`\frac{2}{5}-\frac{1}{5}i`)))
	// a denominator with two powers of π is outside the algebra
	_, ok := parseValue(`\frac{1}{1+\pi}`)
	assert.False(t, ok)
	_, ok = parseValue(`\frac{1}{0}`)
	assert.False(t, ok, "division by zero")
	_, ok = parseValue(`0^0`)
	assert.False(t, ok)
}

func ratOf(n int64) *big.Rat { return big.NewRat(n, 1) }
