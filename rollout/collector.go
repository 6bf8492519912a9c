package rollout

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/envs"
)

// Collector plays episodes on a fixed set of env slots: the envs of an
// envs.VectorEnv in AutoresetDisabled mode, slot i being env i. The
// collector hands out the seeds (see Plan), so it resets slots itself with
// VectorEnv.ResetSome; the VectorEnv steps them on its worker pool and
// turns an env's error or panic into an error naming the slot and seed.
type Collector struct {
	// EnvID, when set, names the envs in errors (the registry id they were
	// made from, say).
	EnvID string

	vec    *envs.VectorEnv
	policy Policy
}

// NewCollector makes a collector over n envs built by newEnv, stepped on the
// VectorEnv's default worker pool (envs.VectorConfig.Workers).
func NewCollector(n int, newEnv func() (envs.Env, error), p Policy) (*Collector, error) {
	v, err := envs.NewVectorEnvFunc(n, newEnv, envs.VectorConfig{Autoreset: envs.AutoresetDisabled})
	if err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	return NewVectorCollector(v, p)
}

// NewVectorCollector makes a collector over the envs of v, which must be
// made with VectorConfig.Autoreset = envs.AutoresetDisabled (set Workers
// there to choose the worker pool). The collector owns v: Close closes it.
func NewVectorCollector(v *envs.VectorEnv, p Policy) (*Collector, error) {
	if v == nil {
		return nil, errors.New("rollout: nil vector env")
	}
	if v.Autoreset() != envs.AutoresetDisabled {
		return nil, fmt.Errorf("rollout: the vector env autoresets %v: make it with VectorConfig.Autoreset = envs.AutoresetDisabled, the collector hands out the seeds", v.Autoreset())
	}
	return &Collector{vec: v, policy: p}, nil
}

// SetPolicy replaces the policy (for evaluation with a greedy one, say).
func (c *Collector) SetPolicy(p Policy) { c.policy = p }

// Close closes the envs that hold resources (those that are io.Closers).
func (c *Collector) Close() error { return c.vec.Close() }

// Stats counts what one Collect did.
type Stats struct {
	Episodes      int
	Steps         int
	SampledTokens int
	PolicyTime    time.Duration // time spent in Policy.Act and Values
	EnvTime       time.Duration // time spent in Reset and Step
	Wall          time.Duration
}

// Add returns the totals of two collections together.
func (s Stats) Add(o Stats) Stats {
	return Stats{Episodes: s.Episodes + o.Episodes, Steps: s.Steps + o.Steps, SampledTokens: s.SampledTokens + o.SampledTokens,
		PolicyTime: s.PolicyTime + o.PolicyTime, EnvTime: s.EnvTime + o.EnvTime, Wall: s.Wall + o.Wall}
}

// StepsPerSecond is env steps per second of wall time.
func (s Stats) StepsPerSecond() float64 { return rate(s.Steps, s.Wall) }

// TokensPerSecond is sampled tokens per second of wall time.
func (s Stats) TokensPerSecond() float64 { return rate(s.SampledTokens, s.Wall) }

