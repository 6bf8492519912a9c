package train_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
)

// banditID is the registry id of the text bandit of the learning tests.
const banditID = "test:TextBandit-v0"

// banditContexts and banditArms pair up: the right answer to "colour: red"
// is \boxed{plum}. The pairing is arbitrary on purpose: nothing in the text
// hints at it, so only the reward can teach it.
var (
	banditContexts = []string{"red", "green", "blue", "yellow"}
	banditArms     = []string{"plum", "fig", "lime", "kiwi"}
)

// textBandit is a single-turn contextual bandit with text in and out. Reset
// draws one of the K contexts from the seed (the same seed, the same
// context); the one step ends the episode with reward 1 (success) for the
// context's arm in \boxed{}, 0 for any other boxed text, and
// envs.RewardFormatError when no \boxed{} parses. A uniformly random arm
// succeeds with probability 1/K.
type textBandit struct {
	src     rand.PCG
	context int
	live    bool
}

var (
	_ envs.Env           = (*textBandit)(nil)
	_ envs.ActionSampler = (*textBandit)(nil)
)

// banditStream keeps the bandit's draws apart from other envs' on one seed.
const banditStream = 0x62616e646974 // "bandit"

func (e *textBandit) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, banditStream)
	e.context = rand.New(&e.src).IntN(len(banditContexts))
	e.live = true
	return "colour: " + banditContexts[e.context] + ". Answer \\boxed{fruit}.", envs.Info{envs.InfoMaxTurns: 1}, nil
}

func (e *textBandit) Step(action string) (envs.Step, error) {
	if !e.live {
		return envs.Step{}, envs.ErrNotReset
	}
	e.live = false
	s := envs.Step{Terminated: true, Info: envs.Info{envs.InfoTurn: 1, envs.InfoSuccess: false}}
	got, ok := envs.LastBoxed(action)
	switch {
	case !ok:
		s.Obs, s.Reward = "no \\boxed{} answer", envs.RewardFormatError
		s.Info[envs.InfoFormatError] = true
	case got == banditArms[e.context]:
		s.Obs, s.Reward = "right", envs.RewardSuccess
		s.Info[envs.InfoSuccess] = true
	default:
		s.Obs = "wrong"
	}
	return s, nil
}

// SampleAction answers a uniformly random arm: the format warm-up learns
// the answer format from it, not the pairing.
func (e *textBandit) SampleAction(r *rand.Rand) string {
	return envs.Boxed(banditArms[r.IntN(len(banditArms))])
}

// registerBandit adds the text bandit to reg under banditID.
func registerBandit(reg *envs.Registry) error {
	return reg.RegisterDesc(banditID, "Name the fruit paired with a colour (learning-test bandit).", func(*envs.Options) (envs.Env, error) {
		return &textBandit{}, nil
	})
}

func TestTextBandit(t *testing.T) {
	envtest.CheckEnv(t, func() (envs.Env, error) { return &textBandit{}, nil }, envtest.Episodes(20))

	e := &textBandit{}
	seen := map[int]int{}
	for seed := uint64(0); seed < 400; seed++ {
		obs, info, err := e.Reset(seed)
		require.NoError(t, err)
		assert.Equal(t, 1, info[envs.InfoMaxTurns])
		c := e.context
		seen[c]++
		assert.Equal(t, "colour: "+banditContexts[c]+". Answer \\boxed{fruit}.", obs)
		again, _, _ := e.Reset(seed)
		assert.Equal(t, obs, again, "seed %d: same seed, same context", seed)

		// The right arm wins; the others score 0; no box is a format error.
		for a, arm := range banditArms {
			_, _, _ = e.Reset(seed)
			s, err := e.Step("I say \\boxed{" + arm + "}")
			require.NoError(t, err)
			assert.True(t, s.Terminated)
			assert.Equal(t, a == c, s.Info[envs.InfoSuccess])
			if a == c {
				assert.Equal(t, 1.0, s.Reward)
			} else {
				assert.Equal(t, 0.0, s.Reward)
			}
		}
		_, _, _ = e.Reset(seed)
		s, err := e.Step(banditArms[c])
		require.NoError(t, err)
		assert.Equal(t, envs.RewardFormatError, s.Reward)
		assert.Equal(t, true, s.Info[envs.InfoFormatError])
		_, err = e.Step("\\boxed{plum}")
		assert.ErrorIs(t, err, envs.ErrNotReset)
	}
	for c := range banditContexts {
		assert.InDelta(t, 100, seen[c], 35, "context %d drawn about 1/K of the time", c)
	}
}
