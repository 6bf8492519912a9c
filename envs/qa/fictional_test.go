package qa

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/corpora"
	"github.com/gemgo/gemgo/internal/atomicfile"
)

var update = flag.Bool("update", false, "rewrite the fictional worlds' files (data/ and the corpora package's)")

// The shipped files are GenerateFictional's output, byte for byte.
func TestFictionalGolden(t *testing.T) {
	v0, v1, v2 := GenerateFictional(FictionalVersions[0]), GenerateFictional(FictionalVersions[1]), GenerateFictional(FictionalVersions[2])
	files := map[string][]byte{
		"data/fictional_onehop.jsonl":    v0.OneHop,
		"data/fictional_twohop.jsonl":    v0.TwoHop,
		"data/fictional_v1_onehop.jsonl": v1.OneHop,
		"data/fictional_v1_twohop.jsonl": v1.TwoHop,
		"data/fictional_v2_onehop.jsonl": v2.OneHop,
		"data/fictional_v2_twohop.jsonl": v2.TwoHop,
	}
	// The corpora live in package corpora (the search tool reads them
	// there); their files are this generator's output too.
	for name, world := range map[string]FictionalWorld{"fictional": v0, "fictional-v1": v1, "fictional-v2": v2} {
		file, ok := corpora.File(name)
		require.True(t, ok, name)
		files[filepath.Join("..", "..", "corpora", file)] = world.Corpus
	}
	for path, want := range files {
		if *update {
			require.NoError(t, atomicfile.WriteFile(path, want))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, got), "%s differs from GenerateFictional's output: run go test ./envs/qa -run TestFictionalGolden -update", path)
	}
}

// Every answer is written in the corpus, and every entity a question names
// has its own document (so that one search for it finds the first hop).
func TestFictionalAnswersInCorpus(t *testing.T) {
	for _, v := range FictionalVersions {
		t.Run(v.Name, func(t *testing.T) { testAnswersInCorpus(t, v) })
	}
}

func testAnswersInCorpus(t *testing.T, v FictionalVersion) {
	w := GenerateFictional(v)
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
	require.Len(t, titles, v.Countries+v.Cities+v.People+v.Companies)
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

// In the v2 world a held-out entity's name is a new pairing of parts the
// training questions name: each of its two words is in some training
// question, the pairing in none.
func TestFictionalV2TestNamesPairKnownParts(t *testing.T) {
	w := GenerateFictional(FictionalVersions[2])
	var train strings.Builder
	var tests []string
	for _, line := range strings.Split(strings.TrimSpace(string(w.OneHop)), "\n") {
		var it struct{ Question, Split string }
		require.NoError(t, json.Unmarshal([]byte(line), &it))
		if it.Split == "train" {
			train.WriteString(it.Question + "\n")
		} else {
			tests = append(tests, it.Question)
		}
	}
	require.Len(t, tests, 300)
	named := regexp.MustCompile(`^(?:In which city was|What is the profession of|Who founded|What does) (\S+) (\S+?)(?: born| make)?\?$`)
	for _, q := range tests {
		m := named.FindStringSubmatch(q)
		require.NotNil(t, m, "a question of no known form: %s", q)
		name, parts := m[1]+" "+m[2], m[1:]
		assert.NotContains(t, train.String(), " "+name+" ", q)
		assert.NotContains(t, train.String(), " "+name+"?", q)
		for _, p := range parts {
			assert.Contains(t, train.String(), p, "%s: the part %q is in no training question", q, p)
		}
	}
}

// A composed world whose name pools cannot give every person a new pairing
// fails at once with the reason, instead of drawing forever.
func TestFictionalPoolsTooSmall(t *testing.T) {
	v := FictionalVersions[2]
	v.GivenNames, v.FamilyNames = 3, 4 // 12 pairings for 500 people
	assert.PanicsWithValue(t, "qa: all 12 pairings of 3 and 4 names are used: the FictionalVersion's pools are too small for its people or companies", func() { GenerateFictional(v) })
}
