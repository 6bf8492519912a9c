package hangman_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/hangman"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Revealing the last letter wins: the rewards of a solve sum to 1.
func Example() {
	env, err := hangman.New(hangman.Config{
		Level: "easy",
		Style: envs.StyleBrief,
		Words: words.NewList([]string{"zoo"}),
	})
	if err != nil {
		panic(err)
	}
	obs, _, _ := env.Reset(1)
	fmt.Println(obs)
	total := 0.0
	for _, guess := range []string{"E", "o", "Z"} {
		st, _ := env.Step(`\boxed{` + guess + `}`)
		total += st.Reward
		fmt.Printf("%s reward %.3f\n", st.Obs, st.Reward)
	}
	fmt.Printf("total %.3f\n", total)
	// Output:
	// Hangman: find the 3-letter word in 10 turns. Reply \boxed{letter} or \boxed{WORD}. Word: _ _ _
	// No E in the word. Word: _ _ _. 9 turns left. reward 0.000
	// O appears 2 time(s). Word: _ O O. 8 turns left. reward 0.333
	// Z appears 1 time(s). Solved: ZOO. reward 0.667
	// total 1.000
}
