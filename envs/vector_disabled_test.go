package envs_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
)

// Under AutoresetDisabled every env plays exactly the episodes a lone env
// plays with the seeds the caller gives ResetSome; a finished env waits
// without an episode until it is reset.
func TestVectorEnvDisabledAutoreset(t *testing.T) {
	const n = 6
	for _, workers := range []int{1, 0, n} {
		v, err := envs.NewVectorEnv(toys(n, 2), envs.VectorConfig{Workers: workers, Autoreset: envs.AutoresetDisabled})
		require.NoError(t, err)
		assert.Equal(t, envs.AutoresetDisabled, v.Autoreset())
		refs := make([]*envs.EpisodeStats, n)
		for i := range refs {
			refs[i] = envs.NewEpisodeStats(envtest.NewToy(2 + i%3))
		}
		_, err = v.StepSome([]int{0}, []string{`\boxed{1}`})
		require.ErrorContains(t, err, "call ResetSome")

		r := rand.New(rand.NewPCG(3, 3))
		next := uint64(1000)
		live := make([]bool, n)
		finished := 0
		for range 40 {
			// Reset the free envs, in reverse order, with fresh seeds.
			var idx []int
			var seeds []uint64
			for i := n - 1; i >= 0; i-- {
				if !live[i] {
					idx = append(idx, i)
					seeds = append(seeds, next)
					next += 7
				}
			}
			if len(idx) > 0 {
				obs, infos, err := v.ResetSome(idx, seeds)
				require.NoError(t, err)
				require.Len(t, obs, len(idx))
				for k, i := range idx {
					o, info, err := refs[i].Reset(seeds[k])
					require.NoError(t, err)
					require.Equal(t, o, obs[k], "results in the order of the indices")
					require.Equal(t, info, infos[k])
					require.Equal(t, seeds[k], v.Seed(i))
					live[i] = true
				}
			}
			all := make([]int, n)
			actions := make([]string, n)
			for i := range all {
				all[i] = i
				actions[i] = envs.Boxed(fmt.Sprint(r.IntN(10)))
			}
			res, err := v.StepSome(all, actions)
			require.NoError(t, err)
			for i, got := range res {
				want, err := refs[i].Step(actions[i])
				require.NoError(t, err)
				require.Equal(t, want, got.Step)
				require.Equal(t, v.Seed(i), got.Seed)
				require.Empty(t, got.ResetObs, "no autoreset")
				if !want.Done() {
					require.Equal(t, want.Obs, got.Next())
				} else {
					require.Empty(t, got.Next(), "no next observation before ResetSome")
					live[i] = false
					finished++
					_, err := v.StepSome([]int{i}, []string{`\boxed{1}`})
					require.ErrorContains(t, err, fmt.Sprintf("env %d has no active episode: call ResetSome", i))
				}
			}
		}
		assert.Greater(t, finished, 2*n)
		require.NoError(t, v.Close())
	}
}

func TestVectorEnvResetSomeMisuse(t *testing.T) {
	same, err := envs.NewVectorEnv(toys(2, 2), envs.VectorConfig{})
	require.NoError(t, err)
	_, _, err = same.ResetSome([]int{0}, []uint64{1})
	require.ErrorContains(t, err, "AutoresetDisabled")

	v, err := envs.NewVectorEnv(toys(3, 2), envs.VectorConfig{Autoreset: envs.AutoresetDisabled})
	require.NoError(t, err)
	_, _, err = v.ResetSome([]int{0, 1}, []uint64{1})
	require.ErrorContains(t, err, "2 indices but 1 seeds")
	_, _, err = v.ResetSome([]int{2, 2}, []uint64{1, 2})
	require.ErrorContains(t, err, "index 2 given twice")
	_, _, err = v.ResetSome([]int{3}, []uint64{1})
	require.ErrorContains(t, err, "index 3 out of range")
	// A live env may be reset again: its episode restarts.
	_, _, err = v.ResetSome([]int{1}, []uint64{5})
	require.NoError(t, err)
	_, _, err = v.ResetSome([]int{1}, []uint64{6})
	require.NoError(t, err)
	assert.Equal(t, uint64(6), v.Seed(1))

	_, err = envs.NewVectorEnv(toys(1, 2), envs.VectorConfig{Autoreset: envs.AutoresetMode(7)})
	require.ErrorContains(t, err, "AutoresetMode(7)")
	require.NoError(t, v.Close())
	_, _, err = v.ResetSome([]int{0}, []uint64{1})
	require.ErrorContains(t, err, "closed")
}

// resetPanics panics in Reset for seed 13.
type resetPanics struct{ toy *envtest.Toy }

func (e resetPanics) Reset(seed uint64) (string, envs.Info, error) {
	if seed == 13 {
		panic(fmt.Errorf("no game for seed %d", seed))
	}
	return e.toy.Reset(seed)
}
func (e resetPanics) Step(a string) (envs.Step, error) { return e.toy.Step(a) }

func TestVectorEnvResetPanic(t *testing.T) {
	v, err := envs.NewVectorEnv([]envs.Env{resetPanics{envtest.NewToy(3)}, resetPanics{envtest.NewToy(3)}},
		envs.VectorConfig{Autoreset: envs.AutoresetDisabled})
	require.NoError(t, err)
	obs, _, err := v.ResetSome([]int{0, 1}, []uint64{12, 13})
	require.EqualError(t, err, "env 1 (seed 13): reset: panic: no game for seed 13")
	var pe *envs.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "reset", pe.Op)
	assert.ErrorContains(t, pe.Unwrap(), "no game", "an error panic value unwraps")
	assert.Equal(t, "guess 1-9", obs[0], "the healthy env was reset")
	_, err = v.StepSome([]int{0}, []string{`\boxed{1}`})
	require.NoError(t, err)
	_, err = v.StepSome([]int{1}, []string{`\boxed{1}`})
	require.ErrorContains(t, err, "env 1 has no active episode")
}
