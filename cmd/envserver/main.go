package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/code"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/httpserve"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools/protocol"
)

func main() {
	cli.Main("envserver", "draining the sessions", run)
}

// run is the command: it serves until ctx is cancelled and returns the
// exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return server{}.run(ctx, args, stdout, stderr)
}

// server is the command with what tests set.
type server struct {
	ready func(addr string) // when set, gets the listening address
}

// run is the command.
func (s server) run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	ready := s.ready
	fs := flag.NewFlagSet("envserver", flag.ContinueOnError)
	cli.SetUsage(fs, "usage: envserver [-addr HOST:PORT] [-env ID] [-tools python,search] [-emit k8s] [flags]")
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
	allowList := fs.String("allow-option", "", "env options clients may set though their env keeps them for the operator, comma-separated (path, word_file, clue_file name files on this machine; python names a program it runs; isolation, fresh_process change the code sandbox); empty allows none")
	emit := addEmitFlags(fs)
	capList := fs.String("option-cap", "", "caps of resource options for clients, comma-separated name=value, e.g. timeout=30,memory_mb=2048 (defaults: code envs' timeout 10 s, memory_mb 1024, output_kb 1024, concurrency 4, max_tests 50); a larger value is refused")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *maxSessions < 1 {
		fmt.Fprintf(stderr, "envserver: -max-sessions = %d: must be ≥ 1\n", *maxSessions)
		return cli.ExitUsage
	}
	if *maxConns <= *maxSessions || *keepAlive <= 0 || *bodyTimeout <= 0 {
		fmt.Fprintf(stderr, "envserver: -max-conns = %d, -keep-alive = %s, -body-timeout = %s: want positive values and -max-conns above -max-sessions (%d; each session holds a connection)\n", *maxConns, *keepAlive, *bodyTimeout, *maxSessions)
		return cli.ExitUsage
	}
	toolKinds := splitList(*toolList)
	allowed := splitList(*allowList)
	caps, err := parseCaps(*capList)
	if err != nil {
		fmt.Fprintf(stderr, "envserver: -option-cap: %v\n", err)
		return cli.ExitUsage
	}
	for _, k := range toolKinds {
		if !slices.Contains(remote.ServableTools, k) {
			fmt.Fprintf(stderr, "envserver: -tools: %q: want a comma-separated list of %s (mcp cannot be served: its spec names a program or host of the client's choosing)\n", k, strings.Join(remote.ServableTools, ", "))
			return cli.ExitUsage
		}
	}
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{
		DefaultID: *envID, MaxSessions: *maxSessions, IdleTimeout: *idle,
		MaxMessageBytes: *maxMsg, WriteTimeout: *writeTimeout, Tools: toolKinds,
		AllowOptions: allowed, OptionCaps: caps,
	})
	if err != nil {
		fmt.Fprintf(stderr, "envserver: -env: %v\n", err)
		return cli.ExitUsage
	}
	if *emit.kind != "" {
		text, err := emit.manifests(fs, *drain)
		if err != nil {
			fmt.Fprintf(stderr, "envserver: %v\n", err)
			return cli.ExitUsage
		}
		fmt.Fprint(stdout, text)
		return cli.ExitOK
	}
	if len(toolKinds) > 0 {
		fmt.Fprintf(stderr, "envserver: serving %s tools: clients' tool calls run on this machine\n", strings.Join(toolKinds, ", "))
	}
	if len(allowed) > 0 {
		fmt.Fprintf(stderr, "envserver: clients may set the env options %s\n", strings.Join(allowed, ", "))
	}
	if slices.Contains(toolKinds, protocol.KindPython) {
		fmt.Fprintf(stderr, "envserver: python tool sandbox: %s\n", sandbox.Detect())
	}
	err = httpserve.Run(ctx, httpserve.Config{
		Addr: *addr, Handler: srv, Grace: *drain,
		Limits: httpserve.Limits{MaxConns: *maxConns, IdleTimeout: *keepAlive, BodyTimeout: *bodyTimeout},
		Ready: func(a string) {
			fmt.Fprintf(stderr, "envserver: listening on ws://%s/ws (health: http://%s/health)\n", a, a)
			if ready != nil {
				ready(a)
			}
		},
		Drain: func(ctx context.Context) error {
			fmt.Fprintf(stderr, "envserver: draining %d sessions\n", srv.Sessions())
			return srv.Shutdown(ctx)
		},
	})
	// The code envs' warm interpreters outlive the sessions: stop them so
	// that their work directories go with this process.
	code.CloseWarm()
	if err != nil {
		fmt.Fprintf(stderr, "envserver: %v\n", err)
		return cli.ExitFailed
	}
	fmt.Fprintln(stderr, "envserver: stopped")
	return cli.ExitOK
}

// splitList splits a comma-separated flag value, dropping empty entries.
func splitList(s string) []string {
	var out []string
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// parseCaps parses -option-cap: name=value pairs, each value > 0.
func parseCaps(s string) (map[string]float64, error) {
	caps := map[string]float64{}
	for _, kv := range splitList(s) {
		name, val, ok := strings.Cut(kv, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%q: want name=value, e.g. timeout=30", kv)
		}
		c, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || !(c > 0) || math.IsInf(c, 1) {
			return nil, fmt.Errorf("%s = %q: want a number > 0 (to lift the cap, name the option in -allow-option)", name, val)
		}
		caps[name] = c
	}
	return caps, nil
}
