package eval

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
)

// Oracles is the oracle policy: each episode is played by the env's own
// solver (envs.SolverOf), made once per episode after its reset. The
// built-in games with one (every game but Game2048) and what each solver
// reads are in docs/eval.md and each game package's Solver: bisection for
// GuessTheNumber; the shortest solution for TowerofHanoi and Sokoban
// (A*); backtracking for Sudoku; consistent-candidate play from the
// feedback for Mastermind, Wordle and Hangman; and the env's answer for
// Crosswords, WordSearch, FifteenPuzzle (the scramble undone) and
// Minesweeper (the safe cells). An env without a solver fails each
// episode with an error that says so.
type Oracles struct{}

// DefaultOracles returns the oracle policy.
func DefaultOracles() *Oracles { return &Oracles{} }

// NewEpisode makes the solver of env's episode (env id).
func (o *Oracles) NewEpisode(id string, env envs.Env) (Actor, error) {
	m, ok := envs.SolverOf(env)
	if !ok {
		return nil, fmt.Errorf("oracle: no solver for %s: its env (%T) has none (an env has one when it implements envs.SolverMaker; docs/eval.md lists the games that do)", id, envs.Unwrapped(env))
	}
	return oracleActor{m.NewSolver()}, nil
}

// HasSolver reports whether the env id, made with opts, has a solver (so
// the oracle policy can play it).
func HasSolver(reg *envs.Registry, id string, opts map[string]any) (bool, error) {
	env, err := reg.Make(id, envs.FromMap(opts)...)
	if err != nil {
		return false, err
	}
	defer envs.Close(env)
	_, ok := envs.SolverOf(env)
	return ok, nil
}

type oracleActor struct{ s envs.Solver }

func (a oracleActor) Act(_ context.Context, msgs []chat.Message, _ *rand.Rand) (Turn, error) {
	obs := ""
	if len(msgs) > 0 {
		obs = msgs[len(msgs)-1].Content
	}
	act, err := a.s.Act(obs)
	return Turn{Action: act}, err
}
