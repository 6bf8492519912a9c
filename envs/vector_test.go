package envs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func toys(n, maxTurns int) []envs.Env {
	out := make([]envs.Env, n)
	for i := range out {
		out[i] = envtest.NewToy(maxTurns + i%3) // episodes of different lengths
	}
	return out
}

// rollout steps v for steps calls with actions drawn in index order from
// one generator, and returns every result.
func rollout(t *testing.T, v *envs.VectorEnv, base uint64, steps int) [][]envs.VecStep {
	t.Helper()
	_, _, err := v.Reset(base)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(base, 77))
	var all [][]envs.VecStep
	for range steps {
		actions := make([]string, v.Len())
		for i := range actions {
			actions[i] = v.Env(i).(envs.ActionSampler).SampleAction(r)
		}
		res, err := v.Step(actions)
		require.NoError(t, err)
		all = append(all, res)
	}
	return all
}

func TestVectorEnvModesGiveIdenticalResults(t *testing.T) {
	for base := range uint64(12) {
		var runs [][][]envs.VecStep
		for _, workers := range []int{1, 0, 3, 16} {
			v, err := envs.NewVectorEnv(toys(16, 3), envs.VectorConfig{Workers: workers})
			require.NoError(t, err)
			runs = append(runs, rollout(t, v, base, 40))
			require.NoError(t, v.Close())
		}
		require.Equal(t, runs[0], runs[1], "base %d: GOMAXPROCS workers differ from sequential", base)
		require.Equal(t, runs[0], runs[2], "base %d: 3 workers differ from sequential", base)
		require.Equal(t, runs[0], runs[3], "base %d: one goroutine per env differs from sequential", base)
	}
}

// Every env of a VectorEnv plays exactly the episodes a lone env plays with
// the seeds EpisodeSeed(base, i, 0), (base, i, 1), ...: final steps intact,
// statistics right, the next episode's first observation handed over.
func TestVectorEnvAutoresetLosesNothing(t *testing.T) {
	const n, base = 8, 99
	v, err := envs.NewVectorEnv(toys(n, 2), envs.VectorConfig{})
	require.NoError(t, err)
	obs, infos, err := v.Reset(base)
	require.NoError(t, err)

	refs := make([]*envs.EpisodeStats, n)
	episode := make([]int, n)
	for i := range refs {
		refs[i] = envs.NewEpisodeStats(envtest.NewToy(2 + i%3))
		o, info, err := refs[i].Reset(envs.EpisodeSeed(base, i, 0))
		require.NoError(t, err)
		require.Equal(t, o, obs[i])
		require.Equal(t, info, infos[i])
		require.Equal(t, envs.EpisodeSeed(base, i, 0), v.Seed(i))
	}
	r := rand.New(rand.NewPCG(5, 5))
	finished := 0
	for range 60 {
		actions := make([]string, n)
		for i := range actions {
			if r.IntN(5) == 0 {
				actions[i] = "no box" // format errors end episodes too
			} else {
				actions[i] = envs.Boxed(fmt.Sprint(r.IntN(11)))
			}
		}
		res, err := v.Step(actions)
		require.NoError(t, err)
		for i, got := range res {
			require.Equal(t, i, got.Index)
			want, err := refs[i].Step(actions[i])
			require.NoError(t, err)
			require.Equal(t, want, got.Step, "env %d episode %d", i, episode[i])
			require.Equal(t, envs.EpisodeSeed(base, i, episode[i]), got.Seed)
			if !want.Done() {
				require.Equal(t, want.Obs, got.Next())
				require.Empty(t, got.ResetObs)
				continue
			}
			finished++
			sum, ok := envs.SummaryOf(got.Step.Info)
			require.True(t, ok, "statistics on the final step")
			require.Equal(t, want.Info[envs.InfoSuccess], sum.Success)
			episode[i]++
			seed := envs.EpisodeSeed(base, i, episode[i])
			o, info, err := refs[i].Reset(seed)
			require.NoError(t, err)
			require.Equal(t, seed, got.ResetSeed)
			require.Equal(t, o, got.ResetObs)
			require.Equal(t, o, got.Next())
			require.Equal(t, info, got.ResetInfo)
			require.Equal(t, seed, v.Seed(i))
			require.Equal(t, episode[i], v.Episode(i))
		}
	}
	assert.Greater(t, finished, 2*n, "the test should see many episodes end")
}

