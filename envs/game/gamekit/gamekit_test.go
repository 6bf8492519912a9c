package gamekit

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type fake struct{ n int }

func (f *fake) Reset(uint64) (string, envs.Info, error) { return "start", envs.Info{}, nil }
func (f *fake) Step(string) (envs.Step, error)          { return envs.Step{}, nil }

func TestRegisterAddsEveryLevelInOrder(t *testing.T) {
	r := envs.NewRegistry()
	var got []int
	err := Register(r, "game:Fake-v0-", []Level[int]{
		{"easy", "fake easy", 1}, {"hard", "fake hard", 2}, {"random", "fake random", 3},
	}, func(n int) envs.Factory {
		got = append(got, n)
		return func(o *envs.Options) (envs.Env, error) {
			style, mt := Common(o, n, 1, 100)
			if err := o.Err(); err != nil {
				return nil, err
			}
			assert.Equal(t, envs.StyleBrief, style)
			return &fake{n: mt}, nil
		}
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3}, got)
	env, err := r.Make("game:Fake-v0-hard", envs.With("style", "brief"))
	require.NoError(t, err)
	assert.Equal(t, 2, env.(*fake).n, "max_turns defaults to the level's value")
	env, err = r.Make("game:Fake-v0-easy", envs.With("style", "brief"), envs.With("max_turns", 7))
	require.NoError(t, err)
	assert.Equal(t, 7, env.(*fake).n)
	_, err = r.Make("game:Fake-v0-easy", envs.With("max_turns", 101))
	require.ErrorContains(t, err, "max_turns = 101 is out of range: allowed [1, 100]")

	err = Register(r, "game:Fake-v0-", []Level[int]{{"easy", "again", 1}}, func(int) envs.Factory {
		return func(*envs.Options) (envs.Env, error) { return &fake{}, nil }
	})
	require.Error(t, err, "a duplicate id is refused")
}

func TestEpisode(t *testing.T) {
	var ep Episode
	info, err := ep.Begin()
	require.True(t, errors.Is(err, envs.ErrNotReset), "before Start")
	assert.Nil(t, info)
	assert.Equal(t, 0, ep.Turn, "no turn is counted outside an episode")
	ep.Turn = 4
	ep.Start()
	assert.Equal(t, Episode{Turn: 0, Active: true}, ep)
	for want := 1; want <= 3; want++ {
		info, err = ep.Begin()
		require.NoError(t, err)
		assert.Equal(t, want, ep.Turn)
		assert.Equal(t, envs.Info{envs.InfoTurn: want}, info)
	}
	ep.Active = false
	_, err = ep.Begin()
	require.True(t, errors.Is(err, envs.ErrNotReset), "after the end")
	assert.Equal(t, 3, ep.Turn)
}

func TestFormatError(t *testing.T) {
	info := envs.Info{envs.InfoTurn: 3, "target": 9}
	st := FormatError(info, "Format error: x")
	assert.Equal(t, envs.Step{Obs: "Format error: x", Reward: envs.RewardFormatError, Terminated: true,
		Info: envs.Info{envs.InfoTurn: 3, "target": 9, envs.InfoFormatError: true, envs.InfoSuccess: false}}, st)
}

func TestLimit(t *testing.T) {
	assert.Equal(t, 50, Limit(50, 0))
	assert.Equal(t, 7, Limit(50, 7))
	assert.Equal(t, 50, Limit(50, -1))
}

func TestDefaults(t *testing.T) {
	level, style := "", envs.Style("")
	require.NoError(t, Defaults("g", &level, &style, 0))
	assert.Equal(t, "easy", level)
	assert.Equal(t, envs.StyleGEM, style)
	level, style = "hard", envs.StyleBrief
	require.NoError(t, Defaults("g", &level, &style, 5))
	assert.Equal(t, "hard", level)
	assert.Equal(t, envs.StyleBrief, style)
	require.EqualError(t, Defaults("wordle", &level, &style, -2), "wordle: MaxTurns = -2: want 0 (default) or more")
}

func TestCheckStyle(t *testing.T) {
	for _, s := range []envs.Style{"", envs.StyleGEM, envs.StyleBrief} {
		require.NoError(t, CheckStyle("g", s))
	}
	require.EqualError(t, CheckStyle("hanoi", "fancy"), `hanoi: style "fancy": allowed values are gem, brief`)
}

func TestPickSingleLevelLeavesRNGAlone(t *testing.T) {
	a, b := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	assert.Equal(t, "only", Pick(a, []string{"only"}))
	assert.Equal(t, b.Uint64(), a.Uint64(), "one level: no draw")
}

func TestPickDrawsEveryLevelAsIntN(t *testing.T) {
	levels := []int{10, 20, 30}
	seen := map[int]bool{}
	for seed := range uint64(200) {
		a, b := rand.New(rand.NewPCG(seed, 7)), rand.New(rand.NewPCG(seed, 7))
		got := Pick(a, levels)
		assert.Equal(t, levels[b.IntN(3)], got)
		seen[got] = true
	}
	assert.Len(t, seen, 3)
}

func TestParseWord(t *testing.T) {
	names := []string{"up", "down", "left", "right"}
	i, err := ParseWord(`I go \boxed{up} then \boxed{LEFT}`, names)
	require.NoError(t, err)
	assert.Equal(t, 2, i, "the last boxed answer counts")
	i, err = ParseWord(`\boxed{Right}`, names)
	require.NoError(t, err)
	assert.Equal(t, 3, i)
	_, err = ParseWord("left", names)
	require.EqualError(t, err, `no \boxed{...} found`)
	_, err = ParseWord(`\boxed{north}`, names)
	require.EqualError(t, err, `"north" is not a move: want up, down, left or right`)
	assert.Equal(t, "a", orList([]string{"a"}))
	assert.Equal(t, "a or b", orList([]string{"a", "b"}))
}

func FuzzParseWord(f *testing.F) {
	for _, s := range []string{`\boxed{up}`, `\boxed{}`, "", `\boxed{\boxed{down}}`, `\boxed{LeFt}`} {
		f.Add(s)
	}
	names := []string{"left", "right", "up", "down"}
	f.Fuzz(func(t *testing.T, s string) {
		i, err := ParseWord(s, names)
		if err != nil {
			return
		}
		content, ok := envs.LastBoxed(s)
		require.True(t, ok)
		require.Equal(t, names[i], strings.ToLower(content))
	})
}

func TestAsEnv(t *testing.T) {
	env, err := AsEnv(&fake{n: 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, 3, env.(*fake).n)
	var none *fake
	env, err = AsEnv(none, errors.New("bad level"))
	require.EqualError(t, err, "bad level")
	assert.True(t, env == nil, "an error gives a nil interface, not a typed nil")
}

func TestStyleOrGEM(t *testing.T) {
	assert.Equal(t, envs.StyleGEM, StyleOrGEM(""))
	assert.Equal(t, envs.StyleBrief, StyleOrGEM(envs.StyleBrief))
}

func TestCheckMaxTurns(t *testing.T) {
	require.NoError(t, CheckMaxTurns("g", 1, false))
	require.NoError(t, CheckMaxTurns("g", 0, true), "random levels keep their drawn limit")
	require.EqualError(t, CheckMaxTurns("hanoi", 0, false), "hanoi: max_turns = 0: want at least 1")
	require.EqualError(t, CheckMaxTurns("fifteen", -4, true), "fifteen: max_turns = -4: want at least 1")
}
