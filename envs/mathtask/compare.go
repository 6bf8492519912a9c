package mathtask

import "math/big"

// maxComparisons bounds the element comparisons of one Equivalent call (a
// set of sets compares every pair); past it the answers are unequal.
const maxComparisons = 20000

// comparer holds the state of one Equivalent call: the work left and the
// values already parsed (a set's elements are each compared many times).
type comparer struct {
	budget int
	values map[string]parsedValue
	calc   *calc // the arithmetic's work budget, shared by every parse
}

type parsedValue struct {
	v  value
	ok bool
}

func (c *comparer) value(s string) (value, bool) {
	if p, seen := c.values[s]; seen {
		return p.v, p.ok
	}
	v, ok := c.calc.parse(s)
	c.values[s] = parsedValue{v, ok}
	return v, ok
}

// equiv compares two normalised answers: as numbers (with units and
// percentages), sets, matrices, tuples and intervals, as text, and last as
// exact values.
func (c *comparer) equiv(p, g string, depth int) bool {
	c.budget--
	if p == "" || g == "" || depth > maxDepth || c.budget < 0 {
		return false
	}
	pv, pok := Numbers(p)
	gv, gok := Numbers(g)
	if pok && gok {
		return anyEqual(pv, gv)
	}
	if ps, ok := splitSet(p); ok {
		return c.setEquiv(ps, g, depth)
	}
	if gs, ok := splitSet(g); ok {
		return c.setEquiv(gs, p, depth)
	}
	if pm, ok := splitMatrix(p); ok {
		gm, ok := splitMatrix(g)
		return ok && c.sameMatrix(pm, gm, depth)
	}
	if _, ok := splitMatrix(g); ok {
		return false
	}
	if pe, popen, pclose, ok := splitTuple(p); ok {
		if ge, gopen, gclose, ok := splitTuple(g); ok {
			if popen != gopen || pclose != gclose || len(pe) != len(ge) || len(pe) > maxElems {
				return false
			}
			for i := range pe {
				if !c.equiv(pe[i], ge[i], depth+1) {
					return false
				}
			}
			return true
		}
	}
	if compact(p) == compact(g) {
		return true
	}
	pa, paok := c.value(p)
	ga, gaok := c.value(g)
	switch {
	case paok && gaok:
		return pa.equal(ga)
	case paok && gok:
		return valueIn(pa, gv)
	case pok && gaok:
		return valueIn(ga, pv)
	}
	return false
}

func anyEqual(a, b []*big.Rat) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Cmp(y) == 0 {
				return true
			}
		}
	}
	return false
}

// valueIn reports whether v is one of the numbers rs.
func valueIn(v value, rs []*big.Rat) bool {
	r, ok := v.rational()
	return ok && anyEqual([]*big.Rat{r}, rs)
}

// setEquiv compares the set elems with other: a set, or a bare list "a, b"
// read as a set (GEM's grader takes "1,2,3,4" for \{1,2,3,4\}).
func (c *comparer) setEquiv(elems []string, other string, depth int) bool {
	if os, ok := splitSet(other); ok {
		return c.sameSet(elems, os, depth)
	}
	if oe, open, _, ok := splitTuple(other); ok && open == 0 && len(oe) <= maxElems {
		return c.sameSet(elems, oe, depth)
	}
	return false
}
