package tools

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gemgo/gemgo/corpora"
	"github.com/gemgo/gemgo/tools/protocol"
)

// Doc is one retrieved document: Contents in the Search-R1 form, a quoted
// title line and then the text.
type Doc struct {
	ID       string
	Contents string
	Score    float64
}

// Retriever finds the k documents that best match a query, best first.
type Retriever interface {
	Retrieve(ctx context.Context, query string, k int) ([]Doc, error)
}

// CorpusFictional names the corpus shipped with the qa:Fictional-v0 tasks
// (the default); "fictional-v1" and "fictional-v2" name the v1 and v2
// worlds' (package corpora).
const CorpusFictional = "fictional"

// Search answers the first <search>…</search> of an action with the top
// documents of a Retriever (after Search-R1). Observation: one line per
// document, "Doc i(Title: t) text", inside <information>…</information>
// when InformationTags is set; a failure is "[SearchTool Error: …]".
type Search struct {
	ret      Retriever
	topK     int
	tags     bool
	examples []string // titles drawn by SampleCall
}

var (
	_ Tool        = (*Search)(nil)
	_ CallSampler = (*Search)(nil)
)

// NewSearch returns a search tool over ret. examples are queries that
// SampleCall draws from (the corpus titles, say); none means a fixed few.
func NewSearch(ret Retriever, topK int, informationTags bool, examples []string) (*Search, error) {
	if ret == nil {
		return nil, errors.New("search tool: nil retriever")
	}
	if topK < 1 {
		topK = 3
	}
	if len(examples) == 0 {
		examples = []string{protocol.DefaultSearchExample, "founder", "year founded", "river"}
	}
	return &Search{ret: ret, topK: topK, tags: informationTags, examples: examples}, nil
}

// NewSearchFromSpec builds the search tool of a resolved Spec: a retriever
// client when URL is set, else a BM25 index of Corpus.
func NewSearchFromSpec(s Spec) (*Search, error) {
	if s.URL != "" {
		c, err := NewRetrieverClient(s.URL, s.Format)
		if err != nil {
			return nil, err
		}
		return NewSearch(c, s.TopK, s.InformationTags, nil)
	}
	var idx *Index
	var err error
	if corpora.Has(s.Corpus) {
		// the corpus is read only when this process has no index of it yet
		idx, err = SharedIndex("builtin:"+s.Corpus, "", func() ([]byte, error) {
			data, _ := corpora.Get(s.Corpus)
			return data, nil
		})
	} else {
		idx, err = OpenCorpus(s.Corpus, s.IndexDir)
	}
	if err != nil {
		return nil, fmt.Errorf("search tool: %w", err)
	}
	return NewSearch(idx, s.TopK, s.InformationTags, idx.Titles(64))
}

// Instructions tells the model how to search.
func (s *Search) Instructions() string {
	return protocol.SearchInstructions(s.examples[0], s.topK, s.tags)
}

// Parse finds the first complete <search>…</search> (protocol.ParseSearch).
func (s *Search) Parse(action string) (protocol.Call, bool) { return protocol.ParseSearch(action) }

// Run retrieves the documents of the query.
func (s *Search) Run(ctx context.Context, c protocol.Call) (string, error) {
	if c.Input == "" {
		err := errors.New("empty query: write the words to search for inside <search>...</search>")
		return searchError(err), err
	}
	docs, err := s.ret.Retrieve(ctx, c.Input, s.topK)
	if err != nil {
		return searchError(err), err
	}
	if len(docs) == 0 {
		err := fmt.Errorf("no document matches %q", c.Input)
		return searchError(err), err
	}
	return FormatDocs(docs, s.tags), nil
}

func searchError(err error) string { return "[SearchTool Error: " + err.Error() + "]" }

// FormatDocs renders documents as Search-R1 does: "Doc i(Title: t) text\n"
// for i from 1, t the first line of the contents without its quotes.
func FormatDocs(docs []Doc, informationTags bool) string {
	var b strings.Builder
	if informationTags {
		b.WriteString("<information>")
	}
	for i, d := range docs {
		title, text, _ := strings.Cut(d.Contents, "\n")
		fmt.Fprintf(&b, "Doc %d(Title: %s) %s\n", i+1, strings.Trim(title, `"`), text)
	}
	if informationTags {
		b.WriteString("</information>")
	}
	return b.String()
}

// SampleCall draws a search for what the task names, as a first guess
// would: half the time the task's first name (a run of capitalised words
// that does not start a sentence, as "Dulwyn Dulkatal" in "What is the
// profession of Dulwyn Dulkatal?") when it has one; otherwise, half the
// time, one or two consecutive words of the task; else a random example
// query.
func (s *Search) SampleCall(r *rand.Rand, task string) string {
	if name := taskName(task); name != "" && r.IntN(2) == 0 {
		return "<search>" + copied(name) + "</search>"
	}
	if w := taskWords(task); len(w) > 0 && r.IntN(2) == 0 {
		i := r.IntN(len(w))
		j := min(len(w), i+1+r.IntN(2))
		var q strings.Builder
		for _, word := range w[i:j] {
			q.WriteString(copied(word))
		}
		return "<search>" + q.String() + "</search>"
	}
	return "<search>" + s.examples[r.IntN(len(s.examples))] + "</search>"
}

// taskName returns the first run of capitalised words of s that does not
// start a sentence, joined by single spaces ("" when there is none).
func taskName(s string) string {
	var run []string
	start := true // at the start of a sentence
	for _, f := range strings.Fields(s) {
		word := strings.TrimFunc(f, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
		first, _ := utf8.DecodeRuneInString(word)
		if word != "" && unicode.IsUpper(first) && !start {
			run = append(run, word)
		} else if len(run) > 0 {
			break
		}
		if word != f && len(run) > 0 {
			break // punctuation after the word ends the name
		}
		start = strings.ContainsAny(f[len(f)-1:], ".?!:")
	}
	return strings.Join(run, " ")
}
