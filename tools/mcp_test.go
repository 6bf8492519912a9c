package tools

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/tools/toolserver"
)

var (
	serverOnce sync.Once
	serverBin  string
	serverErr  error
)

// toolServerBin builds cmd/toolserver once per test binary: the MCP tests
// run the real binary as a subprocess.
func toolServerBin(t *testing.T) string {
	t.Helper()
	serverOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gemgo-toolserver-bin-")
		if err != nil {
			serverErr = err
			return
		}
		serverBin = filepath.Join(dir, "toolserver")
		out, err := exec.Command("go", "build", "-o", serverBin, "../cmd/toolserver").CombinedOutput()
		if err != nil {
			serverErr = err
			serverBin = string(out)
		}
	})
	require.NoError(t, serverErr, "go build ./cmd/toolserver: %s", serverBin)
	return serverBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if serverBin != "" && serverErr == nil {
		_ = os.RemoveAll(filepath.Dir(serverBin))
	}
	os.Exit(code)
}

// MCP end to end over stdio against the repository's server, started as
// a subprocess: the tools are listed in the instructions, calls work, and
// one session (one server process) serves a whole episode.
func TestMCPStdioEndToEnd(t *testing.T) {
	bin := toolServerBin(t)
	m, err := NewMCP(MCPConfig{Command: []string{bin}, Timeout: 10 * time.Second})
	require.NoError(t, err)
	defer m.Close()
	assert.Equal(t, []string{"calculate", "kv_get", "kv_set", "list_files", "read_file", "write_file"}, m.ToolNames())
	ins := m.Instructions()
	assert.Contains(t, ins, "<tools>\n")
	assert.Contains(t, ins, `{"function":{"description":"Evaluate an arithmetic expression exactly`)
	assert.Contains(t, ins, "one tool per message")
	assert.Equal(t, 1, m.Sessions(), "listing the tools took one session")

	run := func(action string) (string, error) {
		t.Helper()
		call, ok := m.Parse(action)
		require.True(t, ok, action)
		return m.Run(context.Background(), call)
	}
	obs, err := run(`<tool_call><tool_name>calculate</tool_name><arguments>{"expression": "4821 * 317"}</arguments></tool_call>`)
	require.NoError(t, err)
	assert.Equal(t, "1528257", obs)
	_, err = run(`<tool_call><tool_name>kv_set</tool_name><arguments>{"key": "k", "value": "v1"}</arguments></tool_call>`)
	require.NoError(t, err)
	_, err = run(`<tool_call><tool_name>write_file</tool_name><arguments>{"path": "a.txt", "content": "hello"}</arguments></tool_call>`)
	require.NoError(t, err)
	obs, err = run(`<tool_call><tool_name>kv_get</tool_name><arguments>{"key": "k"}</arguments></tool_call>`)
	require.NoError(t, err)
	assert.Equal(t, "v1", obs, "the session's state lasts the episode")
	obs, err = run(`<tool_call><tool_name>read_file</tool_name><arguments>{"path": "a.txt"}</arguments></tool_call>`)
	require.NoError(t, err)
	assert.Equal(t, "hello", obs)
	assert.Equal(t, 2, m.Sessions(), "five calls, one session")

	// Tool errors come back as observations, and are not retried.
	start := time.Now()
	obs, err = run(`<tool_call><tool_name>read_file</tool_name><arguments>{"path": "../etc/passwd"}</arguments></tool_call>`)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(obs, "[Tool execution error: "), obs)
	assert.Less(t, time.Since(start), time.Second)
	obs, err = run(`<tool_call><tool_name>nope</tool_name><arguments>{}</arguments></tool_call>`)
	require.Error(t, err)
	assert.Equal(t, `[Tool execution error: unknown tool "nope": the tools are calculate, kv_get, kv_set, list_files, read_file, write_file]`, obs)
	obs, err = run(`<tool_call><tool_name>kv_get</tool_name><arguments>[1]</arguments></tool_call>`)
	require.Error(t, err)
	assert.Contains(t, obs, "are not a JSON object")

	// A new episode is a new session: a fresh server with an empty store.
	require.NoError(t, m.EndEpisode())
	obs, err = run(`<tool_call><tool_name>kv_get</tool_name><arguments>{"key": "k"}</arguments></tool_call>`)
	require.Error(t, err)
	assert.Equal(t, `[Tool execution error: no value under key "k"]`, obs)
	assert.Equal(t, 3, m.Sessions())
}

