package builtin

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/crosswords"
	"github.com/gemgo/gemgo/envs/game/hangman"
	"github.com/gemgo/gemgo/envs/game/wordle"
	"github.com/gemgo/gemgo/envs/game/wordsearch"
)

// registerGamesWord registers the word games: Wordle, Hangman, Crosswords
// and WordSearch (each in its own package under envs/game).
func registerGamesWord(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		wordle.Register,
		hangman.Register,
		crosswords.Register,
		wordsearch.Register,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
