package builtin

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// Registry returns a new registry holding every built-in env. Each call
// builds a fresh registry: callers may register their own envs in it.
func Registry() *envs.Registry {
	r := envs.NewRegistry()
	for _, reg := range []func(*envs.Registry) error{
		registerGamesCore,   // games_core.go
		registerGamesPuzzle, // games_puzzle.go
		registerGamesWord,   // games_word.go
		registerTasks,       // tasks.go
		registerCode,        // code.go
	} {
		if err := reg(r); err != nil {
			// Built-in ids are fixed at compile time: a clash is a bug in gemgo.
			panic(fmt.Sprintf("envs: built-in registry: %v", err))
		}
	}
	return r
}
