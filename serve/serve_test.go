package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/serve"
	"github.com/stretchr/testify/require"
)

func newServer(t testing.TB, cfg chat.EngineConfig) (*httptest.Server, *chat.Engine) {
	t.Helper()
	ck := chattest.Checkpoint(t, chat.HistoryObservations)
	set, err := chat.CheckpointSettings(ck)
	require.NoError(t, err)
	cfg.Name, cfg.Settings = "tiny", set
	eng, err := chat.NewEngine(ck, cfg)
	require.NoError(t, err)
	srv := httptest.NewServer((&serve.Server{Model: eng, Name: "tiny", Now: func() time.Time { return time.Unix(100, 0) }}).Handler())
	t.Cleanup(func() { srv.Close(); eng.Close() })
	return srv, eng
}

const obs = `Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}.`

func post(t testing.TB, url, body string) (int, map[string]any, http.Header) {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "every answer is JSON: %s", b)
	return resp.StatusCode, m, resp.Header
}

func TestCompletionsAndModels(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	code, m, _ := post(t, srv.URL, `{"model":"tiny","temperature":0,"n":2,"max_tokens":6,"seed":3,"stop":["}"],"messages":[{"role":"system","content":"x"},{"role":"user","content":"`+obs+`"}]}`)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "chat.completion", m["object"])
	require.Equal(t, "tiny", m["model"])
	require.EqualValues(t, 100, m["created"])
	choices := m["choices"].([]any)
	require.Len(t, choices, 2)
	c := choices[0].(map[string]any)
	require.Equal(t, "assistant", c["message"].(map[string]any)["role"])
	require.Contains(t, []any{"stop", "length"}, c["finish_reason"])
	require.NotContains(t, c["message"].(map[string]any)["content"], "}", "stop strings cut the answer")
	u := m["usage"].(map[string]any)
	require.Equal(t, u["prompt_tokens"].(float64)+u["completion_tokens"].(float64), u["total_tokens"])
	require.LessOrEqual(t, u["completion_tokens"].(float64), 12.0, "max_tokens 6 per choice")

	resp, err := http.Get(srv.URL + "/v1/models")
	require.NoError(t, err)
	var list struct {
		Object string `json:"object"`
		Data   []struct{ ID, Object string }
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	resp.Body.Close()
	require.Equal(t, "list", list.Object)
	require.Equal(t, "tiny", list.Data[0].ID)
}

func TestErrorsAreOpenAIShaped(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	user := `[{"role":"user","content":"hi"}]`
	for _, c := range []struct {
		body, param string
		status      int
	}{
		{`{"messages":` + user + `,"temperature":7}`, "temperature", 400},
		{`{"messages":[]}`, "messages", 400},
		{`{"messages":` + user + `,"n":0}`, "n", 400},
		{`{"messages":` + user + `,"max_completion_tokens":0}`, "max_completion_tokens", 400},
		{`{"messages":` + user + `,"stream":true}`, "stream", 400},
		{`{"model":"gpt-9","messages":` + user + `}`, "model", 404},
		{`{"messages": [`, "", 400},
	} {
		code, m, _ := post(t, srv.URL, c.body)
		require.Equal(t, c.status, code, c.body)
		e := m["error"].(map[string]any)
		require.NotEmpty(t, e["message"])
		require.NotEmpty(t, e["type"])
		if c.param != "" {
			require.Equal(t, c.param, e["param"], c.body)
		}
	}
	resp, err := http.Get(srv.URL + "/v1/chat/completions")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	resp, err = http.Get(srv.URL + "/v2/nothing")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestFullQueueAnswers429(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{Queue: 1, MaxBatch: 1})
	body := `{"temperature":1,"n":16,"max_tokens":40,"messages":[{"role":"user","content":"` + obs + `"}]}`
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < 48; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, m, h := post(t, srv.URL, body)
			mu.Lock()
			defer mu.Unlock()
			codes[code]++
			if code == http.StatusTooManyRequests {
				require.Equal(t, "1", h.Get("Retry-After"))
				require.Equal(t, "rate_limit_exceeded", m["error"].(map[string]any)["code"])
			}
		}()
	}
	wg.Wait()
	require.Positive(t, codes[http.StatusTooManyRequests], "%v", codes)
	require.Positive(t, codes[http.StatusOK], "%v", codes)
	require.Equal(t, 48, codes[200]+codes[429], "%v", codes)
}

// Shutdown lets the request in flight finish, then ListenAndServe returns.
func TestGracefulShutdown(t *testing.T) {
	ck := chattest.Checkpoint(t, chat.HistoryObservations)
	set, _ := chat.CheckpointSettings(ck)
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set})
	require.NoError(t, err)
	defer eng.Close()
	slow := slowModel{eng, 300 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- (&serve.Server{Model: slow, Name: "gemgo"}).ListenAndServe(ctx, "127.0.0.1:0", 5*time.Second, func(a string) { addr <- a })
	}()
	url := "http://" + <-addr
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewBufferString(`{"messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			got <- -1
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	time.Sleep(100 * time.Millisecond) // the request is in flight
	cancel()
	require.Equal(t, http.StatusOK, <-got, "the request in flight is answered")
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("ListenAndServe did not return after the shutdown")
	}
	_, err = http.Get(url + "/v1/models")
	require.Error(t, err, "the server no longer accepts")
}

type slowModel struct {
	m     chat.Model
	delay time.Duration
}

func (s slowModel) Complete(ctx context.Context, r chat.Request) (chat.Response, error) {
	time.Sleep(s.delay)
	return s.m.Complete(ctx, r)
}
