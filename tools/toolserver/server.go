package toolserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFileBytes is the largest file write_file writes and read_file reads.
const MaxFileBytes = 1 << 20

// state is one session's: a key-value store and a scratch directory.
type state struct {
	mu   sync.Mutex
	kv   map[string]string
	root *os.Root
}

type calcIn struct {
	Expression string `json:"expression" jsonschema:"an arithmetic expression, e.g. (12 + 3) * 4 / 5 or 2^10"`
}

type kvSetIn struct {
	Key   string `json:"key" jsonschema:"the key"`
	Value string `json:"value" jsonschema:"the value to store"`
}

type kvGetIn struct {
	Key string `json:"key" jsonschema:"the key"`
}

type writeIn struct {
	Path    string `json:"path" jsonschema:"a file name inside the scratch directory, e.g. notes.txt"`
	Content string `json:"content" jsonschema:"the text to write"`
}

type readIn struct {
	Path string `json:"path" jsonschema:"a file name inside the scratch directory"`
}

type noIn struct{}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// New returns a server whose file tools work inside dir (which must
// exist) and whose key-value store starts empty. Serve one session with it.
func New(dir string) (*mcp.Server, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("toolserver: scratch directory: %w", err)
	}
	st := &state{kv: map[string]string{}, root: root}
	s := mcp.NewServer(&mcp.Implementation{Name: "gemgo-toolserver", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "calculate", Description: "Evaluate an arithmetic expression exactly (+ - * / ^ and parentheses)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in calcIn) (*mcp.CallToolResult, any, error) {
			v, err := Calculate(in.Expression)
			if err != nil {
				return nil, nil, err
			}
			return text(v), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "kv_set", Description: "Store a value under a key (for this session)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in kvSetIn) (*mcp.CallToolResult, any, error) {
			if in.Key == "" {
				return nil, nil, errors.New("empty key")
			}
			st.mu.Lock()
			defer st.mu.Unlock()
			if len(st.kv) >= 10000 {
				return nil, nil, errors.New("the store is full (10000 keys)")
			}
			st.kv[in.Key] = in.Value
			return text("stored " + in.Key), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "kv_get", Description: "Read the value stored under a key."},
		func(_ context.Context, _ *mcp.CallToolRequest, in kvGetIn) (*mcp.CallToolResult, any, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			v, ok := st.kv[in.Key]
			if !ok {
				return nil, nil, fmt.Errorf("no value under key %q", in.Key)
			}
			return text(v), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "write_file", Description: "Write a text file in the scratch directory."},
		func(_ context.Context, _ *mcp.CallToolRequest, in writeIn) (*mcp.CallToolResult, any, error) {
			if len(in.Content) > MaxFileBytes {
				return nil, nil, fmt.Errorf("content too large: %d bytes, at most %d", len(in.Content), MaxFileBytes)
			}
			if err := st.root.WriteFile(in.Path, []byte(in.Content), 0o644); err != nil {
				return nil, nil, fileError(err)
			}
			return text(fmt.Sprintf("wrote %d bytes to %s", len(in.Content), in.Path)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a text file of the scratch directory."},
		func(_ context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, any, error) {
			f, err := st.root.Open(in.Path)
			if err != nil {
				return nil, nil, fileError(err)
			}
			defer f.Close()
			b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
			if err != nil {
				return nil, nil, fileError(err)
			}
			if len(b) > MaxFileBytes {
				return nil, nil, fmt.Errorf("%s is larger than %d bytes", in.Path, MaxFileBytes)
			}
			return text(string(b)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_files", Description: "List the files of the scratch directory."},
		func(_ context.Context, _ *mcp.CallToolRequest, _ noIn) (*mcp.CallToolResult, any, error) {
			var names []string
			err := fs.WalkDir(st.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					names = append(names, p)
				}
				return err
			})
			if err != nil {
				return nil, nil, fileError(err)
			}
			slices.Sort(names)
			if len(names) == 0 {
				return text("(no files)"), nil, nil
			}
			return text(strings.Join(names, "\n")), nil, nil
		})
	return s, nil
}

// fileError names the problem without the scratch directory's host path.
func fileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such file", pe.Path)
		}
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}
