package tools_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools"
)

// sampleStats plays episodes with the wrapped env's SampleAction alone
// and counts wins and tool calls whose observation holds the answer.
func sampleStats(t *testing.T, id string, spec tools.Spec, episodes int, useful func(obs, task string) bool) (solved, usefulCalls int) {
	t.Helper()
	inner, err := builtin.Registry().Make(id, envs.FromMap(map[string]any{"style": "brief"})...)
	require.NoError(t, err)
	env, err := tools.Wrap(inner, []tools.Spec{spec})
	require.NoError(t, err)
	defer env.(interface{ Close() error }).Close()
	s := env.(envs.ActionSampler)
	r := rand.New(rand.NewPCG(1, 2))
	for seed := range uint64(episodes) {
		task, _, err := env.Reset(seed)
		require.NoError(t, err)
		for {
			st, err := env.Step(s.SampleAction(r))
			require.NoError(t, err)
			if st.Info[tools.InfoUseTool] == true && useful(st.Obs, task) {
				usefulCalls++
			}
			if st.Done() {
				if st.Info[envs.InfoSuccess] == true {
					solved++
				}
				break
			}
		}
	}
	return solved, usefulCalls
}

// SampleAction explores with calls built from the task's own numbers or
// words, so warm-up meets calls that help, yet alone it solves at most a
// tenth of either tool task: the policy has to learn the use.
func TestSampleActionAloneRarelySolvesTheToolTasks(t *testing.T) {
	if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
		t.Skipf("the python tool needs a Python 3 the sandbox can run: %v", err)
	}
	const n = 300
	products := 0
	solved, _ := sampleStats(t, "math:Products-v0", tools.Spec{Name: "python", MaxUses: 2}, n, func(obs, _ string) bool {
		// a 6- or 7-digit result: the product of the 4- and 3-digit numbers
		for _, w := range strings.Fields(obs) {
			if len(w) >= 6 && strings.Trim(w, "0123456789") == "" {
				products++
				return true
			}
		}
		return false
	})
	t.Logf("math:Products-v0 + python: SampleAction solves %d/%d, %d calls print a product-sized number", solved, n, products)
	assert.LessOrEqual(t, float64(solved)/n, 0.1)
	assert.Greater(t, products, n/40, "some sampled calls multiply the task's two numbers")

	docs := 0
	solved, _ = sampleStats(t, "qa:Fictional-v0-onehop", tools.Spec{Name: "search", MaxUses: 2, TopK: 1}, n, func(obs, _ string) bool {
		if strings.HasPrefix(obs, "Doc 1") {
			docs++
			return true
		}
		return false
	})
	t.Logf("qa:Fictional-v0-onehop + search: SampleAction solves %d/%d, %d searches find a document", solved, n, docs)
	assert.LessOrEqual(t, float64(solved)/n, 0.1)
	assert.Greater(t, docs, n/10)

	for _, id := range []string{"qa:Fictional-v1-onehop", "qa:Fictional-v2-onehop"} {
		named := 0
		solved, _ = sampleStats(t, id, tools.Spec{Name: "search", MaxUses: 2, TopK: 1}, n, func(obs, task string) bool {
			if name, _, ok := strings.Cut(strings.TrimPrefix(obs, "Doc 1(Title: "), ")"); ok && strings.Contains(task, name) {
				named++ // found the document of the entity the question names
				return true
			}
			return false
		})
		t.Logf("%s + search: SampleAction solves %d/%d, %d searches find the named entity's document", id, solved, n, named)
		assert.LessOrEqual(t, float64(solved)/n, 0.1, id)
		assert.Greater(t, named, n/10, id)
	}
}
