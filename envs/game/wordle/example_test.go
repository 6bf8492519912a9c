package wordle_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/wordle"
	"github.com/gemgo/gemgo/envs/game/words"
)

// A short game on a three-word list, in the brief style.
func Example() {
	env, err := wordle.New(wordle.Config{
		Level: "hard",
		Style: envs.StyleBrief,
		Words: words.NewList([]string{"crane", "slate", "eerie"}),
	})
	if err != nil {
		panic(err)
	}
	obs, _, _ := env.Reset(1)
	fmt.Println(obs)
	for _, guess := range []string{"EERIE", "SLATE", "CRANE"} {
		st, _ := env.Step(`I will try \boxed{` + guess + `}`)
		fmt.Printf("%s reward %.2f\n", st.Obs, st.Reward)
		if st.Done() {
			break
		}
	}
	// Output:
	// Wordle: guess the 5-letter word in 25 turns. Reply \boxed{WORD}. G=right spot, Y=wrong spot, X=absent.
	// EERIE: X X Y X G. 24 turns left. reward 0.10
	// SLATE: X X G X G. 23 turns left. reward 0.10
	// CRANE: G G G G G. Solved in 3 turns. reward 0.80
}
