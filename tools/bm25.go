package tools

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/gemgo/gemgo/internal/atomicfile"
)

// Pyserini's BM25 defaults.
const (
	BM25K1 = 0.9
	BM25B  = 0.4
)

// MemoryCorpusBytes is the largest corpus file indexed in memory when no
// index directory is given; a larger one is indexed on disk.
const MemoryCorpusBytes = 32 << 20

// bleve keeps its BM25 parameters in two package variables; they are set
// to Pyserini's values once, before the first index is built, and hold for
// every bleve index of the process.
var bm25Params sync.Once

func useBM25Params() {
	bm25Params.Do(func() { bsearch.BM25_k1, bsearch.BM25_b = BM25K1, BM25B })
}

// Index is a BM25 index (bleve's BM25 scoring with k1 = 0.9, b = 0.4 and
// its English analyzer: lower case, stop words, possessives, stemming) over
// a corpus in the Search-R1 JSONL format. bleve scores a term's frequency
// tf as sqrt(tf) and normalises a query's term weights, so its scores are
// not Pyserini's numbers; the parameters and the ranking principle are.
// It is safe for concurrent use.
type Index struct {
	idx    bleve.Index
	titles []string
	docs   int
}

// indexMeta is saved beside an on-disk index to tell when it is stale.
type indexMeta struct {
	Corpus string   `json:"corpus"`
	Size   int64    `json:"size"`
	MTime  int64    `json:"mtime_ns"`
	Docs   int      `json:"docs"`
	Titles []string `json:"titles"`
	K1     float64  `json:"k1"`
	B      float64  `json:"b"`
}

func newMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	m.ScoringModel = index.BM25Scoring
	m.DefaultAnalyzer = en.AnalyzerName
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store = true
	text.IncludeTermVectors = false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("contents", text)
	m.DefaultMapping = dm
	return m
}

type corpusDoc struct {
	ID       any    `json:"id"`
	Contents string `json:"contents"`
}

