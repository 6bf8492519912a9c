package mathtask

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestEquivalentTable(t *testing.T) {
	cases := []struct {
		pred, gold string
		want       bool
	}{
		// the same number written in different ways
		{"1/2", "0.5", true},
		{`\frac{1}{2}`, "0.5", true},
		{`\dfrac{1}{2}`, "1/2", true},
		{`\tfrac12`, "0.50", true},
		{"50%", "0.5", true},
		{`50\%`, "0.5", true},
		{"50%", "50", true},
		{"1,000", "1000", true},
		{"1,234,567.5", "1234567.5", true},
		{`1{,}000`, "1000", true},
		{`\boxed{42}`, "42", true},
		{`\boxed{\boxed{42}}`, `\boxed{42}`, true},
		{`The answer is \boxed{7}.`, "7", true},
		{"5 cm", "5", true},
		{"$5", "5", true},
		{`\$5.00`, "5", true},
		{"5 dollars", "5", true},
		{`5\text{ cm}`, "5", true},
		{"3 km/h", "3", true},
		{"12 m^2", "12", true},
		{"-3", "-3", true},
		{`-\frac{3}{4}`, "-0.75", true},
		{`\frac{-3}{4}`, "-3/4", true},
		{`\left( 1, 2 \right)`, "(1,2)", true},
		{`(\frac{1}{2}, 3)`, "(0.5, 3.0)", true},
		{"x = 5", "5", true},
		{"5e3", "5000", true},
		{"2.50", "2.5", true},
		{".5", "1/2", true},
		{"Natalia sold 48 clips.\n#### 72", "72", true},
		{"#### 1,000", "1000", true},
		{`90^\circ`, "90", true},
		{`90^{\circ}`, "90°", true},
		{"−7", "-7", true},
		{`\sqrt{2}`, `\sqrt2`, true}, // braces around one character drop
		{`\sqrt{2}`, `\sqrt{3}`, false},
		{`\frac{12}{3}`, `\frac{1}{23}`, false},
		{"x^{2}", "x^2", true},
		{"(5)", "5", true},
		{"((-3))", "-3", true},
		{"(1)(2)", "12", false},
		{"50 percent", "0.5", true},
		{"(1, 2)", "1, 2", false}, // brackets must agree
		{"Paris", "paris", true},
		// near-misses that must be rejected
		{"0.33", "1/3", false},
		{"0.333333", `\frac{1}{3}`, false},
		{"1001", "1000", false},
		{"12", "1/2", false},
		{"5", "50", false},
		{"5", "-5", false},
		{"50%", "5", false},
		{"0.5", "50", false},
		{"1,00", "100", false},
		{"(1, 2)", "[1, 2]", false},
		{"(1, 2)", "(1, 2, 3)", false},
		{"(2, 1)", "(1, 2)", false},
		{"", "", false},
		{"", "0", false},
		{"5 or 6", "5", false},
		{"1/0", "1/0", true}, // not a number: compared as text
		{"1/0", "0", false},
		{"7", `\boxed{}`, false},
	}
	for _, c := range cases {
		want := c.want
		assert.Equal(t, want, Equivalent(c.pred, c.gold), "Equivalent(%q, %q)", c.pred, c.gold)
		assert.Equal(t, want, Equivalent(c.gold, c.pred), "Equivalent(%q, %q) (swapped)", c.gold, c.pred)
	}
}

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		`\boxed{ 3 }`:                  "3",
		`\left(1,2\right)`:             "(1,2)",
		`\text{Monday}`:                "Monday",
		"y =  2x  + 1":                 "2x + 1",
		`\( \dfrac{1}{4} \)`:           `\frac{1}{4}`,
		"A total of 9 \n#### 9":        "9",
		"$12.50.":                      "12.50",
		`\textbf{\text{nested}} words`: "nested words",
	}
	for in, want := range cases {
		assert.Equal(t, want, Normalize(in), "Normalize(%q)", in)
	}
}

func FuzzEquivalent(f *testing.F) {
	for _, s := range [][2]string{
		{"1/2", "0.5"}, {`\frac{1}{2}`, "50%"}, {"1,000", "1000"}, {`\boxed{\boxed{x}}`, "x"},
		{"(1, [2, 3])", "(1,[2,3])"}, {"1e400", "1e-401"}, {"#### 5", "5 cm"}, {`-\frac{}{0}`, ""},
		{`\sqrt{117}`, `3\sqrt{13}`}, {`\frac{1}{1+\sqrt{2}+\sqrt{3}}`, `1`}, {`9i+6`, `6+9i`},
		{`10^{10^{10}}`, `10^{10000000000}`}, {`\pi^{-1}`, `\frac{1}{\pi}`}, {`\sqrt[3]{-8}`, `(2^{1/3})^3`},
		{`\{1,\{2,3\}\}`, `\{\{3,2\},1\}`}, {`\begin{pmatrix}1&2\\3&4\end{pmatrix}`, `\begin{array}{cc}1&2\\3&4\end{array}`},
		{`[1,2)`, `\left[1,2\right)`}, {`x_1 = 1{,}000`, `1\,000`}, {`\sqrt{\sqrt{\sqrt{2}}}`, `2^{1/8}`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		start := time.Now()
		ab, ba := Equivalent(a, b), Equivalent(b, a)
		// The slowest inputs found take about 0.2 s (the arithmetic's work
		// budget); an unbounded one would take minutes, so 10 s is a wide margin.
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("Equivalent(%.60q, %.60q) took %v", a, b, d)
		}
		if ab != ba {
			t.Fatalf("not symmetric: Equivalent(%q, %q) = %v, swapped %v", a, b, ab, ba)
		}
		if _, ok := Numbers(Normalize(a)); ok && !Equivalent(a, a) {
			t.Fatalf("number %q is not equivalent to itself", a)
		}
		if _, ok := parseValue(Normalize(a)); ok && !Equivalent(a, a) {
			t.Fatalf("value %q is not equivalent to itself", a)
		}
	})
}
