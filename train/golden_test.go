package train

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
)

var updateGolden = flag.Bool("train.update", false, "rewrite train/testdata/golden_*.json from this code")

// TestSingleEnvGolden pins the numbers of a single-env run: tinyConfig's
// metrics (all but the timings), iteration by iteration, must equal those
// in testdata/golden_tiny.json, written by the code before env.mix and
// eval.envs existed. Adding mixtures must leave the single-env path's
// numbers as they were, bit for bit (JSON keeps a float64 exactly).
// Regenerate with -train.update only for a change meant to move them.
func TestSingleEnvGolden(t *testing.T) {
	obs := &recordObserver{}
	_, err := Run(context.Background(), tinyConfig("rebn"), builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "run"), Observer: obs})
	require.NoError(t, err)
	got, err := json.MarshalIndent(stable(obs.iters), "", " ")
	require.NoError(t, err)
	path := filepath.Join("testdata", "golden_tiny.json")
	if *updateGolden {
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))
}
