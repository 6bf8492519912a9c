package tools

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/qa"
	"github.com/gemgo/gemgo/tools/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

const caseCorpus = `{"id": "d1", "contents": "\"Harbor\"\nThe harbor of Velmont holds fishing boats and a lighthouse."}
{"id": "d2", "contents": "\"Velmont\"\nVelmont is a town. Velmont has a market. Velmont has a school."}
{"id": "d3", "contents": "\"Lighthouse keepers\"\nA lighthouse keeper tends the lamp of a lighthouse through the night, every night of the year, in storms and calm weather alike, and writes the log."}
{"id": "d4", "contents": "\"Lamp\"\nA lamp."}
{"id": "d5", "contents": "\"Zephyrine\"\nZephyrine is a rare mineral found only near Velmont."}
{"id": "d6", "contents": "\"Old beacon\"\nAn old beacon stands on a far hill above the sea, near ruined walls, grey stones, tall grass and quiet sheep."}
{"id": "d7", "contents": "\"Beacon\"\nThe beacon stands on the hill."}
`

// BM25 ranks a hand-made case table as its two ideas say it must: a rare
// term outweighs a common one (idf), term frequency counts with a
// saturation (k1), and a short document beats a long one with the same
// matches (b).
func TestBM25RanksCaseTable(t *testing.T) {
	idx, err := NewMemIndex(strings.NewReader(caseCorpus), "cases")
	require.NoError(t, err)
	defer idx.Close()
	assert.Equal(t, 7, idx.Docs())
	for _, c := range []struct {
		query string
		want  []string // the top ids, in order
	}{
		{"zephyrine", []string{"d5"}},
		{"zephyrine velmont", []string{"d5", "d2"}},   // the rare term first; then tf 3 of velmont
		{"velmont", []string{"d2"}},                   // tf 3 beats tf 1
		{"beacon", []string{"d7", "d6"}},              // the same tf: the short document wins (b)
		{"lamp", []string{"d4", "d3"}},                // tf and length agree
		{"lighthouse", []string{"d3", "d1"}},          // tf 2 beats tf 1 in spite of length (k1)
		{"lighthouses keeping", []string{"d3", "d1"}}, // the English analyzer stems
		{"the of and", nil},                           // stop words only: nothing
		{"quasar", nil},
	} {
		docs, err := idx.Retrieve(context.Background(), c.query, 3)
		require.NoError(t, err)
		var got []string
		for _, d := range docs {
			got = append(got, d.ID)
		}
		if len(c.want) > 0 && len(got) > len(c.want) {
			got = got[:len(c.want)]
		}
		assert.Equal(t, c.want, got, "query %q", c.query)
	}
	assert.InDelta(t, BM25K1, 0.9, 0)
}

func TestSearchTool(t *testing.T) {
	idx, err := NewMemIndex(strings.NewReader(caseCorpus), "cases")
	require.NoError(t, err)
	defer idx.Close()
	s, err := NewSearch(idx, 2, false, idx.Titles(10))
	require.NoError(t, err)
	call, ok := s.Parse("think <search> zephyrine </search> more <search>x</search>")
	require.True(t, ok)
	assert.Equal(t, protocol.Call{Tool: protocol.KindSearch, Input: "zephyrine", Cut: "think <search> zephyrine </search>"}, call)
	obs, err := s.Run(context.Background(), call)
	require.NoError(t, err)
	assert.Equal(t, "Doc 1(Title: Zephyrine) Zephyrine is a rare mineral found only near Velmont.\n", obs)
	assert.NotContains(t, s.Instructions(), "<information>", "no promise of tags that are not added (GEM's flaw)")

	tagged, err := NewSearch(idx, 2, true, nil)
	require.NoError(t, err)
	obs, err = tagged.Run(context.Background(), call)
	require.NoError(t, err)
	assert.Equal(t, "<information>Doc 1(Title: Zephyrine) Zephyrine is a rare mineral found only near Velmont.\n</information>", obs)
	assert.Contains(t, tagged.Instructions(), "<information>")

	obs, err = s.Run(context.Background(), protocol.Call{Input: "quasar"})
	require.Error(t, err)
	assert.Equal(t, `[SearchTool Error: no document matches "quasar"]`, obs)
	obs, err = s.Run(context.Background(), protocol.Call{Input: ""})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(obs, "[SearchTool Error: empty query"), obs)
}

