package sokoban_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/sokoban"
)

func Example() {
	r := envs.NewRegistry()
	if err := sokoban.Register(r); err != nil {
		panic(err)
	}
	env, err := r.Make("game:Sokoban-v0-easy", envs.With("style", "brief"))
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
	// Sokoban, 20 turns: push every box ($) onto a target (.); # wall, _ floor, @ you, * box on target. Answer \boxed{up}, \boxed{down}, \boxed{left} or \boxed{right}.
	// # # # # # #
	// # # _ _ _ #
	// # _ _ $ . #
	// # _ _ # _ #
	// # _ . $ @ #
	// # # # # # #
	// reward 0.00
	// Pushed a box left.
	// # # # # # #
	// # # _ _ _ #
	// # _ _ $ . #
	// # _ _ # _ #
	// # _ * @ _ #
	// # # # # # #
}
