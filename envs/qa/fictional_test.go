package qa

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/atomicfile"
)

var update = flag.Bool("update", false, "rewrite the fictional world's files in data/")

// The shipped files are GenerateFictional's output, byte for byte.
func TestFictionalGolden(t *testing.T) {
	w := GenerateFictional()
	files := map[string][]byte{
		"fictional_corpus.jsonl": w.Corpus,
		"fictional_onehop.jsonl": w.OneHop,
		"fictional_twohop.jsonl": w.TwoHop,
	}
	for name, want := range files {
		path := filepath.Join("data", name)
		if *update {
			require.NoError(t, atomicfile.WriteFile(path, want))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, got), "%s differs from GenerateFictional's output: run go test ./envs/qa -run TestFictionalGolden -update", path)
	}
	assert.True(t, bytes.Equal(w.Corpus, FictionalCorpus()), "FictionalCorpus returns the shipped corpus")
}

// Every answer is written in the corpus, and every entity a question names
// has its own document (so that one search for it finds the first hop).
func TestFictionalAnswersInCorpus(t *testing.T) {
	w := GenerateFictional()
	titles := map[string]string{}
	var all strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(w.Corpus)), "\n") {
		var d struct{ ID, Contents string }
		require.NoError(t, json.Unmarshal([]byte(line), &d))
		title, _, ok := strings.Cut(d.Contents, "\n")
		require.True(t, ok, "%s: contents must be a quoted title, a newline and the text", d.ID)
		_, dup := titles[title]
		require.False(t, dup, "title %s twice", title)
		titles[title] = d.Contents
		all.WriteString(d.Contents)
	}
	require.Len(t, titles, 6+30+90+45)
	for _, set := range [][]byte{w.OneHop, w.TwoHop} {
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(set)), "\n") {
			var it struct {
				Question string
				Answers  []string
			}
			require.NoError(t, json.Unmarshal([]byte(line), &it))
			require.Len(t, it.Answers, 1)
			assert.Contains(t, all.String(), it.Answers[0], it.Question)
			n++
		}
		assert.Greater(t, n, 100)
	}
}
