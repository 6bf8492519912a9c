package envtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// reporter is the part of *testing.T that the checks use (a fake one in
// this package's tests proves that each check can fail).
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// CheckEnv runs the conformance suite on the envs that factory makes (one
// fresh env per check). It fails t, with the seed and the action that broke
// the contract, when:
//
//   - Step before the first Reset, or after the step that ended an episode,
//     returns no error;
//   - Reset returns an error, an empty observation, or Info without
//     envs.InfoMaxTurns as a positive int;
//   - the same seed and actions do not give the same observations, rewards,
//     flags and Info (on a fresh env, on a reused env, and after a Reset in
//     the middle of an episode);
//   - under random valid actions (SampleAction, when the env has one) an
//     episode lasts more than max_turns steps, a reward is NaN or infinite,
//     Terminated and Truncated are both true, a sampled action is a format
//     error (Info envs.InfoFormatError), or Info envs.InfoTurn, when set,
//     is not the int number of turns taken;
//   - a response with no complete \boxed{} does not terminate the episode
//     (Terminated, not Truncated) with Info format_error and the reward
//     envs.RewardFormatError, or FormatErrorReward() for an env that
//     implements envs.FormatErrorRewarder (skipped under FreeText);
//   - an arbitrary action string (random bytes, unicode, megabyte-long
//     input, nested or unclosed braces, damaged valid actions) panics or
//     makes Step return an error;
//   - two envs stepped at once in two goroutines play differently from one
//     env alone (state shared between envs; run go test -race to see the
//     data race itself).
//
// Each env is checked in a fraction of a second.
func CheckEnv(t *testing.T, factory func() (envs.Env, error), opts ...Option) {
	t.Helper()
	checkEnv(t, factory, opts...)
}

func checkEnv(t reporter, factory func() (envs.Env, error), opts ...Option) {
	t.Helper()
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	c := &checker{t: t, cfg: cfg, factory: factory}
	for _, check := range []struct {
		name string
		run  func(env envs.Env)
	}{
		{"step before reset", c.stepBeforeReset},
		{"reset", c.reset},
		{"determinism", c.determinism},
		{"random episodes", c.randomEpisodes},
		{"format error", c.formatError},
		{"hostile actions", c.hostile},
		{"concurrent envs", c.concurrent},
	} {
		env := c.make()
		c.guard(check.name, func() { check.run(env) })
		if err := envs.Close(env); err != nil {
			t.Errorf("envtest: %s: Close: %v", check.name, err)
		}
	}
}

type checker struct {
	t       reporter
	cfg     config
	factory func() (envs.Env, error)
	where   string // the seed and action of the call in progress, for panics
}

func (c *checker) make() envs.Env {
	c.t.Helper()
	env, err := c.factory()
	if err != nil {
		c.t.Fatalf("envtest: factory: %v", err)
	}
	if env == nil {
		c.t.Fatalf("envtest: factory returned a nil env and no error")
	}
	return env
}

// guard runs one check and turns a panic into a test failure.
func (c *checker) guard(name string, f func()) {
	c.t.Helper()
	defer func() {
		if p := recover(); p != nil {
			c.t.Errorf("envtest: %s: panic at %s: %v", name, c.where, p)
		}
	}()
	c.where = "start"
	f()
}

func (c *checker) fail(check string, format string, args ...any) {
	c.t.Helper()
	c.t.Errorf("envtest: %s: %s", check, fmt.Sprintf(format, args...))
}

// doReset calls Reset and checks what every reset must give.
func (c *checker) doReset(check string, env envs.Env, seed uint64) (obs string, maxTurns int, ok bool) {
	c.t.Helper()
	c.where = fmt.Sprintf("Reset(%d)", seed)
	obs, info, err := env.Reset(seed)
	if err != nil {
		c.fail(check, "Reset(%d): %v", seed, err)
		return "", 0, false
	}
	if obs == "" {
		c.fail(check, "Reset(%d) returned an empty observation", seed)
		return "", 0, false
	}
	v, has := info[envs.InfoMaxTurns]
	n, isInt := v.(int)
	if !has || !isInt || n < 1 {
		c.fail(check, "Reset(%d): Info[%q] = %v (%T): want a positive int, the turn limit", seed, envs.InfoMaxTurns, v, v)
		return "", 0, false
	}
	return obs, n, true
}

// doStep calls Step and checks what every step must give.
func (c *checker) doStep(check string, env envs.Env, seed uint64, turn int, action string) (envs.Step, bool) {
	c.t.Helper()
	c.where = fmt.Sprintf("seed %d, turn %d, action %s", seed, turn, quote(action))
	st, err := env.Step(action)
	if err != nil {
		c.fail(check, "%s: Step returned an error for an action during an episode: %v", c.where, err)
		return st, false
	}
	if math.IsNaN(st.Reward) || math.IsInf(st.Reward, 0) {
		c.fail(check, "%s: reward %v is not finite", c.where, st.Reward)
		return st, false
	}
	if st.Terminated && st.Truncated {
		c.fail(check, "%s: Terminated and Truncated are both true", c.where)
		return st, false
	}
	if v, has := st.Info[envs.InfoSuccess]; has {
		if _, isBool := v.(bool); !isBool {
			c.fail(check, "%s: Info[%q] = %v (%T): want a bool", c.where, envs.InfoSuccess, v, v)
			return st, false
		}
	}
	return st, true
}

// quote shortens long actions in messages.
func quote(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return strconv.Quote(s)
}

// actions draws actions: the env's SampleAction when it has one, else small
// boxed numbers and words.
func actions(env envs.Env) (draw func(r *rand.Rand) string, sampled bool) {
	if s, ok := envs.SamplerOf(env); ok {
		return s.SampleAction, true
	}
	words := []string{"1", "2", "3", "up", "down", "left", "right", "A", "yes", "no", "1 2", "A C"}
	return func(r *rand.Rand) string { return envs.Boxed(words[r.IntN(len(words))]) }, false
}

func (c *checker) stepBeforeReset(env envs.Env) {
	c.where = "Step before Reset"
	if _, err := env.Step(envs.Boxed("1")); err == nil {
		c.fail("step before reset", "Step before the first Reset returned no error")
	}
}

func (c *checker) reset(env envs.Env) {
	for seed := range uint64(8) {
		if _, _, ok := c.doReset("reset", env, seed); !ok {
			return
		}
	}
	// Huge and extreme seeds are seeds like any other.
	for _, seed := range []uint64{math.MaxUint64, 1 << 63} {
		if _, _, ok := c.doReset("reset", env, seed); !ok {
			return
		}
	}
}
