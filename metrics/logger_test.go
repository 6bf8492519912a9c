package metrics

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// requireRowsEqual compares rows, treating NaN as equal to NaN.
func requireRowsEqual(t *testing.T, want, got []Row) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i].Iteration, got[i].Iteration, "row %d", i)
		require.Len(t, got[i].Metrics, len(want[i].Metrics), "row %d: %v", i, got[i].Metrics)
		for k, w := range want[i].Metrics {
			g, ok := got[i].Metrics[k]
			require.True(t, ok, "row %d: missing %q", i, k)
			if math.IsNaN(w) {
				require.True(t, math.IsNaN(g), "row %d %q: got %v, want NaN", i, k, g)
			} else {
				require.Equal(t, w, g, "row %d %q", i, k)
			}
		}
	}
}

func TestLoggerExactFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run") // created by NewLogger
	l, err := NewLogger(dir)
	require.NoError(t, err)
	require.NoError(t, l.Log(1, map[string]float64{"losses/kl": 0.25, "charts/episodic_return": -1.5}))
	require.NoError(t, l.Log(2, map[string]float64{"charts/episodic_return": 1e-7, "losses/kl": math.NaN()}))
	// A new key widens the CSV header; an Inf becomes null.
	require.NoError(t, l.Log(3, map[string]float64{"charts/episodic_return": 2, "a<b>": math.Inf(1), "z": 1234567}))
	require.NoError(t, l.Log(4, map[string]float64{}))
	require.NoError(t, l.Close())

	assert.Equal(t, `{"iteration":1,"charts/episodic_return":-1.5,"losses/kl":0.25}
{"iteration":2,"charts/episodic_return":1e-7,"losses/kl":null}
{"iteration":3,"a\u003cb\u003e":null,"charts/episodic_return":2,"z":1234567}
{"iteration":4}
`, readFile(t, filepath.Join(dir, JSONLName)))
	assert.Equal(t, `iteration,a<b>,charts/episodic_return,losses/kl,z
1,,-1.5,0.25,
2,,1e-7,NaN,
3,NaN,2,,1234567
4,,,,
`, readFile(t, filepath.Join(dir, CSVName)))

	// No temp files are left behind by the CSV rewrites.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{CSVName, JSONLName}, names)
}

func TestLoggerCSVHeaderWidensAndAppends(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLogger(dir)
	require.NoError(t, err)
	defer l.Close()
	csvPath := filepath.Join(dir, CSVName)
	assert.Equal(t, "iteration\n", readFile(t, csvPath))
	require.NoError(t, l.Log(1, map[string]float64{"b": 1}))
	assert.Equal(t, "iteration,b\n1,1\n", readFile(t, csvPath))
	require.NoError(t, l.Log(2, map[string]float64{"b": 2}))
	assert.Equal(t, "iteration,b\n1,1\n2,2\n", readFile(t, csvPath))
	require.NoError(t, l.Log(3, map[string]float64{"a": 3, "c": 4}))
	assert.Equal(t, "iteration,a,b,c\n1,,1,\n2,,2,\n3,3,,4\n", readFile(t, csvPath))
	// Names that need CSV quoting are quoted.
	require.NoError(t, l.Log(4, map[string]float64{"x,\"y\"": 5}))
	assert.Equal(t, "iteration,a,b,c,\"x,\"\"y\"\"\"\n1,,1,,\n2,,2,,\n3,3,,4,\n4,,,,5\n", readFile(t, csvPath))
}

func TestLoggerRereadEqualsLogged(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLogger(dir)
	require.NoError(t, err)
	var want []Row
	for it := range 50 {
		m := map[string]float64{
			"charts/episodic_return": math.Sin(float64(it)) * 1e3,
			"losses/approx_kl":       math.Exp(-float64(it)) / 3,
			"global/env_steps":       float64(it * 128),
		}
		if it%7 == 0 {
			m["eval/success_rate"] = float64(it) / 49
		}
		if it == 13 {
			m["losses/approx_kl"] = math.NaN()
		}
		require.NoError(t, l.Log(it, m))
		want = append(want, Row{Iteration: it, Metrics: m})
	}
	requireRowsEqual(t, want, l.Rows())
	require.NoError(t, l.Close())
	got, err := ReadJSONL(filepath.Join(dir, JSONLName))
	require.NoError(t, err)
	requireRowsEqual(t, want, got)
	require.Error(t, l.Log(51, nil), "logging after Close")
}

