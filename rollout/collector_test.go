package rollout

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/envs"
)

// stopEnv ends when the agent says stop (success when it waited exactly
// seed%3 turns before) or at its turn limit 1 + seed%4 (truncated).
type stopEnv struct {
	seed      uint64
	turn, max int
	live      bool
}

func (e *stopEnv) Reset(seed uint64) (string, envs.Info, error) {
	*e = stopEnv{seed: seed, max: 1 + int(seed%4), live: true}
	return fmt.Sprintf("seed %d", seed), envs.Info{envs.InfoMaxTurns: e.max}, nil
}

func (e *stopEnv) Step(a string) (envs.Step, error) {
	if !e.live {
		return envs.Step{}, envs.ErrNotReset
	}
	e.turn++
	s := envs.Step{Obs: fmt.Sprintf("seed %d turn %d", e.seed, e.turn), Info: envs.Info{}}
	switch {
	case a == "stop":
		s.Terminated = true
		s.Info[envs.InfoSuccess] = e.turn-1 == int(e.seed%3)
		if s.Info[envs.InfoSuccess].(bool) {
			s.Reward = 1
		}
	case e.turn >= e.max:
		s.Truncated = true
		s.Reward = 0.25
		s.Info[envs.InfoSuccess] = false
	}
	e.live = !s.Done()
	return s, nil
}

// coinPolicy says stop with probability 0.3; its "tokens" are the bytes.
type coinPolicy struct{ calls, batch int }

func (p *coinPolicy) Act(obs []string, rng *rand.Rand) ([]Action, error) {
	p.calls++
	p.batch = max(p.batch, len(obs))
	out := make([]Action, len(obs))
	for i, o := range obs {
		text := "go"
		if rng.Float64() < 0.3 {
			text = "stop"
		}
		out[i] = Action{Text: text, Prompt: []int{len(o)}, Response: []int{int(text[0]), 0}, LogProbs: []float32{-0.5, -0.1}, Value: float64(len(o))}
	}
	return out, nil
}

type valuedPolicy struct{ coinPolicy }

func (p *valuedPolicy) Values(obs []string) ([]float64, error) {
	v := make([]float64, len(obs))
	for i, o := range obs {
		v[i] = float64(len(o)) + 0.5
	}
	return v, nil
}

func newCollector(t *testing.T, n int, p Policy) *Collector {
	c, err := NewCollector(n, func() (envs.Env, error) { return &stopEnv{}, nil }, p)
	require.NoError(t, err)
	return c
}

func TestCollectEpisodes(t *testing.T) {
	p := &coinPolicy{}
	c := newCollector(t, 8, p)
	var buf buffer.Buffer
	st, err := c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 50}, Seed: SeedSequence(1, 0)}, &buf, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, 50, st.Episodes)
	assert.Len(t, buf.Episodes, 50)
	assert.Equal(t, buf.Len(), st.Steps)
	assert.Equal(t, 2*st.Steps, st.SampledTokens)
	assert.LessOrEqual(t, p.batch, 8, "never more observations than slots in one call")
	assert.Greater(t, p.batch, 1, "observations are batched")
	for _, e := range buf.Episodes {
		turns := buf.Turns(e)
		last := turns[len(turns)-1]
		assert.True(t, last.Terminated != last.Truncated)
		assert.LessOrEqual(t, e.Turns, 1+int(e.Seed%4))
		if last.Truncated {
			assert.Equal(t, 1+int(e.Seed%4), e.Turns, "truncated exactly at the limit")
		}
		assert.Equal(t, e.Success, last.Reward == 1, "success read from the final step's info")
	}
}

func TestCollectGroupsShareSeeds(t *testing.T) {
	c := newCollector(t, 5, &coinPolicy{})
	var buf buffer.Buffer
	_, err := c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 10}, GroupSize: 4, Seed: SeedSequence(3, 2), FirstGroup: 100}, &buf, rand.New(rand.NewPCG(2, 2)))
	require.NoError(t, err)
	assert.Len(t, buf.Episodes, 12, "rounded up to whole groups")
	seeds := map[int]map[uint64]int{}
	for _, e := range buf.Episodes {
		if seeds[e.Group] == nil {
			seeds[e.Group] = map[uint64]int{}
		}
		seeds[e.Group][e.Seed]++
	}
	require.Len(t, seeds, 3)
	for g := 100; g < 103; g++ {
		require.Len(t, seeds[g], 1, "group %d has one seed", g)
		for _, n := range seeds[g] {
			assert.Equal(t, 4, n)
		}
	}
}

func TestCollectStepsBudget(t *testing.T) {
	c := newCollector(t, 6, &coinPolicy{})
	var buf buffer.Buffer
	st, err := c.Collect(context.Background(), Plan{Budget: Budget{Steps: 40}, Seed: SeedSequence(5, 0)}, &buf, rand.New(rand.NewPCG(3, 3)))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.Steps, 40)
	assert.Less(t, st.Steps, 40+6*4, "at most the slots' in-flight episodes finish past the budget")
	for _, e := range buf.Episodes {
		last := buf.Turns(e)[e.Turns-1]
		assert.True(t, last.Terminated || last.Truncated, "no episode cut short")
	}
}

