package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/policy"
	"github.com/stretchr/testify/require"
)

func TestServeStartsAndStops(t *testing.T) {
	var errb bytes.Buffer
	require.Equal(t, cli.ExitUsage, run(context.Background(), nil, io.Discard, &errb))
	require.Contains(t, errb.String(), "-checkpoint is required")
	errb.Reset()
	require.Equal(t, cli.ExitUsage, run(context.Background(), []string{"-checkpoint", filepath.Join(t.TempDir(), "none.safetensors")}, io.Discard, &errb))

	path := filepath.Join(t.TempDir(), "ck.safetensors")
	require.NoError(t, policy.SaveCheckpoint(path, chattest.Checkpoint(t, chat.HistoryObservations)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var log bytes.Buffer
	go func() {
		done <- server{ready: func(addr string) {
			resp, err := http.Get("http://" + addr + "/v1/models")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					cancel()
				}
			}
		}}.run(ctx, []string{"-checkpoint", path, "-addr", "127.0.0.1:0"}, io.Discard, &log)
	}()
	require.Equal(t, cli.ExitOK, <-done, log.String())
	require.Contains(t, log.String(), "serve: stopped")
}
