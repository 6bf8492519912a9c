package builtin

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/bench"
	"github.com/gemgo/gemgo/envs/code"
	"github.com/gemgo/gemgo/envs/game/crosswords"
	"github.com/gemgo/gemgo/envs/game/fifteen"
	"github.com/gemgo/gemgo/envs/game/game2048"
	"github.com/gemgo/gemgo/envs/game/guessnumber"
	"github.com/gemgo/gemgo/envs/game/hangman"
	"github.com/gemgo/gemgo/envs/game/hanoi"
	"github.com/gemgo/gemgo/envs/game/mastermind"
	"github.com/gemgo/gemgo/envs/game/minesweeper"
	"github.com/gemgo/gemgo/envs/game/sokoban"
	"github.com/gemgo/gemgo/envs/game/sudoku"
	"github.com/gemgo/gemgo/envs/game/wordle"
	"github.com/gemgo/gemgo/envs/game/wordsearch"
	"github.com/gemgo/gemgo/envs/logic"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/envs/mcptask"
	"github.com/gemgo/gemgo/envs/qa"
	"github.com/gemgo/gemgo/envs/rg"
	"github.com/gemgo/gemgo/envs/terminal"
)

// families lists the Register function of every built-in family, each from
// its own package.
func families() []func(*envs.Registry) error {
	return []func(*envs.Registry) error{
		// games whose state is a number, a code or a board of tiles
		guessnumber.Register, mastermind.Register, hanoi.Register, fifteen.Register,
		// puzzles on a grid
		minesweeper.Register, sudoku.Register, game2048.Register, sokoban.Register,
		// word games
		wordle.Register, hangman.Register, crosswords.Register, wordsearch.Register,
		// single-turn task families: procedural reasoning, math, QA, logic
		rg.Register, mathtask.Register, qa.Register, logic.Register,
		// Python coding tasks, judged in the sandbox
		code.Register,
		// multi-turn shell tasks in a sandboxed work dir, scored by hidden tests
		terminal.Register,
		// MCPMark-style tasks over MCP servers: files and PostgreSQL
		mcptask.Register,
		// GEM's evaluation benchmarks, read from sets imported with cmd/data
		bench.Register,
	}
}

// Registry returns a new registry holding every built-in env. Each call
// builds a fresh registry: callers may register their own envs in it.
func Registry() *envs.Registry {
	r := envs.NewRegistry()
	for _, reg := range families() {
		if err := reg(r); err != nil {
			// Built-in ids are fixed at compile time: a clash is a bug in gemgo.
			panic(fmt.Sprintf("envs: built-in registry: %v", err))
		}
	}
	return r
}
