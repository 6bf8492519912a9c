package code

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gemgo/gemgo/sandbox"
)

// warmPool is a set of warm interpreters (sandbox.PythonServer, without
// the site module) that every judge of the process with the same
// interpreter and isolation shares: a test borrows one for its run. Each
// starts at its first call and is recycled by the server itself; they end
// with the process or at CloseWarm.
//
// The pool is shared fairly between steps (the tests of one Judge.Run,
// which is one step of one env): a step holds at most share interpreters
// at once, one fewer than the pool has, so one step whose tests all run to
// their time limit cannot stall the steps of other envs (a session of
// cmd/envserver beside it); and a freed interpreter goes to the waiting
// step that holds the fewest, the earliest among equals, so one step's
// queue of tests does not starve the others. There are max(2, NumCPU) + 1
// interpreters: a lone step runs as many tests at once as the machine has
// CPUs (at least two), and one more step always finds one free.
type warmPool struct {
	mu      sync.Mutex
	all     []*sandbox.PythonServer
	idle    []*sandbox.PythonServer
	share   int       // most interpreters one step holds
	waiting []*waiter // in arrival order
	// cold is set once a server could not start: every later test of the
	// pool runs in a fresh process.
	cold atomic.Bool
}

// poolShare is one Judge.Run: the tests that share one step's share of a pool.
type poolShare struct{ held int } // held: interpreters it holds (under the pool's mu)

// waiter is a test waiting for an interpreter.
type waiter struct {
	st *poolShare
	ch chan *sandbox.PythonServer // buffered: the hand-off never blocks
}

var pools struct {
	sync.Mutex
	m map[string]*warmPool
}

// sharedPool returns the process's pool for python under iso.
func sharedPool(python string, iso sandbox.Isolation) *warmPool {
	key := python + "\x00" + iso.String()
	pools.Lock()
	defer pools.Unlock()
	if p, ok := pools.m[key]; ok {
		return p
	}
	p := newWarmPool(python, iso, max(2, runtime.NumCPU())+1)
	if pools.m == nil {
		pools.m = map[string]*warmPool{}
	}
	pools.m[key] = p
	return p
}

// newWarmPool returns a pool of n ≥ 2 interpreters.
func newWarmPool(python string, iso sandbox.Isolation, n int) *warmPool {
	p := &warmPool{share: n - 1}
	for range n {
		s := sandbox.NewPythonServerWith(python, iso, 0).NoSite()
		p.all = append(p.all, s)
		p.idle = append(p.idle, s)
	}
	return p
}

// CloseWarm stops the process's warm interpreters and removes their work
// directories, waiting for the tests running in them. A code env used
// afterwards starts new ones. A server calls it when it stops
// (cmd/envserver does), so that nothing it started outlives it.
func CloseWarm() {
	pools.Lock()
	m := pools.m
	pools.m = nil
	pools.Unlock()
	for _, p := range m {
		for _, s := range p.all {
			_ = s.Close()
		}
	}
}

// errCold says the pool cannot run a test: run it in a fresh process.
var errCold = errors.New("code: no warm interpreter")

// run runs code (main.py) on stdin in one of the pool's interpreters, as a
// test of st. It returns errCold when the pool has none that starts, or
// when the server died during the call: the caller then runs the test in
// a fresh process.
func (p *warmPool) run(ctx context.Context, st *poolShare, code, stdin []byte, lim sandbox.Limits) (sandbox.Result, error) {
	if p.cold.Load() {
		return sandbox.Result{}, errCold
	}
	s, err := p.acquire(ctx, st)
	if err != nil {
		return sandbox.Result{}, err
	}
	defer p.release(s, st)
	res, err := s.Run(ctx, code, stdin, lim)
	switch {
	case err == nil, ctx.Err() != nil:
		return res, err
	case errors.Is(err, sandbox.ErrServerStart):
		p.cold.Store(true)
	}
	return sandbox.Result{}, errCold
}

// acquire waits for an interpreter that st may hold, or for ctx.
func (p *warmPool) acquire(ctx context.Context, st *poolShare) (*sandbox.PythonServer, error) {
	p.mu.Lock()
	if st.held < p.share && len(p.idle) > 0 {
		s := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		st.held++
		p.mu.Unlock()
		return s, nil
	}
	w := &waiter{st: st, ch: make(chan *sandbox.PythonServer, 1)}
	p.waiting = append(p.waiting, w)
	p.mu.Unlock()
	select {
	case s := <-w.ch:
		return s, nil
	case <-ctx.Done():
		p.mu.Lock()
		i := slices.Index(p.waiting, w)
		if i >= 0 {
			p.waiting = slices.Delete(p.waiting, i, i+1)
		}
		p.mu.Unlock()
		if i < 0 { // handed one meanwhile: pass it on
			p.release(<-w.ch, st)
		}
		return nil, ctx.Err()
	}
}

// release returns s, held by st, and hands the free interpreters to the
// waiting steps that may take them: each to the one holding the fewest,
// the earliest among equals.
func (p *warmPool) release(s *sandbox.PythonServer, st *poolShare) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st.held--
	p.idle = append(p.idle, s)
	for len(p.idle) > 0 {
		best := -1
		for i, w := range p.waiting {
			if w.st.held < p.share && (best < 0 || w.st.held < p.waiting[best].st.held) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		w := p.waiting[best]
		p.waiting = slices.Delete(p.waiting, best, best+1)
		w.st.held++
		w.ch <- p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
	}
}
