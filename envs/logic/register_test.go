package logic_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/logic"
	"github.com/gemgo/gemgo/envs/task"
)

func TestRegisteredIDs(t *testing.T) {
	r := envs.NewRegistry()
	require.NoError(t, logic.Register(r))
	assert.Equal(t, []string{
		"logic:RuleTaker-v0-d0", "logic:RuleTaker-v0-d1", "logic:RuleTaker-v0-d2", "logic:RuleTaker-v0-d3",
		"logic:RuleTaker-v0-d4", "logic:RuleTaker-v0-d5", "logic:RuleTaker-v0-random",
	}, r.IDs())
	depths := map[int]bool{}
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			e, err := r.Make(id, envs.With("entities", 4))
			require.NoError(t, err)
			te := e.(*task.Env)
			for seed := range uint64(40) {
				_, _, err := te.Reset(seed)
				require.NoError(t, err)
				ans := te.Problem().Answer
				st, _ := te.Step(envs.Boxed(ans))
				require.Equal(t, 1.0, st.Reward)
				if id == "logic:RuleTaker-v0-random" {
					depths[st.Info[logic.InfoDepth].(int)] = true
				}
				_, _, _ = te.Reset(seed)
				other := map[string]string{"True": "False", "False": "True"}[ans]
				st, _ = te.Step(envs.Boxed(other))
				require.Equal(t, 0.0, st.Reward)
				_, _, _ = te.Reset(seed)
				st, _ = te.Step(`\boxed{maybe}`)
				require.Equal(t, 0.0, st.Reward)
				require.NotEqual(t, true, st.Info[envs.InfoFormatError])
			}
		})
	}
	assert.Len(t, depths, logic.MaxDepth+1, "random ids should visit every depth")
	_, err := r.Make("logic:RuleTaker-v0-d2", envs.With("entities", 1))
	require.ErrorContains(t, err, "entities")
}
