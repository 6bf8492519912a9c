package serve_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/serve"
)

// benchServe measures requests/s of clients concurrent clients, each
// sending greedy requests over loopback HTTP one after another. The model
// is GEMGO_SERVE_CHECKPOINT when set (e.g. a run's final.safetensors),
// else the small test checkpoint.
func benchServe(b *testing.B, clients int) {
	var ck *policy.Checkpoint
	if p := os.Getenv("GEMGO_SERVE_CHECKPOINT"); p != "" {
		var err error
		if ck, err = policy.LoadCheckpoint(p); err != nil {
			b.Fatal(err)
		}
	} else {
		ck = chattest.Checkpoint(b, chat.HistoryObservations)
	}
	set, err := chat.CheckpointSettings(ck)
	if err != nil {
		b.Fatal(err)
	}
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set, MaxBatch: 64})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	srv := httptest.NewServer((&serve.Server{Model: eng, Name: "gemgo"}).Handler())
	defer srv.Close()
	body := []byte(`{"temperature":0,"messages":[{"role":"user","content":"Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}."},{"role":"assistant","content":"\\boxed{3}"},{"role":"user","content":"3: higher"}]}`)
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	var left atomic.Int64
	left.Store(int64(b.N))
	batches0 := eng.Batches.Load()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				resp, err := client.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
	b.ReportMetric(float64(b.N)/float64(max(eng.Batches.Load()-batches0, 1)), "requests/batch")
}

func BenchmarkServe1(b *testing.B)  { benchServe(b, 1) }
func BenchmarkServe32(b *testing.B) { benchServe(b, 32) }