// eachDoc calls f for every JSONL record of r (name and line in errors).
func eachDoc(r io.Reader, name string, f func(id, contents string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var d corpusDoc
		if err := json.Unmarshal(b, &d); err != nil {
			return fmt.Errorf("%s line %d: %v (want {\"id\": ..., \"contents\": \"\\\"Title\\\"\\ntext\"})", name, line, err)
		}
		if d.Contents == "" {
			return fmt.Errorf("%s line %d: no \"contents\" (want {\"id\": ..., \"contents\": \"\\\"Title\\\"\\ntext\"})", name, line)
		}
		id := fmt.Sprint(d.ID)
		if d.ID == nil {
			id = fmt.Sprint(line)
		}
		if err := f(id, d.Contents); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// build indexes every document of r into idx, in batches.
func build(idx bleve.Index, r io.Reader, name string) (docs int, titles []string, err error) {
	batch := idx.NewBatch()
	err = eachDoc(r, name, func(id, contents string) error {
		if err := batch.Index(id, map[string]any{"contents": contents}); err != nil {
			return fmt.Errorf("%s: index document %s: %w", name, id, err)
		}
		docs++
		if len(titles) < 64 {
			t, _, _ := strings.Cut(contents, "\n")
			titles = append(titles, strings.Trim(t, `"`))
		}
		if batch.Size() >= 1000 {
			if err := idx.Batch(batch); err != nil {
				return err
			}
			batch.Reset()
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	if err := idx.Batch(batch); err != nil {
		return 0, nil, err
	}
	if docs == 0 {
		return 0, nil, fmt.Errorf("%s: no documents", name)
	}
	return docs, titles, nil
}

// NewMemIndex indexes the corpus read from r in memory.
func NewMemIndex(r io.Reader, name string) (*Index, error) {
	useBM25Params()
	idx, err := bleve.NewMemOnly(newMapping())
	if err != nil {
		return nil, err
	}
	docs, titles, err := build(idx, r, name)
	if err != nil {
		_ = idx.Close()
		return nil, err
	}
	return &Index{idx: idx, titles: titles, docs: docs}, nil
}

var (
	sharedMu sync.Mutex
	shared   = map[string]*Index{}
)

// SharedIndex returns the in-memory index cached under key, building it
// from load on first use: every env of a process shares one read-only
// index of a corpus.
func SharedIndex(key, name string, load func() ([]byte, error)) (*Index, error) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if idx, ok := shared[key]; ok {
		return idx, nil
	}
	data, err := load()
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = key
	}
	idx, err := NewMemIndex(bytes.NewReader(data), name)
	if err != nil {
		return nil, err
	}
	shared[key] = idx
	return idx, nil
}

// OpenCorpus returns the index of the JSONL corpus at path: in memory
// (shared by the process) when the file is at most MemoryCorpusBytes and
// dir is "", else on disk in dir (default: the user cache directory),
// built once and reused while the corpus file keeps its size and time.
func OpenCorpus(path, dir string) (*Index, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w (env.tools[].corpus: a JSONL file of {\"id\", \"contents\"} lines, or %q)", path, err, CorpusFictional)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if dir == "" && st.Size() <= MemoryCorpusBytes {
		key := fmt.Sprintf("%s|%d|%d", abs, st.Size(), st.ModTime().UnixNano())
		return SharedIndex(key, path, func() ([]byte, error) { return os.ReadFile(path) })
	}
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("corpus %s is %d bytes, too large to index in memory, and there is no user cache directory (%v): set env.tools[].index_dir", path, st.Size(), err)
		}
		sum := sha256.Sum256([]byte(abs))
		dir = filepath.Join(cache, "gemgo", "bm25", hex.EncodeToString(sum[:8]))
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	key := "disk|" + dir
	if idx, ok := shared[key]; ok {
		return idx, nil
	}
	idx, err := openDisk(abs, st, dir)
	if err != nil {
		return nil, err
	}
	shared[key] = idx // bleve locks an open index: one handle per process
	return idx, nil
}

func openDisk(corpus string, st os.FileInfo, dir string) (*Index, error) {
	useBM25Params()
	want := indexMeta{Corpus: corpus, Size: st.Size(), MTime: st.ModTime().UnixNano(), K1: BM25K1, B: BM25B}
	metaPath := filepath.Join(dir, "corpus.json")
	idxPath := filepath.Join(dir, "bleve")
	if b, err := os.ReadFile(metaPath); err == nil {
		var got indexMeta
		if json.Unmarshal(b, &got) == nil && got.Corpus == want.Corpus && got.Size == want.Size && got.MTime == want.MTime && got.K1 == want.K1 && got.B == want.B {
			if idx, err := bleve.Open(idxPath); err == nil {
				return &Index{idx: idx, titles: got.Titles, docs: got.Docs}, nil
			}
		}
	}
	// Build into a fresh directory, then move it into place.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index directory %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(dir, "building-")
	if err != nil {
		return nil, fmt.Errorf("index directory %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	idx, err := bleve.New(filepath.Join(tmp, "bleve"), newMapping())
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", corpus, err)
	}
	f, err := os.Open(corpus)
	if err != nil {
		_ = idx.Close()
		return nil, err
	}
	docs, titles, err := build(idx, f, corpus)
	f.Close()
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(idxPath); err != nil {
		return nil, err
	}
	if err := os.Rename(filepath.Join(tmp, "bleve"), idxPath); err != nil {
		return nil, fmt.Errorf("index directory %s: %w", dir, err)
	}
	want.Docs, want.Titles = docs, titles
	meta, _ := json.MarshalIndent(want, "", "  ")
	if err := atomicfile.WriteFile(metaPath, meta); err != nil {
		return nil, err
	}
	opened, err := bleve.Open(idxPath)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", idxPath, err)
	}
	return &Index{idx: opened, titles: titles, docs: docs}, nil
}

// Docs returns the number of documents indexed.
func (x *Index) Docs() int { return x.docs }

// Titles returns up to n titles of the corpus's first documents.
func (x *Index) Titles(n int) []string { return x.titles[:min(n, len(x.titles))] }

// Retrieve returns the k best documents for query by BM25 (ties broken by
// document id, so that results are deterministic).
func (x *Index) Retrieve(ctx context.Context, query string, k int) ([]Doc, error) {
	q := bleve.NewMatchQuery(query)
	q.SetField("contents")
	req := bleve.NewSearchRequestOptions(q, k, 0, false)
	req.Fields = []string{"contents"}
	req.SortBy([]string{"-_score", "_id"})
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("bm25 search: %w", err)
	}
	docs := make([]Doc, 0, len(res.Hits))
	for _, h := range res.Hits {
		c, _ := h.Fields["contents"].(string)
		docs = append(docs, Doc{ID: h.ID, Contents: c, Score: h.Score})
	}
	return docs, nil
}

// Close closes an index made by NewMemIndex. The indexes of SharedIndex
// and OpenCorpus are shared by the process and must not be closed.
func (x *Index) Close() error {
	if x.idx == nil {
		return errors.New("bm25: index already closed")
	}
	err := x.idx.Close()
	x.idx = nil
	return err
}
