package mathtask

import (
	"math/big"
	"math/bits"
)

// The exact algebra behind Equivalent's comparison of scalars. A value is a
// finite sum of terms c·√r·π^k·i^m: c a rational, r a squarefree whole
// number, k a (small) integer power of π, m 0 or 1. Such monomials are
// linearly independent over the rationals (π is transcendental, the square
// roots of distinct squarefree numbers are independent, i is not real), so
// two values are equal exactly when their canonical term maps are equal:
// no floating point is involved, and 3.14 never equals π.
//
// Every operation bounds its work: a value has at most maxTerms terms,
// coefficients at most maxBits bits, radicands at most maxRad and powers of
// π at most maxPiExp, and the operations of one Equivalent call share a
// budget of maxWork units (about one coefficient operation on 64-bit
// numbers each); past a bound the operation fails and Equivalent falls back
// to comparing text.

// mono is the irrational part of a term: √rad·π^pi·(i if im).
type mono struct {
	rad int64 // squarefree, ≥ 1
	pi  int
	im  bool
}

// value maps each monomial to its nonzero rational coefficient.
type value map[mono]*big.Rat

const (
	maxTerms = 32
	maxBits  = 2048
	maxRad   = 1_000_000_000 // squarefree parts found by trial division to 31623
	maxPiExp = 32
	maxPow   = 512
	maxWork  = 1_000_000
)

// calc holds the work left to one comparison's arithmetic.
type calc struct{ work int }

func newCalc() *calc { return &calc{work: maxWork} }

// spend takes n units of work; false once the budget is spent.
func (w *calc) spend(n int) bool {
	w.work -= n
	return w.work >= 0
}

func bitsOf(c *big.Rat) int { return c.Num().BitLen() + c.Denom().BitLen() }

func ratValue(r *big.Rat) value {
	if r.Sign() == 0 {
		return value{}
	}
	return value{{rad: 1}: new(big.Rat).Set(r)}
}

func (v value) equal(w value) bool {
	if len(v) != len(w) {
		return false
	}
	for m, c := range v {
		d, ok := w[m]
		if !ok || c.Cmp(d) != 0 {
			return false
		}
	}
	return true
}

// rational returns v's value when v is a rational number.
func (v value) rational() (*big.Rat, bool) {
	switch len(v) {
	case 0:
		return new(big.Rat), true
	case 1:
		c, ok := v[mono{rad: 1}]
		return c, ok
	}
	return nil, false
}

// addTerm adds c·m to v in place, dropping a zero coefficient.
func (v value) addTerm(m mono, c *big.Rat) {
	if old, ok := v[m]; ok {
		s := new(big.Rat).Add(old, c)
		if s.Sign() == 0 {
			delete(v, m)
		} else {
			v[m] = s
		}
		return
	}
	if c.Sign() != 0 {
		v[m] = new(big.Rat).Set(c)
	}
}

func ok(v value) bool {
	if len(v) > maxTerms {
		return false
	}
	for _, c := range v {
		if c.Num().BitLen()+c.Denom().BitLen() > maxBits {
			return false
		}
	}
	return true
}

func (w *calc) add(a, b value) (value, bool) {
	if !w.spend(len(a) + len(b) + 1) {
		return nil, false
	}
	out := value{}
	for m, c := range a {
		out.addTerm(m, c)
	}
	for m, c := range b {
		out.addTerm(m, c)
	}
	return out, ok(out)
}

func neg(a value) value {
	out := value{}
	for m, c := range a {
		out[m] = new(big.Rat).Neg(c)
	}
	return out
}

// mulMono multiplies two monomials: the product and a whole-number factor
// (negative for i·i) that moves into the coefficient.
func mulMono(a, b mono) (mono, int64, bool) {
	g := gcd(a.rad, b.rad)
	hi, r := bits.Mul64(uint64(a.rad/g), uint64(b.rad/g))
	if hi != 0 || r > maxRad {
		return mono{}, 0, false
	}
	p := a.pi + b.pi
	if p > maxPiExp || p < -maxPiExp {
		return mono{}, 0, false
	}
	f := g // √a·√b = g·√(a/g·b/g): both squarefree, so a/g, b/g and g are coprime
	if a.im && b.im {
		f = -f
	}
	return mono{rad: int64(r), pi: p, im: a.im != b.im}, f, true
}

func (w *calc) mul(a, b value) (value, bool) {
	if len(a)*len(b) > maxTerms*maxTerms {
		return nil, false
	}
	out := value{}
	for ma, ca := range a {
		for mb, cb := range b {
			m, f, good := mulMono(ma, mb)
			if !good || !w.spend(1+(bitsOf(ca)+bitsOf(cb))/32) {
				return nil, false
			}
			c := new(big.Rat).Mul(ca, cb)
			c.Mul(c, new(big.Rat).SetInt64(f))
			out.addTerm(m, c)
		}
	}
	return out, ok(out)
}

// conj flips the sign of the terms whose monomial flip selects: an
// automorphism of the field of values (√p ↦ −√p for a prime p, or i ↦ −i).
func conj(a value, flip func(mono) bool) value {
	out := value{}
	for m, c := range a {
		if flip(m) {
			out[m] = new(big.Rat).Neg(c)
		} else {
			out[m] = c
		}
	}
	return out
}

