package train

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/tools"
)

// isSearchResult reports whether obs is what the search tool returns.
func isSearchResult(obs string) bool {
	return strings.HasPrefix(obs, "Doc 1") || strings.HasPrefix(obs, "[SearchTool Error")
}

// Random play marks exactly the observations that are a tool's result, and
// after_tool_weight puts each such pair that many times in the warm-up pool
// and every other pair once, with the same pairs drawn.
func TestWarmupPoolWeighsToolResults(t *testing.T) {
	newEnv := func() (envs.Env, error) {
		e, err := builtin.Registry().Make("qa:Fictional-v0-onehop", envs.With("style", "brief"))
		if err != nil {
			return nil, err
		}
		return tools.Wrap(e, []tools.Spec{{Name: "search", MaxUses: 2}})
	}
	pool := func(weight int) []pair {
		wc := WarmupConfig{Steps: 100, BatchSize: 10, AfterToolWeight: weight}
		p, err := warmupPool(context.Background(), newEnv, wc, 7, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		return p
	}
	plain := pool(0)
	require.Len(t, plain, 1000)
	after := 0
	for _, p := range plain {
		assert.Equal(t, isSearchResult(p.obs), p.afterTool, "%q", p.obs)
		if p.afterTool {
			after++
		}
	}
	assert.Greater(t, after, 100, "random play calls the tool about one time in three")
	assert.Equal(t, plain, pool(1))

	heavy := pool(5)
	var distinct []pair
	for i := 0; i < len(heavy); i++ {
		p := heavy[i]
		distinct = append(distinct, p)
		if p.afterTool {
			for j := 1; j < 5; j++ {
				require.Equal(t, p, heavy[i+j], "a tool result's pair five times in a row")
			}
			i += 4
		}
	}
	assert.Equal(t, plain, distinct, "the same pairs, drawn in the same order")
	assert.Len(t, heavy, 1000+4*after)
}
