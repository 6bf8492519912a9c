package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/stretchr/testify/require"
)

// Every built-in game but Game2048 has an oracle, and each wins its games
// when played through eval's episode loop, on the default eval seeds:
// every game where its solver is exact, and at least the documented share
// where it is not (Hangman's 3-letter words, see hangman.Solver).
func TestOraclesWinThroughTheEpisodeLoop(t *testing.T) {
	leastWinRate := map[string]float64{
		"game:Hangman-v0-easy":   0.6,  // 0.62 here, 0.78 over seeds 0-999
		"game:Hangman-v0-random": 0.75, // 0.80 here, 0.93 over seeds 0-999
	}
	reg := builtin.Registry()
	o := DefaultOracles()
	cfg := DefaultConfig()
	const seeds = 50
	games := map[string]bool{}
	for _, id := range reg.IDs() {
		if !strings.HasPrefix(id, "game:") {
			continue
		}
		has, err := HasSolver(reg, id, nil)
		require.NoError(t, err, id)
		if !has {
			require.True(t, strings.HasPrefix(id, "game:Game2048-"), "%s has no oracle", id)
			continue
		}
		games[id[:strings.Index(id, "-")]] = true
		won := 0
		for s := range uint64(seeds) {
			rec := play(context.Background(), o, reg, &cfg, Key{Policy: "oracle", Env: id, Seed: cfg.SeedBase + s})
			require.Empty(t, rec.Error, "%s seed %d", id, rec.Seed)
			if rec.Success {
				won++
			}
		}
		least, ok := leastWinRate[id]
		if !ok {
			least = 1
		}
		rate := float64(won) / seeds
		t.Logf("%s: oracle wins %.2f", id, rate)
		require.GreaterOrEqual(t, rate, least, id)
	}
	require.Len(t, games, 11, "games with an oracle: %v", games)
}

// The oracle of an env without a solver fails the episode with an error
// that names the env and what would give it one; HasSolver says so
// beforehand, and names an unknown id.
func TestOracleWithoutSolver(t *testing.T) {
	reg := builtin.Registry()
	env, err := reg.Make("game:Game2048-v0-easy")
	require.NoError(t, err)
	_, err = DefaultOracles().NewEpisode("game:Game2048-v0-easy", env)
	require.ErrorContains(t, err, "oracle: no solver for game:Game2048-v0-easy: its env (*game2048.Env) has none")
	require.ErrorContains(t, err, "envs.SolverMaker")

	cfg := DefaultConfig()
	rec := play(context.Background(), DefaultOracles(), reg, &cfg, Key{Policy: "oracle", Env: "game:Game2048-v0-easy", Seed: cfg.SeedBase})
	require.Contains(t, rec.Error, "oracle: no solver for game:Game2048-v0-easy")
	require.Zero(t, rec.Turns)

	for id, want := range map[string]bool{"game:Game2048-v0-easy": false, "game:Sudoku-v0-easy": true} {
		has, err := HasSolver(reg, id, map[string]any{"style": "brief"})
		require.NoError(t, err, id)
		require.Equal(t, want, has, id)
	}
	_, err = HasSolver(reg, "game:Sudoku-v9", nil)
	require.ErrorContains(t, err, "game:Sudoku-v9")
}
