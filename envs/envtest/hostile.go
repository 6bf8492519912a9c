package envtest

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
)

// formatErrorReward is the reward the env documents for a format error.
func formatErrorReward(env envs.Env) float64 {
	if f, ok := env.(envs.FormatErrorRewarder); ok {
		return f.FormatErrorReward()
	}
	return envs.RewardFormatError
}

// formatError: a response with no complete \boxed{} ends the episode with
// the documented reward, on the first turn and later.
func (c *checker) formatError(env envs.Env) {
	const check = "format error"
	if c.cfg.freeText {
		return
	}
	want := formatErrorReward(env)
	draw, _ := actions(env)
	for i, bad := range []string{"no box here", "", "boxed{1}", `\boxed{1`, `\boxed 1`, `\Boxed{1}`} {
		seed := uint64(2000 + i)
		_, maxTurns, ok := c.doReset(check, env, seed)
		if !ok {
			return
		}
		// Odd cases first play one valid turn, so that a format error is
		// also checked in the middle of an episode.
		turn := 1
		if i%2 == 1 && maxTurns > 1 {
			st, ok := c.doStep(check, env, seed, turn, draw(rand.New(rand.NewPCG(seed, 2))))
			if !ok {
				return
			}
			if st.Done() {
				continue
			}
			turn++
		}
		st, ok := c.doStep(check, env, seed, turn, bad)
		if !ok {
			return
		}
		if !st.Terminated || st.Truncated {
			c.fail(check, "seed %d, action %q: want Terminated (not Truncated) for a response with no \\boxed{}, got Terminated=%v Truncated=%v", seed, bad, st.Terminated, st.Truncated)
			return
		}
		if st.Reward != want {
			c.fail(check, "seed %d, action %q: reward %v, want the format-error reward %v", seed, bad, st.Reward, want)
			return
		}
		if st.Info[envs.InfoFormatError] != true {
			c.fail(check, "seed %d, action %q: Info[%q] = %v, want true", seed, bad, envs.InfoFormatError, st.Info[envs.InfoFormatError])
			return
		}
		c.where = fmt.Sprintf("seed %d, Step after a format error", seed)
		if _, err := env.Step(envs.Boxed("1")); err == nil {
			c.fail(check, "seed %d: Step after the format error ended the episode returned no error", seed)
			return
		}
	}
}

// hostile: arbitrary strings never panic and are never errors; episodes
// go on (or end) by the env's rules, and a huge action gets back an
// observation of about the size of the reset's, not the action echoed
// (it would become the policy's next prompt). A done episode is followed
// by a Reset to the next seed.
func (c *checker) hostile(env envs.Env) {
	const check = "hostile actions"
	inputs := hostileInputs()
	draw, _ := actions(env)
	r := rand.New(rand.NewPCG(3000, 0xbad))
	for i := range c.cfg.mutations {
		inputs = append(inputs, mutate(r, draw(r)))
		if i%8 == 0 {
			inputs = append(inputs, randomBytes(r, r.IntN(64)))
		}
	}
	seed := uint64(3000)
	active := false
	turn := 0
	bound := 0 // the longest observation a huge action may get back
	for _, in := range inputs {
		if !active {
			seed++
			obs, _, ok := c.doReset(check, env, seed)
			if !ok {
				return
			}
			active, turn, bound = true, 0, echoBound(obs)
		}
		turn++
		st, ok := c.doStep(check, env, seed, turn, in)
		if !ok {
			return
		}
		if !c.cfg.echoes && len(in) >= hugeAction && len(st.Obs) > bound {
			c.fail(check, "seed %d, turn %d, action %s: the observation has %d bytes, more than %d: an env must not echo a whole action (quote it with envs.Excerpt)", seed, turn, quote(in), len(st.Obs), bound)
			return
		}
		if _, boxed := envs.LastBoxed(in); !boxed && !c.cfg.freeText && !st.Terminated {
			c.fail(check, "seed %d, turn %d, action %s: no complete \\boxed{} but the episode goes on", seed, turn, quote(in))
			return
		}
		active = !st.Done()
	}
}

// hugeAction is the size from which an action counts as huge: the hostile
// inputs include several of 64 KiB to 1 MiB.
const hugeAction = 64 << 10

// echoBound is the longest observation allowed after a huge action in an
// episode whose reset observation is resetObs: twice that (a board drawn
// again, a history that grows by a turn) and 8 KiB of message.
func echoBound(resetObs string) int { return 2*len(resetObs) + 8<<10 }
