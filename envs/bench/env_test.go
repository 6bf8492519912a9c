package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, Register(r))
	return r
}

var fixtureDir = filepath.Join("testdata", "data")

// readImported returns the items of an imported set.
func readImported(t *testing.T, path string) []item {
	t.Helper()
	recs, err := task.ReadJSONLFile(path)
	require.NoError(t, err)
	items, err := loadItems(recs, path)
	require.NoError(t, err)
	return items
}

// The reference check: every eval id's reference answers, fed back by its
// solver in either answer format, score 1 on every item of the fixtures,
// seeds 0..Len()-1 visiting the items in file order.
func TestReferenceAnswersScoreOne(t *testing.T) {
	r := registry(t)
	for _, s := range Sets() {
		items := readImported(t, DataPath(fixtureDir, s))
		for _, format := range []string{"boxed", "answer_tag"} {
			env, err := r.Make(s.ID, envs.With("data_dir", fixtureDir), envs.With("answer_format", format))
			require.NoError(t, err, s.ID)
			be := env.(*Env)
			require.Equal(t, len(items), be.Len(), s.ID)
			for seed := range uint64(be.Len()) {
				obs, _, err := env.Reset(seed)
				require.NoError(t, err)
				assert.Contains(t, obs, items[seed].Question, "%s seed %d plays item %d", s.ID, seed, seed)
				maker, ok := envs.SolverOf(env)
				require.True(t, ok)
				answer, aerr := maker.NewSolver().Act(obs)
				require.NoError(t, aerr)
				step, serr := env.Step(answer)
				require.NoError(t, serr)
				assert.Equal(t, 1.0, step.Reward, "%s %s seed %d: %q", s.ID, format, seed, answer)
			}
		}
	}
}

// A wrong answer scores 0; a math answer in another written form scores 1
// (mathtask.Equivalent); a QA answer is matched after normalisation
// against every accepted answer, with its F1 in the info.
func TestGrading(t *testing.T) {
	r := registry(t)
	play := func(id, answer string, seed uint64) envs.Step {
		env, err := r.Make(id, envs.With("data_dir", fixtureDir))
		require.NoError(t, err)
		_, _, err = env.Reset(seed)
		require.NoError(t, err)
		st, err := env.Step(answer)
		require.NoError(t, err)
		return st
	}
	assert.Equal(t, 1.0, play("eval:MATH500", `so \boxed{\dfrac{2}{4}}`, 1).Reward)
	assert.Equal(t, 0.0, play("eval:MATH500", `\boxed{\frac{1}{3}}`, 1).Reward)
	assert.Equal(t, 1.0, play("eval:AMC", `\boxed{9}`, 0).Reward, "9 equals the source's 9.0")
	assert.Equal(t, 1.0, play("eval:GSM8K", `\boxed{27}`, 0).Reward)
	assert.Equal(t, 0.0, play("eval:GSM8K", `\boxed{28}`, 0).Reward)
	st := play("eval:TriviaQA", "<answer>grey heron</answer>", 0)
	assert.Equal(t, 1.0, st.Reward, "an alias matches")
	st = play("eval:TriviaQA", "<answer>a blue heron</answer>", 0)
	assert.Equal(t, 0.0, st.Reward)
	assert.InDelta(t, 2.0/3, st.Info["f1"], 1e-9, "F1 of {blue, heron} against {heron}: precision 1/2, recall 1 → 2/3, the best (against {grey, heron}: 1/2)")
	assert.Equal(t, -task.DefaultFormatPenalty, play("eval:TriviaQA", `\boxed{Heron}`, 0).Reward, "QA sets read <answer> tags by default, as GEM's QA envs")
}

// A set not imported fails Make with the exact command that imports it.
func TestMissingSetSaysTheImportCommand(t *testing.T) {
	r := registry(t)
	dir := filepath.Join(t.TempDir(), "my data")
	_, err := r.Make("eval:MATH500", envs.With("data_dir", dir))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "eval:MATH500 is not imported (no "+filepath.Join(dir, "math500.jsonl")+")")
	assert.Contains(t, err.Error(), "go run ./cmd/data -set math500 -in FILE -data '"+dir+"'")

	t.Setenv(DataEnv, dir)
	_, err = r.Make("eval:2Wiki")
	require.ErrorContains(t, err, "-set 2wiki -in FILE -data '"+dir+"'", "the data directory defaults to $GEMGO_DATA")

	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2wiki.jsonl"), []byte(`{"question": "q"}`+"\n"), 0o644))
	_, err = r.Make("eval:2Wiki")
	require.ErrorContains(t, err, `:1: missing field "answers"`)
	assert.True(t, strings.Contains(err.Error(), "re-import it with: go run ./cmd/data -set 2wiki"), err.Error())
}
