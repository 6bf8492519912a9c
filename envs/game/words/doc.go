// Package words holds the word lists of gemgo's word games (Wordle,
// Hangman, Crosswords, WordSearch).
//
// GEM reads NLTK's word lists, which cannot be downloaded here, so gemgo
// ships its own: Common, a few hundred common English words of each length
// from 3 to 7 letters, and Clues, word-and-clue pairs for Crosswords, all
// written for this project and embedded in the binary. Both are the same on
// every machine, which is why they are the default: an episode depends only
// on its seed.
//
// Two options widen the vocabulary (see Source):
//
//   - word_file: a path to any word list (words separated by white space,
//     typically one per line; case is folded; entries that are not letters
//     a–z are skipped). It replaces the embedded list.
//   - dictionary: true also reads the system dictionary,
//     /usr/share/dict/words (Debian's wamerican), keeping only its
//     lowercase a–z entries (proper nouns and possessives are dropped).
//     A missing dictionary is an error, not a silent fallback, so that a run
//     never changes meaning from one machine to another.
//
// A List is immutable and sorted, so a game that draws its secret with its
// own seeded RNG picks the same word on every run.
package words
