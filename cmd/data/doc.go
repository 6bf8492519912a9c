// Command data imports the public copy of one of GEM's evaluation
// benchmarks, a file the user already has, into gemgo's data directory,
// where the eval:* envs read it (package envs/bench):
//
//	go run ./cmd/data -set gsm8k -in gsm8k-test.jsonl
//	go run ./cmd/data -set math500 -in test-00000-of-00001.parquet -data /srv/gemgo-data
//	go run ./cmd/data -list
//
// The input is JSONL, a JSON array of objects or Parquet, chosen by its
// extension. The set is written as NAME.jsonl (one {"question", "answers"}
// object per line, in the input's order) with NAME.source.json beside it
// (the input's name and SHA-256, the set's source and licence), each
// atomically. The data directory is -data, else $GEMGO_DATA, else
// gemgo/data under the user's cache directory. -question-field and
// -answer-field name the fields when a copy uses other names than the
// usual ones. -list prints every set, its env id, its licence and whether
// it is imported.
package main
