package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/httpserve"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/serve"
)

func main() {
	cli.Main("serve", "finishing the requests in flight", run)
}

// run is the command: it serves until ctx is cancelled and returns the
// exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return server{}.run(ctx, args, stdout, stderr)
}

// server is the command with what tests set.
type server struct {
	ready func(addr string) // when set, gets the bound address
}

// run is the command.
func (s server) run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	ready := s.ready
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cli.SetUsage(fs, "usage: serve -checkpoint FILE|RUN_DIR [-addr HOST:PORT] [flags]")
	ckPath := fs.String("checkpoint", "", "checkpoint file, or a run directory (its final.safetensors)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	name := fs.String("name", "gemgo", "the model's name in the API")
	queue := fs.Int("queue", 256, "waiting requests at most; more are answered 429")
	maxBatch := fs.Int("max-batch", 64, "prompts per sampler call at most")
	grace := fs.Duration("grace", 10*time.Second, "time for requests in flight at shutdown")
	decodeMiB := fs.Int64("decode-mib", serve.DefaultDecodeBytes>>20, "request bodies read and decoded at once, in MiB; more wait")
	maxConns := fs.Int("max-conns", httpserve.DefaultMaxConns, "connections held at once (at most 3/4 of the open-file limit); at the cap a new one closes the longest idle one")
	keepAlive := fs.Duration("keep-alive", httpserve.DefaultIdleTimeout, "close a keep-alive connection idle this long")
	bodyTimeout := fs.Duration("body-timeout", httpserve.DefaultBodyTimeout, "time a client has to send a request body; a slower one gets 408")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *ckPath == "" {
		fmt.Fprintln(stderr, "serve: -checkpoint is required (a .safetensors file or a run directory)")
		return cli.ExitUsage
	}
	if *queue < 1 || *maxBatch < 1 {
		fmt.Fprintf(stderr, "serve: -queue = %d, -max-batch = %d: both must be ≥ 1\n", *queue, *maxBatch)
		return cli.ExitUsage
	}
	if *decodeMiB < 1 || *maxConns < 1 || *keepAlive <= 0 || *bodyTimeout <= 0 {
		fmt.Fprintf(stderr, "serve: -decode-mib = %d, -max-conns = %d, -keep-alive = %s, -body-timeout = %s: all must be positive\n", *decodeMiB, *maxConns, *keepAlive, *bodyTimeout)
		return cli.ExitUsage
	}
	path := *ckPath
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "final.safetensors")
	}
	ck, err := policy.LoadCheckpoint(path)
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return cli.ExitUsage
	}
	set, err := chat.CheckpointSettings(ck)
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return cli.ExitUsage
	}
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Name: *name, Settings: set, Queue: *queue, MaxBatch: *maxBatch})
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return cli.ExitUsage
	}
	defer eng.Close()
	srv := &serve.Server{Model: eng, Name: *name, DecodeBytes: *decodeMiB << 20,
		Limits: httpserve.Limits{MaxConns: *maxConns, IdleTimeout: *keepAlive, BodyTimeout: *bodyTimeout}}
	err = srv.ListenAndServe(ctx, *addr, *grace, func(a string) {
		fmt.Fprintf(stderr, "serve: %s (trained on %s, history %s) at http://%s/v1\n", path, set.EnvID, set.Format.History, a)
		if ready != nil {
			ready(a)
		}
	})
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return cli.ExitFailed
	}
	fmt.Fprintln(stderr, "serve: stopped")
	return cli.ExitOK
}
