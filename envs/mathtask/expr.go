package mathtask

import (
	"math/big"
	"strings"
)

// parseValue reads a normalised scalar answer as a value of the exact
// algebra (algebra.go): decimals and whole numbers, + − · × ÷ / and
// implicit products, parentheses and braces, \frac, \sqrt and \sqrt[n],
// powers with a rational exponent, \pi (or π, or pi) and the imaginary unit i.
// ok is false for anything else (a variable, a unit, a function), and for
// work past the algebra's bounds.
//
// A few written forms are refused as ambiguous rather than guessed: 2^10
// (LaTeX sets it as 2¹0), a number followed by \frac (2\frac{1}{2} is a
// mixed number to some and a product to others) and two numbers side by
// side.
func parseValue(s string) (value, bool) {
	return newCalc().parse(s)
}

// parse is parseValue with w's work budget.
func (w *calc) parse(s string) (value, bool) {
	if s == "" || len(s) > MaxAnswerLen {
		return nil, false
	}
	p := &exprParser{calc: w, s: s}
	v, good := p.expr()
	p.space()
	if !good || p.i != len(p.s) {
		return nil, false
	}
	return v, true
}

const maxNest = 32

type exprParser struct {
	*calc
	s     string
	i     int
	depth int
}

func (p *exprParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// eat consumes tok (after spaces) when it comes next. A command (\pi)
// must not run on into letters (\pin).
func (p *exprParser) eat(tok string) bool {
	p.space()
	if !strings.HasPrefix(p.s[p.i:], tok) {
		return false
	}
	end := p.i + len(tok)
	if tok[0] == '\\' && end < len(p.s) && isLetter(p.s[end]) {
		return false
	}
	p.i = end
	return true
}

// word consumes the bare word w (pi) when no letter follows it.
func (p *exprParser) word(w string) bool {
	p.space()
	end := p.i + len(w)
	if !strings.HasPrefix(p.s[p.i:], w) || end < len(p.s) && isLetter(p.s[end]) {
		return false
	}
	p.i = end
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// expr := [sign] term {(+|-) term}
func (p *exprParser) expr() (value, bool) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNest {
		return nil, false
	}
	var v value
	var good bool
	switch {
	case p.eat("-"):
		if v, good = p.term(); !good {
			return nil, false
		}
		v = neg(v)
	default:
		p.eat("+")
		if v, good = p.term(); !good {
			return nil, false
		}
	}
	for {
		switch {
		case p.eat("+"):
			t, good := p.term()
			if !good {
				return nil, false
			}
			if v, good = p.add(v, t); !good {
				return nil, false
			}
		case p.eat("-"):
			t, good := p.term()
			if !good {
				return nil, false
			}
			if v, good = p.add(v, neg(t)); !good {
				return nil, false
			}
		default:
			return v, true
		}
	}
}

// term := factor {(·|×|*|/|÷|implicit) factor}
func (p *exprParser) term() (value, bool) {
	v, lastNum, good := p.factor()
	if !good {
		return nil, false
	}
	for {
		divide := false
		switch {
		case p.eat("*"), p.eat(`\cdot`), p.eat(`\times`), p.eat("×"), p.eat("·"):
		case p.eat("/"), p.eat(`\div`), p.eat("÷"):
			divide = true
		default:
			if !p.implicitNext(lastNum) {
				return v, true
			}
		}
		f, num, good := p.signedFactor()
		if !good {
			return nil, false
		}
		lastNum = num
		if divide {
			if f, good = p.inv(f); !good {
				return nil, false
			}
		}
		if v, good = p.mul(v, f); !good {
			return nil, false
		}
	}
}

// implicitNext reports whether an implicit product follows: a root, π, i
// or a parenthesis. A number never follows implicitly, nor does \frac
// after a number (a mixed number).
func (p *exprParser) implicitNext(afterNumber bool) bool {
	p.space()
	r := p.s[p.i:]
	switch {
	case r == "":
		return false
	case strings.HasPrefix(r, `\sqrt`), strings.HasPrefix(r, `\pi`), strings.HasPrefix(r, "π"),
		strings.HasPrefix(r, "pi"), r[0] == '(', r[0] == 'i':
		return true
	case strings.HasPrefix(r, `\frac`):
		return !afterNumber
	}
	return false
}

// signedFactor is a factor after an explicit operator, where a sign may
// come first (2 \cdot -3).
func (p *exprParser) signedFactor() (value, bool, bool) {
	if p.eat("-") {
		v, num, good := p.signedFactor()
		if !good {
			return nil, false, false
		}
		return neg(v), num, true
	}
	return p.factor()
}

// factor := atom [^ exponent]; lastNum reports a bare number literal.
func (p *exprParser) factor() (v value, lastNum, good bool) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNest {
		return nil, false, false
	}
	v, lastNum, good = p.atom()
	if !good {
		return nil, false, false
	}
	if !p.eat("^") {
		return v, lastNum, true
	}
	e, good := p.arg(true)
	if !good {
		return nil, false, false
	}
	v, good = p.power(v, e)
	return v, false, good
}

