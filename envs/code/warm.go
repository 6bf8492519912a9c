package code

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gemgo/gemgo/sandbox"
)

// warmPool is a set of warm interpreters (sandbox.PythonServer, without
// the site module) that every judge of the process with the same
// interpreter and isolation shares: a test borrows one for its run. There
// are as many as the machine has CPUs (at least two), so a vector of code
// envs keeps a few interpreters alive, not a few per env. Each starts at
// its first call and is recycled by the server itself; they end with the
// process.
type warmPool struct {
	free chan *sandbox.PythonServer
	// cold is set once a server could not start: every later test of the
	// pool runs in a fresh process.
	cold atomic.Bool
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
	n := max(2, runtime.NumCPU())
	p := &warmPool{free: make(chan *sandbox.PythonServer, n)}
	for range n {
		p.free <- sandbox.NewPythonServerWith(python, iso, 0).NoSite()
	}
	if pools.m == nil {
		pools.m = map[string]*warmPool{}
	}
	pools.m[key] = p
	return p
}

// errCold says the pool cannot run a test: run it in a fresh process.
var errCold = errors.New("code: no warm interpreter")

// run runs code (main.py) on stdin in one of the pool's interpreters. It
// returns errCold when the pool has none that starts, or when the server
// died during the call: the caller then runs the test in a fresh process.
func (p *warmPool) run(ctx context.Context, code, stdin []byte, lim sandbox.Limits) (sandbox.Result, error) {
	if p.cold.Load() {
		return sandbox.Result{}, errCold
	}
	var s *sandbox.PythonServer
	select {
	case s = <-p.free:
	case <-ctx.Done():
		return sandbox.Result{}, ctx.Err()
	}
	defer func() { p.free <- s }()
	res, err := s.Run(ctx, code, stdin, lim)
	switch {
	case err == nil, ctx.Err() != nil:
		return res, err
	case errors.Is(err, sandbox.ErrServerStart):
		p.cold.Store(true)
	}
	return sandbox.Result{}, errCold
}
