package corpora

import (
	"bytes"
	_ "embed"
)

//go:embed data/fictional_corpus.jsonl
var fictionalV0 []byte

//go:embed data/fictional_v1_corpus.jsonl
var fictionalV1 []byte

//go:embed data/fictional_v2_corpus.jsonl
var fictionalV2 []byte

// shipped are the corpora by the name a search tool's corpus key takes,
// with the file in data/ that holds each.
var shipped = []struct {
	name, file string
	data       []byte
}{
	{"fictional", "fictional_corpus.jsonl", fictionalV0},
	{"fictional-v1", "fictional_v1_corpus.jsonl", fictionalV1},
	{"fictional-v2", "fictional_v2_corpus.jsonl", fictionalV2},
}

// Names names the shipped corpora, in a fixed order ("fictional": the v0
// world's, "fictional-v1" and "fictional-v2": the v1 and v2 worlds').
func Names() []string {
	names := make([]string, len(shipped))
	for i, c := range shipped {
		names[i] = c.name
	}
	return names
}

// Get returns a copy of the shipped corpus called name; false for another
// name.
func Get(name string) ([]byte, bool) {
	for _, c := range shipped {
		if c.name == name {
			return bytes.Clone(c.data), true
		}
	}
	return nil, false
}

// Has reports whether name is a shipped corpus.
func Has(name string) bool {
	_, ok := File(name)
	return ok
}

// File names the file that holds the corpus called name, relative to this
// package's directory ("data/fictional_corpus.jsonl"): the golden test
// that regenerates the corpora writes there.
func File(name string) (string, bool) {
	for _, c := range shipped {
		if c.name == name {
			return "data/" + c.file, true
		}
	}
	return "", false
}
