// Command toolserver serves gemgo's demo MCP server (package
// tools/toolserver: calculator, key-value store, files in a scratch
// directory).
//
//	toolserver                      # one session over stdio, scratch in a fresh temp directory
//	toolserver -dir /tmp/scratch    # the same, with files in /tmp/scratch
//	toolserver -http 127.0.0.1:8931 # streamable HTTP at http://127.0.0.1:8931/mcp, a fresh server per session
//
// Use it from a config as an MCP tool:
//
//	env:
//	  tools:
//	    - {name: mcp, command: [go, run, ./cmd/toolserver]}
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemgo/gemgo/internal/httpserve"
	"github.com/gemgo/gemgo/tools/toolserver"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("toolserver", flag.ContinueOnError)
	dir := fs.String("dir", "", "scratch directory for the file tools (default: a fresh temporary directory, removed at exit)")
	addr := fs.String("http", "", "serve streamable HTTP on this address (path /mcp) instead of stdio")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	scratch := *dir
	if scratch == "" {
		tmp, err := os.MkdirTemp("", "gemgo-toolserver-")
		if err != nil {
			fmt.Fprintf(os.Stderr, "toolserver: %v\n", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		scratch = tmp
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		s, err := toolserver.New(scratch)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "toolserver: %v\n", err)
			return 1
		}
		return 0
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
		Ready: func(a string) { fmt.Fprintf(os.Stderr, "toolserver: serving http://%s/mcp\n", a) },
	}); err != nil {
		fmt.Fprintf(os.Stderr, "toolserver: %v\n", err)
		return 1
	}
	return 0
}
