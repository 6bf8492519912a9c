package envs

import (
	"errors"
	"fmt"
	"sync"
)

// VectorConfig configures a VectorEnv. The zero value steps envs on
// runtime.GOMAXPROCS(0) goroutines, autoresets in the same step, and
// derives seeds with EpisodeSeed.
type VectorConfig struct {
	// Workers is how many goroutines step envs at once: 0 (the default)
	// uses runtime.GOMAXPROCS(0); 1 steps them one after the other in the
	// caller's goroutine (the sequential mode); n > 1 uses at most n (Len()
	// gives every env its own goroutine, GEM's async mode, best when envs
	// wait on tools or processes). Every mode gives identical results. A
	// game's step takes about a microsecond, so a goroutine per env costs
	// more than it saves there (see BenchmarkVectorEnv*).
	Workers int
	// Autoreset is what happens when an episode ends (see AutoresetMode).
	Autoreset AutoresetMode
	// SeedFunc, when set, replaces EpisodeSeed as the seed of episode
	// `episode` of env `index` under the base seed given to Reset. For GRPO
	// groups of size g, give each group one seed sequence:
	//
	//	func(base uint64, i, k int) uint64 { return envs.EpisodeSeed(base, i/g, k) }
	SeedFunc func(base uint64, index, episode int) uint64
}

// AutoresetMode says whether a VectorEnv resets an env whose episode ended,
// after Gymnasium's vector autoreset modes.
type AutoresetMode int

const (
	// AutoresetSameStep (the default) resets an env in the step that ends
	// its episode, with the seed of its next episode (see VectorEnv).
	AutoresetSameStep AutoresetMode = iota
	// AutoresetDisabled (Gymnasium's DISABLED) leaves an env whose episode
	// ended without an episode: the caller resets it with ResetSome and a
	// seed of its choosing before it steps again. It is the mode of a
	// caller that hands out seeds itself, as rollout.Collector does.
	AutoresetDisabled
)

func (m AutoresetMode) String() string {
	switch m {
	case AutoresetSameStep:
		return "same-step"
	case AutoresetDisabled:
		return "disabled"
	}
	return fmt.Sprintf("AutoresetMode(%d)", int(m))
}

// EpisodeSeed is seed number n of stream `stream` under base seed base: a
// fixed hash (SplitMix64's finalizer) of the three, so that each stream is
// its own deterministic sequence whatever order its seeds are used in, and
// nearby arguments give unrelated seeds. A VectorEnv's streams are its envs
// and n counts each env's episodes; rollout.SeedSequence's streams are
// training iterations and n counts the groups of an iteration. It is the
// one seed derivation of gemgo's runners; a stream or n beyond 32 bits
// shares seeds with a smaller one.
func EpisodeSeed(base uint64, stream, n int) uint64 {
	const golden = 0x9e3779b97f4a7c15
	return mix64(mix64(base^golden) ^ mix64(uint64(stream)<<32|uint64(uint32(n))))
}

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// VecStep is the result of stepping one env of a VectorEnv.
type VecStep struct {
	// Index is the env's index in the VectorEnv.
	Index int
	// Step is the env's step, intact: on the step that ends an episode it
	// holds the final observation, reward and flags, and the episode
	// statistics in Info (see EpisodeStats and SummaryOf).
	Step Step
	// Seed is the seed of the episode that Step belongs to.
	Seed uint64
	// When Step ended the episode under AutoresetSameStep, the env was
	// reset at once: ResetObs, ResetInfo and ResetSeed are the first
	// observation, the Reset info and the seed of its next episode. They are
	// empty otherwise.
	ResetObs  string
	ResetInfo Info
	ResetSeed uint64
}

// Next returns the observation the agent acts on next: ResetObs after an
// episode ended (empty under AutoresetDisabled, where the next observation
// comes from ResetSome), Step.Obs otherwise.
func (s VecStep) Next() string {
	if s.Step.Done() {
		return s.ResetObs
	}
	return s.Step.Obs
}

