package qa

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// cmd/eval makes an env per episode: 128 Makes of qa:jsonl over one
// unchanged file parse it once; touching the file parses it again.
func TestJSONLParsedOncePerFile(t *testing.T) {
	parses := 0
	loadHook = func() { parses++ }
	defer func() { loadHook = nil }()
	path := filepath.Join(t.TempDir(), "set.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"question": "Who?", "answers": ["Beatles"]}`+"\n"+`{"question": "When?", "answers": [1969]}`+"\n"), 0o644))
	r := envs.NewRegistry()
	require.NoError(t, Register(r))
	for i := range 128 {
		e, err := r.Make("qa:jsonl", envs.With("path", path))
		require.NoError(t, err)
		_, _, _ = e.Reset(uint64(i))
		st, _ := e.Step(envs.Boxed(e.(*task.Env).Problem().Answer))
		require.Equal(t, 1.0, st.Reward)
	}
	assert.Equal(t, 1, parses)
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(path, later, later))
	_, err := r.Make("qa:jsonl", envs.With("path", path))
	require.NoError(t, err)
	assert.Equal(t, 2, parses)
	_, err = r.Make("qa:jsonl", envs.With("path", path), envs.With("answers_field", "question"))
	require.NoError(t, err)
	assert.Equal(t, 3, parses, "other fields: another parse")
}
