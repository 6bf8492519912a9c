package metrics

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/gemgo/gemgo/internal/atomicfile"
)

// File names a Logger writes inside its directory.
const (
	JSONLName = "metrics.jsonl"
	CSVName   = "metrics.csv"
)

// Logger records one row of metrics per iteration in a run directory.
//
// dir/metrics.jsonl is the record: one JSON object per line, appended and
// fsynced on every Log, never rewritten, so a crash loses at most the line
// being written. dir/metrics.csv is a spreadsheet view of the same rows whose
// header is the union of the names seen so far; when a new name appears the
// whole file is rewritten (temp file + rename, so it is never half written).
//
// A Logger is safe for concurrent use.
type Logger struct {
	mu      sync.Mutex
	dir     string
	jsonl   *os.File
	size    int64 // bytes of metrics.jsonl known to be complete
	csv     *os.File
	header  []string // metric names in the CSV header, sorted
	known   map[string]bool
	rows    []Row
	scratch bytes.Buffer
}

// NewLogger opens a Logger on dir, creating the directory when needed.
//
// When dir already holds a metrics.jsonl (a resumed run) its rows are kept and
// new rows are appended after them; a last line cut short by a crash is
// dropped, and metrics.csv is rebuilt from the JSONL. A malformed line in the
// middle of an existing file is an error: fix the file or move it away.
func NewLogger(dir string) (*Logger, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("metrics logger: %w", err)
	}
	path := filepath.Join(dir, JSONLName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("metrics logger: %w", err)
	}
	l := &Logger{dir: dir, jsonl: f, known: map[string]bool{}}
	if err := l.resume(path); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("metrics logger: %w", err)
	}
	return l, nil
}

// resume loads the rows already in metrics.jsonl, repairs a crash-truncated
// tail, positions the file for appending and rebuilds the CSV.
func (l *Logger) resume(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	rows, valid, err := parseJSONL(path, data)
	if err != nil {
		return err
	}
	size := int64(valid)
	switch {
	case valid < len(data): // drop the torn last line
		if err := l.jsonl.Truncate(size); err != nil {
			return fmt.Errorf("drop truncated last line of %s: %w", path, err)
		}
	case valid > 0 && data[valid-1] != '\n': // a complete last line without its newline
		if _, err := l.jsonl.WriteAt([]byte{'\n'}, size); err != nil {
			return fmt.Errorf("terminate last line of %s: %w", path, err)
		}
		size++
	}
	l.size = size
	l.rows = rows
	for _, r := range rows {
		for k := range r.Metrics {
			l.known[k] = true
		}
	}
	l.header = slices.Sorted(maps.Keys(l.known))
	return l.rewriteCSV()
}

// Log appends the metrics of one iteration. m may not use the key
// "iteration" or an empty name; NaN and ±Inf are written as null (JSON has
// no other way to hold them) and read back as NaN. The map is copied.
func (l *Logger) Log(iteration int, m map[string]float64) error {
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return fmt.Errorf("log iteration %d: %w", iteration, err)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.jsonl == nil {
		return errors.New("log metrics: logger is closed")
	}
	if err := l.appendJSONL(iteration, keys, m); err != nil {
		return err
	}
	l.rows = append(l.rows, Row{Iteration: iteration, Metrics: recorded(m)})
	widened := false
	for _, k := range keys {
		if !l.known[k] {
			l.known[k] = true
			widened = true
		}
	}
	if widened {
		l.header = slices.Sorted(maps.Keys(l.known))
		return l.rewriteCSV()
	}
	return l.appendCSV(l.rows[len(l.rows)-1])
}

