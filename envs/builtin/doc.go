// Package builtin holds the registry of every env that ships with gemgo,
// keyed by its GEM id (game:GuessTheNumber-v0-easy, rg:..., math:..., ...).
//
// It is a leaf: it imports every game and task family, and nothing in
// gemgo's env packages imports it. Registry returns a fresh registry on
// each call, so a caller may add its own envs without touching anyone
// else's.
package builtin
