package mathtask_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/envs/task"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, mathtask.Register(r))
	return r
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "data.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

func TestEveryIDScoresItsOwnAnswer(t *testing.T) {
	r := registry(t)
	path := writeFile(t, `{"question": "1+1?", "answer": 2}`+"\n"+`{"question": "half?", "answer": "#### 1/2"}`+"\n")
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			var opts []envs.Option
			if id == "math:jsonl" {
				opts = append(opts, envs.With("path", path))
			}
			e, err := r.Make(id, opts...)
			require.NoError(t, err)
			te := e.(*task.Env)
			rng := rand.New(rand.NewPCG(3, 4))
			for seed := range uint64(100) {
				_, info, err := te.Reset(seed)
				require.NoError(t, err)
				require.Equal(t, 1, info[envs.InfoMaxTurns])
				p := te.Problem()
				st, _ := te.Step("Reasoning... so " + envs.Boxed(p.Answer))
				require.Equal(t, 1.0, st.Reward, "%s seed %d: %q answer %q", id, seed, p.Question, p.Answer)
				_, _, _ = te.Reset(seed)
				st, _ = te.Step(envs.Boxed(p.Answer + "1"))
				require.Equal(t, 0.0, st.Reward, "%s seed %d: perturbed %q", id, seed, p.Answer+"1")
				_, _, _ = te.Reset(seed)
				a := te.SampleAction(rng)
				st, _ = te.Step(a)
				require.NotEqual(t, true, st.Info[envs.InfoFormatError], a)
			}
		})
	}
}

func TestJSONLDataset(t *testing.T) {
	r := registry(t)
	path := writeFile(t, `{"q": "Q0", "a": "so 40 + 2 = 42\n#### 42"}`+"\n\n"+`{"q": "Q1", "a": 7.5}`+"\n")
	e, err := r.Make("math:jsonl", envs.With("path", path), envs.With("question_field", "q"), envs.With("answer_field", "a"))
	require.NoError(t, err)
	te := e.(*task.Env)
	obs, _, _ := te.Reset(0)
	assert.Contains(t, obs, "Q0")
	assert.Equal(t, "42", te.Problem().Answer)
	st, _ := te.Step(`\boxed{42.0}`)
	assert.Equal(t, 1.0, st.Reward)
	_, _, _ = te.Reset(3) // 3 mod 2 = item 1
	assert.Equal(t, "7.5", te.Problem().Answer)
	st, _ = te.Step(`\boxed{\frac{15}{2}}`)
	assert.Equal(t, 1.0, st.Reward)
}

func TestJSONLErrors(t *testing.T) {
	r := registry(t)
	_, err := r.Make("math:jsonl")
	require.ErrorContains(t, err, "option path is required")

	_, err = r.Make("math:jsonl", envs.With("path", filepath.Join(t.TempDir(), "missing.jsonl")))
	require.ErrorContains(t, err, "missing.jsonl")

	bad := writeFile(t, `{"question": "a", "answer": "1"}`+"\n"+`{"question": "b", "answer": `+"\n")
	_, err = r.Make("math:jsonl", envs.With("path", bad))
	require.ErrorContains(t, err, bad+":2: invalid JSON")

	missing := writeFile(t, `{"question": "a", "answer": "1"}`+"\n"+`{"question": "b"}`+"\n")
	_, err = r.Make("math:jsonl", envs.With("path", missing))
	require.ErrorContains(t, err, missing+`:2: missing field "answer"`)

	_, err = r.Make("math:jsonl", envs.With("path", missing), envs.With("answer_field", "solution"))
	require.ErrorContains(t, err, missing+`:1: missing field "solution"`)

	noFinal := writeFile(t, `{"question": "a", "answer": "work #### "}`+"\n")
	_, err = r.Make("math:jsonl", envs.With("path", noFinal))
	require.ErrorContains(t, err, `nothing after "####"`)

	empty := writeFile(t, "\n\n")
	_, err = r.Make("math:jsonl", envs.With("path", empty))
	require.ErrorContains(t, err, "no records")

	_, err = r.Make("math:Arithmetic-v0", envs.With("terms", 9))
	require.ErrorContains(t, err, "terms")
}

func TestFinalAnswer(t *testing.T) {
	assert.Equal(t, "72", mathtask.FinalAnswer("48/2 = 24\n#### 72"))
	assert.Equal(t, "1,000", mathtask.FinalAnswer("#### 1,000 "))
	assert.Equal(t, "5", mathtask.FinalAnswer(" 5 "))
}
