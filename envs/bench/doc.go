// Package bench holds gemgo's offline copies of GEM's evaluation
// benchmarks, ids "eval:..." (eval:GSM8K, eval:MATH500, eval:AIME24,
// eval:AMC, eval:OlympiadBench, eval:Minerva and eight QA sets). gemgo ships
// none of their data: a user imports the public copy they already have
// (JSONL, a JSON array or Parquet) with package importer (the command is
// "go run ./cmd/data -set NAME -in FILE"), which writes the set as
// gemgo JSONL, one {"question": ..., "answers": [...]} object per line in
// file order, beside a provenance file NAME.source.json (the source file's
// name and SHA-256, the set, its licence, the item count). Importing the
// same file twice writes the same bytes.
//
// An eval id reads NAME.jsonl from the data directory (option data_dir,
// else $GEMGO_DATA, else gemgo/data under os.UserCacheDir) once per
// process and file (task.LoadShared). A missing set fails Make with the
// import command to run. Seed i plays item i mod n, so seeds 0..n-1 play
// every item once in file order (Len reports n).
//
// Math sets are graded by mathtask.Equivalent against any reference answer
// in \boxed{} (option answer_format, default boxed); QA sets by the qa
// family's exact match after SQuAD normalisation, F1 in the step info, read
// from <answer>...</answer> by default as in GEM's QA envs.
package bench
