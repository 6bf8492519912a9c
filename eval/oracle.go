package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/crosswords"
	"github.com/gemgo/gemgo/envs/game/fifteen"
	"github.com/gemgo/gemgo/envs/game/guessnumber"
	"github.com/gemgo/gemgo/envs/game/hangman"
	"github.com/gemgo/gemgo/envs/game/hanoi"
	"github.com/gemgo/gemgo/envs/game/mastermind"
	"github.com/gemgo/gemgo/envs/game/minesweeper"
	"github.com/gemgo/gemgo/envs/game/sokoban"
	"github.com/gemgo/gemgo/envs/game/sudoku"
	"github.com/gemgo/gemgo/envs/game/wordle"
	"github.com/gemgo/gemgo/envs/game/wordsearch"
)

// Oracle is a solver playing one env: it answers each observation with an
// action, and may read the state of the env it was made for.
type Oracle interface {
	Act(obs string) (string, error)
}

// OracleFactory makes the oracle of env (as the registry made it; look
// under wrappers with envs.Unwrapped), or fails when env is not the game
// the factory knows.
type OracleFactory func(env envs.Env) (Oracle, error)

// Oracles maps env id families (id prefixes such as
// "game:GuessTheNumber-") to their solvers. It is a Policy: the oracle
// policy.
type Oracles struct {
	byPrefix map[string]OracleFactory
}

// NewOracles returns an empty set; DefaultOracles has the built-in ones.
func NewOracles() *Oracles { return &Oracles{byPrefix: map[string]OracleFactory{}} }

// Register adds the solver of the envs whose ids start with prefix.
func (o *Oracles) Register(prefix string, f OracleFactory) { o.byPrefix[prefix] = f }

// Families lists the registered prefixes in order.
func (o *Oracles) Families() []string {
	var out []string
	for p := range o.byPrefix {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// For returns the factory of env id, the longest matching prefix.
func (o *Oracles) For(id string) (OracleFactory, bool) {
	best := ""
	for p := range o.byPrefix {
		if strings.HasPrefix(id, p) && len(p) > len(best) {
			best = p
		}
	}
	f, ok := o.byPrefix[best]
	return f, ok && best != ""
}

// DefaultOracles holds the solvers of the built-in games, each its game
// package's Solver (see its doc for what it reads): bisection for
// GuessTheNumber; the shortest solution for TowerofHanoi and Sokoban (A*);
// backtracking for Sudoku; consistent-candidate play from the feedback for
// Mastermind, Wordle and Hangman; and the env's answer for Crosswords,
// WordSearch, FifteenPuzzle (the scramble undone) and Minesweeper (the
// safe cells). Game2048 has none.
func DefaultOracles() *Oracles {
	o := NewOracles()
	o.Register("game:GuessTheNumber-", solverOf("GuessTheNumber", guessnumber.NewSolver))
	o.Register("game:TowerofHanoi-", solverOf("TowerofHanoi", hanoi.NewSolver))
	o.Register("game:Sokoban-", solverOf("Sokoban", sokoban.NewSolver))
	o.Register("game:Sudoku-", solverOf("Sudoku", sudoku.NewSolver))
	o.Register("game:Mastermind-", solverOf("Mastermind", mastermind.NewSolver))
	o.Register("game:Wordle-", solverOf("Wordle", wordle.NewSolver))
	o.Register("game:Hangman-", solverOf("Hangman", hangman.NewSolver))
	o.Register("game:Crosswords-", solverOf("Crosswords", crosswords.NewSolver))
	o.Register("game:WordSearch-", solverOf("WordSearch", wordsearch.NewSolver))
	o.Register("game:FifteenPuzzle-", solverOf("FifteenPuzzle", fifteen.NewSolver))
	o.Register("game:Minesweeper-", solverOf("Minesweeper", minesweeper.NewSolver))
	return o
}

// solverOf is the factory of a game whose env type is E: newSolver makes
// the solver of the episode the env has just been reset to.
func solverOf[E envs.Env, S Oracle](game string, newSolver func(E) S) OracleFactory {
	return func(env envs.Env) (Oracle, error) {
		g, ok := envs.Unwrapped(env).(E)
		if !ok {
			return nil, fmt.Errorf("oracle: want a %s env, got %T", game, envs.Unwrapped(env))
		}
		return newSolver(g), nil
	}
}

// NewEpisode makes the oracle of env id.
func (o *Oracles) NewEpisode(id string, env envs.Env) (Actor, error) {
	f, ok := o.For(id)
	if !ok {
		return nil, fmt.Errorf("oracle: no solver for %s (solvers exist for %s)", id, strings.Join(o.Families(), ", "))
	}
	or, err := f(env)
	if err != nil {
		return nil, err
	}
	return oracleActor{or}, nil
}

type oracleActor struct{ o Oracle }

func (a oracleActor) Act(_ context.Context, msgs []chat.Message, _ *rand.Rand) (Turn, error) {
	obs := ""
	if len(msgs) > 0 {
		obs = msgs[len(msgs)-1].Content
	}
	act, err := a.o.Act(obs)
	return Turn{Action: act}, err
}
