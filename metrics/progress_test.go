package metrics

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProgressPlainLines(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, 100, false)
	p.Update(1, map[string]float64{
		KeyEnvSteps: 128, KeySuccess: 0.25, KeyReturn: 0.51249, KeyLoss: 0.031234,
		KeyPolicyLoss: 9, KeyWallSeconds: 2.5, "losses/approx_kl": 0.1,
	})
	// No losses/loss: the policy loss stands in; ETA from wall_s.
	p.Update(40, map[string]float64{KeyEnvSteps: 5120, KeySuccess: 1, KeyReturn: -2, KeyPolicyLoss: -1.5e-5, KeyWallSeconds: 80})
	p.Eval(40, map[string]float64{"eval/success_rate": 0.875, "eval/episodic_return": 0.5, "eval/turns": 3.25})
	p.Printf("checkpoint saved to %s\n", "run/ckpt")
	// Only the iteration is known; the last iteration has no time left.
	p.Update(100, map[string]float64{KeyWallSeconds: 200, KeySuccess: math.NaN()})
	require.NoError(t, p.Finish())
	assert.Equal(t, `iter=1/100 steps=128 success=0.250 return=0.512 loss=0.03123 eta=4m8s
iter=40/100 steps=5120 success=1.000 return=-2.000 loss=-1.5e-05 eta=2m0s
eval iter=40 episodic_return=0.5 success_rate=0.875 turns=3.25
checkpoint saved to run/ckpt
iter=100/100 success=NaN eta=0s
`, out.String())
}

func TestProgressETAFromClock(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, 10, false)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p.now = func() time.Time { return now }
	p.start = t0
	now = t0.Add(30 * time.Second)
	p.Update(3, nil)
	p.Update(0, nil) // before the first iteration: no ETA
	assert.Equal(t, "iter=3/10 eta=1m10s\niter=0/10\n", out.String())
}

type failWriter struct{ n int }

func (w *failWriter) Write(b []byte) (int, error) {
	w.n++
	return 0, assert.AnError
}

func TestProgressReportsWriteError(t *testing.T) {
	w := &failWriter{}
	p := NewProgress(w, 3, false)
	p.Update(1, nil)
	p.Update(2, nil)
	err := p.Finish()
	require.ErrorIs(t, err, assert.AnError)
	assert.Equal(t, 2, w.n, "later updates still try to write")
}

func TestProgressTerminalMode(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, 4, true)
	p.Update(1, map[string]float64{KeySuccess: 0.5, KeyWallSeconds: 1})
	p.Eval(1, map[string]float64{"eval/success_rate": 1})
	p.Update(4, map[string]float64{KeySuccess: 0.75, KeyWallSeconds: 4})
	require.NoError(t, p.Finish())
	s := out.String()
	assert.Contains(t, s, "iter=1/4  success=0.500  eta=3s")
	assert.Contains(t, s, "eval iter=1 success_rate=1\n")
	assert.Contains(t, s, "iter=4/4  success=0.750  eta=0s")
	assert.Contains(t, s, "100%")
	assert.Contains(t, s, "\r", "the bar redraws in place")
	assert.True(t, strings.HasSuffix(s, "\n"), "Finish ends the bar's line: %q", s)
	assert.Less(t, strings.Index(s, "eval iter=1"), strings.Index(s, "iter=4/4"), "the eval line comes before the final bar")
}

func TestIsTerminal(t *testing.T) {
	assert.False(t, IsTerminal(&bytes.Buffer{}))
}
