package toolserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCalculate(t *testing.T) {
	for _, c := range []struct{ expr, want, err string }{
		{"4821 * 317", "1528257", ""},
		{"(12 + 3) * 4 / 5", "12", ""},
		{"1/3 + 1/12", "5/12", ""},
		{"7/4", "1.75", ""},
		{"2^10", "1024", ""},
		{"2^-2", "0.25", ""},
		{"2^3^2", "512", ""}, // right-associative
		{"-3 - -4", "1", ""},
		{"0.1 + 0.2", "0.3", ""}, // exact, not floating point
		{"1/0", "", "division by zero"},
		{"2^0.5", "", "exponent 1/2: want a whole number"},
		{"2 +", "", "unexpected end of expression"},
		{"2 ) 3", "", `unexpected ")" at position 3`},
		{"(2", "", "missing ')'"},
		{"abc", "", `unexpected "a" at position 1`},
		{"2^1000^1000", "", "exponent"},
		{"(2^1000)^1000", "", "result too large"},
	} {
		got, err := Calculate(c.expr)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.expr)
			continue
		}
		assert.NoError(t, err, c.expr)
		assert.Equal(t, c.want, got, c.expr)
	}
}