// The shipped fictional corpus answers its own questions: the document of
// the entity a question names comes first.
func TestSearchFictionalCorpus(t *testing.T) {
	s, err := NewSearchFromSpec(Spec{Name: protocol.KindSearch}.Resolved())
	require.NoError(t, err)
	obs, err := s.Run(context.Background(), protocol.Call{Input: "Relzan Othulvy"})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(obs, "Doc 1(Title: Relzan Othulvy) Relzan Othulvy (born 1896 in Ithbarka)"), obs)
}

// In every shipped world, a search for the name a one-hop question names
// (as SampleCall copies it) returns that entity's document first, for
// almost every question: the v1 world's hyphenated names share syllables,
// which BM25 sees as separate terms, and the v2 world's names share their
// parts with dozens of others, yet the whole name still wins.
func TestSearchFictionalNamesFindTheirDocument(t *testing.T) {
	for _, c := range []struct{ corpus, env string }{{"fictional", "qa:Fictional-v0-onehop"}, {"fictional-v1", "qa:Fictional-v1-onehop"}, {"fictional-v2", "qa:Fictional-v2-onehop"}} {
		s, err := NewSearchFromSpec(Spec{Name: protocol.KindSearch, Corpus: c.corpus, TopK: 1}.Resolved())
		require.NoError(t, err)
		reg := envs.NewRegistry()
		require.NoError(t, qa.Register(reg))
		e, err := reg.Make(c.env)
		require.NoError(t, err)
		found, n := 0, 0
		seen := map[string]bool{}
		for seed := uint64(0); seed < 3000; seed++ {
			obs, _, err := e.Reset(seed)
			require.NoError(t, err)
			name := taskName(obs)
			require.NotEmpty(t, name, obs)
			if seen[name] {
				continue
			}
			seen[name] = true
			got, err := s.Run(context.Background(), protocol.Call{Input: name})
			require.NoError(t, err)
			n++
			if strings.HasPrefix(got, "Doc 1(Title: "+name+")") {
				found++
			}
		}
		t.Logf("%s: %d of %d names find their own document first", c.corpus, found, n)
		assert.GreaterOrEqual(t, float64(found), 0.96*float64(n), c.corpus)
	}
}

// A large corpus is indexed on disk once and reused while it is unchanged.
func TestDiskIndexReused(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus.jsonl")
	require.NoError(t, os.WriteFile(corpus, []byte(caseCorpus), 0o644))
	idxDir := filepath.Join(dir, "index")
	first, err := openDisk(corpus, stat(t, corpus), idxDir)
	require.NoError(t, err)
	docs, err := first.Retrieve(context.Background(), "zephyrine", 1)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	require.NoError(t, first.Close())
	meta := stat(t, filepath.Join(idxDir, "corpus.json")).ModTime()

	time.Sleep(20 * time.Millisecond)
	again, err := openDisk(corpus, stat(t, corpus), idxDir)
	require.NoError(t, err)
	assert.Equal(t, meta, stat(t, filepath.Join(idxDir, "corpus.json")).ModTime(), "an unchanged corpus reuses the index")
	assert.Equal(t, 7, again.Docs())
	assert.Equal(t, "Harbor", again.Titles(1)[0])
	require.NoError(t, again.Close())

	// A changed corpus is indexed again.
	require.NoError(t, os.WriteFile(corpus, []byte(caseCorpus+`{"id": "d8", "contents": "\"Quasar\"\nA quasar."}`+"\n"), 0o644))
	rebuilt, err := openDisk(corpus, stat(t, corpus), idxDir)
	require.NoError(t, err)
	defer rebuilt.Close()
	assert.Equal(t, 8, rebuilt.Docs())
	docs, err = rebuilt.Retrieve(context.Background(), "quasar", 1)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Equal(t, "d8", docs[0].ID)
}

func stat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(p)
	require.NoError(t, err)
	return st
}

func TestCorpusErrorsNameLine(t *testing.T) {
	_, err := NewMemIndex(strings.NewReader("{\"id\": 1, \"contents\": \"\\\"A\\\"\\nx\"}\nnot json\n"), "bad.jsonl")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.jsonl line 2")
	_, err = NewMemIndex(strings.NewReader(""), "empty.jsonl")
	assert.ErrorContains(t, err, "no documents")
}

