package gamekit

import (
	"errors"
	"testing"

	"github.com/gemgo/gemgo/envs/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type fake struct{ n int }

func (f *fake) Reset(uint64) (string, core.Info, error) { return "start", core.Info{}, nil }
func (f *fake) Step(string) (core.Step, error)          { return core.Step{}, nil }

func TestRegisterAddsEveryLevelInOrder(t *testing.T) {
	r := core.NewRegistry()
	var got []int
	err := Register(r, "game:Fake-v0-", []Level[int]{
		{"easy", "fake easy", 1}, {"hard", "fake hard", 2}, {"random", "fake random", 3},
	}, func(n int) core.Factory {
		got = append(got, n)
		return func(o *core.Options) (core.Env, error) {
			style, mt := Common(o, n, 1, 100)
			if err := o.Err(); err != nil {
				return nil, err
			}
			assert.Equal(t, core.StyleBrief, style)
			return &fake{n: mt}, nil
		}
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3}, got)
	env, err := r.Make("game:Fake-v0-hard", core.With("style", "brief"))
	require.NoError(t, err)
	assert.Equal(t, 2, env.(*fake).n, "max_turns defaults to the level's value")
	env, err = r.Make("game:Fake-v0-easy", core.With("style", "brief"), core.With("max_turns", 7))
	require.NoError(t, err)
	assert.Equal(t, 7, env.(*fake).n)
	_, err = r.Make("game:Fake-v0-easy", core.With("max_turns", 101))
	require.ErrorContains(t, err, "max_turns = 101 is out of range: allowed [1, 100]")

	err = Register(r, "game:Fake-v0-", []Level[int]{{"easy", "again", 1}}, func(int) core.Factory {
		return func(*core.Options) (core.Env, error) { return &fake{}, nil }
	})
	require.Error(t, err, "a duplicate id is refused")
}

func TestBeginStep(t *testing.T) {
	turn := 4
	info, err := BeginStep(false, &turn)
	require.True(t, errors.Is(err, core.ErrNotReset))
	assert.Nil(t, info)
	assert.Equal(t, 4, turn, "no turn is counted outside an episode")
	info, err = BeginStep(true, &turn)
	require.NoError(t, err)
	assert.Equal(t, 5, turn)
	assert.Equal(t, core.Info{core.InfoTurn: 5}, info)
}

func TestFormatError(t *testing.T) {
	info := core.Info{core.InfoTurn: 3, "target": 9}
	st := FormatError(info, "Format error: x")
	assert.Equal(t, core.Step{Obs: "Format error: x", Reward: core.RewardFormatError, Terminated: true,
		Info: core.Info{core.InfoTurn: 3, "target": 9, core.InfoFormatError: true, core.InfoSuccess: false}}, st)
}

func TestLimit(t *testing.T) {
	assert.Equal(t, 50, Limit(50, 0))
	assert.Equal(t, 7, Limit(50, 7))
	assert.Equal(t, 50, Limit(50, -1))
}

func TestDefaults(t *testing.T) {
	level, style := "", core.Style("")
	require.NoError(t, Defaults("g", &level, &style, 0))
	assert.Equal(t, "easy", level)
	assert.Equal(t, core.StyleGEM, style)
	level, style = "hard", core.StyleBrief
	require.NoError(t, Defaults("g", &level, &style, 5))
	assert.Equal(t, "hard", level)
	assert.Equal(t, core.StyleBrief, style)
	require.EqualError(t, Defaults("wordle", &level, &style, -2), "wordle: MaxTurns = -2: want 0 (default) or more")
}

func TestCheckStyle(t *testing.T) {
	for _, s := range []core.Style{"", core.StyleGEM, core.StyleBrief} {
		require.NoError(t, CheckStyle("g", s))
	}
	require.EqualError(t, CheckStyle("hanoi", "fancy"), `hanoi: style "fancy": allowed values are gem, brief`)
}