func rate(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

type slot struct {
	active bool
	obs    string
	seed   uint64
	group  int
	turns  []buffer.Transition
	last   envs.Step
}

type ticket struct {
	seed  uint64
	group int
}

// Collect plays the episodes of plan and appends them to buf. The policy
// samples with rng. It stops early with ctx's error when ctx is done
// (episodes finished so far are in buf). An env that fails or panics stops
// the collection with an error naming its slot and seed.
func (c *Collector) Collect(ctx context.Context, plan Plan, buf *buffer.Buffer, rng *rand.Rand) (Stats, error) {
	if err := plan.validate(); err != nil {
		return Stats{}, err
	}
	k := max(plan.GroupSize, 1)
	start := time.Now()
	var st Stats
	var queue []ticket
	groups := 0
	more := func() bool { // may another group start?
		if plan.Budget.Episodes > 0 {
			return groups*k < plan.Budget.Episodes
		}
		return st.Steps < plan.Budget.Steps
	}
	slots := make([]slot, c.vec.Len())
	for {
		if err := ctx.Err(); err != nil {
			st.Wall = time.Since(start)
			return st, err
		}
		// 1. Hand out tickets to free slots, then reset them together.
		var resets []int
		var seeds []uint64
		for i := range slots {
			if slots[i].active {
				continue
			}
			if len(queue) == 0 && more() {
				seed := plan.Seed(groups)
				for j := 0; j < k; j++ {
					queue = append(queue, ticket{seed, plan.FirstGroup + groups})
				}
				groups++
			}
			if len(queue) == 0 {
				break
			}
			slots[i] = slot{active: true, seed: queue[0].seed, group: queue[0].group}
			queue = queue[1:]
			resets = append(resets, i)
			seeds = append(seeds, slots[i].seed)
		}
		if len(resets) > 0 {
			t0 := time.Now()
			obs, _, err := c.vec.ResetSome(resets, seeds)
			st.EnvTime += time.Since(t0)
			if err != nil {
				return st, c.envError(err)
			}
			for j, i := range resets {
				slots[i].obs = obs[j]
			}
		}
		var active []int
		for i := range slots {
			if slots[i].active {
				active = append(active, i)
			}
		}
		if len(active) == 0 {
			break
		}
		// 2. One batched policy call for every pending observation.
		obs := make([]string, len(active))
		for j, i := range active {
			obs[j] = slots[i].obs
		}
		t0 := time.Now()
		acts, err := c.policy.Act(obs, rng)
		st.PolicyTime += time.Since(t0)
		if err != nil {
			return st, fmt.Errorf("rollout: policy: %w", err)
		}
		if len(acts) != len(obs) {
			return st, fmt.Errorf("rollout: policy answered %d observations with %d actions", len(obs), len(acts))
		}
		// 3. Step every active env on the VectorEnv's worker pool.
		texts := make([]string, len(acts))
		for j, a := range acts {
			texts[j] = a.Text
		}
		t0 = time.Now()
		steps, err := c.vec.StepSome(active, texts)
		st.EnvTime += time.Since(t0)
		if err != nil {
			return st, c.envError(err)
		}
		// 4. Record transitions; gather finished episodes in slot order.
		var finished []int
		for j, i := range active {
			a, s := acts[j], steps[j].Step
			slots[i].last = s
			st.Steps++
			st.SampledTokens += len(a.Response)
			slots[i].turns = append(slots[i].turns, buffer.Transition{
				Prompt: a.Prompt, Response: a.Response, LogProbs: a.LogProbs,
				Reward: s.Reward, Terminated: s.Terminated, Truncated: s.Truncated, Value: a.Value,
			})
			slots[i].obs = s.Obs
			if s.Done() {
				finished = append(finished, i)
			}
		}
		if err := c.finish(finished, slots, buf, &st); err != nil {
			return st, err
		}
	}
	st.Wall = time.Since(start)
	return st, nil
}

// finish bootstraps truncated episodes' final values and moves the
// finished episodes into buf.
func (c *Collector) finish(finished []int, slots []slot, buf *buffer.Buffer, st *Stats) error {
	if v, ok := c.policy.(Valuer); ok {
		var obs []string
		var which []int
		for _, i := range finished {
			if slots[i].last.Truncated && !slots[i].last.Terminated {
				obs = append(obs, slots[i].last.Obs)
				which = append(which, i)
			}
		}
		if len(obs) > 0 {
			t0 := time.Now()
			vals, err := v.Values(obs)
			st.PolicyTime += time.Since(t0)
			if err != nil {
				return fmt.Errorf("rollout: values: %w", err)
			}
			for j, i := range which {
				slots[i].turns[len(slots[i].turns)-1].NextValue = vals[j]
			}
		}
	}
	for _, i := range finished {
		success, _ := slots[i].last.Info[envs.InfoSuccess].(bool)
		if _, err := buf.AddEpisode(slots[i].group, slots[i].seed, success, slots[i].turns); err != nil {
			return err
		}
		if calls, ok := slots[i].last.Info[envs.InfoToolUses].(int); ok {
			buf.Episodes[len(buf.Episodes)-1].ToolCalls = calls
		}
		st.Episodes++
		slots[i] = slot{}
	}
	return nil
}

// envError reports the first failed slot of a VectorEnv error (which
// names the slot as "env i" and its seed) and how many others failed.
func (c *Collector) envError(err error) error {
	prefix := "rollout: "
	if c.EnvID != "" {
		prefix += c.EnvID + ": "
	}
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	}
	if len(list) > 1 {
		return fmt.Errorf("%s%w (and %d more failed)", prefix, list[0], len(list)-1)
	}
	return fmt.Errorf("%s%w", prefix, err)
}
