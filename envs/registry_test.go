package envs

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stub is an env that only records its options.
type stub struct {
	maxTurns int
	style    Style
	closed   bool
}

func (s *stub) Reset(uint64) (string, Info, error) {
	return "start", Info{InfoMaxTurns: s.maxTurns}, nil
}
func (s *stub) Step(string) (Step, error) { return Step{Terminated: true}, nil }
func (s *stub) Close() error              { s.closed = true; return nil }

func stubFactory(made *[]*stub) Factory {
	return func(o *Options) (Env, error) {
		s := &stub{maxTurns: o.Int("max_turns", 4, 1, 100), style: o.Style()}
		if made != nil {
			*made = append(*made, s)
		}
		return s, nil
	}
}

func gameRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	for _, game := range []string{"GuessTheNumber", "Mastermind", "TowerofHanoi", "FifteenPuzzle"} {
		for _, level := range []string{"easy", "hard", "random"} {
			id := fmt.Sprintf("game:%s-v0-%s", game, level)
			require.NoError(t, r.RegisterDesc(id, "the "+game+" game, "+level, stubFactory(nil)))
		}
	}
	return r
}

func TestRegisterDuplicateAndBadIDs(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register("game:X-v0", stubFactory(nil)))
	err := r.Register("game:X-v0", stubFactory(nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "game:X-v0")
	assert.Contains(t, err.Error(), "already registered")

	require.ErrorContains(t, r.Register("", stubFactory(nil)), "non-empty")
	require.ErrorContains(t, r.Register(" game:Y-v0", stubFactory(nil)), "surrounding spaces")
	require.ErrorContains(t, r.Register("game:Y-v0", nil), "nil factory")
	assert.Equal(t, []string{"game:X-v0"}, r.IDs())
}

func TestIDsSortedAndDescriptions(t *testing.T) {
	r := gameRegistry(t)
	ids := r.IDs()
	require.Len(t, ids, 12)
	for i := 1; i < len(ids); i++ {
		assert.Less(t, ids[i-1], ids[i])
	}
	assert.Equal(t, "the Mastermind game, hard", r.Description("game:Mastermind-v0-hard"))
	assert.Equal(t, "", r.Description("game:Nope-v0"))
}

func TestUnknownIDSuggestsClosest(t *testing.T) {
	r := gameRegistry(t)
	_, err := r.Make("game:GuessTheNumber-v0-hardd")
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, `unknown env id "game:GuessTheNumber-v0-hardd"`)
	assert.Contains(t, msg, "did you mean game:GuessTheNumber-v0-hard,", "the closest id comes first")
	assert.NotContains(t, msg, "Mastermind")

	_, err = r.Make("Mastermind")
	require.Error(t, err)
	for _, level := range []string{"easy", "hard", "random"} {
		assert.Contains(t, err.Error(), "game:Mastermind-v0-"+level, "a fragment of an id matches it")
	}

	_, err = r.Make("game:towerofhanoi-v0-easy")
	require.ErrorContains(t, err, "did you mean game:TowerofHanoi-v0-easy", "case does not matter for suggestions")

	_, err = NewRegistry().Make("game:GuessTheNumber-v0-easy")
	require.ErrorContains(t, err, "no envs are registered")
}

func TestMakeOptionErrorsNameOptionAndRange(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register("game:X-v0", stubFactory(nil)))
	cases := []struct {
		opt  Option
		want string
	}{
		{With("max_turns", 0), "env game:X-v0: option max_turns = 0 is out of range: allowed [1, 100]"},
		{With("max_turns", 101), "max_turns = 101 is out of range: allowed [1, 100]"},
		{With("max_turns", 2.5), "max_turns = 2.5: want a whole number in [1, 100]"},
		{With("max_turns", "many"), `max_turns = "many": want a whole number in [1, 100]`},
		{With("max_turns", true), "max_turns = true (bool): want a whole number in [1, 100]"},
		{With("style", "verbose"), `style = "verbose": allowed values are gem, brief`},
		{With("style", 3), "style = 3 (int): want a string"},
		{With("colour", "red"), "env game:X-v0: unknown option colour (valid options: max_turns, style)"},
	}
	for _, c := range cases {
		_, err := r.Make("game:X-v0", c.opt)
		require.Error(t, err, "%v", c.opt)
		assert.Contains(t, err.Error(), c.want)
	}
}

