package gamekittest

import (
	"errors"
	"runtime"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type counter struct{ turn int }

func (c *counter) Reset(uint64) (string, envs.Info, error) { c.turn = 0; return "", envs.Info{}, nil }
func (c *counter) Step(a string) (envs.Step, error) {
	if a == "fail" {
		return envs.Step{}, errors.New("boom")
	}
	c.turn++
	return envs.Step{Obs: a, Info: envs.Info{envs.InfoTurn: c.turn}}, nil
}

func register(r *envs.Registry) error {
	return r.Register("game:Counter-v0-easy", func(o *envs.Options) (envs.Env, error) { return &counter{}, o.Err() })
}

func TestHelpers(t *testing.T) {
	r := Registry(t, register)
	assert.Equal(t, []string{"game:Counter-v0-easy"}, r.IDs())
	c := Make[*counter](t, register, "game:Counter-v0-easy")
	st := Step(t, c, "hello")
	assert.Equal(t, "hello", st.Obs)
	assert.Equal(t, 1, c.turn)
	got := New(t, func(n int) (*counter, error) { return &counter{turn: n}, nil }, 5)
	assert.Equal(t, 5, got.turn)
}

// TestStepFailsOnError checks that Step fails its t (on a recorder, not
// this test) when the env returns an error.
func TestStepFailsOnError(t *testing.T) {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Step(rec, &counter{}, "fail")
	}()
	<-done
	require.True(t, rec.failed)
}

type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true; runtime.Goexit() }
