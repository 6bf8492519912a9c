package game2048_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/game2048"
)

func Example() {
	r := envs.NewRegistry()
	if err := game2048.Register(r); err != nil {
		panic(err)
	}
	env, err := r.Make("game:Game2048-v0-easy", envs.With("style", "brief"))
	if err != nil {
		panic(err)
	}
	obs, _, err := env.Reset(1)
	if err != nil {
		panic(err)
	}
	fmt.Println(obs)
	st, err := env.Step(envs.Boxed("left"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("reward %.2f\n%s\n", st.Reward, st.Obs)
	// Output:
	// 2048 4x4: reach 64 in 50 turns. Equal tiles merge. Answer \boxed{left}, \boxed{right}, \boxed{up} or \boxed{down}.
	// . . . .
	// . . . .
	// . . 2 .
	// 2 . . .
	// reward 0.00
	// Moved left.
	// . . . .
	// . 2 . .
	// 2 . . .
	// 2 . . .
}
