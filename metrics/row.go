package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"unicode/utf8"
)

// IterationKey is the reserved key that holds a row's iteration in
// metrics.jsonl and metrics.csv. A metric map may not use it.
const IterationKey = "iteration"

// Row is the metrics logged for one iteration.
//
// Metrics maps a name ("charts/episodic_return", "losses/approx_kl", ...)
// to its value. A value logged as NaN or ±Inf is stored as JSON null and
// reads back as NaN; a name absent from the map was not logged that
// iteration.
type Row struct {
	Iteration int
	Metrics   map[string]float64
}

// ReadJSONL loads the rows of a metrics.jsonl file written by a Logger.
//
// A last line that is cut short (no trailing newline and not valid JSON, as
// left by a crash in the middle of a write) is skipped without error. Any
// other malformed line is an error that names the file and the line.
func ReadJSONL(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read metrics: %w", err)
	}
	rows, _, err := parseJSONL(path, data)
	return rows, err
}

// parseJSONL parses data (the contents of the file name) and also returns
// the length of its well-formed prefix: len(data), or the offset where a
// crash-truncated last line starts.
func parseJSONL(name string, data []byte) (rows []Row, valid int, err error) {
	for lineNo, off := 1, 0; off < len(data); lineNo++ {
		end := bytes.IndexByte(data[off:], '\n')
		complete := end >= 0
		if !complete {
			end = len(data) - off
		}
		line := data[off : off+end]
		next := off + end
		if complete {
			next++
		}
		if len(bytes.TrimSpace(line)) > 0 {
			row, perr := parseRow(line)
			if perr != nil {
				if !complete {
					return rows, off, nil // crash-truncated last line
				}
				return nil, 0, fmt.Errorf("%s:%d: %w (fix or delete the line)", name, lineNo, perr)
			}
			rows = append(rows, row)
		}
		off = next
	}
	return rows, len(data), nil
}

// parseRow parses one JSON object line into a Row.
func parseRow(line []byte) (Row, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return Row{}, fmt.Errorf("not a JSON object: %w", err)
	}
	if obj == nil {
		return Row{}, errors.New("not a JSON object: null")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Row{}, errors.New("unexpected data after the JSON object")
	}
	raw, ok := obj[IterationKey]
	if !ok {
		return Row{}, fmt.Errorf("no %q key", IterationKey)
	}
	num, ok := raw.(json.Number)
	if !ok {
		return Row{}, fmt.Errorf("%q is %s, want an integer", IterationKey, jsonKind(raw))
	}
	it, err := strconv.ParseInt(string(num), 10, 0)
	if err != nil {
		return Row{}, fmt.Errorf("%q is %s, want an integer", IterationKey, num)
	}
	row := Row{Iteration: int(it), Metrics: make(map[string]float64, len(obj)-1)}
	for k, v := range obj {
		if k == IterationKey {
			continue
		}
		if err := checkKey(k); err != nil {
			return Row{}, err
		}
		switch v := v.(type) {
		case nil:
			row.Metrics[k] = math.NaN()
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return Row{}, fmt.Errorf("key %q: value %s is out of the float64 range", k, v)
			}
			row.Metrics[k] = f
		default:
			return Row{}, fmt.Errorf("key %q: value is %s, want a number or null", k, jsonKind(v))
		}
	}
	return row, nil
}

// checkKey reports whether k may name a metric.
func checkKey(k string) error {
	switch {
	case k == "":
		return errors.New("empty metric name")
	case k == IterationKey:
		return fmt.Errorf("metric name %q is reserved for the row's iteration", k)
	case !utf8.ValidString(k):
		return fmt.Errorf("metric name %q is not valid UTF-8", k)
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