// appendJSONL writes one line at the end of metrics.jsonl and syncs it. On a
// failed write the file is cut back so that no partial line stays behind.
func (l *Logger) appendJSONL(iteration int, keys []string, m map[string]float64) error {
	b := &l.scratch
	b.Reset()
	b.WriteString(`{"` + IterationKey + `":`)
	b.WriteString(strconv.Itoa(iteration))
	for _, k := range keys {
		kb, err := json.Marshal(k)
		if err != nil {
			return fmt.Errorf("log iteration %d: key %q: %w", iteration, k, err)
		}
		b.WriteByte(',')
		b.Write(kb)
		b.WriteByte(':')
		v := m[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			b.WriteString("null")
			continue
		}
		b.WriteString(formatNumber(v))
	}
	b.WriteString("}\n")
	n, err := l.jsonl.WriteAt(b.Bytes(), l.size)
	if err == nil {
		err = l.jsonl.Sync()
	}
	if err != nil {
		if n > 0 {
			_ = l.jsonl.Truncate(l.size)
		}
		return fmt.Errorf("log iteration %d to %s: %w", iteration, l.jsonl.Name(), err)
	}
	l.size += int64(n)
	return nil
}

// csvRecord formats one row in the column order of the current header.
func (l *Logger) csvRecord(r Row) []string {
	rec := make([]string, 0, len(l.header)+1)
	rec = append(rec, strconv.Itoa(r.Iteration))
	for _, k := range l.header {
		v, ok := r.Metrics[k]
		rec = append(rec, csvValue(v, ok))
	}
	return rec
}

// recorded copies m as the record keeps it: ±Inf, written as null, becomes
// NaN, as ReadJSONL reads it back.
func recorded(m map[string]float64) map[string]float64 {
	c := make(map[string]float64, len(m))
	for k, v := range m {
		if math.IsInf(v, 0) {
			v = math.NaN()
		}
		c[k] = v
	}
	return c
}

// csvValue formats a value for the CSV: empty when not logged, NaN (as numpy
// and pandas read it) for null, otherwise the shortest exact form.
func csvValue(v float64, ok bool) string {
	switch {
	case !ok:
		return ""
	case math.IsNaN(v):
		return "NaN"
	}
	return formatNumber(v)
}

// formatNumber writes a finite v in the shortest form that reads back
// exactly, as encoding/json does: plain decimals for 1e-6 ≤ |v| < 1e21,
// exponent form (1e-7, 1e+21) outside.
func formatNumber(v float64) string {
	abs := math.Abs(v)
	if abs == 0 || (abs >= 1e-6 && abs < 1e21) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64)
	// 1e-07 → 1e-7
	if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
		s = s[:n-2] + s[n-1:]
	}
	return s
}

// rewriteCSV writes the whole CSV with the current header to a temporary file
// and renames it over metrics.csv, then reopens it for appending.
func (l *Logger) rewriteCSV() error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(append([]string{IterationKey}, l.header...))
	for _, r := range l.rows {
		_ = w.Write(l.csvRecord(r))
	}
	w.Flush()
	path := filepath.Join(l.dir, CSVName)
	if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
		return err
	}
	if l.csv != nil {
		_ = l.csv.Close()
		l.csv = nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	l.csv = f
	return nil
}

// appendCSV appends one row to metrics.csv, whose header already holds every
// name in it. The CSV is a derived view: NewLogger rebuilds it from the JSONL,
// so it is not fsynced.
func (l *Logger) appendCSV(r Row) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(l.csvRecord(r))
	w.Flush()
	if _, err := l.csv.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("log iteration %d to %s: %w", r.Iteration, l.csv.Name(), err)
	}
	return nil
}

// Rows returns the rows logged so far, including those of a resumed file, in
// order. The maps are shared with the Logger: do not modify them.
func (l *Logger) Rows() []Row {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.rows)
}

// Dir returns the directory the Logger writes into.
func (l *Logger) Dir() string { return l.dir }

// Close closes the files. Logging after Close is an error.
func (l *Logger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.jsonl == nil {
		return nil
	}
	err := l.jsonl.Close()
	l.jsonl = nil
	if l.csv != nil {
		err = errors.Join(err, l.csv.Close())
		l.csv = nil
	}
	if err != nil {
		return fmt.Errorf("close metrics logger: %w", err)
	}
	return nil
}
