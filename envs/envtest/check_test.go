package envtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckEnvPassesToy(t *testing.T) {
	for _, turns := range []int{1, 3, 9} {
		CheckEnv(t, func() (envs.Env, error) { return NewToy(turns), nil })
	}
}

func TestCheckEnvPassesWrappedToy(t *testing.T) {
	CheckEnv(t, func() (envs.Env, error) {
		inner, err := envs.NewTimeLimit(NewToy(50), 4)
		if err != nil {
			return nil, err
		}
		h, err := envs.NewActionObservationHistory(envs.NewEpisodeStats(inner), 2)
		return h, err
	}, EchoesActions())
}

// recorder is a reporter that records failures instead of failing a test.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// failures runs the suite on a recorder and returns what it reported.
func failures(factory func() (envs.Env, error), opts ...Option) []string {
	rec := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		checkEnv(rec, factory, opts...)
	}()
	<-done
	return rec.msgs
}

// flawed is a Toy with one deliberate contract violation.
type flawed struct {
	toy    *Toy
	flaw   string
	resets int
	over   bool
	shared *atomic.Uint64 // one per factory: the last seed any env was reset with
}

func (f *flawed) Reset(seed uint64) (string, envs.Info, error) {
	f.resets++
	f.over = false
	if f.shared != nil {
		f.shared.Store(seed)
	}
	if f.flaw == "nondeterministic" {
		seed += uint64(f.resets)
	}
	obs, info, err := f.toy.Reset(seed)
	switch f.flaw {
	case "no max turns":
		delete(info, envs.InfoMaxTurns)
	case "empty obs":
		obs = ""
	case "never ends":
		info[envs.InfoMaxTurns] = 2
	}
	return obs, info, err
}

func (f *flawed) Step(action string) (envs.Step, error) {
	switch f.flaw {
	case "panics":
		if strings.Contains(action, "{{") {
			panic("brace trouble")
		}
	case "errors on huge":
		if len(action) > 1000 {
			return envs.Step{}, errTest
		}
	case "format error continues":
		if _, ok := envs.LastBoxed(action); !ok {
			return envs.Step{Obs: "?", Reward: envs.RewardFormatError, Info: envs.Info{envs.InfoFormatError: true}}, nil
		}
	case "steps after end":
		if f.over {
			return envs.Step{Obs: "again", Terminated: true}, nil
		}
	case "steps before reset":
		if f.resets == 0 {
			return envs.Step{Obs: "fine"}, nil
		}
	}
	st, err := f.toy.Step(action)
	if err != nil {
		return st, err
	}
	f.over = st.Done()
	switch f.flaw {
	case "shared state":
		st.Obs += fmt.Sprintf(" s%d", f.shared.Load())
	case "both flags":
		if st.Done() {
			st.Terminated, st.Truncated = true, true
		}
	case "nan reward":
		if st.Info[envs.InfoInvalid] == true {
			st.Reward = math.NaN()
		}
	case "wrong format reward":
		if st.Info[envs.InfoFormatError] == true {
			st.Reward = -1
		}
	case "turn off by one":
		st.Info[envs.InfoTurn] = st.Info[envs.InfoTurn].(int) - 1
	case "success not bool":
		if st.Done() {
			st.Info[envs.InfoSuccess] = "yes"
		}
	case "echoes the action":
		st.Obs += " you said: " + action
	}
	return st, nil
}

func (f *flawed) SampleAction(r *rand.Rand) string {
	if f.flaw == "bad sampler" && r.IntN(4) == 0 {
		return "guess 3"
	}
	return f.toy.SampleAction(r)
}

type testError string

func (e testError) Error() string { return string(e) }

const errTest = testError("refused")

func TestCheckEnvCatchesFlaws(t *testing.T) {
	cases := []struct {
		flaw string
		want string // a fragment of the failure message
		opts []Option
	}{
		{flaw: "nondeterministic", want: "determinism"},
		{flaw: "no max turns", want: "max_turns"},
		{flaw: "empty obs", want: "empty observation"},
		{flaw: "never ends", want: "did not end within max_turns = 2"},
		{flaw: "panics", want: "panic"},
		{flaw: "errors on huge", want: "returned an error"},
		{flaw: "format error continues", want: "Terminated"},
		{flaw: "steps after end", want: "after the episode ended returned no error"},
		{flaw: "steps before reset", want: "before the first Reset"},
		{flaw: "both flags", want: "both true"},
		{flaw: "nan reward", want: "not finite"},
		{flaw: "wrong format reward", want: "format-error reward -0.1"},
		{flaw: "success not bool", want: "want a bool"},
		{flaw: "bad sampler", want: "SampleAction returned \"guess 3\""},
		{flaw: "shared state", want: "stepped in turns by two envs"},
		{flaw: "turn off by one", want: `Info["turn"] = 0 (int): want the int 1`},
		{flaw: "echoes the action", want: "must not echo a whole action"},
	}
	for _, c := range cases {
		t.Run(c.flaw, func(t *testing.T) {
			shared := new(atomic.Uint64)
			msgs := failures(func() (envs.Env, error) { return &flawed{toy: NewToy(9), flaw: c.flaw, shared: shared}, nil }, c.opts...)
			require.NotEmpty(t, msgs, "CheckEnv missed the flaw")
			t.Log(msgs[0])
			assert.Contains(t, strings.Join(msgs, "\n"), c.want)
		})
	}
}

func TestCheckEnvNoFlawNoFailure(t *testing.T) {
	msgs := failures(func() (envs.Env, error) { return &flawed{toy: NewToy(9)}, nil })
	assert.Empty(t, msgs)
}

func TestCheckEnvFactoryError(t *testing.T) {
	msgs := failures(func() (envs.Env, error) { return nil, errTest })
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "factory: refused")
}

func TestCheckEnvFreeTextSkipsFormatChecks(t *testing.T) {
	factory := func() (envs.Env, error) { return &flawed{toy: NewToy(9), flaw: "format error continues"}, nil }
	assert.Empty(t, failures(factory, FreeText()))
}