// The same server over streamable HTTP (in process, on loopback), with a
// fresh server state per session.
func TestMCPStreamableHTTP(t *testing.T) {
	root := t.TempDir()
	var mu sync.Mutex
	n := 0
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		mu.Lock()
		defer mu.Unlock()
		n++
		d := filepath.Join(root, strings.Repeat("s", n))
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil
		}
		s, err := toolserver.New(d)
		if err != nil {
			return nil
		}
		return s
	}, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	m, err := NewMCP(MCPConfig{Endpoint: srv.URL, Timeout: 5 * time.Second})
	require.NoError(t, err)
	defer m.Close()
	call, ok := m.Parse(`<tool_call><tool_name>calculate</tool_name><arguments>{"expression": "2^70"}</arguments></tool_call>`)
	require.True(t, ok)
	obs, err := m.Run(context.Background(), call)
	require.NoError(t, err)
	assert.Equal(t, "1180591620717411303424", obs)
}

// A server that cannot be reached is retried, then reported.
func TestMCPRetriesThenReports(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s, _ := toolserver.New(t.TempDir())
		return s
	}, nil))
	m, err := NewMCP(MCPConfig{Endpoint: srv.URL, Timeout: time.Second, Retries: 2, RetryDelay: 50 * time.Millisecond})
	require.NoError(t, err)
	defer m.Close()
	srv.Close() // the server goes away
	call, _ := m.Parse(`<tool_call><tool_name>calculate</tool_name><arguments>{"expression": "1"}</arguments></tool_call>`)
	start := time.Now()
	obs, err := m.Run(context.Background(), call)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(obs, "[Tool execution error: "), obs)
	assert.Equal(t, 1, m.Sessions(), "the listing session only: no attempt connected")
	assert.GreaterOrEqual(t, time.Since(start), 100*time.Millisecond, "two pauses between three attempts")
}

// Interop with a third-party server: the npm package
// @modelcontextprotocol/server-filesystem (Node 20).
func TestMCPInteropFilesystemServer(t *testing.T) {
	bin, err := exec.LookPath("mcp-server-filesystem")
	if err != nil {
		t.Skip("mcp-server-filesystem not found: npm install -g @modelcontextprotocol/server-filesystem (needs Node 20)")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hi from disk"), 0o644))
	m, err := NewMCP(MCPConfig{Command: []string{bin, dir}, Timeout: 20 * time.Second})
	require.NoError(t, err)
	defer m.Close()
	assert.Contains(t, m.ToolNames(), "write_file")
	assert.Contains(t, m.Instructions(), `"name":"read_text_file"`)
	path := filepath.Join(dir, "note.txt")
	call, ok := m.Parse(`<tool_call><tool_name>write_file</tool_name><arguments>{"path": "` + path + `", "content": "written by gemgo"}</arguments></tool_call>`)
	require.True(t, ok)
	_, err = m.Run(context.Background(), call)
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "written by gemgo", string(b))
	call, _ = m.Parse(`<tool_call><tool_name>read_text_file</tool_name><arguments>{"path": "` + filepath.Join(dir, "hello.txt") + `"}</arguments></tool_call>`)
	obs, err := m.Run(context.Background(), call)
	require.NoError(t, err)
	assert.Contains(t, obs, "hi from disk")
	call, _ = m.Parse(`<tool_call><tool_name>read_text_file</tool_name><arguments>{"path": "/etc/passwd"}</arguments></tool_call>`)
	obs, err = m.Run(context.Background(), call)
	require.Error(t, err, "outside the allowed directory")
	assert.True(t, strings.HasPrefix(obs, "[Tool execution error: "), obs)
}
