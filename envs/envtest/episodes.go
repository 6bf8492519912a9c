package envtest

import (
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/gemgo/gemgo/envs"
)

// episode is what one played episode showed: enough to compare two plays.
type episode struct {
	resetObs  string
	resetInfo envs.Info
	actions   []string
	steps     []envs.Step
}

// play runs one episode from seed with actions drawn from a generator
// seeded by actSeed, for at most max_turns steps.
func (c *checker) play(check string, env envs.Env, seed, actSeed uint64) (episode, bool) {
	c.t.Helper()
	c.where = fmt.Sprintf("Reset(%d)", seed)
	obs, info, err := env.Reset(seed)
	if err != nil {
		c.fail(check, "Reset(%d): %v", seed, err)
		return episode{}, false
	}
	maxTurns, _ := info[envs.InfoMaxTurns].(int)
	ep := episode{resetObs: obs, resetInfo: info}
	draw, _ := actions(env)
	r := rand.New(rand.NewPCG(actSeed, 0xac7))
	for turn := 1; turn <= max(1, maxTurns); turn++ {
		a := draw(r)
		st, ok := c.doStep(check, env, seed, turn, a)
		if !ok {
			return ep, false
		}
		ep.actions = append(ep.actions, a)
		ep.steps = append(ep.steps, st)
		if st.Done() {
			break
		}
	}
	return ep, true
}

// same reports the first difference between two plays of one seed.
func same(a, b episode) (string, bool) {
	if a.resetObs != b.resetObs {
		return fmt.Sprintf("Reset observations differ:\n%q\n%q", a.resetObs, b.resetObs), false
	}
	if !reflect.DeepEqual(a.resetInfo, b.resetInfo) {
		return fmt.Sprintf("Reset infos differ: %v vs %v", a.resetInfo, b.resetInfo), false
	}
	for i := range min(len(a.steps), len(b.steps)) {
		if a.actions[i] != b.actions[i] {
			return fmt.Sprintf("turn %d: SampleAction drew %q then %q from the same generator state", i+1, a.actions[i], b.actions[i]), false
		}
		x, y := a.steps[i], b.steps[i]
		if x.Obs != y.Obs || x.Reward != y.Reward || x.Terminated != y.Terminated || x.Truncated != y.Truncated {
			return fmt.Sprintf("turn %d, action %q: steps differ:\n%+v\n%+v", i+1, a.actions[i], x, y), false
		}
		if !reflect.DeepEqual(x.Info, y.Info) {
			return fmt.Sprintf("turn %d, action %q: infos differ: %v vs %v", i+1, a.actions[i], x.Info, y.Info), false
		}
	}
	if len(a.steps) != len(b.steps) {
		return fmt.Sprintf("episode lengths differ: %d vs %d turns", len(a.steps), len(b.steps)), false
	}
	return "", true
}

// determinism: one seed, one episode, whether the env is fresh, reused, or
// reset in the middle of another episode.
func (c *checker) determinism(env envs.Env) {
	const check = "determinism"
	other := c.make()
	defer func() {
		_ = envs.Close(other)
	}()
	for _, seed := range []uint64{0, 1, 2, 12345, 1 << 40} {
		first, ok := c.play(check, env, seed, seed)
		if !ok {
			return
		}
		// Reuse env: another episode, cut short by a Reset after one step.
		if _, _, ok := c.doReset(check, env, seed+1); !ok {
			return
		}
		draw, _ := actions(env)
		if _, ok := c.doStep(check, env, seed+1, 1, draw(rand.New(rand.NewPCG(seed, 1)))); !ok {
			return
		}
		again, ok := c.play(check, env, seed, seed)
		if !ok {
			return
		}
		if msg, eq := same(first, again); !eq {
			c.fail(check, "seed %d played twice on one env (Reset in the middle of another episode): %s", seed, msg)
			return
		}
		fresh, ok := c.play(check, other, seed, seed)
		if !ok {
			return
		}
		if msg, eq := same(first, fresh); !eq {
			c.fail(check, "seed %d played on two envs from the factory: %s", seed, msg)
			return
		}
	}
}

// randomEpisodes plays many seeds under random valid actions.
func (c *checker) randomEpisodes(env envs.Env) {
	const check = "random episodes"
	draw, sampled := actions(env)
	for i := range c.cfg.episodes {
		seed := uint64(1000 + i)
		_, maxTurns, ok := c.doReset(check, env, seed)
		if !ok {
			return
		}
		r := rand.New(rand.NewPCG(seed, 0x5a))
		done := false
		for turn := 1; turn <= maxTurns; turn++ {
			a := draw(r)
			st, ok := c.doStep(check, env, seed, turn, a)
			if !ok {
				return
			}
			if v, has := st.Info[envs.InfoTurn]; has && v != any(turn) {
				c.fail(check, "seed %d, turn %d: Info[%q] = %v (%T): want the int %d, the turns taken so far", seed, turn, envs.InfoTurn, v, v, turn)
				return
			}
			if sampled && st.Info[envs.InfoFormatError] == true {
				c.fail(check, "seed %d, turn %d: SampleAction returned %s, which the env reports as a format error", seed, turn, quote(a))
				return
			}
			if st.Done() {
				done = true
				break
			}
		}
		if !done {
			c.fail(check, "seed %d: the episode did not end within max_turns = %d steps (the last step must be Terminated or Truncated)", seed, maxTurns)
			return
		}
		c.where = fmt.Sprintf("seed %d, Step after the episode ended", seed)
		if _, err := env.Step(draw(r)); err == nil {
			c.fail(check, "seed %d: Step after the episode ended returned no error", seed)
			return
		}
	}
}