// power returns v^e for a rational e: whole powers of any value, halves
// through sqrt, other fractions of a rational base when the root is
// rational.
func (p *exprParser) power(v, e value) (value, bool) {
	r, isRat := e.rational()
	if !isRat || !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return nil, false
	}
	n, d := r.Num().Int64(), r.Denom().Int64()
	switch {
	case d == 1:
		return p.pow(v, n)
	case d == 2:
		s, good := p.sqrt(v)
		if !good {
			return nil, false
		}
		return p.pow(s, n)
	}
	c, isRat := v.rational()
	if !isRat {
		return nil, false
	}
	rt, good := p.root(c, d)
	if !good {
		return nil, false
	}
	return p.pow(ratValue(rt), n)
}

// arg reads the argument of \frac, \sqrt or ^: a braced expression or a
// single digit, or (exponent false) a single atom such as \pi.
func (p *exprParser) arg(exponent bool) (value, bool) {
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	if p.s[p.i] == '{' {
		p.i++
		v, good := p.expr()
		if !good || !p.eat("}") {
			return nil, false
		}
		return v, true
	}
	c := p.s[p.i]
	if isDigit(c) {
		if exponent && p.i+1 < len(p.s) && (isDigit(p.s[p.i+1]) || p.s[p.i+1] == '.') {
			return nil, false // 2^10: ambiguous
		}
		p.i++
		return ratValue(big.NewRat(int64(c-'0'), 1)), true
	}
	if exponent && c == '-' { // 2^-1
		p.i++
		v, good := p.arg(true)
		if !good {
			return nil, false
		}
		return neg(v), true
	}
	v, _, good := p.atom()
	return v, good
}

// atom := number | ( expr ) | { expr } | \frac a b | \sqrt[n] a | \pi | i
func (p *exprParser) atom() (v value, isNum, good bool) {
	p.space()
	if p.i >= len(p.s) {
		return nil, false, false
	}
	c := p.s[p.i]
	switch {
	case isDigit(c) || c == '.':
		v, good := p.number()
		return v, true, good
	case c == '(' || c == '{':
		closer := map[byte]string{'(': ")", '{': "}"}[c]
		p.i++
		v, good := p.expr()
		if !good || !p.eat(closer) {
			return nil, false, false
		}
		return v, false, true
	case c == 'i':
		if p.i+1 < len(p.s) && isLetter(p.s[p.i+1]) {
			return nil, false, false
		}
		p.i++
		return value{{rad: 1, im: true}: big.NewRat(1, 1)}, false, true
	case p.eat(`\pi`), p.eat("π"), p.word("pi"):
		return value{{rad: 1, pi: 1}: big.NewRat(1, 1)}, false, true
	case p.eat(`\frac`):
		num, good := p.arg(false)
		if !good {
			return nil, false, false
		}
		den, good := p.arg(false)
		if !good {
			return nil, false, false
		}
		if den, good = p.inv(den); !good {
			return nil, false, false
		}
		v, good := p.mul(num, den)
		return v, false, good
	case p.eat(`\sqrt`):
		if p.eat("[") {
			n, good := p.expr()
			if !good || !p.eat("]") {
				return nil, false, false
			}
			x, good := p.arg(false)
			if !good {
				return nil, false, false
			}
			nr, isRat := n.rational()
			if !isRat || !nr.IsInt() || !nr.Num().IsInt64() || nr.Num().Int64() < 1 {
				return nil, false, false
			}
			v, good := p.power(x, ratValue(new(big.Rat).Inv(nr)))
			return v, false, good
		}
		x, good := p.arg(false)
		if !good {
			return nil, false, false
		}
		v, good := p.sqrt(x)
		return v, false, good
	}
	return nil, false, false
}

// number reads a decimal literal (no thousands separators: a comma is a
// tuple's).
func (p *exprParser) number() (value, bool) {
	start := p.i
	for p.i < len(p.s) && (isDigit(p.s[p.i]) || p.s[p.i] == '.') {
		p.i++
	}
	lit := p.s[start:p.i]
	if len(lit) > 1000 || strings.Count(lit, ".") > 1 || lit == "." || strings.HasSuffix(lit, ".") {
		return nil, false
	}
	r, good := new(big.Rat).SetString(lit)
	if !good {
		return nil, false
	}
	return ratValue(r), true
}
