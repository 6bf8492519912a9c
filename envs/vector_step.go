package envs

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

var errClosed = errors.New("vector env: closed")

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
	obs := make([]string, len(v.envs))
	infos := make([]Info, len(v.envs))
	errs := v.errs
	clear(errs)
	v.run(v.all, func(k int) {
		i := k
		v.ready[i] = false
		v.episodes[i] = 0
		v.seeds[i] = v.seedOf(i, 0)
		o, info, err := v.envs[i].Reset(v.seeds[i])
		if err != nil {
			errs[k] = fmt.Errorf("env %d: reset with seed %d: %w", i, v.seeds[i], err)
			return
		}
		obs[i], infos[i], v.ready[i] = o, info, true
	}, errs)
	return obs, infos, errors.Join(errs...)
}

// Step steps every env with actions[i] and returns the results by index.
// See the type's documentation for the autoreset mode.
func (v *VectorEnv) Step(actions []string) ([]VecStep, error) {
	if len(actions) != len(v.envs) {
		return nil, fmt.Errorf("vector env: %d actions for %d envs (use StepSome for a subset)", len(actions), len(v.envs))
	}
	return v.StepSome(v.all, actions)
}

// StepSome steps env indices[k] with actions[k], for every k, and returns
// the results in the same order. The other envs are left as they are.
// Indices must be distinct and in range. When some envs fail, the error
// joins their errors (each naming its index), the results of the others are
// still valid, and a failed env must be Reset before it steps again.
func (v *VectorEnv) StepSome(indices []int, actions []string) ([]VecStep, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil, errClosed
	}
	if len(indices) != len(actions) {
		return nil, fmt.Errorf("vector env: %d indices but %d actions", len(indices), len(actions))
	}
	if err := v.checkIndices(indices); err != nil {
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

// checkIndices checks that indices are distinct, in range and ready.
func (v *VectorEnv) checkIndices(indices []int) error {
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
		if !v.ready[i] {
			return fmt.Errorf("vector env: env %d has no active episode: call Reset", i)
		}
		v.mark[i] = true
	}
	return nil
}

// stepOne steps env i and resets it when its episode ends. It touches only
// the state of index i, so distinct indices may run concurrently.
func (v *VectorEnv) stepOne(i int, action string) (VecStep, error) {
	st, err := v.envs[i].Step(action)
	if err != nil {
		return VecStep{Index: i}, fmt.Errorf("env %d: step: %w", i, err)
	}
	out := VecStep{Index: i, Step: st, Seed: v.seeds[i]}
	if !st.Done() {
		return out, nil
	}
	v.episodes[i]++
	seed := v.seedOf(i, v.episodes[i])
	obs, info, err := v.envs[i].Reset(seed)
	if err != nil {
		return out, fmt.Errorf("env %d: autoreset with seed %d: %w", i, seed, err)
	}
	v.seeds[i] = seed
	out.ResetObs, out.ResetInfo, out.ResetSeed = obs, info, seed
	return out, nil
}

// run calls f(k) for k in [0, len(idx)) under the worker mode, and turns a
// panic of f(k) into errs[k].
func (v *VectorEnv) run(idx []int, f func(k int), errs []error) {
	safe := func(k int) {
		defer func() {
			if p := recover(); p != nil {
				errs[k] = fmt.Errorf("env %d: panic: %v", idx[k], p)
			}
		}()
		f(k)
	}
	n := len(idx)
	workers := v.cfg.Workers
	if workers == 0 || workers > n {
		workers = n
	}
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
		if c, ok := e.(io.Closer); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("env %d: close: %w", i, err))
			}
		}
	}
	return errors.Join(errs...)
}
