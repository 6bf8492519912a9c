// Package rg holds gemgo's procedural reasoning tasks, one env id per task
// ("rg:basic_arithmetic", "rg:number_sorting", ...), in the spirit of
// reasoning-gym: each task generates its problem from the episode seed and
// scores its own answer. Every id is a single-turn task (package task): the
// answer is the last \boxed{...}; the reward is the task's score in [0, 1]
// (1 means correct); no \boxed{} is a format error (reward -format_penalty).
//
// Scoring is exact (1 or 0) except where a partial answer is meaningful; each
// task's description says which. The partial-credit rules are:
//   - ordered lists (number_sorting, word_sorting, reverse_words,
//     caesar_cipher): matching positions / max(len(answer), len(reference));
//   - sets (set_intersection): the Jaccard index |A∩B| / |A∪B|;
//   - fraction_simplification: 0.5 for an equal but unreduced fraction.
//
// Numbers are compared with mathtask.Equivalent (so "12", "12.0" and
// "12 legs" are the same answer); words ignore case and extra spaces.
//
// Options common to every id: "style" ("gem" or "brief") and
// "format_penalty" (0 to 1, default 0.1). Each task adds its own difficulty
// knobs (listed by its description and checked with named ranges).
package rg
