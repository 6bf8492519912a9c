package rollout

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/envs"
)

// Collector plays episodes on a fixed set of env slots.
type Collector struct {
	envs   []envs.Env
	policy Policy
	// Sequential steps the envs one after another instead of concurrently
	// (same results; for debugging and for envs that are not thread-safe
	// with each other).
	Sequential bool
}

// NewCollector makes a collector over n envs built by make.
func NewCollector(n int, make func() (envs.Env, error), p Policy) (*Collector, error) {
	if n < 1 {
		return nil, fmt.Errorf("rollout: %d envs: need at least 1", n)
	}
	c := &Collector{policy: p}
	for i := 0; i < n; i++ {
		e, err := make()
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("rollout: make env %d: %w", i, err)
		}
		c.envs = append(c.envs, e)
	}
	return c, nil
}

// SetPolicy replaces the policy (for evaluation with a greedy one, say).
func (c *Collector) SetPolicy(p Policy) { c.policy = p }

// Close closes the envs that hold resources.
func (c *Collector) Close() error {
	var first error
	for _, e := range c.envs {
		if cl, ok := e.(interface{ Close() error }); ok {
			if err := cl.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// Stats counts what one Collect did.
type Stats struct {
	Episodes      int
	Steps         int
	SampledTokens int
	PolicyTime    time.Duration // time spent in Policy.Act and Values
	EnvTime       time.Duration // time spent in Reset and Step
	Wall          time.Duration
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
// (episodes finished so far are in buf).
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
	slots := make([]slot, len(c.envs))
	for {
		if err := ctx.Err(); err != nil {
			st.Wall = time.Since(start)
			return st, err
		}
		// 1. Hand out tickets to free slots, then reset them concurrently.
		var resets []int
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
		}
		t0 := time.Now()
		errs := c.each(resets, func(i int) error {
			obs, _, err := c.envs[i].Reset(slots[i].seed)
			slots[i].obs = obs
			return err
		})
		st.EnvTime += time.Since(t0)
		if err := firstErr(errs, resets, slots, "reset"); err != nil {
			return st, err
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
		t0 = time.Now()
		acts, err := c.policy.Act(obs, rng)
		st.PolicyTime += time.Since(t0)
		if err != nil {
			return st, fmt.Errorf("rollout: policy: %w", err)
		}
		if len(acts) != len(obs) {
			return st, fmt.Errorf("rollout: policy answered %d observations with %d actions", len(obs), len(acts))
		}
		// 3. Step every active env concurrently.
		pos := make(map[int]int, len(active))
		for j, i := range active {
			pos[i] = j
		}
		t0 = time.Now()
		errs = c.each(active, func(i int) error {
			s, err := c.envs[i].Step(acts[pos[i]].Text)
			slots[i].last = s
			return err
		})
		st.EnvTime += time.Since(t0)
		if err := firstErr(errs, active, slots, "step"); err != nil {
			return st, err
		}
		// 4. Record transitions; gather finished episodes in slot order.
		var finished []int
		for j, i := range active {
			a, s := acts[j], slots[i].last
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
		st.Episodes++
		slots[i] = slot{}
	}
	return nil
}

// each runs f for every index, spread over GOMAXPROCS goroutines (or in
// order when Sequential), and returns the errors by position in idx. A game
// step takes about a microsecond, so a goroutine per env would cost more
// than it saves; a few goroutines each taking a contiguous share keep the
// cores busy for slow envs (code, tools) too.
func (c *Collector) each(idx []int, f func(i int) error) []error {
	errs := make([]error, len(idx))
	workers := min(runtime.GOMAXPROCS(0), len(idx))
	if c.Sequential || workers < 2 {
		for j, i := range idx {
			errs[j] = f(i)
		}
		return errs
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*len(idx)/workers, (w+1)*len(idx)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := lo; j < hi; j++ {
				errs[j] = f(idx[j])
			}
		}()
	}
	wg.Wait()
	return errs
}

func firstErr(errs []error, idx []int, slots []slot, what string) error {
	for j, err := range errs {
		if err != nil {
			i := idx[j]
			return fmt.Errorf("rollout: env %d (seed %d) %s: %w", i, slots[i].seed, what, err)
		}
	}
	return nil
}
