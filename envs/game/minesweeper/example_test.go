package minesweeper_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/minesweeper"
)

func Example() {
	r := envs.NewRegistry()
	if err := minesweeper.Register(r); err != nil {
		panic(err)
	}
	env, err := r.Make("game:Minesweeper-v0-easy", envs.With("style", "brief"))
	if err != nil {
		panic(err)
	}
	obs, _, err := env.Reset(1)
	if err != nil {
		panic(err)
	}
	fmt.Println(obs)
	st, err := env.Step(envs.Boxed("reveal 2 2"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("reward %.2f\n%s\n", st.Reward, st.Obs)
	// Output:
	// Minesweeper 5x5, 5 mines, 25 turns. Reveal all safe cells. Answer \boxed{reveal r c} or \boxed{flag r c}, 0-indexed.
	//   0 1 2 3 4
	// 0 . . . . .
	// 1 . . . . .
	// 2 . . . . .
	// 3 . . . . .
	// 4 . . . . .
	// reward 0.60
	// Revealed 12 cells.
	//   0 1 2 3 4
	// 0 . . . . .
	// 1 1 1 1 1 .
	// 2 0 0 0 1 .
	// 3 1 2 2 3 .
	// 4 . . . . .
}
