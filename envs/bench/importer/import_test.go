package importer

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/bench"
)

var update = flag.Bool("update", false, "rewrite testdata: the Parquet sources and the imported sets")

// The Parquet fixtures, written for gemgo: invented problems in the column
// layouts of the public copies (a numeric answer column, a string one, a
// list of answers).
type aimeRow struct {
	Problem string `parquet:"problem"`
	Answer  int64  `parquet:"answer"`
}

type minervaRow struct {
	Problem  string `parquet:"problem"`
	Solution string `parquet:"solution"`
	Answer   string `parquet:"answer"`
}

type popqaRow struct {
	Question string   `parquet:"question"`
	Answer   []string `parquet:"answer,list"`
}

func parquetFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	write := func(name string, f func(*bytes.Buffer) error) {
		var b bytes.Buffer
		require.NoError(t, f(&b), name)
		out[name] = b.Bytes()
	}
	write("aime24.parquet", func(b *bytes.Buffer) error {
		return parquet.Write(b, []aimeRow{
			{"Find the remainder when 7^{20} is divided by 1000.", 1},
			{"How many ordered pairs of positive integers (a, b) satisfy a + b = 25?", 24},
		})
	})
	write("minerva.parquet", func(b *bytes.Buffer) error {
		return parquet.Write(b, []minervaRow{
			{"A cart of mass 2 kg moves at 3 m/s. What is its kinetic energy in joules?", "E = m v^2 / 2 = 9", "9"},
			{"A wave has frequency 50 Hz and wavelength 4 m. What is its speed in m/s?", "v = f λ = 200", "200"},
		})
	})
	write("popqa.parquet", func(b *bytes.Buffer) error {
		return parquet.Write(b, []popqaRow{
			{"What is the occupation of the invented figure Orla Penn?", []string{"cartographer", "map maker"}},
			{"In what invented city was Dario Flint born?", []string{"Saltmere"}},
		})
	})
	return out
}

// sourceOf returns the fixture file of set s.
func sourceOf(t *testing.T, s Set) string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join("..", "testdata", "source", s.Name+".*"))
	require.NoError(t, err)
	require.Len(t, matches, 1, "one fixture per set: %s", s.Name)
	return matches[0]
}

// Every set's fixture imports to the checked-in gemgo JSONL and provenance
// byte for byte (go test -update rewrites both, and the Parquet sources):
// an import is a pure function of the file, so a second import into
// another directory writes the same bytes.
func TestImportFixtures(t *testing.T) {
	if *update {
		for name, b := range parquetFixtures(t) {
			require.NoError(t, os.WriteFile(filepath.Join("..", "testdata", "source", name), b, 0o644))
		}
	}
	golden := filepath.Join("..", "testdata", "data")
	formats := map[string]bool{}
	for _, s := range bench.Sets() {
		src := sourceOf(t, s)
		dir := t.TempDir()
		p, err := Import(s, src, dir, "", "")
		require.NoError(t, err, s.Name)
		formats[p.SourceFormat] = true
		again := t.TempDir()
		_, err = Import(s, src, again, "", "")
		require.NoError(t, err)
		for _, path := range []func(string, Set) string{bench.DataPath, bench.ProvenancePath} {
			got, err := os.ReadFile(path(dir, s))
			require.NoError(t, err)
			twice, err := os.ReadFile(path(again, s))
			require.NoError(t, err)
			assert.Equal(t, got, twice, "%s: the same file imports to the same bytes", s.Name)
			if *update {
				require.NoError(t, os.MkdirAll(golden, 0o755))
				require.NoError(t, os.WriteFile(path(golden, s), got, 0o644))
			}
			want, err := os.ReadFile(path(golden, s))
			require.NoError(t, err, "run go test ./envs/bench/importer -update")
			assert.Equal(t, string(want), string(got), "%s", path(golden, s))
		}
		assert.Equal(t, filepath.Base(src), p.SourceFile)
		assert.Len(t, p.SHA256, 64)
		assert.Equal(t, s.Licence, p.Licence)
	}
	assert.Equal(t, map[string]bool{FormatJSONL: true, FormatJSON: true, FormatParquet: true}, formats, "the fixtures cover every source format")
}

// readImported returns the items of an imported set.
func readImported(t *testing.T, path string) []item {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []item
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var it item
		require.NoError(t, dec.Decode(&it))
		out = append(out, it)
	}
	return out
}

// What each source layout becomes: GSM8K's "#### 27" is cut to 27, a
// Parquet integer and a JSON 9.0 keep their written form, TriviaQA's
// value and aliases become one answer list without duplicates, a Parquet
// list column becomes the answer list.
func TestImportConvertsEachLayout(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		set  string
		want item
	}{
		{"gsm8k", item{"A baker fills 6 trays with 7 rolls each and sells 15 rolls. How many rolls are left?", []string{"27"}}},
		{"aime24", item{"Find the remainder when 7^{20} is divided by 1000.", []string{"1"}}},
		{"amc", item{"How many positive divisors does 36 have?", []string{"9.0"}}},
		{"olympiadbench", item{"Find the smallest positive integer n such that n^2 ends in the digits 44.", []string{"12"}}},
		{"triviaqa", item{"In gemgo's invented almanac, which bird is the emblem of Castel Moor?", []string{"Heron", "Grey Heron", "the heron"}}},
		{"popqa", item{"What is the occupation of the invented figure Orla Penn?", []string{"cartographer", "map maker"}}},
		{"hotpotqa", item{"Which river runs past the town where the invented poet Lio Brandt was born?", []string{"the Selm", "Selm River"}}},
	} {
		s, err := bench.Lookup(tc.set)
		require.NoError(t, err)
		_, err = Import(s, sourceOf(t, s), dir, "", "")
		require.NoError(t, err)
		assert.Equal(t, tc.want, readImported(t, bench.DataPath(dir, s))[0], tc.set)
	}
}

// Bad input fails with the file, the row and the fix, and leaves the data
// directory as it was.
func TestImportErrors(t *testing.T) {
	s, err := bench.Lookup("math500")
	require.NoError(t, err)
	src := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(src, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{write("a.csv", "problem,answer\n"), "unknown format: want a .jsonl"},
		{write("b.jsonl", `{"problem": "p", "answer": "1"}`+"\n"+`{"text": "p", "answer": "1"}`+"\n"), "b.jsonl: row 2: no question field (tried problem, question; set -question-field): the row has fields answer, text"},
		{write("c.jsonl", `{"problem": "p"}`+"\n"), "no answer field (tried answer, final_answer, expected_answer; set -answer-field)"},
		{write("d.json", `{"problem": "p"}`), "invalid JSON (want an array of objects"},
		{write("e.jsonl", `{"problem": "p", "answer": {"x": 1}}`+"\n"), `field "answer": it is an object without "value" or "aliases"`},
		{write("f.parquet", "not parquet"), "read Parquet"},
		{filepath.Join(src, "none.jsonl"), "read source"},
	} {
		_, err := Import(s, tc.path, dir, "", "")
		require.ErrorContains(t, err, tc.want, tc.path)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "a failed import writes nothing")

	// -question-field and -answer-field name other fields
	p, err := Import(s, write("g.jsonl", `{"text": "What is 2+2?", "gold": 4}`+"\n"), dir, "text", "gold")
	require.NoError(t, err)
	assert.Equal(t, "text", p.QuestionField)
	assert.Equal(t, []item{{"What is 2+2?", []string{"4"}}}, readImported(t, bench.DataPath(dir, s)))
}
