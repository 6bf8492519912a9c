package envs

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

var errClosed = errors.New("vector env: closed")

// PanicError is the error of an env that panicked inside a VectorEnv call.
// The VectorEnv recovers, so a faulty env fails its own slot and not the
// process.
type PanicError struct {
	Index int    // the env's index in the VectorEnv
	Seed  uint64 // the seed of the episode it was playing or being reset to
	Op    string // the env call that panicked: "reset", "step" or "autoreset"
	Value any    // what the env panicked with
	Stack []byte // the stack of the panicking goroutine
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("env %d (seed %d): %s: panic: %v", e.Index, e.Seed, e.Op, e.Value)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// envErr names env i and the seed of its episode in err.
func (v *VectorEnv) envErr(i int, err error) error {
	return fmt.Errorf("env %d (seed %d): %s: %w", i, v.seeds[i], v.ops[i], err)
}

// Reset restarts every env at episode 0 under the base seed: env i is reset
// with EpisodeSeed(seed, i, 0). It returns the first observations and Reset
// infos by index.
func (v *VectorEnv) Reset(seed uint64) ([]string, []Info, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil, nil, errClosed
	}
	v.base = seed
	clear(v.episodes)
	seeds := make([]uint64, len(v.envs))
	for i := range seeds {
		seeds[i] = v.seedOf(i, 0)
	}
	return v.resetSome(v.all, seeds)
}

// ResetSome resets env indices[k] with seeds[k], for every k, and returns
// the first observations and Reset infos in the same order; the other envs
// are left as they are. It is the reset of AutoresetDisabled (an error
// under AutoresetSameStep, whose seeds follow from Reset's base seed).
// Indices must be distinct and in range. When some envs fail, the error
// joins their errors, and the results of the others are still valid.
func (v *VectorEnv) ResetSome(indices []int, seeds []uint64) ([]string, []Info, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil, nil, errClosed
	}
	if v.cfg.Autoreset != AutoresetDisabled {
		return nil, nil, fmt.Errorf("vector env: ResetSome needs VectorConfig.Autoreset = AutoresetDisabled (this one autoresets %v; use Reset)", v.cfg.Autoreset)
	}
	if len(indices) != len(seeds) {
		return nil, nil, fmt.Errorf("vector env: %d indices but %d seeds", len(indices), len(seeds))
	}
	if err := v.checkIndices(indices, false); err != nil {
		return nil, nil, err
	}
	return v.resetSome(indices, seeds)
}

// resetSome resets env indices[k] with seeds[k] under the worker mode.
func (v *VectorEnv) resetSome(indices []int, seeds []uint64) ([]string, []Info, error) {
	obs := make([]string, len(indices))
	infos := make([]Info, len(indices))
	for k, i := range indices {
		v.ready[i] = false
		v.seeds[i] = seeds[k]
		v.ops[i] = "reset"
	}
	errs := v.errs[:len(indices)]
	clear(errs)
	v.run(indices, func(k int) {
		i := indices[k]
		o, info, err := v.envs[i].Reset(v.seeds[i])
		if err != nil {
			errs[k] = v.envErr(i, err)
			return
		}
		obs[k], infos[k], v.ready[i] = o, info, true
	}, errs)
	return obs, infos, errors.Join(errs...)
}

// Step steps every env with actions[i] and returns the results by index.
// See the type's documentation for the autoreset modes.
func (v *VectorEnv) Step(actions []string) ([]VecStep, error) {
	if len(actions) != len(v.envs) {
		return nil, fmt.Errorf("vector env: %d actions for %d envs (use StepSome for a subset)", len(actions), len(v.envs))
	}
	return v.StepSome(v.all, actions)
}

