package train

import (
	"context"
	"fmt"
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

// warmup.pool sets how many pairs random play collects, past the 20,000 the
// default stops at; 0 keeps the default, min(steps × batch_size, 20,000).
// A larger pool begins with the default pool's pairs (the same episodes,
// the same draws) and goes on with new ones.
func TestWarmupPoolSize(t *testing.T) {
	newEnv := func() (envs.Env, error) {
		return builtin.Registry().Make("game:Hangman-v0-easy", envs.With("style", "brief"), envs.With("sample", "consistent"))
	}
	pool := func(steps, batch, size int) []pair {
		wc := WarmupConfig{Steps: steps, BatchSize: batch, Pool: size}
		p, err := warmupPool(context.Background(), newEnv, wc, 7, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		return p
	}
	assert.Len(t, pool(100, 10, 0), 1000, "steps × batch_size under the cap")
	capped := pool(1000, 32, 0)
	require.Len(t, capped, 20000, "the default cap")
	big := pool(1000, 32, 25000)
	require.Len(t, big, 25000, "warmup.pool past the cap")
	assert.Equal(t, capped, big[:20000], "the default pool is the larger one's start")
	small := pool(1000, 32, 300)
	assert.Equal(t, capped[:300], small)
	seen := map[pair]bool{}
	for _, p := range big {
		seen[p] = true
	}
	assert.Greater(t, len(seen), 12500, "more than half the pairs of a Hangman pool are distinct")
}

// sudokuCellEmpty reports whether the 4×4 board at the end of a Sudoku
// observation has '.' at row r, column c (1-indexed), as action text
// `\boxed{r c d}` names them.
func sudokuCellEmpty(t *testing.T, obs, action string) bool {
	t.Helper()
	lines := strings.Split(obs, "\n")
	require.GreaterOrEqual(t, len(lines), 5, "%q", obs)
	board := lines[len(lines)-4:]
	var r, c, d int
	_, err := fmt.Sscanf(action, `\boxed{%d %d %d}`, &r, &c, &d)
	require.NoError(t, err, "%q", action)
	row := strings.Fields(board[r-1]) // the row's number, then its 4 cells
	require.Len(t, row, 5, "%q", board[r-1])
	return row[c] == "."
}

// Sudoku's SampleAction fills only empty cells with a digit that clashes
// with none, so plain random play never shows the feedback to a filled
// cell or a clash, which a policy meets at its first mistake (and then, as
// the warmed-up policy's diagnosis showed, answers with no \boxed{} at
// all). With warmup.off_state the pool holds observations after both, and
// still every action in it is SampleAction's: an empty cell.
func TestWarmupPoolOffState(t *testing.T) {
	newEnv := func() (envs.Env, error) {
		return builtin.Registry().Make("game:Sudoku-v0-easy", envs.With("style", "brief"))
	}
	pool := func(off float64) []pair {
		wc := WarmupConfig{Steps: 100, BatchSize: 10, OffState: off}
		p, err := warmupPool(context.Background(), newEnv, wc, 7, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		return p
	}
	feedback := func(p []pair) (filled, clash int) {
		for _, q := range p {
			if strings.HasPrefix(q.obs, "Invalid move: ") && strings.Contains(q.obs, " is already filled.") {
				filled++
			}
			if strings.HasPrefix(q.obs, "Invalid move: ") && strings.Contains(q.obs, " is already in that ") {
				clash++
			}
			assert.True(t, sudokuCellEmpty(t, q.obs, q.action), "the pair's action fills a filled cell: %q after %q", q.action, q.obs)
		}
		return filled, clash
	}
	plain := pool(0)
	require.Len(t, plain, 1000)
	filled, clash := feedback(plain)
	assert.Equal(t, 0, filled, "random play never names a filled cell")
	assert.Equal(t, 0, clash, "random play never places a clashing digit")

	// off_state 0 plays exactly as before: the same pool, drawn with the
	// same rng calls.
	assert.Equal(t, plainPool(t, newEnv), plain)

	off := pool(0.3)
	require.Len(t, off, 1000)
	filled, clash = feedback(off)
	t.Logf("off_state 0.3: %d pairs after a filled cell, %d after a clash", filled, clash)
	assert.Greater(t, filled, 20, "a filled cell named after about one turn in ten")
	assert.Greater(t, clash, 20, "a clash after about one turn in ten")
}

// Wordle's consistent sampler never guesses a word twice, so plain random
// play never shows the env's "already guessed" refusal, which ends most of
// a small policy's games (it babbles after it). With warmup.repeat the pool
// holds observations after a repeated guess, each paired with the
// sampler's action (never a word the history has guessed), and repeat 0
// is plain random play, rng calls included.
func TestWarmupPoolRepeat(t *testing.T) {
	newEnv := func() (envs.Env, error) {
		e, err := builtin.Registry().Make("game:Wordle-v0-easy", envs.With("style", "brief"), envs.With("sample", "consistent"))
		if err != nil {
			return nil, err
		}
		return envs.WithHistory(e, envs.HistoryObservations, 0)
	}
	pool := func(repeat float64) []pair {
		wc := WarmupConfig{Steps: 100, BatchSize: 10, Repeat: repeat}
		p, err := warmupPool(context.Background(), newEnv, wc, 7, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		require.Len(t, p, 1000)
		return p
	}
	refused := func(p []pair) int {
		n := 0
		for _, q := range p {
			lines := strings.Split(q.obs, "\n")
			if strings.Contains(lines[len(lines)-1], " was already guessed.") {
				n++
			}
			word := strings.TrimSuffix(strings.TrimPrefix(q.action, `\boxed{`), "}")
			require.Len(t, word, 3, "%q", q.action)
			assert.NotContains(t, q.obs, "\n"+word+":", "the pair's action repeats a guess: %q after %q", q.action, q.obs)
		}
		return n
	}
	plain := pool(0)
	assert.Equal(t, 0, refused(plain), "consistent random play never repeats a guess")
	assert.Equal(t, plainPool(t, newEnv), plain)

	n := refused(pool(0.3))
	t.Logf("repeat 0.3: %d of 1000 pairs after an already-guessed refusal", n)
	assert.Greater(t, n, 100, "about a quarter of the turns after the first follow a repeat")
}

// plainPool is the first 1,000 pairs of plain random play (seed 7, the
// warm-up tests' rng), drawn without warmupPool: what a pool with no
// off-state or repeated turns must equal, rng calls included.
func plainPool(t *testing.T, newEnv func() (envs.Env, error)) []pair {
	t.Helper()
	var out []pair
	err := randomPlay(context.Background(), newEnv, 7, rand.New(rand.NewPCG(1, 2)), func(p pair) bool {
		if p.action != "" {
			out = append(out, p)
		}
		return len(out) < 1000
	})
	require.NoError(t, err)
	return out
}

// warmup.options replace env.options' values for the warm-up's random play
// only: the probe, the rollouts and the evaluation keep env.options, so a
// value the env refuses fails the run at the warm-up and nowhere before.
func TestWarmupOptions(t *testing.T) {
	c, err := Parse([]byte("env:\n  id: game:Mastermind-v0-easy\n  options: {style: brief, sample: gem}\nwarmup:\n  options: {sample: consistent}\n"), []string{"warmup.options.extra=3"})
	require.NoError(t, err)
	assert.Equal(t, EnvOptions{"style": "brief", "sample": "consistent", "extra": 3}, c.WarmupEnv().Options)
	assert.Equal(t, EnvOptions{"style": "brief", "sample": "gem"}, c.Env.Options, "env.options unchanged")
	assert.Equal(t, c.Env, c.EvalEnv(), "the evaluation plays env.options")
	c.Warmup.Options = nil
	assert.Equal(t, c.Env, c.WarmupEnv(), "no warmup.options: the training env")

	_, err = Parse([]byte("env:\n  mix: [{id: game:Mastermind-v0-easy, weight: 1}]\nwarmup:\n  options: {sample: consistent}\n"), nil)
	assert.ErrorContains(t, err, "warmup.options with env.mix")

	cfg := tinyConfig("rebn")
	cfg.Env.ID, cfg.Env.Options = "game:Mastermind-v0-easy", EnvOptions{"style": "brief"}
	cfg.Warmup.Options = EnvOptions{"sample": "no-such-sampler"}
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: t.TempDir()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-sampler", "the warm-up's env got warmup.options")
	assert.Contains(t, err.Error(), "warmup.options over env.options", "the error says where the option came from")
	cfg.Warmup.Options = EnvOptions{"sample": "consistent"}
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: t.TempDir()})
	require.NoError(t, err)
}
