package qa_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/task"
)

// With answer_format answer_tag every qa id reads the last
// <answer>...</answer>: a right tagged answer pays 1, a boxed-only one is a
// format error, the last tag wins, and a tag nested in an unclosed one is
// read.
func TestAnswerTagFormat(t *testing.T) {
	r := registry(t)
	path := writeFile(t, `{"question": "Who?", "answers": ["The Beatles", "Beatles"]}`+"\n")
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			opts := []envs.Option{envs.With("answer_format", "answer_tag")}
			if id == "qa:jsonl" {
				opts = append(opts, envs.With("path", path))
			}
			e, err := r.Make(id, opts...)
			require.NoError(t, err)
			te := e.(*task.Env)
			for seed := range uint64(10) {
				obs, _, _ := te.Reset(seed)
				require.Contains(t, obs, "<answer></answer>")
				ans := te.Problem().Answer
				st, _ := te.Step("so <answer>" + ans + "</answer>")
				require.Equal(t, 1.0, st.Reward, "seed %d answer %q", seed, ans)
				_, _, _ = te.Reset(seed)
				st, _ = te.Step(envs.Boxed(ans))
				require.Equal(t, -0.1, st.Reward, "a box is a format error")
				require.Equal(t, true, st.Info[envs.InfoFormatError])
				_, _, _ = te.Reset(seed)
				st, _ = te.Step("<answer>" + ans + "</answer> no, <answer>" + ans + " no</answer>")
				require.Equal(t, 0.0, st.Reward, "the last tag wins")
				_, _, _ = te.Reset(seed)
				st, _ = te.Step("<answer>draft <answer>" + ans + "</answer>")
				require.Equal(t, 1.0, st.Reward, "nested in an unclosed tag")
				_, _, _ = te.Reset(seed)
				st, _ = te.Step(te.SampleAction(rand.New(rand.NewPCG(seed, 1))))
				require.Nil(t, st.Info[envs.InfoFormatError], "the sample is tagged")
			}
		})
	}
	envtest.CheckEnv(t, func() (envs.Env, error) { return r.Make("qa:sample", envs.With("answer_format", "answer_tag")) })
	_, err := r.Make("qa:sample", envs.With("answer_format", "xml"))
	assert.ErrorContains(t, err, "answer_format")
}
