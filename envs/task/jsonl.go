package task

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Record is one JSON object of a JSONL dataset, with the line it came from.
type Record struct {
	Line   int
	Fields map[string]any
}

// ReadJSONL reads one JSON object per line from r; blank lines are skipped.
// name (a file name) prefixes every error with its line number: "data.jsonl:7:
// invalid JSON: ...". Numbers keep their written form (json.Number).
func ReadJSONL(r io.Reader, name string) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	var out []Record
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("%s:%d: invalid JSON (want one object per line): %w", name, line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s:%d: more than one JSON value on the line", name, line)
		}
		out = append(out, Record{Line: line, Fields: m})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no records: the file is empty", name)
	}
	return out, nil
}

// ReadJSONLFile is ReadJSONL over the file at path.
func ReadJSONLFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open dataset: %w", err)
	}
	defer f.Close()
	return ReadJSONL(f, path)
}

// String returns field as text: a string, or a number in its written form.
// It fails, naming the line and the field, when the field is missing, empty
// or of another kind.
func (r Record) String(name, field string) (string, error) {
	v, ok := r.Fields[field]
	if !ok {
		return "", fmt.Errorf("%s:%d: missing field %q (set the field-name option if the file uses another name)", name, r.Line, field)
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = x.String()
	default:
		return "", fmt.Errorf("%s:%d: field %q is %T: want a string or a number", name, r.Line, field, v)
	}
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%s:%d: field %q is empty", name, r.Line, field)
	}
	return s, nil
}

// Strings returns field as a list of texts: a JSON array of strings or
// numbers, or a single string or number.
func (r Record) Strings(name, field string) ([]string, error) {
	v, ok := r.Fields[field]
	if !ok {
		return nil, fmt.Errorf("%s:%d: missing field %q (set the field-name option if the file uses another name)", name, r.Line, field)
	}
	arr, isArr := v.([]any)
	if !isArr {
		s, err := r.String(name, field)
		if err != nil {
			return nil, err
		}
		return []string{s}, nil
	}
	var out []string
	for i, e := range arr {
		switch x := e.(type) {
		case string:
			if strings.TrimSpace(x) != "" {
				out = append(out, x)
			}
		case json.Number:
			out = append(out, x.String())
		default:
			return nil, fmt.Errorf("%s:%d: field %q item %d is %T: want a string", name, r.Line, field, i, e)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s:%d: field %q has no answers", name, r.Line, field)
	}
	return out, nil
}