// VectorEnv steps N envs at once, concurrently (see VectorConfig.Workers).
// It is gemgo's one vector runner: rollout.Collector plays its episodes
// through one.
//
// AutoresetSameStep (the default): the step that ends an episode of env i
// is returned whole (final observation, reward, Terminated/Truncated, Info
// with the episode statistics) and, in the same call, env i is reset with
// the seed of its next episode; the new first observation comes in the
// same VecStep as ResetObs (with ResetInfo and ResetSeed). The next action
// given for env i is the first action of the new episode. Nothing of a
// finished episode is lost, and no call is spent on a dummy action.
//
// AutoresetDisabled: the step that ends an episode is returned whole as
// above, and env i waits without an episode until ResetSome resets it with
// a seed the caller chooses.
//
// Seeds: Reset(seed) restarts every env at episode 0; episode k of env i
// uses EpisodeSeed(seed, i, k) (or VectorConfig.SeedFunc), so results do not
// depend on the worker mode or on the order in which envs finish.
//
// Step steps every env; StepSome steps a subset by index, and the others
// wait where they are. Calls are serialized by a mutex; a VectorEnv may be
// shared between goroutines. Close closes every env that is an io.Closer.
//
// An env that fails or panics in Reset or Step does not stop the others:
// the call returns their results and an error per failed env naming its
// index and seed (a panic is a *PanicError), and the failed env has no
// episode until it is reset.
type VectorEnv struct {
	mu       sync.Mutex
	envs     []*EpisodeStats
	orig     []Env
	cfg      VectorConfig
	base     uint64
	episodes []int
	seeds    []uint64
	ready    []bool   // reset and not broken by an error
	ops      []string // the env call each env is in, for errors
	closed   bool

	// Scratch space reused by every call (under mu).
	all  []int   // 0..n-1
	mark []bool  // indices seen by StepSome
	errs []error // per stepped env
}

// NewVectorEnv steps envs (at least one; each wrapped in EpisodeStats
// unless it already is one).
func NewVectorEnv(envs []Env, cfg VectorConfig) (*VectorEnv, error) {
	if len(envs) == 0 {
		return nil, errors.New("vector env: no envs")
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("vector env: workers = %d: want 0 (GOMAXPROCS goroutines), 1 (sequential) or more", cfg.Workers)
	}
	if cfg.Autoreset != AutoresetSameStep && cfg.Autoreset != AutoresetDisabled {
		return nil, fmt.Errorf("vector env: autoreset = %v: want AutoresetSameStep or AutoresetDisabled", cfg.Autoreset)
	}
	v := &VectorEnv{
		envs:     make([]*EpisodeStats, len(envs)),
		orig:     append([]Env(nil), envs...),
		cfg:      cfg,
		episodes: make([]int, len(envs)),
		seeds:    make([]uint64, len(envs)),
		ready:    make([]bool, len(envs)),
		ops:      make([]string, len(envs)),
		all:      make([]int, len(envs)),
		mark:     make([]bool, len(envs)),
		errs:     make([]error, len(envs)),
	}
	for i := range v.all {
		v.all[i] = i
	}
	for i, e := range envs {
		if e == nil {
			return nil, fmt.Errorf("vector env: env %d is nil", i)
		}
		if s, ok := e.(*EpisodeStats); ok {
			v.envs[i] = s
		} else {
			v.envs[i] = NewEpisodeStats(e)
		}
	}
	return v, nil
}

// MakeVectorEnv makes n envs of one id from reg and steps them.
func MakeVectorEnv(reg *Registry, id string, n int, cfg VectorConfig, opts ...Option) (*VectorEnv, error) {
	v, err := NewVectorEnvFunc(n, func() (Env, error) { return reg.Make(id, opts...) }, cfg)
	if err != nil {
		return nil, fmt.Errorf("vector env %s: %w", id, err)
	}
	return v, nil
}

// NewVectorEnvFunc makes n envs with newEnv and a VectorEnv over them. When
// an env cannot be made (an error, or a nil env), the envs made so far are
// closed and the error names the env's index.
func NewVectorEnvFunc(n int, newEnv func() (Env, error), cfg VectorConfig) (*VectorEnv, error) {
	if n < 1 {
		return nil, fmt.Errorf("n = %d envs: want at least 1", n)
	}
	list := make([]Env, 0, n)
	closeAll := func() {
		for _, e := range list {
			_ = Close(e)
		}
	}
	for i := range n {
		e, err := newEnv()
		if err == nil && e == nil {
			err = errors.New("the factory returned a nil env")
		}
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("make env %d: %w", i, err)
		}
		list = append(list, e)
	}
	v, err := NewVectorEnv(list, cfg)
	if err != nil {
		closeAll()
		return nil, err
	}
	return v, nil
}

// Len returns the number of envs.
func (v *VectorEnv) Len() int { return len(v.envs) }

// Env returns env i as it was given to NewVectorEnv (to draw actions from,
// say). Stepping it directly breaks the VectorEnv's bookkeeping.
func (v *VectorEnv) Env(i int) Env { return v.orig[i] }

// Autoreset returns the autoreset mode the VectorEnv was made with.
func (v *VectorEnv) Autoreset() AutoresetMode { return v.cfg.Autoreset }

// Seed returns the seed of env i's current (or, after an error, failed)
// episode.
func (v *VectorEnv) Seed(i int) uint64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seeds[i]
}

// Episode returns how many episodes env i has finished since Reset.
func (v *VectorEnv) Episode(i int) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.episodes[i]
}

func (v *VectorEnv) seedOf(i, episode int) uint64 {
	if v.cfg.SeedFunc != nil {
		return v.cfg.SeedFunc(v.base, i, episode)
	}
	return EpisodeSeed(v.base, i, episode)
}
