package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/internal/httpserve"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr, nil))
}

// run serves until a signal; ready, when not nil, receives the listening
// address (tests use it).
func run(args []string, stderr io.Writer, ready chan<- string) int {
	fs := flag.NewFlagSet("envserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8000", "listen address (host:port; :8000 listens on every interface)")
	envID := fs.String("env", "", "default env id for sessions that name none (go run ./cmd/play -list prints the ids)")
	maxSessions := fs.Int("max-sessions", remote.DefaultMaxSessions, "most WebSocket sessions at once; more are answered CAPACITY_REACHED")
	idle := fs.Duration("idle", remote.DefaultIdleTimeout, "close a session that sends nothing for this long")
	maxMsg := fs.Int64("max-message", remote.DefaultMaxMessageBytes, "largest client message in bytes; a larger one closes the session (status 1009)")
	writeTimeout := fs.Duration("write-timeout", remote.DefaultWriteTimeout, "drop a session whose client does not read a reply within this long")
	drain := fs.Duration("drain", 30*time.Second, "on SIGINT/SIGTERM, wait this long for sessions to close")
	maxConns := fs.Int("max-conns", httpserve.DefaultMaxConns, "connections held at once, sessions included (at most 3/4 of the open-file limit); at the cap a new one closes the longest idle HTTP one")
	keepAlive := fs.Duration("keep-alive", httpserve.DefaultIdleTimeout, "close an HTTP keep-alive connection idle this long (sessions: -idle)")
	bodyTimeout := fs.Duration("body-timeout", httpserve.DefaultBodyTimeout, "time a client has to send an HTTP request body (/reset, /step); a slower one gets 408")
	toolList := fs.String("tools", "", "tool kinds clients may wrap their env with in the reset data, comma-separated: python,search (python runs the model's code, sandboxed, on this machine); empty serves none")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "envserver: unexpected argument %q (flags only; -h lists them)\n", fs.Arg(0))
		return 2
	}
	if *maxSessions < 1 {
		fmt.Fprintf(stderr, "envserver: -max-sessions = %d: must be ≥ 1\n", *maxSessions)
		return 2
	}
	if *maxConns <= *maxSessions || *keepAlive <= 0 || *bodyTimeout <= 0 {
		fmt.Fprintf(stderr, "envserver: -max-conns = %d, -keep-alive = %s, -body-timeout = %s: want positive values and -max-conns above -max-sessions (%d; each session holds a connection)\n", *maxConns, *keepAlive, *bodyTimeout, *maxSessions)
		return 2
	}
	var toolKinds []string
	for _, k := range strings.Split(*toolList, ",") {
		if k = strings.TrimSpace(k); k != "" {
			toolKinds = append(toolKinds, k)
		}
	}
	for _, k := range toolKinds {
		if !slices.Contains(remote.ServableTools, k) {
			fmt.Fprintf(stderr, "envserver: -tools: %q: want a comma-separated list of %s (mcp cannot be served: its spec names a program or host of the client's choosing)\n", k, strings.Join(remote.ServableTools, ", "))
			return 2
		}
	}
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{
		DefaultID: *envID, MaxSessions: *maxSessions, IdleTimeout: *idle,
		MaxMessageBytes: *maxMsg, WriteTimeout: *writeTimeout, Tools: toolKinds,
	})
	if err != nil {
		fmt.Fprintf(stderr, "envserver: -env: %v\n", err)
		return 2
	}
	if len(toolKinds) > 0 {
		fmt.Fprintf(stderr, "envserver: serving %s tools: clients' tool calls run on this machine\n", strings.Join(toolKinds, ", "))
	}
	if slices.Contains(toolKinds, tools.KindPython) {
		fmt.Fprintf(stderr, "envserver: python tool sandbox: %s\n", sandbox.Detect())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = httpserve.Run(ctx, httpserve.Config{
		Addr: *addr, Handler: srv, Grace: *drain,
		Limits: httpserve.Limits{MaxConns: *maxConns, IdleTimeout: *keepAlive, BodyTimeout: *bodyTimeout},
		Ready: func(a string) {
			fmt.Fprintf(stderr, "envserver: listening on ws://%s/ws (health: http://%s/health)\n", a, a)
			if ready != nil {
				ready <- a
			}
		},
		Drain: func(ctx context.Context) error {
			fmt.Fprintf(stderr, "envserver: draining %d sessions\n", srv.Sessions())
			return srv.Shutdown(ctx)
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "envserver: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, "envserver: stopped")
	return 0
}
