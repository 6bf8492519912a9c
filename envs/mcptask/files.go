package mcptask

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemgo/gemgo/sandbox"
)

// DefaultFilesServer is the filesystem MCP server's program: npm's
// @modelcontextprotocol/server-filesystem, installed globally.
const DefaultFilesServer = "mcp-server-filesystem"

// FilesInstall is how to install DefaultFilesServer.
const FilesInstall = "npm install -g @modelcontextprotocol/server-filesystem"

// VirtualRoot is the path the agent sees for the episode's files: the
// files service rewrites it to the episode's directory in the arguments
// and back in the results, so that prompts and transcripts do not depend
// on where the episode lives.
const VirtualRoot = "/files"

// FilesUsable says why the files service cannot run here (the server is
// not installed, or the sandbox cannot run it); nil when it can.
func FilesUsable() error {
	_, err := newFilesBackend("", sandbox.Detect())
	return err
}

// filesBackend runs the filesystem server in the sandbox, one process per
// episode, on a fresh copy of the task's files/.
type filesBackend struct {
	server string
	iso    sandbox.Isolation
}

// newFilesBackend checks that the server can run under iso.
func newFilesBackend(server string, iso sandbox.Isolation) (*filesBackend, error) {
	if server == "" {
		server = DefaultFilesServer
	}
	if _, err := exec.LookPath(server); err != nil {
		return nil, fmt.Errorf("mcp:files: the filesystem MCP server %q is not installed (%s; option server names another)", server, FilesInstall)
	}
	if err := iso.CanRun(server); err != nil {
		return nil, fmt.Errorf("mcp:files: %w", err)
	}
	return &filesBackend{server: server, iso: iso}, nil
}

func (b *filesBackend) close() error { return nil }

// open copies the fixture into a fresh directory (base, searchable but
// not listable by others, holding dir, the one the server may touch) and
// starts the server on dir in the sandbox: its own uid, no network, the
// rest of the file system read-only where bwrap runs.
func (b *filesBackend) open(ctx context.Context, t *Task) (episode, error) {
	base, err := os.MkdirTemp("", fmt.Sprintf("gemgo-mcpfiles-%d-", os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("mcp:files: episode dir: %w", err)
	}
	ep := &filesEpisode{base: base, dir: filepath.Join(base, "files")}
	fail := func(err error) (episode, error) {
		return nil, errors.Join(err, ep.stop(), ep.remove())
	}
	if err := os.Chmod(base, 0o711); err != nil {
		return fail(fmt.Errorf("mcp:files: episode dir: %w", err))
	}
	if err := layOut(ep.dir, t); err != nil {
		return fail(err)
	}
	ep.start = func(ctx context.Context) error { return b.start(ctx, ep, t) }
	return ep, nil
}

// start starts the server on ep's dir and connects to it.
func (b *filesBackend) start(ctx context.Context, ep *filesEpisode, t *Task) error {
	budget := seconds(t.Spec.TimeBudgetSec)
	lim := sandbox.Limits{
		// the server lives the episode: the agent's turns take time too
		Wall: 10*budget + 10*time.Minute, CPU: budget + time.Minute,
		MemoryBytes: 4 << 30, // V8 reserves address space beyond what it uses
		FileBytes:   16 << 20, OutputBytes: 64 << 10, Processes: 64,
	}
	p, err := sandbox.Start(context.Background(), sandbox.Spec{Cmd: []string{b.server, ep.dir}, Dir: ep.dir, Limits: lim}, b.iso)
	if err != nil {
		return fmt.Errorf("mcp:files: start %s: %w", b.server, err)
	}
	ep.proc = p
	client := mcp.NewClient(&mcp.Implementation{Name: "gemgo", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: p.Stdout, Writer: p.Stdin}, nil)
	if err != nil {
		return fmt.Errorf("mcp:files: connect to %s: %w (its stderr: %s)", b.server, err, strings.TrimSpace(string(p.Stderr())))
	}
	ep.cs = cs
	return nil
}

// layOut writes t's fixture tree into dir.
func layOut(dir string, t *Task) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("mcp:files: episode dir: %w", err)
	}
	for _, d := range t.Dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return fmt.Errorf("mcp:files: lay out %s: %w", d, err)
		}
	}
	for name, data := range t.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("mcp:files: lay out %s: %w", name, err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("mcp:files: lay out %s: %w", name, err)
		}
	}
	return nil
}

// filesEpisode is one episode of the files service. Its server starts at
// the first call (an episode answered at once starts none).
type filesEpisode struct {
	base, dir string
	start     func(ctx context.Context) error
	proc      *sandbox.Process
	cs        *mcp.ClientSession
}

func (ep *filesEpisode) session(ctx context.Context) (*mcp.ClientSession, error) {
	if ep.cs == nil {
		if ep.start == nil {
			return nil, errors.New("mcp:files: the episode has ended")
		}
		start := ep.start
		ep.start = nil // one try: a server that failed to start is an error of the env
		if err := start(ctx); err != nil {
			return nil, err
		}
	}
	return ep.cs, nil
}

// toServer maps VirtualRoot to the episode's directory in every string
// argument that is VirtualRoot or starts with VirtualRoot + "/".
func (ep *filesEpisode) toServer(args map[string]any) {
	for k, v := range args {
		args[k] = ep.mapValue(v)
	}
}

func (ep *filesEpisode) mapValue(v any) any {
	switch x := v.(type) {
	case string:
		if x == VirtualRoot || strings.HasPrefix(x, VirtualRoot+"/") {
			return ep.dir + strings.TrimPrefix(x, VirtualRoot)
		}
	case []any:
		for i := range x {
			x[i] = ep.mapValue(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = ep.mapValue(x[k])
		}
	}
	return v
}

// fromServer writes the episode's directory as VirtualRoot, and the
// directory above it (reached with "..", outside what the server allows)
// as "/".
func (ep *filesEpisode) fromServer(s string) string {
	s = strings.ReplaceAll(s, ep.dir, VirtualRoot)
	if ep.base != "" {
		s = strings.ReplaceAll(s, ep.base+"/", "/")
	}
	return s
}

// stop closes the session and kills the server (every process of its
// uid), so that nothing changes the files after the episode.
func (ep *filesEpisode) stop() error {
	var err error
	ep.start = nil
	if ep.cs != nil {
		_ = ep.cs.Close() // the server may be gone already: its error says nothing
		ep.cs = nil
	}
	if ep.proc != nil {
		err = ep.proc.Close()
		ep.proc = nil
	}
	return err
}

func (ep *filesEpisode) verify(t *Task) ([]checkResult, error) { return checkFiles(t, ep.dir) }

func (ep *filesEpisode) remove() error {
	if ep.base == "" {
		return nil
	}
	err := os.RemoveAll(ep.base)
	ep.base = ""
	if err != nil {
		return fmt.Errorf("mcp:files: remove the episode dir: %w", err)
	}
	return nil
}
