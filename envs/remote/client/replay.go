package client

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/coder/websocket"
)

// episode is what a session needs to rebuild its env on another
// connection: an episode is its seed and its actions (the env contract:
// the same seed and actions give the same observations), and the digest of
// each observation checks the replay.
type episode struct {
	started bool
	done    bool // it has ended: a new session needs no replay, the next call is a reset
	seed    uint64
	actions []string
	digests [][sha256.Size]byte // the reset's, then each step's
}

// retry runs op, one exchange on the session; when it fails because the
// connection broke, it reconnects (reconnect) and runs op again, up to
// Dialer.Reconnect times.
func retry[T any](e *Env, op func() (T, error)) (T, error) {
	v, err := op()
	max := e.d.Reconnect
	if max == 0 {
		max = DefaultReconnect
	}
	n := 0
	for ; err != nil && e.retryable && n < max; n++ {
		if err = e.reconnect(n); err == nil {
			v, err = op()
		}
	}
	if err != nil && n > 0 {
		err = fmt.Errorf("%w (after %d reconnects)", err, n)
	}
	return v, err
}

// reconnect opens a new session at the same address after the n-th
// (from 0) broken connection in a row, waiting 50 ms·2ⁿ (at most 2 s)
// first, and replays the episode on it: a reset with its seed, then its
// actions, each observation equal to the first play's. A replay that
// differs fails for good: the server's env is not deterministic, or a
// replica behind the balancer serves another version.
func (e *Env) reconnect(n int) error {
	wait := min(50*time.Millisecond<<n, 2*time.Second)
	t := time.NewTimer(wait)
	select {
	case <-t.C:
	case <-e.ctx.Done():
		t.Stop()
		e.fail(fmt.Errorf("remote env %s: reconnect: stopped: %w", e.id, context.Cause(e.ctx)))
		return e.broken
	}
	_ = e.conn.CloseNow()
	if _, err := e.open(); err != nil {
		e.broken, e.retryable = err, e.ctx.Err() == nil // refused or full: try again
		return err
	}
	e.reconnects++
	if !e.ep.started || e.ep.done {
		return nil
	}
	check := func(i int, o observation, err error) error {
		if err != nil {
			if e.broken == nil { // an error the server sent: the replay cannot go on
				e.fail(fmt.Errorf("remote env %s: replaying the episode (seed %d) on a new session: %w", e.id, e.ep.seed, err))
			}
			return e.broken
		}
		if o.digest() != e.ep.digests[i] {
			what := "the reset's observation"
			if i > 0 {
				what = fmt.Sprintf("the observation of step %d", i)
			}
			e.fail(fmt.Errorf("remote env %s: replaying the episode (seed %d) on a new session: %s differs from the first play (is the env deterministic, and do all replicas run the same version?)", e.id, e.ep.seed, what))
			return e.broken
		}
		return nil
	}
	o, err := e.reset(e.ep.seed)
	if err := check(0, o, err); err != nil {
		return err
	}
	for i, a := range e.ep.actions {
		o, err := e.step(a)
		if err := check(i+1, o, err); err != nil {
			return err
		}
	}
	return nil
}

// Reconnects returns how many times the session was opened again after
// its connection broke (Dialer.Reconnect).
func (e *Env) Reconnects() int { return e.reconnects }

// Reconnects returns the Env's.
func (s *SamplingEnv) Reconnects() int { return s.env.Reconnects() }

// fail breaks the session for good: a reconnect cannot mend err.
func (e *Env) fail(err error) {
	e.broken, e.retryable = err, false
}

// breakConn breaks the session after the exchange what failed with err
// under ctx; a connection that dropped or that the server closed as
// going away or restarting may be mended by a reconnect, while the
// session's context ending, a timeout (a server that does not answer)
// and a close for cause (idle, a message too big) may not.
func (e *Env) breakConn(ctx context.Context, what string, err error) {
	e.broken = e.transport(ctx, what, err)
	e.retryable = false
	if e.ctx.Err() != nil || ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	switch websocket.CloseStatus(err) {
	case -1, websocket.StatusGoingAway, websocket.StatusAbnormalClosure, websocket.StatusInternalError,
		websocket.StatusServiceRestart, websocket.StatusTryAgainLater, websocket.StatusBadGateway:
		e.retryable = true
	}
}

// digest sums what an observation says, to check a replay against.
func (o observation) digest() [sha256.Size]byte {
	h := sha256.New()
	// fmt prints maps sorted by key, so equal Infos print equally.
	fmt.Fprintf(h, "%q|%x|%t|%t|%#v", o.text, math.Float64bits(o.reward), o.terminated, o.truncated, map[string]any(o.info))
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}