func TestVectorEnvStepSome(t *testing.T) {
	v, err := envs.NewVectorEnv(toys(4, 9), envs.VectorConfig{})
	require.NoError(t, err)
	_, _, err = v.Reset(1)
	require.NoError(t, err)
	for range 3 {
		res, err := v.StepSome([]int{3, 1}, []string{`\boxed{0}`, `\boxed{0}`})
		require.NoError(t, err)
		require.Len(t, res, 2)
		assert.Equal(t, 3, res[0].Index)
		assert.Equal(t, 1, res[1].Index)
	}
	res, err := v.Step([]string{`\boxed{0}`, `\boxed{0}`, `\boxed{0}`, `\boxed{0}`})
	require.NoError(t, err)
	turns := []string{"t1 invalid", "t4 invalid", "t1 invalid", "t4 invalid"}
	for i, r := range res {
		assert.Equal(t, turns[i], r.Step.Obs, "env %d: untouched envs wait where they are", i)
	}
}

func TestVectorEnvMisuse(t *testing.T) {
	v, err := envs.NewVectorEnv(toys(3, 4), envs.VectorConfig{})
	require.NoError(t, err)
	_, err = v.Step([]string{"a", "b", "c"})
	require.ErrorContains(t, err, "call Reset")
	_, _, err = v.Reset(0)
	require.NoError(t, err)
	_, err = v.Step([]string{"a"})
	require.ErrorContains(t, err, "1 actions for 3 envs")
	_, err = v.StepSome([]int{0, 0}, []string{"a", "b"})
	require.ErrorContains(t, err, "index 0 given twice")
	_, err = v.StepSome([]int{3}, []string{"a"})
	require.ErrorContains(t, err, "index 3 out of range [0, 3)")
	_, err = v.StepSome([]int{-1}, []string{"a"})
	require.ErrorContains(t, err, "index -1 out of range")
	_, err = v.StepSome([]int{0, 1}, []string{"a"})
	require.ErrorContains(t, err, "2 indices but 1 actions")

	_, err = envs.NewVectorEnv(nil, envs.VectorConfig{})
	require.ErrorContains(t, err, "no envs")
	_, err = envs.NewVectorEnv(toys(2, 2), envs.VectorConfig{Workers: -1})
	require.ErrorContains(t, err, "workers = -1")
	_, err = envs.NewVectorEnv([]envs.Env{envtest.NewToy(2), nil}, envs.VectorConfig{})
	require.ErrorContains(t, err, "env 1 is nil")
}

// faulty fails on "fail" and panics on "panic".
type faulty struct{ toy *envtest.Toy }

func (f faulty) Reset(seed uint64) (string, envs.Info, error) { return f.toy.Reset(seed) }
func (f faulty) Step(a string) (envs.Step, error) {
	switch a {
	case "fail":
		return envs.Step{}, errors.New("tool crashed")
	case "panic":
		panic("boom")
	}
	return f.toy.Step(a)
}

func TestVectorEnvEnvFailures(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 3} {
		list := []envs.Env{faulty{envtest.NewToy(9)}, faulty{envtest.NewToy(9)}, faulty{envtest.NewToy(9)}}
		v, err := envs.NewVectorEnv(list, envs.VectorConfig{Workers: workers})
		require.NoError(t, err)
		_, _, err = v.Reset(0)
		require.NoError(t, err)
		res, err := v.Step([]string{"fail", `\boxed{0}`, "panic"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("env 0 (seed %d): step: tool crashed", envs.EpisodeSeed(0, 0, 0)))
		assert.Contains(t, err.Error(), fmt.Sprintf("env 2 (seed %d): step: panic: boom", envs.EpisodeSeed(0, 2, 0)))
		var pe *envs.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, envs.PanicError{Index: 2, Seed: envs.EpisodeSeed(0, 2, 0), Op: "step", Value: "boom"}, envs.PanicError{Index: pe.Index, Seed: pe.Seed, Op: pe.Op, Value: pe.Value})
		assert.Contains(t, string(pe.Stack), "faulty.Step", "the stack shows where the env panicked")
		assert.Equal(t, "t1 invalid", res[1].Step.Obs, "the healthy env's result is valid")
		_, err = v.StepSome([]int{0}, []string{`\boxed{1}`})
		require.ErrorContains(t, err, "env 0 has no active episode")
		_, err = v.StepSome([]int{1}, []string{`\boxed{1}`})
		require.NoError(t, err)
		_, _, err = v.Reset(0)
		require.NoError(t, err, "Reset revives failed envs")
		_, err = v.Step([]string{`\boxed{1}`, `\boxed{1}`, `\boxed{1}`})
		require.NoError(t, err)
	}
}

func TestVectorEnvClose(t *testing.T) {
	list := toys(5, 3)
	v, err := envs.NewVectorEnv(list, envs.VectorConfig{})
	require.NoError(t, err)
	_, _, err = v.Reset(0)
	require.NoError(t, err)
	require.NoError(t, v.Close())
	require.NoError(t, v.Close(), "Close is idempotent")
	for i, e := range list {
		assert.Equal(t, 1, e.(*envtest.Toy).Closes(), "env %d closed once", i)
	}
	_, err = v.Step(make([]string, 5))
	require.ErrorContains(t, err, "closed")
	_, _, err = v.Reset(0)
	require.ErrorContains(t, err, "closed")
}