// newWorkersCollector is newCollector on a VectorEnv with the given
// worker count.
func newWorkersCollector(t *testing.T, n, workers int, p Policy) *Collector {
	list := make([]envs.Env, n)
	for i := range list {
		list[i] = &stopEnv{}
	}
	v, err := envs.NewVectorEnv(list, envs.VectorConfig{Workers: workers, Autoreset: envs.AutoresetDisabled})
	require.NoError(t, err)
	c, err := NewVectorCollector(v, p)
	require.NoError(t, err)
	return c
}

func TestCollectDeterministicAndSequentialEqual(t *testing.T) {
	run := func(seq bool, seed uint64) buffer.Buffer {
		workers := 0
		if seq {
			workers = 1
		}
		c := newWorkersCollector(t, 7, workers, &coinPolicy{})
		var buf buffer.Buffer
		_, err := c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 40}, GroupSize: 2, Seed: SeedSequence(seed, 4)}, &buf, rand.New(rand.NewPCG(seed, 9)))
		require.NoError(t, err)
		return buf
	}
	for seed := uint64(0); seed < 10; seed++ {
		a, b, s := run(false, seed), run(false, seed), run(true, seed)
		assert.Equal(t, a, b)
		assert.Equal(t, a, s)
	}
	assert.NotEqual(t, run(false, 1).Episodes, run(false, 2).Episodes)
}

func TestCollectBootstrapsTruncated(t *testing.T) {
	c := newCollector(t, 4, &valuedPolicy{})
	var buf buffer.Buffer
	_, err := c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 30}, Seed: SeedSequence(8, 0)}, &buf, rand.New(rand.NewPCG(4, 4)))
	require.NoError(t, err)
	truncated := 0
	for _, tr := range buf.Transitions {
		if tr.Truncated {
			truncated++
			assert.Greater(t, tr.NextValue, 0.0, "final observation valued")
			assert.Equal(t, 0.5, tr.NextValue-float64(int(tr.NextValue)))
		} else {
			assert.Equal(t, 0.0, tr.NextValue)
		}
	}
	assert.Positive(t, truncated)
}

type failEnv struct{ stopEnv }

func (e *failEnv) Step(string) (envs.Step, error) { return envs.Step{}, errors.New("tool crashed") }

func TestCollectErrors(t *testing.T) {
	c, err := NewCollector(2, func() (envs.Env, error) { return &failEnv{}, nil }, &coinPolicy{})
	require.NoError(t, err)
	var buf buffer.Buffer
	_, err = c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 2}, Seed: SeedSequence(0, 0)}, &buf, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorContains(t, err, "tool crashed")
	assert.ErrorContains(t, err, fmt.Sprintf("env 0 (seed %d): step", SeedSequence(0, 0)(0)))
	assert.ErrorContains(t, err, "and 1 more failed", "both slots fail; the first is reported")

	_, err = c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 2, Steps: 3}, Seed: SeedSequence(0, 0)}, &buf, nil)
	assert.ErrorContains(t, err, "exactly one")
	_, err = NewCollector(0, nil, nil)
	assert.Error(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c2 := newCollector(t, 2, &coinPolicy{})
	_, err = c2.Collect(ctx, Plan{Budget: Budget{Episodes: 2}, Seed: SeedSequence(0, 0)}, &buf, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSeedSequence(t *testing.T) {
	s := SeedSequence(42, 3)
	assert.Equal(t, s(5), SeedSequence(42, 3)(5))
	seen := map[uint64]bool{}
	for it := 0; it < 20; it++ {
		for g := 0; g < 50; g++ {
			seen[SeedSequence(42, it)(g)] = true
		}
	}
	assert.Len(t, seen, 1000, "no two (iteration, group) pairs share a seed")
	assert.NotEqual(t, SeedSequence(1, 0)(0), SeedSequence(2, 0)(0))
	// The training seeds of existing runs: a change here changes every
	// run's episodes.
	assert.Equal(t, uint64(17806084464462151440), SeedSequence(1, 1)(0))
	assert.Equal(t, uint64(7820789298308021700), SeedSequence(1, 30)(127))
	assert.Equal(t, uint64(16668315612327561355), SeedSequence(42, 3)(5))
	assert.Equal(t, uint64(13076858268166860689), SeedSequence(0, 0)(0))
}

// panicEnv is stopEnv that panics in Step on the episode of seed bad (and
// in Reset too with inReset).
type panicEnv struct {
	stopEnv
	bad     uint64
	inReset bool
}

func (e *panicEnv) Reset(seed uint64) (string, envs.Info, error) {
	if e.inReset && seed == e.bad {
		panic("reset exploded")
	}
	return e.stopEnv.Reset(seed)
}

func (e *panicEnv) Step(a string) (envs.Step, error) {
	if e.seed == e.bad {
		panic(fmt.Sprintf("step exploded on seed %d", e.seed))
	}
	return e.stopEnv.Step(a)
}

func TestCollectEnvPanicIsAnError(t *testing.T) {
	seeds := SeedSequence(7, 1)
	for _, inReset := range []bool{false, true} {
		for _, workers := range []int{1, 0} {
			// Slot g starts group g: the env of slot 2 meets the bad seed.
			bad := seeds(2)
			list := make([]envs.Env, 4)
			for i := range list {
				list[i] = &panicEnv{bad: bad, inReset: inReset}
			}
			v, err := envs.NewVectorEnv(list, envs.VectorConfig{Workers: workers, Autoreset: envs.AutoresetDisabled})
			require.NoError(t, err)
			c, err := NewVectorCollector(v, &coinPolicy{})
			require.NoError(t, err)
			var buf buffer.Buffer
			_, err = c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 8}, Seed: seeds}, &buf, rand.New(rand.NewPCG(1, 1)))
			require.Error(t, err, "reset %t workers %d", inReset, workers)
			assert.ErrorContains(t, err, fmt.Sprintf("env 2 (seed %d)", bad))
			var pe *envs.PanicError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, 2, pe.Index)
			assert.Equal(t, bad, pe.Seed)
			if inReset {
				assert.Equal(t, "reset", pe.Op)
				assert.Equal(t, "reset exploded", pe.Value)
			} else {
				assert.Equal(t, "step", pe.Op)
				assert.ErrorContains(t, err, "step exploded")
			}
			assert.NotEmpty(t, pe.Stack)
			require.NoError(t, c.Close())
		}
	}
}