// StepSome steps env indices[k] with actions[k], for every k, and returns
// the results in the same order. The other envs are left as they are.
// Indices must be distinct and in range. When some envs fail, the error
// joins their errors (each naming its index and seed), the results of the
// others are still valid, and a failed env must be reset before it steps
// again.
func (v *VectorEnv) StepSome(indices []int, actions []string) ([]VecStep, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil, errClosed
	}
	if len(indices) != len(actions) {
		return nil, fmt.Errorf("vector env: %d indices but %d actions", len(indices), len(actions))
	}
	if err := v.checkIndices(indices, true); err != nil {
		return nil, err
	}
	out := make([]VecStep, len(indices))
	errs := v.errs[:len(indices)]
	clear(errs)
	v.run(indices, func(k int) {
		out[k], errs[k] = v.stepOne(indices[k], actions[k])
	}, errs)
	for k, err := range errs {
		if err != nil {
			v.ready[indices[k]] = false
		}
	}
	return out, errors.Join(errs...)
}

// checkIndices checks that indices are distinct and in range, and, with
// needReady, that each env has an episode.
func (v *VectorEnv) checkIndices(indices []int, needReady bool) error {
	defer func() {
		for _, i := range indices {
			if i >= 0 && i < len(v.mark) {
				v.mark[i] = false
			}
		}
	}()
	for _, i := range indices {
		if i < 0 || i >= len(v.envs) {
			return fmt.Errorf("vector env: index %d out of range [0, %d)", i, len(v.envs))
		}
		if v.mark[i] {
			return fmt.Errorf("vector env: index %d given twice", i)
		}
		if needReady && !v.ready[i] {
			if v.cfg.Autoreset == AutoresetDisabled {
				return fmt.Errorf("vector env: env %d has no active episode: call ResetSome (or Reset)", i)
			}
			return fmt.Errorf("vector env: env %d has no active episode: call Reset", i)
		}
		v.mark[i] = true
	}
	return nil
}

// stepOne steps env i and, under AutoresetSameStep, resets it when its
// episode ends. It touches only the state of index i, so distinct indices
// may run concurrently.
func (v *VectorEnv) stepOne(i int, action string) (VecStep, error) {
	v.ops[i] = "step"
	st, err := v.envs[i].Step(action)
	if err != nil {
		return VecStep{Index: i}, v.envErr(i, err)
	}
	out := VecStep{Index: i, Step: st, Seed: v.seeds[i]}
	if !st.Done() {
		return out, nil
	}
	v.episodes[i]++
	if v.cfg.Autoreset == AutoresetDisabled {
		v.ready[i] = false
		return out, nil
	}
	v.seeds[i] = v.seedOf(i, v.episodes[i])
	v.ops[i] = "autoreset"
	obs, info, err := v.envs[i].Reset(v.seeds[i])
	if err != nil {
		return out, v.envErr(i, err)
	}
	out.ResetObs, out.ResetInfo, out.ResetSeed = obs, info, v.seeds[i]
	return out, nil
}

// workers is the number of goroutines for n envs.
func (v *VectorEnv) workers(n int) int {
	w := v.cfg.Workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, n)
}

// run calls f(k) for k in [0, len(idx)) under the worker mode, and turns a
// panic of f(k) into a *PanicError in errs[k].
func (v *VectorEnv) run(idx []int, f func(k int), errs []error) {
	safe := func(k int) {
		defer func() {
			if p := recover(); p != nil {
				i := idx[k]
				errs[k] = &PanicError{Index: i, Seed: v.seeds[i], Op: v.ops[i], Value: p, Stack: debug.Stack()}
			}
		}()
		f(k)
	}
	n := len(idx)
	workers := v.workers(n)
	if workers <= 1 {
		for k := range n {
			safe(k)
		}
		return
	}
	var wg sync.WaitGroup
	if workers == n {
		for k := range n {
			wg.Go(func() { safe(k) })
		}
		wg.Wait()
		return
	}
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				safe(k)
			}
		})
	}
	wg.Wait()
}

// Close closes every env that is an io.Closer and returns their errors
// joined. Later calls to Reset and Step return an error; Close is
// idempotent.
func (v *VectorEnv) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil
	}
	v.closed = true
	var errs []error
	for i, e := range v.orig {
		if err := Close(e); err != nil {
			errs = append(errs, fmt.Errorf("env %d: close: %w", i, err))
		}
	}
	return errors.Join(errs...)
}
