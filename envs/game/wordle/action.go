package wordle

import "github.com/gemgo/gemgo/envs/game/words"

// ParseGuess reads the guess from the last \boxed{} of a response: a run of
// letters a–z in any case (surrounding space ignored), returned lowercase.
// ok is false when there is no such box: a format error.
func ParseGuess(response string) (guess string, ok bool) {
	return words.FromBoxed(response)
}
