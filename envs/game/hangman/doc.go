// Package hangman is GEM's Hangman game: find a secret word by guessing
// letters or the whole word.
//
// Ids: game:Hangman-v0-easy (3 letters, 10 turns), game:Hangman-v0-hard
// (7 letters, 20 turns) and game:Hangman-v0-random (one of (3, 10),
// (5, 15), (7, 20) drawn on each Reset).
//
// The action is the last \boxed{} of the response: one letter (\boxed{E})
// or a whole word (\boxed{CRANE}), case-insensitive. A box whose content is
// not a run of letters a–z is a format error (reward
// envs.RewardFormatError, the episode terminates). A letter guessed before,
// a word of the wrong length or a wrong word guessed before is an invalid
// move (reward 0, a message, the episode goes on); a new wrong letter or
// word scores 0 and the episode goes on. Every step counts towards the turn
// limit.
//
// Rewards: a correct letter earns 0.5 × newly revealed / length; the right
// word earns 0.5 × the fraction still hidden + 0.5 and ends the episode.
// GEM never ends an episode whose letters were all revealed one by one (a
// flaw gemgo fixes): here the letter that reveals the last hidden spot also
// earns the 0.5 solve share and ends the episode, so every solve, by
// letters or by word, totals 1.0. Reaching the turn limit unsolved
// truncates the episode with that step's reward.
//
// Options: style ("gem" or "brief"), max_turns (default: the level's),
// word_file and dictionary (see package words; the default is the embedded
// list, so an episode depends only on its seed), and sample: the random
// action (envs.ActionSampler), which training's warm-up imitates. "any",
// the default, is GEM's: a letter not yet tried, one time in ten a word of
// the secret's length; it wins about one easy game in thirty.
// "consistent" draws a word among the list's words that still fit the game
// (revealed letters in place, no guessed letter in a hidden spot, no word
// refused) and guesses one of its letters not yet tried: random play that
// reads the pattern and the misses, winning about half the easy games
// (TestSampleConsistentWinRate). "mode" plays that draw's most likely
// letter (each consistent word weighs the same and splits its weight over
// its letters not yet tried; ties to the alphabet), a deterministic teacher
// for a warm-up that a greedy policy can imitate exactly: it wins 153 of the
// 200 held-out easy games (TestSampleModeWins). show_tried (default false, GEM's text)
// ends each observation after a guess with the letters guessed so far
// ("Tried: A, E, Z."), so that the latest observation alone holds what the
// game has shown: a policy that sees only it (training's history: none)
// can tell which letters are left.
package hangman
