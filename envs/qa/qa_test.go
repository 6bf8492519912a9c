package qa_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/qa"
	"github.com/gemgo/gemgo/envs/task"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, qa.Register(r))
	return r
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "qa.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

func TestSampleSet(t *testing.T) {
	items, err := qa.SampleItems()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(items), 30)
	seen := map[string]bool{}
	for _, it := range items {
		require.False(t, seen[it.Question], "duplicate question %q", it.Question)
		seen[it.Question] = true
		require.NotEmpty(t, it.Answers)
	}

	e, err := registry(t).Make("qa:sample")
	require.NoError(t, err)
	te := e.(*task.Env)
	rng := rand.New(rand.NewPCG(5, 6))
	for seed := range uint64(len(items)) {
		obs, _, err := te.Reset(seed)
		require.NoError(t, err)
		it := items[seed]
		assert.Contains(t, obs, it.Question)
		for _, a := range it.Answers {
			_, _, _ = te.Reset(seed)
			st, _ := te.Step("I think it is " + envs.Boxed(a+"."))
			require.Equal(t, 1.0, st.Reward, "%q: %q", it.Question, a)
			require.Equal(t, 1.0, st.Info[qa.InfoF1])
			require.Equal(t, true, st.Info[task.InfoCorrect])
		}
		_, _, _ = te.Reset(seed)
		st, _ := te.Step(envs.Boxed(it.Answers[0] + " maybe"))
		require.Equal(t, 0.0, st.Reward)
		require.Less(t, st.Info[qa.InfoF1].(float64), 1.0)
		require.Greater(t, st.Info[qa.InfoF1].(float64), 0.0)
		_, _, _ = te.Reset(seed)
		st, _ = te.Step(te.SampleAction(rng))
		require.NotEqual(t, true, st.Info[envs.InfoFormatError])
	}
}

func TestJSONL(t *testing.T) {
	r := registry(t)
	path := writeFile(t, `{"q": "Who?", "a": ["The Beatles", "Beatles"]}`+"\n"+`{"q": "Year?", "a": 1969}`+"\n")
	e, err := r.Make("qa:jsonl", envs.With("path", path), envs.With("question_field", "q"), envs.With("answers_field", "a"))
	require.NoError(t, err)
	te := e.(*task.Env)
	_, _, _ = te.Reset(0)
	st, _ := te.Step(`\boxed{beatles}`)
	assert.Equal(t, 1.0, st.Reward)
	_, _, _ = te.Reset(1)
	st, _ = te.Step(`\boxed{1969}`)
	assert.Equal(t, 1.0, st.Reward)

	_, err = r.Make("qa:jsonl")
	require.ErrorContains(t, err, "option path is required")
	bad := writeFile(t, `{"question": "x", "answers": ["y"]}`+"\n"+`not json`+"\n")
	_, err = r.Make("qa:jsonl", envs.With("path", bad))
	require.ErrorContains(t, err, bad+":2: invalid JSON")
	noAns := writeFile(t, `{"question": "x", "answers": []}`+"\n")
	_, err = r.Make("qa:jsonl", envs.With("path", noAns))
	require.ErrorContains(t, err, noAns+`:1: field "answers" has no answers`)
	wrong := writeFile(t, `{"question": "x", "answers": [{"text": "y"}]}`+"\n")
	_, err = r.Make("qa:jsonl", envs.With("path", wrong))
	require.ErrorContains(t, err, `item 0`)
}

// The fictional sets' split option: train and test partition the
// questions, each env plays only its split's questions, and no test
// question names an entity that a training question names.
func TestFictionalSplit(t *testing.T) {
	r := registry(t)
	for _, tc := range []struct {
		id          string
		train, test int
	}{{"qa:Fictional-v0-onehop", 216, 54}, {"qa:Fictional-v0-twohop", 108, 27}} {
		questions := map[string]map[string]bool{}
		for _, split := range []string{"all", "train", "test"} {
			e, err := r.Make(tc.id, envs.With("split", split))
			require.NoError(t, err)
			questions[split] = map[string]bool{}
			for seed := range uint64(1000) {
				obs, _, err := e.Reset(seed)
				require.NoError(t, err)
				questions[split][obs] = true
			}
		}
		assert.Len(t, questions["train"], tc.train, tc.id)
		assert.Len(t, questions["test"], tc.test, tc.id)
		assert.Len(t, questions["all"], tc.train+tc.test, tc.id)
		for q := range questions["test"] {
			assert.False(t, questions["train"][q], "%s: %q in both splits", tc.id, q)
			assert.True(t, questions["all"][q])
			entity := fictionalEntity(t, q)
			for tq := range questions["train"] {
				assert.NotContains(t, tq, entity, "%s: the test entity %q is named in a training question", tc.id, entity)
			}
		}
	}
	_, err := r.Make("qa:Fictional-v0-onehop", envs.With("split", "dev"))
	require.ErrorContains(t, err, "split")
	require.ErrorContains(t, err, "all, train, test")
}

// fictionalEntity returns the entity a fictional question names, from the
// generator's seven question templates.
func fictionalEntity(t *testing.T, q string) string {
	t.Helper()
	for _, re := range fictionalTemplates {
		if m := re.FindStringSubmatch(q); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no template matches %q", q)
	return ""
}

var fictionalTemplates = []*regexp.Regexp{
	regexp.MustCompile(`^In which city was the founder of (.+) born\?`),
	regexp.MustCompile(`^In which country are the headquarters of (.+)\?`),
	regexp.MustCompile(`^What is the profession of the founder of (.+)\?`),
	regexp.MustCompile(`^In which city was (.+) born\?`),
	regexp.MustCompile(`^What is the profession of (.+)\?`),
	regexp.MustCompile(`^Who founded (.+)\?`),
	regexp.MustCompile(`^What does (.+) make\?`),
}
