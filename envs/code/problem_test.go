package code

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSampleProblems(t *testing.T) {
	ps := SampleProblems()
	require.Len(t, ps, 22)
	ids := map[string]bool{}
	for _, p := range ps {
		assert.False(t, ids[p.ID], "duplicate id %s", p.ID)
		ids[p.ID] = true
		assert.NotEmpty(t, strings.TrimSpace(p.Question), p.ID)
		assert.GreaterOrEqual(t, len(p.Tests), 3, p.ID)
		assert.LessOrEqual(t, len(p.Tests), 8, p.ID)
		for i, tc := range p.Tests {
			assert.NotEmpty(t, tc.Output, "%s test %d", p.ID, i+1)
		}
		_, err := os.Stat(filepath.Join("testdata", "solutions", p.ID+".py"))
		assert.NoError(t, err, "every problem has a reference solution")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "solutions", "*.py"))
	require.NoError(t, err)
	assert.Len(t, files, len(ps), "every reference solution has a problem")
}

func TestReadProblemsForms(t *testing.T) {
	in := `{"id": 7, "question": "q1", "tests": [{"input": "1\n", "output": "2\n"}, {"input": "3", "output": "4"}]}

{"question": "q2", "tests": {"inputs": ["a", "b", "c"], "outputs": ["A", "B", "C"]}}
{"question": "q3", "tests": "[{\"input\": \"x\", \"output\": \"y\"}]"}
`
	ps, err := ReadProblems(strings.NewReader(in), "set.jsonl", Fields{}, 2)
	require.NoError(t, err)
	require.Len(t, ps, 3)
	assert.Equal(t, Problem{ID: "7", Question: "q1", Tests: []Test{{"1\n", "2\n"}, {"3", "4"}}}, ps[0])
	assert.Equal(t, Problem{ID: "set.jsonl:3", Question: "q2", Tests: []Test{{"a", "A"}, {"b", "B"}}}, ps[1], "max_tests keeps the first two")
	assert.Equal(t, Problem{ID: "set.jsonl:4", Question: "q3", Tests: []Test{{"x", "y"}}}, ps[2], "tests as a JSON string")
}

func TestReadProblemsRenamedFields(t *testing.T) {
	in := `{"name": "p", "prompt": "add", "cases": [{"stdin": "1 1", "stdout": "2"}]}` + "\n" +
		`{"name": "r", "prompt": "x", "cases": {"stdins": ["1"], "stdouts": ["1"]}}`
	ps, err := ReadProblems(strings.NewReader(in), "x.jsonl",
		Fields{ID: "name", Question: "prompt", Tests: "cases", Input: "stdin", Output: "stdout"}, 0)
	require.NoError(t, err)
	assert.Equal(t, []Problem{
		{ID: "p", Question: "add", Tests: []Test{{"1 1", "2"}}},
		{ID: "r", Question: "x", Tests: []Test{{"1", "1"}}},
	}, ps)
}

func TestReadProblemsErrors(t *testing.T) {
	good := `{"question": "q", "tests": [{"input": "", "output": "1"}]}`
	for _, tc := range []struct{ name, line, want string }{
		{"not json", `{"question": `, "line 2: not a JSON object"},
		{"not an object", `[1, 2]`, "line 2: not a JSON object"},
		{"no question", `{"tests": []}`, `line 2: no field "question"`},
		{"empty question", `{"question": " ", "tests": []}`, `line 2: field "question" must be a non-empty string`},
		{"question not a string", `{"question": 3, "tests": []}`, `field "question" must be a non-empty string`},
		{"no tests field", `{"question": "q"}`, `line 2: no field "tests"`},
		{"no tests", `{"question": "q", "tests": []}`, `line 2: field "tests" holds no tests`},
		{"test without output", `{"question": "q", "tests": [{"input": "1"}]}`, `test 1 has no field "output"`},
		{"output not a string", `{"question": "q", "tests": [{"input": "1", "output": 2}]}`, `test 1: field "output" must be a string`},
		{"lists differ", `{"question": "q", "tests": {"inputs": ["1"], "outputs": []}}`, "the lists must have the same length"},
		{"tests a number", `{"question": "q", "tests": 5}`, "want a list of"},
		{"nested string", `{"question": "q", "tests": "\"[]\""}`, "want a list of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadProblems(strings.NewReader(good+"\n"+tc.line+"\n"), "bad.jsonl", Fields{}, 0)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "bad.jsonl")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := ReadProblems(strings.NewReader("\n\n"), "empty.jsonl", Fields{}, 0)
	assert.ErrorContains(t, err, "empty.jsonl holds no problems")
	_, err = LoadProblems(filepath.Join(t.TempDir(), "missing.jsonl"), Fields{}, 0)
	assert.ErrorContains(t, err, "missing.jsonl")
}

func TestSameOutput(t *testing.T) {
	for _, tc := range []struct {
		got, want string
		same      bool
	}{
		{"3\n", "3\n", true},
		{"3", "3\n", true},
		{"3  \t\n\n\n", "3\n", true},
		{"1 2 \r\n3\r\n", "1 2\n3\n", true},
		{"", "\n", true},
		{" 3\n", "3\n", false},
		{"1\n\n2\n", "1\n2\n", false},
		{"yes\n", "YES\n", false},
		{"3\n4\n", "3\n", false},
	} {
		assert.Equal(t, tc.same, SameOutput(tc.got, tc.want), "%q vs %q", tc.got, tc.want)
		assert.Equal(t, tc.same, diffOutput(tc.got, tc.want) == "", "%q vs %q", tc.got, tc.want)
	}
	assert.Equal(t, `line 2: expected "3", got "4"`, diffOutput("1\n4\n", "1\n3\n"))
	assert.Equal(t, `output ends after 1 lines, expected 2 (line 2: "3")`, diffOutput("1\n", "1\n3\n"))
	assert.Equal(t, `output has 2 lines, expected 1 (extra line 2: "x")`, diffOutput("1\nx\n", "1\n"))
	long := strings.Repeat("a", 100)
	assert.Equal(t, `line 1: expected "b", got "`+strings.Repeat("a", 60)+`"…`, diffOutput(long, "b"))
}

func FuzzReadProblems(f *testing.F) {
	f.Add(`{"question": "q", "tests": [{"input": "1", "output": "2"}]}`)
	f.Add(`{"id": null, "question": "q", "tests": {"inputs": ["a"], "outputs": ["b"]}}`)
	f.Add(`{"question": "q", "tests": "[{\"input\": \"\", \"output\": \"\"}]"}`)
	f.Add("{}\n[]\nnull\n")
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := ReadProblems(strings.NewReader(in), "f.jsonl", Fields{}, 3)
		if err != nil {
			require.Contains(t, err.Error(), "f.jsonl")
			require.Nil(t, ps)
			return
		}
		require.NotEmpty(t, ps)
		for _, p := range ps {
			require.NotEmpty(t, p.ID)
			require.NotEmpty(t, strings.TrimSpace(p.Question))
			require.NotEmpty(t, p.Tests)
			require.LessOrEqual(t, len(p.Tests), 3)
		}
	})
}
