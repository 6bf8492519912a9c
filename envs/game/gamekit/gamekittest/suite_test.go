package gamekittest

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toyGame registers envtest's Toy under the given levels, reading the
// options every game reads.
func toyGame(levels ...string) func(*envs.Registry) error {
	var lv []gamekit.Level[int]
	for _, l := range levels {
		lv = append(lv, gamekit.Level[int]{Name: l, Desc: "Toy " + l, Value: 3})
	}
	return func(r *envs.Registry) error {
		return gamekit.Register(r, "game:Toy-v0-", lv, func(def int) envs.Factory {
			return func(o *envs.Options) (envs.Env, error) {
				_, mt := gamekit.Common(o, def, 1, 100)
				if err := o.Err(); err != nil {
					return nil, err
				}
				return envtest.NewToy(mt), nil
			}
		})
	}
}

// runRecorded runs f on a recorder and says whether it failed.
func runRecorded(t *testing.T, f func(testing.TB)) bool {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(rec)
	}()
	<-done
	return rec.failed
}

func TestCheckRegister(t *testing.T) {
	assert.False(t, runRecorded(t, func(tb testing.TB) { CheckRegister(tb, toyGame(Levels...), "game:Toy-v0-") }),
		"a game with the three levels and the common options passes")
	assert.True(t, runRecorded(t, func(tb testing.TB) { CheckRegister(tb, toyGame("easy", "hard"), "game:Toy-v0-") }),
		"a missing -random level fails")
	assert.True(t, runRecorded(t, func(tb testing.TB) { CheckRegister(tb, toyGame(Levels...), "game:Other-v0-") }),
		"ids under another prefix fail")
	ignoresTurns := func(r *envs.Registry) error {
		for _, l := range Levels {
			err := r.RegisterDesc("game:Toy-v0-"+l, "Toy", func(o *envs.Options) (envs.Env, error) {
				_, _ = gamekit.Common(o, 3, 1, 100)
				return envtest.NewToy(3), o.Err()
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	assert.True(t, runRecorded(t, func(tb testing.TB) { CheckRegister(tb, ignoresTurns, "game:Toy-v0-") }),
		"a game that ignores max_turns fails")
}

func TestActions(t *testing.T) {
	c := Cycle("a", "b", "c")
	assert.Equal(t, []string{"a", "b", "c", "a"}, []string{c(nil, nil, 0), c(nil, nil, 1), c(nil, nil, 2), c(nil, nil, 3)})
	toy := envtest.NewToy(4)
	got := Sampled()(toy, rand.New(rand.NewPCG(5, 6)), 0)
	require.Equal(t, toy.SampleAction(rand.New(rand.NewPCG(5, 6))), got, "the env's own draw from the same RNG")
}
