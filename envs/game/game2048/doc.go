// Package game2048 is GEM's 2048 game (game:Game2048-v0-*) on a 4×4 board:
// slide the tiles, merge equal neighbours, and build the target tile.
//
// Rules: the action is the last \boxed{left|right|up|down}
// (case-insensitive). A move slides every tile that way; two equal tiles
// that meet merge into one of twice the value, and a merged tile does not
// merge again in the same move. After a move that changes the board a 2
// (probability 0.9) or a 4 appears on a random empty cell. A move whose
// merges raise the largest tile from old to new scores
// (log2 new − log2 old)/(log2 target − log2 start_max), so the rewards of an
// episode that reaches the target sum to 1 (tiles that appear by chance
// never score). The episode ends when the target is reached (success) or no
// move is possible; a move that changes nothing scores 0 and the episode
// goes on (an invalid move).
//
// Options: style ("gem" or "brief"), max_turns (0 keeps the level's) and
// sample ("any", the default random draw; "corner", "merge", "lookahead",
// "alternate" or "rotate": SampleAction plays a scripted player, see Sample).
//
// docs/envs.md compares these rules with GEM's.
package game2048
