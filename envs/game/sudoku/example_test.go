package sudoku_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/sudoku"
)

func Example() {
	r := envs.NewRegistry()
	if err := sudoku.Register(r); err != nil {
		panic(err)
	}
	env, err := r.Make("game:Sudoku-v0-easy", envs.With("style", "brief"))
	if err != nil {
		panic(err)
	}
	obs, _, err := env.Reset(1)
	if err != nil {
		panic(err)
	}
	fmt.Println(obs)
	st, err := env.Step(envs.Boxed("1 3 3"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("reward %.2f\n%s\n", st.Reward, st.Obs)
	// Output:
	// Sudoku 4x4, 15 turns. Fill each '.' so rows, columns and 2x2 boxes hold 1-4 once. Answer \boxed{row col num}, 1-indexed.
	//   1 2 3 4
	// 1 1 . . 2
	// 2 . . 1 .
	// 3 . 2 4 .
	// 4 . . 2 .
	// reward 0.10
	// Placed 3 at row 1 column 3.
	//   1 2 3 4
	// 1 1 . 3 2
	// 2 . . 1 .
	// 3 . 2 4 .
	// 4 . . 2 .
}
