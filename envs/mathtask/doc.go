// Package mathtask holds gemgo's math task family (ids "math:..."): procedural
// arithmetic, algebra, fraction, percentage and word problems generated from
// the episode seed, a loader for any JSONL dataset of question/answer pairs
// (GSM8K's "#### 42" answers included, parsed once per process and file),
// and Equivalent, the answer checker that accepts an equal value in any
// written form (numbers, radicals, π, complex numbers, tuples, intervals,
// sets, matrices) and nothing looser: docs/grading.md.
//
// The directory is named mathtask so that it does not shadow the standard
// library's math package in imports; the env ids keep GEM's "math:" prefix.
package mathtask