func TestMakeReadsOptionsOfAnyKind(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register("game:X-v0", stubFactory(nil)))
	for _, v := range []any{7, int64(7), uint64(7), 7.0, "7", " 7 "} {
		env, err := r.Make("game:X-v0", With("max_turns", v))
		require.NoError(t, err, "%T %v", v, v)
		assert.Equal(t, 7, env.(*stub).maxTurns)
	}
	env, err := r.Make("game:X-v0", FromMap(map[string]any{"style": "brief"})...)
	require.NoError(t, err)
	assert.Equal(t, StyleBrief, env.(*stub).style)
	assert.Equal(t, 4, env.(*stub).maxTurns, "absent options take their default")
}

func TestOptionGetters(t *testing.T) {
	o := NewOptions("t:X", With("f", "0.5"), With("b", "true"))
	assert.Equal(t, 0.5, o.Float("f", 0, 0, 1))
	assert.True(t, o.Bool("b", false))
	assert.Equal(t, 3.0, o.Float("absent", 3, 0, 10))
	require.NoError(t, o.Err())

	o = NewOptions("t:X", With("nb", "maybe"))
	assert.False(t, o.Bool("nb", false))
	require.ErrorContains(t, o.Err(), "nb = maybe: want true or false")

	o = NewOptions("t:X", With("nf", "NaN"))
	o.Float("nf", 0, 0, 1)
	require.ErrorContains(t, o.Err(), "nf = NaN is out of range: allowed [0, 1]")

	o = NewOptions("t:X", With("a", 1))
	o.Failf("min %d above max %d", 5, 2)
	require.ErrorContains(t, o.Err(), "env t:X: min 5 above max 2")
}

func TestMakeClosesEnvOnOptionError(t *testing.T) {
	var made []*stub
	r := NewRegistry()
	require.NoError(t, r.Register("game:X-v0", stubFactory(&made)))
	_, err := r.Make("game:X-v0", With("bogus", 1))
	require.Error(t, err)
	require.Len(t, made, 1)
	assert.True(t, made[0].closed, "an env made with bad options is closed, not leaked")
}

func TestMakeWrapsFactoryError(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register("code:X-v0", func(*Options) (Env, error) { return nil, errors.New("python3 not found") }))
	_, err := r.Make("code:X-v0")
	require.EqualError(t, err, "make code:X-v0: python3 not found")
}

func TestRegistryConcurrentUse(t *testing.T) {
	r := gameRegistry(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("test:Env%d-v0", i)
			assert.NoError(t, r.Register(id, stubFactory(nil)))
			_, err := r.Make("game:Mastermind-v0-easy")
			assert.NoError(t, err)
			assert.True(t, strings.HasPrefix(r.IDs()[0], "game:"))
		})
	}
	wg.Wait()
	assert.Len(t, r.IDs(), 20)
}

// A huge value never makes a huge message, and a number past int's range
// is an error, never a wrapped-around number.
func TestOptionErrorsStayShort(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register("game:X-v0", stubFactory(nil)))
	huge := strings.Repeat("x", 100<<10)
	for _, opt := range []Option{
		With("style", huge), With("max_turns", huge), With(huge, 1), With("max_turns", []byte(huge)),
	} {
		_, err := r.Make("game:X-v0", opt)
		require.Error(t, err)
		assert.Less(t, len(err.Error()), 512, "%.200s", err)
		assert.Contains(t, err.Error(), " bytes)", "the length is named")
	}
	for _, v := range []any{uint64(18446744073709551611), uint64(math.MaxInt64) + 1, 1e19, -1e19, "18446744073709551611", "-99999999999999999999"} {
		_, err := r.Make("game:X-v0", With("max_turns", v))
		require.Error(t, err, "%v", v)
		assert.Contains(t, err.Error(), "max_turns = ", "%v", v)
		assert.Contains(t, err.Error(), "is out of range: allowed [1, 100]", "%v", v)
	}
	o := NewOptions("t:X", With("min", uint64(18446744073709551611)))
	assert.Equal(t, 0, o.Int("min", 0, math.MinInt, math.MaxInt), "the default, not a wrapped -5")
	require.ErrorContains(t, o.Err(), "min = 18446744073709551611 is out of range")

	start := time.Now()
	_, err := r.Make("game:" + strings.Repeat("Guess", 400<<10))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 512)
	assert.Less(t, time.Since(start), time.Second, "no edit distance over a 2 MB id")
}