// inv returns 1/a, rationalising the denominator: multiplying by the
// conjugates of a removes each prime under a root and then i, which leaves
// a rational multiple of a power of π. It fails for 0 and for a
// denominator with several powers of π (not a value of this algebra).
func (w *calc) inv(a value) (value, bool) {
	if len(a) == 0 {
		return nil, false
	}
	num, den := ratValue(big.NewRat(1, 1)), a
	for range 2 * maxTerms {
		var p int64
		for m := range den {
			if m.rad > 1 {
				if !w.spend(trialCost(m.rad)) {
					return nil, false
				}
				p = smallestPrime(m.rad)
				break
			}
		}
		var c value
		switch {
		case p > 0:
			c = conj(den, func(m mono) bool { return m.rad%p == 0 })
		case hasImag(den):
			c = conj(den, func(m mono) bool { return m.im })
		default:
			if len(den) != 1 {
				return nil, false
			}
			for m, d := range den { // d·π^k: invert it
				if m.pi > maxPiExp || m.pi < -maxPiExp {
					return nil, false
				}
				r := value{{rad: 1, pi: -m.pi}: new(big.Rat).Inv(d)}
				return w.mul(num, r)
			}
		}
		var good bool
		if num, good = w.mul(num, c); !good {
			return nil, false
		}
		if den, good = w.mul(den, c); !good || len(den) == 0 {
			return nil, false
		}
	}
	return nil, false
}

func hasImag(a value) bool {
	for m := range a {
		if m.im {
			return true
		}
	}
	return false
}

// pow returns a^n for a whole n with |n| ≤ maxPow.
func (w *calc) pow(a value, n int64) (value, bool) {
	if n > maxPow || n < -maxPow {
		return nil, false
	}
	if n == 0 {
		if len(a) == 0 {
			return nil, false // 0^0
		}
		return ratValue(big.NewRat(1, 1)), true
	}
	if n < 0 {
		var good bool
		if a, good = w.inv(a); !good {
			return nil, false
		}
		n = -n
	}
	out := ratValue(big.NewRat(1, 1))
	for base := a; ; {
		var good bool
		if n&1 == 1 {
			if out, good = w.mul(out, base); !good {
				return nil, false
			}
		}
		n >>= 1
		if n == 0 {
			return out, true
		}
		if base, good = w.mul(base, base); !good {
			return nil, false
		}
	}
}

// sqrt returns the principal square root of a value c·π^(2j) with c
// rational (a negative c gives an imaginary root). Anything else, such as
// √(1+√2), is outside the algebra.
func (w *calc) sqrt(a value) (value, bool) {
	if len(a) == 0 {
		return value{}, true
	}
	if len(a) != 1 {
		return nil, false
	}
	for m, c := range a {
		if m.rad != 1 || m.im || m.pi%2 != 0 {
			return nil, false
		}
		im := c.Sign() < 0
		c = new(big.Rat).Abs(c)
		// √(p/q) = √(p·q)/q
		n := new(big.Int).Mul(c.Num(), c.Denom())
		s := new(big.Int).Sqrt(n)
		if new(big.Int).Mul(s, s).Cmp(n) == 0 {
			return value{{rad: 1, pi: m.pi / 2, im: im}: new(big.Rat).SetFrac(s, c.Denom())}, true
		}
		if !n.IsInt64() || n.Int64() > maxRad {
			return nil, false
		}
		if !w.spend(trialCost(n.Int64())) {
			return nil, false
		}
		out, r := squarefree(n.Int64())
		coef := new(big.Rat).SetFrac(big.NewInt(out), c.Denom())
		return value{{rad: r, pi: m.pi / 2, im: im}: coef}, true
	}
	return nil, false
}

// root returns the rational n-th root of a non-negative rational, when
// there is one.
func (w *calc) root(c *big.Rat, n int64) (*big.Rat, bool) {
	if n < 1 || n > 64 || c.Sign() < 0 || !w.spend(bitsOf(c)*8) {
		return nil, false
	}
	num, ok1 := intRoot(c.Num(), n)
	den, ok2 := intRoot(c.Denom(), n)
	if !ok1 || !ok2 {
		return nil, false
	}
	return new(big.Rat).SetFrac(num, den), true
}

// intRoot returns the whole n-th root of x ≥ 0 when x is a perfect n-th
// power, by bisection (x has at most maxBits bits).
func intRoot(x *big.Int, n int64) (*big.Int, bool) {
	if x.BitLen() > maxBits {
		return nil, false
	}
	lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(x.BitLen()/int(n)+1))
	e := big.NewInt(n)
	for lo.Cmp(hi) <= 0 {
		mid := new(big.Int).Rsh(new(big.Int).Add(lo, hi), 1)
		p := new(big.Int).Exp(mid, e, nil)
		switch p.Cmp(x) {
		case 0:
			return mid, true
		case -1:
			lo = mid.Add(mid, big.NewInt(1))
		default:
			hi = mid.Sub(mid, big.NewInt(1))
		}
	}
	return nil, false
}

// trialCost is the work of a trial division up to √n.
func trialCost(n int64) int {
	k := int64(1)
	for k*k < n {
		k *= 2
	}
	return int(k/16) + 1
}

// squarefree writes n ≥ 1 as out²·r with r squarefree.
func squarefree(n int64) (out, r int64) {
	out = 1
	for k := int64(2); k*k <= n; k++ {
		for n%(k*k) == 0 {
			n /= k * k
			out *= k
		}
	}
	return out, n
}

// smallestPrime returns the least prime factor of n > 1.
func smallestPrime(n int64) int64 {
	for k := int64(2); k*k <= n; k++ {
		if n%k == 0 {
			return k
		}
	}
	return n
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
