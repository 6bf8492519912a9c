package mcptask_test

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/mcptask"
)

// needFiles skips a test where the npm filesystem server is missing.
func needFiles(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(mcptask.DefaultFilesServer); err != nil {
		t.Skipf("the files service runs the npm filesystem MCP server: %s", mcptask.FilesInstall)
	}
}

// play resets env with seed and plays actions until the episode ends;
// it returns the last step.
func play(t *testing.T, env envs.Env, seed uint64, actions []string) (string, envs.Step) {
	t.Helper()
	obs, _, err := env.Reset(seed)
	require.NoError(t, err)
	var st envs.Step
	for i, a := range actions {
		st, err = env.Step(a)
		require.NoError(t, err)
		if st.Terminated || st.Truncated {
			require.Equal(t, len(actions)-1, i, "the episode ended early at %q: %s", a, st.Obs)
			return obs, st
		}
	}
	t.Fatalf("the episode did not end after %d actions", len(actions))
	return obs, st
}

// callJSON writes a tool call in the text protocol.
func callJSON(tool string, args map[string]any) string {
	b, _ := json.Marshal(args)
	return "<tool_call><tool_name>" + tool + "</tool_name><arguments>" + string(b) + "</arguments></tool_call>"
}
