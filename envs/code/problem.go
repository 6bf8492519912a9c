package code

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Test is one stdin/stdout test of a problem.
type Test struct {
	Input  string `json:"input"`
	Output string `json:"output"`
}

// Problem is one coding problem: a statement and its tests.
type Problem struct {
	ID       string
	Question string
	Tests    []Test
}

// Fields names the JSONL fields a problem set is read from. A zero field
// takes its default (DefaultFields).
type Fields struct {
	ID       string // optional problem id (default "id"; the line number if absent)
	Question string // the statement (default "question")
	Tests    string // the tests (default "tests")
	Input    string // a test's stdin (default "input")
	Output   string // a test's expected stdout (default "output")
}

// DefaultFields returns the field names of the format the sample set uses:
//
//	{"id": "sum_two", "question": "...", "tests": [{"input": "1 2\n", "output": "3\n"}]}
//
// The tests may also be an object of two parallel lists, the field names
// with an "s" added: {"inputs": [...], "outputs": [...]} (the form of many
// code datasets), or a JSON string holding either form.
func DefaultFields() Fields {
	return Fields{ID: "id", Question: "question", Tests: "tests", Input: "input", Output: "output"}
}

func (f Fields) withDefaults() Fields {
	d := DefaultFields()
	for _, p := range []struct {
		v   *string
		def string
	}{
		{&f.ID, d.ID}, {&f.Question, d.Question}, {&f.Tests, d.Tests}, {&f.Input, d.Input}, {&f.Output, d.Output},
	} {
		if *p.v == "" {
			*p.v = p.def
		}
	}
	return f
}

//go:embed data/sample.jsonl
var sampleJSONL []byte

// SampleProblems returns the problem set shipped with gemgo (code:sample):
// short problems written for this project, each with 3 to 8 tests.
func SampleProblems() []Problem {
	ps, err := ReadProblems(bytes.NewReader(sampleJSONL), "sample.jsonl", Fields{}, 0)
	if err != nil {
		panic(fmt.Sprintf("code: embedded sample set is corrupt: %v", err)) // a bug in gemgo, caught by its tests
	}
	return ps
}

// LoadProblems reads a JSONL problem set from path (see ReadProblems).
func LoadProblems(path string, f Fields, maxTests int) ([]Problem, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("code: open problem set: %w", err)
	}
	defer file.Close()
	return ReadProblems(file, path, f, maxTests)
}

// ReadProblems reads one problem per line of r (blank lines are skipped);
// name labels errors, which give the line number and the fix. Each problem
// keeps at most maxTests tests, the first ones (0: all). A problem needs a
// non-empty question and at least one test.
func ReadProblems(r io.Reader, name string, f Fields, maxTests int) ([]Problem, error) {
	f = f.withDefaults()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 256<<20)
	var out []Problem
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		p, err := parseProblem(text, f, maxTests)
		if err != nil {
			return nil, fmt.Errorf("code: %s line %d: %w", name, line, err)
		}
		if p.ID == "" {
			p.ID = fmt.Sprintf("%s:%d", name, line)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("code: read %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("code: %s holds no problems: want one JSON object per line with %q and %q", name, f.Question, f.Tests)
	}
	return out, nil
}

func parseProblem(text []byte, f Fields, maxTests int) (Problem, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(text, &obj); err != nil {
		return Problem{}, fmt.Errorf("not a JSON object: %w", err)
	}
	var p Problem
	if raw, ok := obj[f.ID]; ok {
		var id any
		if err := json.Unmarshal(raw, &id); err != nil {
			return Problem{}, fmt.Errorf("field %q: %w", f.ID, err)
		}
		if id != nil {
			p.ID = fmt.Sprint(id)
		}
	}
	raw, ok := obj[f.Question]
	if !ok {
		return Problem{}, fmt.Errorf("no field %q (the statement; set option question_field to rename it)", f.Question)
	}
	if err := json.Unmarshal(raw, &p.Question); err != nil || strings.TrimSpace(p.Question) == "" {
		return Problem{}, fmt.Errorf("field %q must be a non-empty string", f.Question)
	}
	raw, ok = obj[f.Tests]
	if !ok {
		return Problem{}, fmt.Errorf("no field %q (the tests; set option tests_field to rename it)", f.Tests)
	}
	tests, err := parseTests(raw, f, 0)
	if err != nil {
		return Problem{}, fmt.Errorf("field %q: %w", f.Tests, err)
	}
	if len(tests) == 0 {
		return Problem{}, fmt.Errorf("field %q holds no tests: want at least one {%q, %q}", f.Tests, f.Input, f.Output)
	}
	if maxTests > 0 && len(tests) > maxTests {
		tests = tests[:maxTests]
	}
	p.Tests = tests
	return p, nil
}

// parseTests reads a list of {input, output} objects, an object of two
// parallel lists, or a JSON string holding either (depth bounds that).
func parseTests(raw json.RawMessage, f Fields, depth int) ([]Test, error) {
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err == nil {
		tests := make([]Test, len(list))
		for i, m := range list {
			for _, fld := range []struct {
				name string
				dst  *string
			}{{f.Input, &tests[i].Input}, {f.Output, &tests[i].Output}} {
				v, ok := m[fld.name]
				if !ok {
					return nil, fmt.Errorf("test %d has no field %q", i+1, fld.name)
				}
				if err := json.Unmarshal(v, fld.dst); err != nil {
					return nil, fmt.Errorf("test %d: field %q must be a string", i+1, fld.name)
				}
			}
		}
		return tests, nil
	}
	var lists map[string]json.RawMessage
	if err := json.Unmarshal(raw, &lists); err == nil {
		var ins, outs []string
		if err := json.Unmarshal(lists[f.Input+"s"], &ins); err != nil {
			return nil, fmt.Errorf("want a list of {%q, %q} objects or an object with string lists %q and %q", f.Input, f.Output, f.Input+"s", f.Output+"s")
		}
		if err := json.Unmarshal(lists[f.Output+"s"], &outs); err != nil {
			return nil, fmt.Errorf("want a list of {%q, %q} objects or an object with string lists %q and %q", f.Input, f.Output, f.Input+"s", f.Output+"s")
		}
		if len(ins) != len(outs) {
			return nil, fmt.Errorf("%d %qs but %d %qs: the lists must have the same length", len(ins), f.Input, len(outs), f.Output)
		}
		tests := make([]Test, len(ins))
		for i := range ins {
			tests[i] = Test{Input: ins[i], Output: outs[i]}
		}
		return tests, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil && depth == 0 {
		return parseTests(json.RawMessage(s), f, depth+1)
	}
	return nil, fmt.Errorf("want a list of {%q, %q} objects or an object with string lists %q and %q", f.Input, f.Output, f.Input+"s", f.Output+"s")
}
