// Package importer converts the public copy of one of GEM's evaluation
// benchmarks (package bench lists them) into the gemgo JSONL the eval:*
// envs read: Import reads JSONL, a JSON array of objects or Parquet (with
// github.com/parquet-go/parquet-go), by the file's extension, and writes
// NAME.jsonl and NAME.source.json into the data directory, atomically. It
// is apart from package bench so that the envs, which every command that
// links the built-in registry carries, do not link the Parquet reader;
// cmd/data imports it.
package importer
