package mathtask

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"math/big"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// evalGo evaluates an arithmetic expression exactly with go/constant (an
// evaluator independent of the generator's).
func evalGo(t *testing.T, s string) *big.Rat {
	t.Helper()
	e, err := parser.ParseExpr(s)
	require.NoError(t, err, s)
	var ev func(ast.Expr) constant.Value
	ev = func(e ast.Expr) constant.Value {
		switch x := e.(type) {
		case *ast.BasicLit:
			return constant.MakeFromLiteral(x.Value, x.Kind, 0)
		case *ast.ParenExpr:
			return ev(x.X)
		case *ast.UnaryExpr:
			return constant.UnaryOp(x.Op, ev(x.X), 0)
		case *ast.BinaryExpr:
			return constant.BinaryOp(ev(x.X), x.Op, ev(x.Y)) // QUO is exact
		}
		t.Fatalf("unexpected node %T in %q", e, s)
		return nil
	}
	v := constant.ToFloat(ev(e))
	r, ok := new(big.Rat).SetString(v.ExactString())
	require.True(t, ok, v.ExactString())
	return r
}

func gen(t *testing.T, build func(*envs.Options) task.Generator, opts ...envs.Option) task.Generator {
	t.Helper()
	o := envs.NewOptions("test", opts...)
	g := build(o)
	require.NoError(t, o.Err())
	return g
}

func TestArithmeticMatchesGoConstant(t *testing.T) {
	g := gen(t, buildArithmetic, envs.With("terms", 4))
	re := regexp.MustCompile(`^Compute (.*)\.$`)
	for seed := range uint64(300) {
		p := g(task.Seeded(seed))
		m := re.FindStringSubmatch(p.Question)
		require.NotNil(t, m, p.Question)
		want := evalGo(t, m[1])
		got, ok := Numbers(p.Answer)
		require.True(t, ok, p.Answer)
		require.Zero(t, want.Cmp(got[0]), "%s = %s, generator says %s", m[1], want.RatString(), p.Answer)
	}
}

// The answer of every algebra problem satisfies its equation.
func TestAlgebraSolutionSatisfiesEquation(t *testing.T) {
	for _, frac := range []bool{false, true} {
		g := gen(t, buildAlgebra, envs.With("fractions", frac))
		re := regexp.MustCompile(`^Solve for (\w): (.*) = (.*)$`)
		for seed := range uint64(300) {
			p := g(task.Seeded(seed))
			m := re.FindStringSubmatch(p.Question)
			require.NotNil(t, m, p.Question)
			x, ok := Numbers(p.Answer)
			require.True(t, ok)
			sub := func(side string) *big.Rat {
				// 3x -> 3*(x); -x -> -1*(x); x -> 1*(x)
				s := regexp.MustCompile(`(\d*)`+m[1]).ReplaceAllStringFunc(side, func(tok string) string {
					c := tok[:len(tok)-1]
					if c == "" {
						c = "1"
					}
					return c + "*(" + x[0].RatString() + ")"
				})
				return evalGo(t, s)
			}
			require.Zero(t, sub(m[2]).Cmp(sub(m[3])), "%s with %s = %s", p.Question, m[1], p.Answer)
		}
	}
}

func TestFormatRat(t *testing.T) {
	assert.Equal(t, "7", FormatRat(big.NewRat(14, 2)))
	assert.Equal(t, "-0.125", FormatRat(big.NewRat(-1, 8)))
	assert.Equal(t, "2/3", FormatRat(big.NewRat(4, 6)))
	assert.Equal(t, "0.3", FormatRat(big.NewRat(3, 10)))
}

func TestWordProblemExample(t *testing.T) {
	// Template 0 (change): the answer is bill - n*price, read back from the text.
	re := regexp.MustCompile(`buys (\d+) \w+ at \$(\d+) each and pays with a \$(\d+) bill`)
	g := gen(t, buildWordProblems)
	seen := 0
	for seed := range uint64(400) {
		p := g(task.Seeded(seed))
		m := re.FindStringSubmatch(p.Question)
		if m == nil {
			continue
		}
		seen++
		n, _ := new(big.Int).SetString(m[1], 10)
		price, _ := new(big.Int).SetString(m[2], 10)
		bill, _ := new(big.Int).SetString(m[3], 10)
		want := new(big.Int).Sub(bill, new(big.Int).Mul(n, price))
		require.Equal(t, want.String(), p.Answer)
		require.Positive(t, want.Sign())
	}
	assert.Greater(t, seen, 10)
}
