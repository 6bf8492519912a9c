package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/envs/bench"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/internal/atomicfile"
)

// FormatVersion is the version of the gemgo JSONL that Import writes.
const FormatVersion = 1

// Set is a benchmark (bench.Sets).
type Set = bench.Set

// Provenance is the content of NAME.source.json, written beside an
// imported set. It holds no time, so that importing one file twice writes
// the same bytes.
type Provenance struct {
	// Set is the import name, ID the env id.
	Set string `json:"set"`
	ID  string `json:"id"`
	// SourceFile is the base name of the imported file, SHA256 the hex
	// digest of its bytes and SourceFormat its format (jsonl, json, parquet).
	SourceFile   string `json:"source_file"`
	SHA256       string `json:"sha256"`
	SourceFormat string `json:"source_format"`
	// QuestionField and AnswerField are the source fields read.
	QuestionField string `json:"question_field"`
	AnswerField   string `json:"answer_field"`
	// Items is the number of items written.
	Items int `json:"items"`
	// Source names the set's public copies; Licence is the licence they state.
	Source  string `json:"source"`
	Licence string `json:"licence"`
	// Format is the gemgo JSONL version (FormatVersion).
	Format int `json:"gemgo_format"`
}

// item is one line of an imported set, as bench reads it.
type item struct {
	Question string   `json:"question"`
	Answers  []string `json:"answers"`
}

// Import converts the public copy of set s at in (JSONL, a JSON array or
// Parquet, by extension) into dir/NAME.jsonl and dir/NAME.source.json,
// each written atomically (the data first, so a provenance file always
// describes the data beside it). questionField and answerField, when not
// empty, replace the set's usual field names. Every error names the file
// and, for a bad row, its number (1-based, a line of a JSONL file).
func Import(s Set, in, dir, questionField, answerField string) (Provenance, error) {
	format, err := sourceFormat(in)
	if err != nil {
		return Provenance{}, err
	}
	data, err := readFile(in)
	if err != nil {
		return Provenance{}, err
	}
	rows, err := readRows(data, format, in)
	if err != nil {
		return Provenance{}, err
	}
	if len(rows) == 0 {
		return Provenance{}, fmt.Errorf("%s: no rows", in)
	}
	qNames, aNames := s.QuestionFields, s.AnswerFields
	if questionField != "" {
		qNames = []string{questionField}
	}
	if answerField != "" {
		aNames = []string{answerField}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	var qUsed, aUsed string
	for i, row := range rows {
		it, qf, af, err := convert(s, row, qNames, aNames)
		if err != nil {
			return Provenance{}, fmt.Errorf("%s: row %d: %w", in, i+1, err)
		}
		if i == 0 {
			qUsed, aUsed = qf, af
		}
		if err := enc.Encode(it); err != nil {
			return Provenance{}, fmt.Errorf("%s: row %d: %w", in, i+1, err)
		}
	}
	sum := sha256.Sum256(data)
	p := Provenance{
		Set: s.Name, ID: s.ID, SourceFile: filepath.Base(in), SHA256: hex.EncodeToString(sum[:]), SourceFormat: format,
		QuestionField: qUsed, AnswerField: aUsed, Items: len(rows), Source: s.Source, Licence: s.Licence, Format: FormatVersion,
	}
	meta, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return Provenance{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Provenance{}, fmt.Errorf("data directory: %w", err)
	}
	if err := atomicfile.WriteFile(bench.DataPath(dir, s), out.Bytes()); err != nil {
		return Provenance{}, fmt.Errorf("write %s: %w", bench.DataPath(dir, s), err)
	}
	if err := atomicfile.WriteFile(bench.ProvenancePath(dir, s), append(meta, '\n')); err != nil {
		return Provenance{}, fmt.Errorf("write %s: %w", bench.ProvenancePath(dir, s), err)
	}
	return p, nil
}

// convert reads one source row as an item and names the fields it read.
func convert(s Set, row map[string]any, qNames, aNames []string) (item, string, string, error) {
	qv, qf, ok := field(row, qNames)
	if !ok {
		return item{}, "", "", fmt.Errorf("no question field (tried %s; set -question-field): the row has %s", strings.Join(qNames, ", "), fieldNames(row))
	}
	q, ok := text(qv)
	if !ok || strings.TrimSpace(q) == "" {
		return item{}, "", "", fmt.Errorf("field %q is %T or empty: want the question's text", qf, qv)
	}
	av, af, ok := field(row, aNames)
	if !ok {
		return item{}, "", "", fmt.Errorf("no answer field (tried %s; set -answer-field): the row has %s", strings.Join(aNames, ", "), fieldNames(row))
	}
	as, err := texts(av)
	if err != nil {
		return item{}, "", "", fmt.Errorf("field %q: %w", af, err)
	}
	if s.GSM8K {
		for i, a := range as {
			as[i] = mathtask.FinalAnswer(a)
		}
	}
	kept := as[:0]
	for _, a := range as {
		if strings.TrimSpace(a) != "" {
			kept = append(kept, strings.TrimSpace(a))
		}
	}
	if len(kept) == 0 {
		return item{}, "", "", fmt.Errorf("field %q holds no answer", af)
	}
	return item{Question: q, Answers: kept}, qf, af, nil
}

// fieldNames lists a row's fields, sorted, for errors.
func fieldNames(row map[string]any) string {
	names := make([]string, 0, len(row))
	for n := range row {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return "no fields"
	}
	return "fields " + strings.Join(names, ", ")
}