func TestLoggerRejectsBadNames(t *testing.T) {
	l, err := NewLogger(t.TempDir())
	require.NoError(t, err)
	defer l.Close()
	for _, m := range []map[string]float64{
		{"iteration": 1},
		{"": 1},
		{"bad\xffname": 1},
	} {
		err := l.Log(7, m)
		require.Error(t, err, "%v", m)
		assert.Contains(t, err.Error(), "iteration 7")
	}
	assert.Empty(t, l.Rows(), "a rejected row is not recorded")
	assert.Empty(t, readFile(t, filepath.Join(l.Dir(), JSONLName)))
}

func TestReadJSONLTruncatedLastLineSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), JSONLName)
	content := "{\"iteration\":1,\"a\":1}\n{\"iteration\":2,\"a\":null}\n{\"iteration\":3,\"a\":0.12"
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	rows, err := ReadJSONL(path)
	require.NoError(t, err)
	requireRowsEqual(t, []Row{
		{Iteration: 1, Metrics: map[string]float64{"a": 1}},
		{Iteration: 2, Metrics: map[string]float64{"a": math.NaN()}},
	}, rows)

	// A complete last line without its newline is kept.
	require.NoError(t, os.WriteFile(path, []byte(`{"iteration":1,"a":1}`), 0o644))
	rows, err = ReadJSONL(path)
	require.NoError(t, err)
	requireRowsEqual(t, []Row{{Iteration: 1, Metrics: map[string]float64{"a": 1}}}, rows)
}

func TestReadJSONLCorruptLineIsError(t *testing.T) {
	for name, tc := range map[string]struct{ content, msg string }{
		"torn middle line": {"{\"iteration\":1}\n{\"iterat\n{\"iteration\":3}\n", ":2: not a JSON object"},
		"complete last":    {"{\"iteration\":1}\n{\"iteration\":2,\"a\":\"x\"}\n", `:2: key "a": value is a string, want a number or null`},
		"no iteration":     {"{\"a\":1}\n", `:1: no "iteration" key`},
		"float iteration":  {"{\"iteration\":1.5}\n", `:1: "iteration" is 1.5, want an integer`},
		"array":            {"[1,2]\n", ":1: not a JSON object"},
		"null":             {"null\n", ":1: not a JSON object: null"},
		"trailing data":    {"{\"iteration\":1} 2\n", ":1: unexpected data after the JSON object"},
		"out of range":     {"{\"iteration\":1,\"a\":1e999}\n", `:1: key "a": value 1e999 is out of the float64 range`},
		"empty name":       {"{\"iteration\":1,\"\":1}\n", ":1: empty metric name"},
		"nested":           {"{\"iteration\":1,\"a\":{}}\n", `:1: key "a": value is an object`},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), JSONLName)
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			_, err := ReadJSONL(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path+tc.msg)
		})
	}
	_, err := ReadJSONL(filepath.Join(t.TempDir(), "missing.jsonl"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestReadJSONLBlankLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), JSONLName)
	require.NoError(t, os.WriteFile(path, []byte("\n{\"iteration\":1}\r\n  \n{\"iteration\":2}\n\n"), 0o644))
	rows, err := ReadJSONL(path)
	require.NoError(t, err)
	requireRowsEqual(t, []Row{{Iteration: 1, Metrics: map[string]float64{}}, {Iteration: 2, Metrics: map[string]float64{}}}, rows)
}

func TestLoggerResumesAfterCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, JSONLName)
	// A crash in the middle of writing line 3; the CSV is stale and torn.
	require.NoError(t, os.WriteFile(path, []byte("{\"iteration\":1,\"a\":1}\n{\"iteration\":2,\"b\":2}\n{\"iteration\":3,\"a\""), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, CSVName), []byte("iteration,a\n1,1\n2,"), 0o644))

	l, err := NewLogger(dir)
	require.NoError(t, err)
	require.NoError(t, l.Log(3, map[string]float64{"a": 3}))
	require.NoError(t, l.Close())
	assert.Equal(t, "{\"iteration\":1,\"a\":1}\n{\"iteration\":2,\"b\":2}\n{\"iteration\":3,\"a\":3}\n", readFile(t, path))
	assert.Equal(t, "iteration,a,b\n1,1,\n2,,2\n3,3,\n", readFile(t, filepath.Join(dir, CSVName)))

	// A complete last line lacking its newline gets one before the next row.
	require.NoError(t, os.WriteFile(path, []byte(`{"iteration":1,"a":1}`), 0o644))
	l, err = NewLogger(dir)
	require.NoError(t, err)
	require.NoError(t, l.Log(2, map[string]float64{"a": 2}))
	require.NoError(t, l.Close())
	assert.Equal(t, "{\"iteration\":1,\"a\":1}\n{\"iteration\":2,\"a\":2}\n", readFile(t, path))

	// A corrupt middle line stops the resume rather than appending after it.
	require.NoError(t, os.WriteFile(path, []byte("{\"iteration\":1}\nxx\n{\"iteration\":3}\n"), 0o644))
	_, err = NewLogger(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+":2:")
	assert.Equal(t, "{\"iteration\":1}\nxx\n{\"iteration\":3}\n", readFile(t, path), "the file is left untouched")
}

func TestLoggerErrorOnUnwritableDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err := NewLogger(filepath.Join(file, "run"))
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "metrics logger:"), err.Error())
}

// FuzzReadJSONL checks that parsing never panics and that whatever parses
// round-trips: logging the rows again and reading them back gives the same
// rows.
func FuzzReadJSONL(f *testing.F) {
	for _, s := range []string{
		"{\"iteration\":1,\"a\":1}\n{\"iteration\":2,\"a\":null}\n",
		"{\"iteration\":3,\"a\":0.1",
		"{\"iteration\":-4,\"x/y\":1e300,\"\\u00e9\":-0}\n\n",
		"[]\n", "{}\n", "{\"iteration\":1}{}", "\xff\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, valid, err := parseJSONL("fuzz", data)
		if err != nil {
			return
		}
		require.LessOrEqual(t, valid, len(data))
		dir := t.TempDir()
		l, err := NewLogger(dir)
		require.NoError(t, err)
		for _, r := range rows {
			require.NoError(t, l.Log(r.Iteration, r.Metrics))
		}
		require.NoError(t, l.Close())
		again, err := ReadJSONL(filepath.Join(dir, JSONLName))
		require.NoError(t, err)
		requireRowsEqual(t, rows, again)
	})
}

func TestLoggerConcurrentLogs(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLogger(dir)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 10 {
				assert.NoError(t, l.Log(g*100+i, map[string]float64{fmt.Sprintf("g%d", g): float64(i)}))
			}
		})
	}
	wg.Wait()
	require.NoError(t, l.Close())
	rows, err := ReadJSONL(filepath.Join(dir, JSONLName))
	require.NoError(t, err)
	require.Len(t, rows, 40)
	seen := map[int]bool{}
	for _, r := range rows {
		g, i := r.Iteration/100, r.Iteration%100
		assert.Equal(t, map[string]float64{fmt.Sprintf("g%d", g): float64(i)}, r.Metrics)
		seen[r.Iteration] = true
	}
	assert.Len(t, seen, 40)
	csv := readFile(t, filepath.Join(dir, CSVName))
	assert.Equal(t, 41, strings.Count(csv, "\n"), "header and 40 rows")
	assert.True(t, strings.HasPrefix(csv, "iteration,g0,g1,g2,g3\n"), csv[:40])
}
