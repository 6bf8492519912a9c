package serve_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/serve"
)

// benchServe measures requests/s of clients concurrent clients, each
// sending the greedy request body over loopback HTTP one after another
// (the clients run on the same cores as the server).
func benchServe(b *testing.B, ck *policy.Checkpoint, body []byte, clients int) {
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

// BenchmarkServe serves one conversation of GuessTheNumber-easy (the
// instructions, a guess, its feedback) to 1 and to 32 clients, with two
// models: small (chattest's 1 layer of d = 32, the brief instructions:
// about 30 prompt tokens), d64 (2 layers of d = 64, 4 heads, the env's
// full instructions) and d128 (4 layers of d = 128, 8 heads, the same). GEMGO_SERVE_CHECKPOINT (e.g. a run's
// final.safetensors) serves that checkpoint instead, with the brief
// conversation.
func BenchmarkServe(b *testing.B) {
	type model struct {
		name string
		ck   func() *policy.Checkpoint
		opts map[string]any
	}
	models := []model{
		{"small", func() *policy.Checkpoint { return chattest.Checkpoint(b, chat.HistoryObservations) }, chattest.Options()},
		{"d64", func() *policy.Checkpoint {
			return chattest.Sized(b, chat.HistoryObservations, chattest.Size{Layers: 2, DModel: 64, Heads: 4, Context: 192}, fullOptions)
		}, fullOptions},
		{"d128", func() *policy.Checkpoint {
			return chattest.Sized(b, chat.HistoryObservations, chattest.Size{Layers: 4, DModel: 128, Heads: 8, Context: 192}, fullOptions)
		}, fullOptions},
	}
	if p := os.Getenv("GEMGO_SERVE_CHECKPOINT"); p != "" {
		ck, err := policy.LoadCheckpoint(p)
		if err != nil {
			b.Fatal(err)
		}
		models = []model{{"checkpoint", func() *policy.Checkpoint { return ck }, chattest.Options()}}
	}
	for _, m := range models {
		b.Run(m.name, func(b *testing.B) { // builds the model only when its benchmarks run
			ck, body := m.ck(), conversation(b, m.opts)
			for _, clients := range []int{1, 32} {
				b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) { benchServe(b, ck, body, clients) })
			}
		})
	}
}

// fullOptions are GuessTheNumber-easy's options with its full instructions.
var fullOptions = map[string]any{"partial_credit": false}

// conversation is a greedy chat request: the env's first observation under
// options, the guess 3 and the env's answer to it.
func conversation(b *testing.B, options map[string]any) []byte {
	e, err := builtin.Registry().Make(chattest.EnvID, envs.FromMap(options)...)
	if err != nil {
		b.Fatal(err)
	}
	obs, _, err := e.Reset(1)
	if err != nil {
		b.Fatal(err)
	}
	st, err := e.Step(`\boxed{3}`)
	if err != nil {
		b.Fatal(err)
	}
	type msg struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	body, err := json.Marshal(map[string]any{"temperature": 0, "messages": []msg{{"user", obs}, {"assistant", `\boxed{3}`}, {"user", st.Obs}}})
	if err != nil {
		b.Fatal(err)
	}
	return body
}