// The retriever client against loopback servers in both wire formats.
func TestRetrieverClientWireFormats(t *testing.T) {
	docs := []map[string]any{
		{"document": map[string]any{"id": "7", "contents": "\"Alpha\"\nfirst text"}, "score": 2.5},
		{"document": map[string]any{"id": "9", "contents": "\"Beta\"\nsecond text"}, "score": 1.25},
	}
	var gotType string
	var gotBody map[string]any
	gem := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotType = r.Header.Get("Content-Type")
		b, _ := io.ReadAll(r.Body)
		gotBody = nil
		if err := msgpack.Unmarshal(b, &gotBody); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, _ := msgpack.Marshal(map[string]any{"result": docs})
		_, _ = w.Write(out)
	}))
	defer gem.Close()
	c, err := NewRetrieverClient(gem.URL, FormatMsgpack)
	require.NoError(t, err)
	got, err := c.Retrieve(context.Background(), "alpha query", 3)
	require.NoError(t, err)
	assert.Equal(t, "application/msgpack", gotType)
	assert.Equal(t, "alpha query", gotBody["query"])
	assert.EqualValues(t, 3, gotBody["topk"])
	assert.Equal(t, true, gotBody["return_scores"])
	assert.Equal(t, []Doc{{ID: "7", Contents: "\"Alpha\"\nfirst text", Score: 2.5}, {ID: "9", Contents: "\"Beta\"\nsecond text", Score: 1.25}}, got)

	r1 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotType = r.Header.Get("Content-Type")
		gotBody = nil
		if err := json.NewDecoder(r.Body).Decode(&gotBody); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"result": [][]map[string]any{docs}})
	}))
	defer r1.Close()
	c, err = NewRetrieverClient(r1.URL, FormatJSON)
	require.NoError(t, err)
	got, err = c.Retrieve(context.Background(), "beta", 1)
	require.NoError(t, err)
	assert.Equal(t, "application/json", gotType)
	assert.Equal(t, []any{"beta"}, gotBody["queries"])
	assert.EqualValues(t, 1, gotBody["topk"])
	assert.Equal(t, []Doc{{ID: "7", Contents: "\"Alpha\"\nfirst text", Score: 2.5}}, got, "at most topk documents")

	// Through the tool: the observation and the error text.
	s, err := NewSearchFromSpec(Spec{Name: protocol.KindSearch, URL: r1.URL, Format: FormatJSON, TopK: 2}.Resolved())
	require.NoError(t, err)
	obs, err := s.Run(context.Background(), protocol.Call{Input: "beta"})
	require.NoError(t, err)
	assert.Equal(t, "Doc 1(Title: Alpha) first text\nDoc 2(Title: Beta) second text\n", obs)

	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "index not loaded", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	s, err = NewSearchFromSpec(Spec{Name: protocol.KindSearch, URL: down.URL}.Resolved())
	require.NoError(t, err)
	obs, err = s.Run(context.Background(), protocol.Call{Input: "beta"})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(obs, "[SearchTool Error: retriever "), obs)
	assert.Contains(t, obs, "HTTP 503: index not loaded")

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	defer close(release) // before Close, which waits for the handler
	c, err = NewRetrieverClient(slow.URL, FormatMsgpack)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Retrieve(ctx, "x", 1)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 2*time.Second, "the call's deadline holds")
}

func TestTaskName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`What is the profession of Dulwyn Dulkatal? Answer in \boxed{}.`, "Dulwyn Dulkatal"},
		{"In which city was the founder of Gorfenith Brothers born?", "Gorfenith Brothers"},
		{"In which country are the headquarters of Lorithven Company? Answer.", "Lorithven Company"},
		{"Where was Ada born? Then Bob came.", "Ada"},
		{"What is 3 + 4? Answer in \\boxed{}.", ""},
		{"Capitalised Start only.", "Start"},
		{"", ""},
		{"Who is Élodie Brûlé, the painter?", "Élodie Brûlé"},
		{"In which city was Tal-fen Dul-ul-qua born?", "Tal-fen Dul-ul-qua"},
		{"What does Mor-dul-ka Works make?", "Mor-dul-ka Works"},
	} {
		assert.Equal(t, c.want, taskName(c.in), c.in)
	}
}

// Words are runs of letters and digits; letters joined by hyphens stay
// one word (a v1 fictional name), digits do not join.
func TestTaskWords(t *testing.T) {
	assert.Equal(t, []string{"Compute", "1234", "567", "a", "4", "digit", "Tal-fen", "Dul-ul-qua", "x", "y", "z"},
		taskWords("Compute 1234 × 567, a 4-digit Tal-fen Dul-ul-qua-; x--y -z"))
}