func TestNewVectorCollectorNeedsDisabledAutoreset(t *testing.T) {
	v, err := envs.NewVectorEnv([]envs.Env{&stopEnv{}}, envs.VectorConfig{})
	require.NoError(t, err)
	_, err = NewVectorCollector(v, &coinPolicy{})
	assert.ErrorContains(t, err, "AutoresetDisabled")
	_, err = NewVectorCollector(nil, &coinPolicy{})
	assert.Error(t, err)
	_, err = NewCollector(2, func() (envs.Env, error) { return nil, nil }, &coinPolicy{})
	assert.ErrorContains(t, err, "nil env")
}

// toolEnv is a stopEnv that counts every "go" as a tool call, as a
// tool-wrapped env reports them (envs.InfoToolUses on each step).
type toolEnv struct {
	stopEnv
	calls int
}

func (e *toolEnv) Reset(seed uint64) (string, envs.Info, error) {
	e.calls = 0
	return e.stopEnv.Reset(seed)
}

func (e *toolEnv) Step(a string) (envs.Step, error) {
	s, err := e.stopEnv.Step(a)
	if a == "go" {
		e.calls++
	}
	s.Info[envs.InfoToolUses] = e.calls
	return s, err
}

// An episode's ToolCalls is the last step's count; 0 where the env says
// nothing of tools.
func TestCollectCountsToolCalls(t *testing.T) {
	c, err := NewCollector(4, func() (envs.Env, error) { return &toolEnv{}, nil }, &coinPolicy{})
	require.NoError(t, err)
	var buf buffer.Buffer
	_, err = c.Collect(context.Background(), Plan{Budget: Budget{Episodes: 40}, Seed: SeedSequence(1, 0)}, &buf, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	total := 0
	for _, e := range buf.Episodes {
		turns := buf.Turns(e)
		want := e.Turns
		if turns[len(turns)-1].Terminated {
			want-- // the last action was "stop"
		}
		assert.Equal(t, want, e.ToolCalls, "episode %d", e.ID)
		total += e.ToolCalls
	}
	assert.Greater(t, total, 10)
	buf = buffer.Buffer{}
	_, err = newCollector(t, 4, &coinPolicy{}).Collect(context.Background(), Plan{Budget: Budget{Episodes: 10}, Seed: SeedSequence(1, 0)}, &buf, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	for _, e := range buf.Episodes {
		assert.Zero(t, e.ToolCalls)
	}
}

// Add sums every total of two collections.
func TestStatsAdd(t *testing.T) {
	a := Stats{Episodes: 2, Steps: 5, SampledTokens: 40, PolicyTime: time.Second, EnvTime: 2 * time.Millisecond, Wall: 3 * time.Second}
	b := Stats{Episodes: 3, Steps: 7, SampledTokens: 1, PolicyTime: time.Millisecond, EnvTime: time.Second, Wall: time.Minute}
	assert.Equal(t, Stats{Episodes: 5, Steps: 12, SampledTokens: 41, PolicyTime: 1001 * time.Millisecond, EnvTime: 1002 * time.Millisecond, Wall: 63 * time.Second}, a.Add(b))
	assert.Equal(t, a, a.Add(Stats{}))
}