func TestEpisodeSeedsDistinctAndStable(t *testing.T) {
	seen := map[uint64]string{}
	for _, base := range []uint64{0, 1} {
		for i := range 64 {
			for k := range 64 {
				s := envs.EpisodeSeed(base, i, k)
				where := fmt.Sprintf("base %d env %d episode %d", base, i, k)
				prev, dup := seen[s]
				require.False(t, dup, "%s repeats the seed of %s", where, prev)
				seen[s] = where
				require.Equal(t, s, envs.EpisodeSeed(base, i, k))
			}
		}
	}
}

func TestVectorEnvSeedFuncGroups(t *testing.T) {
	const g = 2
	cfg := envs.VectorConfig{SeedFunc: func(base uint64, i, k int) uint64 { return envs.EpisodeSeed(base, i/g, k) }}
	list := make([]envs.Env, 4)
	for i := range list {
		list[i] = envtest.NewToy(5)
	}
	v, err := envs.NewVectorEnv(list, cfg)
	require.NoError(t, err)
	_, _, err = v.Reset(3)
	require.NoError(t, err)
	assert.Equal(t, v.Seed(0), v.Seed(1))
	assert.Equal(t, v.Seed(2), v.Seed(3))
	assert.NotEqual(t, v.Seed(0), v.Seed(2))
	// The members of a group see the same game: the same guesses give the
	// same feedback.
	res, err := v.Step([]string{`\boxed{5}`, `\boxed{5}`, `\boxed{5}`, `\boxed{5}`})
	require.NoError(t, err)
	assert.Equal(t, res[0].Step, res[1].Step)
	assert.Equal(t, res[2].Step, res[3].Step)
}

func TestMakeVectorEnv(t *testing.T) {
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("test:Toy-v0", func(o *envs.Options) (envs.Env, error) {
		return envtest.NewToy(o.Int("max_turns", 4, 1, 20)), nil
	}))
	v, err := envs.MakeVectorEnv(reg, "test:Toy-v0", 3, envs.VectorConfig{}, envs.With("max_turns", 7))
	require.NoError(t, err)
	_, infos, err := v.Reset(0)
	require.NoError(t, err)
	require.Len(t, infos, 3)
	assert.Equal(t, 7, infos[2][envs.InfoMaxTurns])

	_, err = envs.MakeVectorEnv(reg, "test:Toy-v1", 3, envs.VectorConfig{})
	require.ErrorContains(t, err, "test:Toy-v0")
	_, err = envs.MakeVectorEnv(reg, "test:Toy-v0", 2, envs.VectorConfig{}, envs.With("max_turns", 99))
	require.ErrorContains(t, err, "max_turns = 99 is out of range")
	_, err = envs.MakeVectorEnv(reg, "test:Toy-v0", 0, envs.VectorConfig{})
	require.ErrorContains(t, err, "n = 0")
}

// A VectorEnv may be shared: concurrent calls are serialized (run with -race).
func TestVectorEnvConcurrentCallers(t *testing.T) {
	v, err := envs.NewVectorEnv(toys(6, 50), envs.VectorConfig{})
	require.NoError(t, err)
	_, _, err = v.Reset(0)
	require.NoError(t, err)
	errs := make(chan error, 6)
	for i := range 6 {
		go func() {
			var err error
			for range 20 {
				if _, err = v.StepSome([]int{i}, []string{`\boxed{0}`}); err != nil {
					break
				}
				_ = v.Seed((i + 1) % 6)
			}
			errs <- err
		}()
	}
	for range 6 {
		require.NoError(t, <-errs)
	}
	res, err := v.Step([]string{"x", "x", "x", "x", "x", "x"})
	require.NoError(t, err)
	for _, r := range res {
		assert.True(t, strings.HasPrefix(r.Step.Obs, "t21 "), "each env took exactly 20 turns before: %q", r.Step.Obs)
	}
}

// NewVectorEnvFunc closes the envs it made when a later one fails, and the
// error names the failing index; a nil env counts as a failure.
func TestNewVectorEnvFuncClosesOnFailure(t *testing.T) {
	for _, fail := range []error{errors.New("no python3"), nil} {
		var made []*envtest.Toy
		_, err := envs.NewVectorEnvFunc(4, func() (envs.Env, error) {
			if len(made) == 2 {
				return nil, fail
			}
			e := envtest.NewToy(10)
			made = append(made, e)
			return e, nil
		}, envs.VectorConfig{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "make env 2")
		if fail == nil {
			assert.Contains(t, err.Error(), "nil env")
		}
		for i, e := range made {
			assert.Equal(t, 1, e.Closes(), "env %d closed once", i)
		}
	}
	_, err := envs.NewVectorEnvFunc(0, nil, envs.VectorConfig{})
	assert.ErrorContains(t, err, "want at least 1")
}
