package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/httpserve"
	"github.com/gemgo/gemgo/tools/toolserver"
)

func main() {
	cli.Main("toolserver", "stopping the server", run)
}

// run is the command: it serves until ctx is cancelled (or, over stdio,
// until stdin closes) and returns the exit status. The stdio session
// speaks over the process's own stdin and stdout (os.Stdin, os.Stdout);
// stdout gets only the usage of -h.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolserver", flag.ContinueOnError)
	cli.SetUsage(fs, "usage: toolserver [-dir DIR] [-http HOST:PORT]")
	dir := fs.String("dir", "", "scratch directory for the file tools (default: a fresh temporary directory, removed at exit)")
	addr := fs.String("http", "", "serve streamable HTTP on this address (path /mcp) instead of stdio")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	scratch := *dir
	if scratch == "" {
		tmp, err := os.MkdirTemp("", "gemgo-toolserver-")
		if err != nil {
			fmt.Fprintf(stderr, "toolserver: %v\n", err)
			return cli.ExitFailed
		}
		defer os.RemoveAll(tmp)
		scratch = tmp
	}
	if *addr == "" {
		s, err := toolserver.New(scratch)
		if err != nil {
			fmt.Fprintf(stderr, "toolserver: %v\n", err)
			return cli.ExitFailed
		}
		if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "toolserver: %v\n", err)
			return cli.ExitFailed
		}
		return cli.ExitOK
	}
	var n atomic.Int64
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		d := filepath.Join(scratch, "session-"+strconv.FormatInt(n.Add(1), 10))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil
		}
		s, err := toolserver.New(d)
		if err != nil {
			return nil
		}
		return s
	}, &mcp.StreamableHTTPOptions{SessionTimeout: 10 * time.Minute})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	if err := httpserve.Run(ctx, httpserve.Config{
		Addr: *addr, Handler: mux, Grace: 2 * time.Second,
		Ready: func(a string) { fmt.Fprintf(stderr, "toolserver: serving http://%s/mcp\n", a) },
	}); err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return cli.ExitFailed
	}
	return cli.ExitOK
}
