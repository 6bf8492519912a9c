package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/gemgo/gemgo/envs/task"
)

// Source formats Import reads, chosen by the input file's extension.
const (
	FormatJSONL   = "jsonl"   // one JSON object per line (.jsonl, .ndjson)
	FormatJSON    = "json"    // a JSON array of objects (.json)
	FormatParquet = "parquet" // a Parquet file of flat rows (.parquet)
)

// sourceFormat returns the format of the file at path, from its extension.
func sourceFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".json":
		return FormatJSON, nil
	case ".parquet":
		return FormatParquet, nil
	}
	return "", fmt.Errorf("%s: unknown format: want a .jsonl (one object per line), .json (an array of objects) or .parquet file", path)
}

// readRows returns the rows of data, a file in format, as field maps in
// file order; name (the file) is named in errors.
func readRows(data []byte, format, name string) ([]map[string]any, error) {
	switch format {
	case FormatJSONL:
		recs, err := task.ReadJSONL(bytes.NewReader(data), name)
		if err != nil {
			return nil, err
		}
		rows := make([]map[string]any, len(recs))
		for i, r := range recs {
			rows[i] = r.Fields
		}
		return rows, nil
	case FormatJSON:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var rows []map[string]any
		if err := dec.Decode(&rows); err != nil {
			return nil, fmt.Errorf("%s: invalid JSON (want an array of objects; use .jsonl for one object per line): %w", name, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: more than one JSON value in the file", name)
		}
		return rows, nil
	case FormatParquet:
		return readParquet(data, name)
	}
	return nil, fmt.Errorf("%s: unknown format %q", name, format)
}

// text returns v as text: a string, bytes, or a number in its written form.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	case json.Number:
		return x.String(), true
	case int:
		return strconv.Itoa(x), true
	case int32:
		return strconv.FormatInt(int64(x), 10), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case uint32:
		return strconv.FormatUint(uint64(x), 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case *big.Float:
		return x.Text('f', -1), true
	}
	return "", false
}

// texts returns v as a list of non-empty answers: a text, a list of texts,
// or an object with "value" and "aliases" (TriviaQA's answer), duplicates
// dropped, order kept.
func texts(v any) ([]string, error) {
	var out []string
	add := func(s string) {
		if strings.TrimSpace(s) != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		if s, ok := text(v); ok {
			add(s)
			return nil
		}
		if depth > 2 {
			return fmt.Errorf("an answer list nests too deep")
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
			return nil
		case []string:
			for _, e := range x {
				add(e)
			}
			return nil
		case map[string]any:
			_, hasValue := x["value"]
			_, hasAliases := x["aliases"]
			if !hasValue && !hasAliases {
				return fmt.Errorf("it is an object without \"value\" or \"aliases\": want a string, a number or a list of them")
			}
			if val, ok := x["value"]; ok {
				if err := walk(val, depth+1); err != nil {
					return err
				}
			}
			if al, ok := x["aliases"]; ok {
				if err := walk(al, depth); err != nil {
					return err
				}
			}
			return nil
		}
		return fmt.Errorf("it is %T: want a string, a number or a list of them", v)
	}
	if err := walk(v, 0); err != nil {
		return nil, err
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// field returns the value of the first of names that row has, and its name.
func field(row map[string]any, names []string) (any, string, bool) {
	for _, n := range names {
		if v, ok := row[n]; ok && v != nil {
			return v, n, true
		}
	}
	return nil, "", false
}

// readFile reads the file at path whole.
func readFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	return b, nil
}

// readParquet reads the rows of a Parquet file, in batches. A file whose
// footer claims more rows than it has bytes is damaged (a row of text
// takes at least a byte) and is refused before anything is allocated.
func readParquet(data []byte, name string) (rows []map[string]any, err error) {
	defer func() { // the reader may panic on a damaged file
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("%s: read Parquet: damaged file: %v", name, r)
		}
	}()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: read Parquet: %w", name, err)
	}
	if n := f.NumRows(); n < 0 || n > int64(len(data)) {
		return nil, fmt.Errorf("%s: read Parquet: the file claims %d rows in %d bytes: a damaged file", name, n, len(data))
	}
	r := parquet.NewGenericReader[any](f)
	defer r.Close()
	batch := make([]any, 256)
	for {
		n, err := r.Read(batch)
		for _, v := range batch[:n] {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: row %d is %T: want a row of named columns", name, len(rows)+1, v)
			}
			rows = append(rows, m)
		}
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read Parquet: %w", name, err)
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: read Parquet: no progress after %d rows", name, len(rows))
		}
	}
}
