package envs

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// LegalMover is implemented by envs that can list the actions the game's
// rules allow in the state of the current episode: the text inside
// \boxed{} of each, in a fixed order, none when the episode is over. The
// env plays each of them (it does not answer "Invalid move") except where
// its rules look further than one move: Sudoku lists every digit that
// clashes with no filled cell, and refuses one that leaves the puzzle with
// no solution. A listed move may still lose.
type LegalMover interface {
	LegalMoves() []string
}

// LegalMovesOption is the option of the games that are LegalMovers
// ("legal_moves": true) that shows the policy its valid actions after each
// observation (WithLegalMoves): the action mask of board-game RL (masked
// logits in AlphaZero, MaskablePPO), given in text. GEM's observations do
// not list them; the default is false.
const LegalMovesOption = "legal_moves"

// LegalMovesPrefix starts the line that WithLegalMoves adds to an
// observation.
const LegalMovesPrefix = "Legal moves: "

// LegalMoves is the wrapper of WithLegalMoves.
type LegalMoves struct {
	inner  Env
	lister LegalMover
}

var _ Wrapper = (*LegalMoves)(nil)

// WithLegalMoves wraps env so that each observation of a running episode
// ends with a line listing the valid actions: "Legal moves: a, b, c." (as
// LegalMoves gives them; the line is left out when the list is empty). The
// rewards, the episode's end and the actions accepted are env's. env must
// be a LegalMover.
func WithLegalMoves(env Env) (*LegalMoves, error) {
	if env == nil {
		return nil, fmt.Errorf("legal moves: nil env")
	}
	l, ok := env.(LegalMover)
	if !ok {
		return nil, fmt.Errorf("legal moves: the env (%T) cannot list its valid actions; set %s only on the games that can: Sudoku, Game2048, Sokoban, FifteenPuzzle and TowerofHanoi", Unwrapped(env), LegalMovesOption)
	}
	return &LegalMoves{inner: env, lister: l}, nil
}

// Reset resets the inner env and adds the legal moves to its observation.
func (w *LegalMoves) Reset(seed uint64) (string, Info, error) {
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	return w.with(obs), info, nil
}

// Step plays action in the inner env and adds the legal moves to the next
// observation while the episode runs.
func (w *LegalMoves) Step(action string) (Step, error) {
	st, err := w.inner.Step(action)
	if err != nil || st.Done() {
		return st, err
	}
	st.Obs = w.with(st.Obs)
	return st, nil
}

// with is obs with the line of legal moves added.
func (w *LegalMoves) with(obs string) string {
	moves := w.lister.LegalMoves()
	if len(moves) == 0 {
		return obs
	}
	var b strings.Builder
	b.Grow(len(obs) + len(LegalMovesPrefix) + 8*len(moves))
	b.WriteString(strings.TrimRight(obs, "\n"))
	b.WriteString("\n")
	b.WriteString(LegalMovesPrefix)
	b.WriteString(strings.Join(moves, ", "))
	b.WriteString(".")
	return b.String()
}

// LegalMoves forwards the inner env's list.
func (w *LegalMoves) LegalMoves() []string { return w.lister.LegalMoves() }

// Unwrap returns the inner env.
func (w *LegalMoves) Unwrap() Env { return w.inner }

// SampleAction forwards to the inner env ("" when it has no sampler).
func (w *LegalMoves) SampleAction(r *rand.Rand) string { return forwardSample(w.inner, r) }

// FormatErrorReward forwards to the inner env.
func (w *LegalMoves) FormatErrorReward() float64 { return forwardFormatErrorReward(w.inner) }

// Description forwards to the inner env.
func (w *LegalMoves) Description() string { return forwardDescription(w.inner) }

// Close closes the inner env.
func (w *LegalMoves) Close() error { return Close(w.inner) }
