package envtest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"

	"github.com/gemgo/gemgo/envs"
)

// Toy rewards: a solve pays ToyWin, every other parseable guess ToyMiss (a
// small turn cost, so that episode returns differ from episode to episode),
// a response with no \boxed{} envs.RewardFormatError.
const (
	ToyWin  = 1.0
	ToyMiss = -0.05
)

// Toy is a deterministic test env: guess a hidden digit 1..9 drawn from the
// seed, within MaxTurns turns. It follows the envs.Env contract exactly:
//
//   - Reset(seed) returns "guess 1-9" and Info{max_turns, turn: 0}.
//   - Step(`\boxed{d}`): a correct guess pays ToyWin and terminates with
//     success; any other parseable guess pays ToyMiss and answers "higher",
//     "lower" or "invalid" (not a digit 1..9, Info invalid_move); the step
//     that reaches MaxTurns without a solve is Truncated.
//   - A response with no \boxed{} pays envs.RewardFormatError and terminates.
//
// Every observation after Reset is "t<turn> <feedback>", so histories are
// easy to read in tests. Toy implements envs.ActionSampler and io.Closer
// (Close only counts calls, see Closes).
type Toy struct {
	// MaxTurns is the turn limit (at least 1).
	MaxTurns int

	target int
	turn   int
	active bool
	closes atomic.Int32
}

var (
	_ envs.Env           = (*Toy)(nil)
	_ envs.ActionSampler = (*Toy)(nil)
)

// NewToy returns a Toy env with the given turn limit (at least 1).
func NewToy(maxTurns int) *Toy {
	return &Toy{MaxTurns: max(1, maxTurns)}
}

// ToyTarget is the digit that Toy hides for seed: tests use it to play
// perfect or losing games.
func ToyTarget(seed uint64) int {
	r := rand.New(rand.NewPCG(seed, 0x70e))
	return 1 + r.IntN(9)
}

// Reset starts an episode whose hidden digit is ToyTarget(seed).
func (e *Toy) Reset(seed uint64) (string, envs.Info, error) {
	e.target = ToyTarget(seed)
	e.turn = 0
	e.active = true
	return "guess 1-9", envs.Info{envs.InfoMaxTurns: e.MaxTurns, envs.InfoTurn: 0}, nil
}

// Step plays one guess.
func (e *Toy) Step(action string) (envs.Step, error) {
	if !e.active {
		return envs.Step{}, envs.ErrNotReset
	}
	e.turn++
	info := envs.Info{envs.InfoTurn: e.turn}
	st := envs.Step{Info: info}
	content, ok := envs.LastBoxed(action)
	if !ok {
		e.active = false
		info[envs.InfoFormatError] = true
		info[envs.InfoSuccess] = false
		st.Obs = fmt.Sprintf("t%d format error", e.turn)
		st.Reward = envs.RewardFormatError
		st.Terminated = true
		return st, nil
	}
	st.Reward = ToyMiss
	guess, err := strconv.Atoi(content)
	switch {
	case err != nil || guess < 1 || guess > 9:
		info[envs.InfoInvalid] = true
		st.Obs = fmt.Sprintf("t%d invalid", e.turn)
	case guess == e.target:
		st.Obs = fmt.Sprintf("t%d correct", e.turn)
		st.Reward = ToyWin
		st.Terminated = true
	case guess < e.target:
		st.Obs = fmt.Sprintf("t%d higher", e.turn)
	default:
		st.Obs = fmt.Sprintf("t%d lower", e.turn)
	}
	if !st.Terminated && e.turn >= e.MaxTurns {
		st.Truncated = true
	}
	if st.Done() {
		e.active = false
		info[envs.InfoSuccess] = st.Terminated
	}
	return st, nil
}

// SampleAction returns a random digit guess, always parseable.
func (e *Toy) SampleAction(r *rand.Rand) string {
	return envs.Boxed(strconv.Itoa(1 + r.IntN(9)))
}

// Close counts the call and returns nil.
func (e *Toy) Close() error {
	e.closes.Add(1)
	return nil
}

// Closes is the number of Close calls so far.
func (e *Toy) Closes() int { return int(e.closes.Load()) }
