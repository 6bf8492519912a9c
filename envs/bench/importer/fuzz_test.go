package importer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/envs/bench"
)

// Any bytes, as a JSONL, JSON or Parquet source, import or fail with an
// error; never a panic, and never a data file without its provenance.
func FuzzImport(f *testing.F) {
	for _, seed := range []string{
		`{"question": "q", "answer": "1"}`,
		`[{"question": "q", "answer": {"value": "a", "aliases": [["b"]]}}]`,
		`{"question": "q", "answer": [1, 2.5, null, "x"]}`,
		`{"problem": 3, "answer": "#### "}`,
		"PAR1\x00\x00PAR1",
	} {
		f.Add([]byte(seed), uint8(0))
	}
	s, err := bench.Lookup("gsm8k")
	if err != nil {
		f.Fatal(err)
	}
	exts := []string{".jsonl", ".json", ".parquet"}
	f.Fuzz(func(t *testing.T, data []byte, ext uint8) {
		dir := t.TempDir()
		in := filepath.Join(dir, "src"+exts[int(ext)%len(exts)])
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		p, err := Import(s, in, out, "", "")
		_, dataErr := os.Stat(bench.DataPath(out, s))
		_, provErr := os.Stat(bench.ProvenancePath(out, s))
		if err != nil {
			if dataErr == nil {
				t.Fatalf("a failed import wrote %s: %v", bench.DataPath(out, s), err)
			}
			return
		}
		if dataErr != nil || provErr != nil || p.Items < 1 {
			t.Fatalf("import reported %d items but wrote data %v, provenance %v", p.Items, dataErr, provErr)
		}
	})
}
