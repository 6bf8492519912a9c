package toolserver

import (
	"fmt"
	"math/big"
	"strings"
	"unicode"
)

// maxExprLen bounds an expression, and maxExponent a power, so that one
// call cannot make the server compute for long.
const (
	maxExprLen  = 1000
	maxExponent = 1000
	maxDepth    = 100
	maxBits     = 1 << 16
)

// Calculate evaluates an arithmetic expression exactly over the rationals:
// numbers (decimals allowed), + - * / ^ (whole exponents up to 1000),
// unary minus and parentheses. The result is a whole number, a terminating
// decimal or a fraction p/q.
func Calculate(expr string) (string, error) {
	if len(expr) > maxExprLen {
		return "", fmt.Errorf("expression too long: %d characters, at most %d", len(expr), maxExprLen)
	}
	p := &parser{s: expr}
	v, err := p.sum(0)
	if err != nil {
		return "", err
	}
	p.space()
	if p.i < len(p.s) {
		return "", fmt.Errorf("unexpected %q at position %d", p.s[p.i:p.i+1], p.i+1)
	}
	return formatRat(v), nil
}

type parser struct {
	s string
	i int
}

func (p *parser) space() {
	for p.i < len(p.s) && unicode.IsSpace(rune(p.s[p.i])) {
		p.i++
	}
}

func (p *parser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) sum(depth int) (*big.Rat, error) {
	v, err := p.product(depth)
	if err != nil {
		return nil, err
	}
	for {
		switch op := p.peek(); op {
		case '+', '-':
			p.i++
			w, err := p.product(depth)
			if err != nil {
				return nil, err
			}
			if op == '+' {
				v.Add(v, w)
			} else {
				v.Sub(v, w)
			}
		default:
			return v, nil
		}
	}
}

func (p *parser) product(depth int) (*big.Rat, error) {
	v, err := p.power(depth)
	if err != nil {
		return nil, err
	}
	for {
		switch op := p.peek(); op {
		case '*', '/':
			p.i++
			w, err := p.power(depth)
			if err != nil {
				return nil, err
			}
			if op == '/' {
				if w.Sign() == 0 {
					return nil, fmt.Errorf("division by zero")
				}
				v.Quo(v, w)
			} else {
				v.Mul(v, w)
			}
		default:
			return v, nil
		}
	}
}

func (p *parser) power(depth int) (*big.Rat, error) {
	base, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	if p.peek() != '^' {
		return base, nil
	}
	p.i++
	exp, err := p.power(depth + 1) // right-associative
	if err != nil {
		return nil, err
	}
	if !exp.IsInt() || exp.Num().CmpAbs(big.NewInt(maxExponent)) > 0 {
		return nil, fmt.Errorf("exponent %s: want a whole number in [-%d, %d]", exp.RatString(), maxExponent, maxExponent)
	}
	n := exp.Num().Int64()
	if bits := max(base.Num().BitLen(), base.Denom().BitLen()) * int(abs(n)); bits > maxBits {
		return nil, fmt.Errorf("result too large (about %d bits, at most %d)", bits, maxBits)
	}
	if n < 0 && base.Sign() == 0 {
		return nil, fmt.Errorf("division by zero")
	}
	num := new(big.Int).Exp(base.Num(), big.NewInt(abs(n)), nil)
	den := new(big.Int).Exp(base.Denom(), big.NewInt(abs(n)), nil)
	if n < 0 {
		num, den = den, num
	}
	return new(big.Rat).SetFrac(num, den), nil
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func (p *parser) unary(depth int) (*big.Rat, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("expression nested deeper than %d", maxDepth)
	}
	switch p.peek() {
	case '-':
		p.i++
		v, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return v.Neg(v), nil
	case '+':
		p.i++
		return p.unary(depth + 1)
	case '(':
		p.i++
		v, err := p.sum(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("missing ')' at position %d", p.i+1)
		}
		p.i++
		return v, nil
	case 0:
		return nil, fmt.Errorf("unexpected end of expression")
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
		p.i++
	}
	if start == p.i {
		return nil, fmt.Errorf("unexpected %q at position %d: want a number, '(' or '-'", p.s[start:start+1], start+1)
	}
	v, ok := new(big.Rat).SetString(p.s[start:p.i])
	if !ok {
		return nil, fmt.Errorf("bad number %q", p.s[start:p.i])
	}
	return v, nil
}

// formatRat writes v as a whole number, a terminating decimal or p/q.
func formatRat(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	d := new(big.Int).Set(v.Denom())
	n := 0
	for _, f := range []int64{2, 5} {
		bf := big.NewInt(f)
		for new(big.Int).Mod(d, bf).Sign() == 0 {
			d.Quo(d, bf)
			n++
		}
	}
	if d.IsInt64() && d.Int64() == 1 {
		return strings.TrimRight(strings.TrimRight(v.FloatString(n), "0"), ".")
	}
	return v.RatString()
}
