package serve_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/serve"
)

// send posts body with the given headers and returns the status and the
// decoded JSON answer.
func send(t *testing.T, url, body string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "every answer is JSON: %s", b)
	return resp.StatusCode, m
}

func errorOf(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "an OpenAI-shaped error: %v", m)
	return e
}

const greedy = `{"temperature":0,"max_tokens":4,"messages":[{"role":"user","content":"` + obs + `"}]}`

// A body is one JSON object: garbage or a second object after it is a
// 400, white space is not.
func TestTrailingBytesRefused(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	for _, body := range []string{greedy + "garbage", greedy + greedy, greedy + " 5", greedy + "]"} {
		code, m, _ := post(t, srv.URL, body)
		require.Equal(t, http.StatusBadRequest, code, body)
		e := errorOf(t, m)
		require.Equal(t, "invalid_json", e["code"])
	}
	code, m, _ := post(t, srv.URL, greedy+" \n\t ")
	require.Equal(t, http.StatusOK, code, "%v", m)
}

// Content-part arrays are read as their text parts joined by newlines;
// other parts are refused with a 400 naming the part.
func TestContentParts(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	asString := `{"temperature":0,"max_tokens":6,"messages":[{"role":"user","content":"Guess the number\nbetween 1 and 10."}]}`
	asParts := `{"temperature":0,"max_tokens":6,"messages":[{"role":"user","content":[{"type":"text","text":"Guess the number"},{"type":"text","text":"between 1 and 10."}]}]}`
	code, a, _ := post(t, srv.URL, asString)
	require.Equal(t, http.StatusOK, code, "%v", a)
	code, b, _ := post(t, srv.URL, asParts)
	require.Equal(t, http.StatusOK, code, "%v", b)
	require.Equal(t, a["usage"], b["usage"])
	require.Equal(t, a["choices"], b["choices"])

	for body, want := range map[string]string{
		`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"http://x/y.png"}}]}]}`: `content part 0 has type "image_url": this model reads text only`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"input_audio"}]}]}`:         `content part 1 has type "input_audio"`,
		`{"messages":[{"role":"user","content":[{"type":"text"}]}]}`:                                           `content part 0: a "text" part needs its "text" string`,
		`{"messages":[{"role":"user","content":5}]}`:                                                           `content: want a string or a list of content parts`,
	} {
		code, m, _ := post(t, srv.URL, body)
		require.Equal(t, http.StatusBadRequest, code, body)
		e := errorOf(t, m)
		require.Equal(t, "messages", e["param"], body)
		require.Contains(t, e["message"], want, body)
	}
}

// A compressed body and a body that is not JSON are refused with 415
// before the body is read; a missing Content-Type is read as JSON.
func TestContentEncodingAndType(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	for _, c := range []struct {
		header map[string]string
		status int
		code   string
	}{
		{map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}, 415, "unsupported_content_encoding"},
		{map[string]string{"Content-Type": "text/plain"}, 415, "unsupported_content_type"},
		{map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, 415, "unsupported_content_type"},
		{map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_content_type"},
		{map[string]string{"Content-Type": "application/json; charset=utf-8"}, 200, ""},
		{map[string]string{"Content-Type": "application/json", "Content-Encoding": "identity"}, 200, ""},
		{map[string]string{}, 200, ""},
	} {
		code, m := send(t, srv.URL, greedy, c.header)
		require.Equal(t, c.status, code, "%v: %v", c.header, m)
		if c.code != "" {
			require.Equal(t, c.code, errorOf(t, m)["code"], "%v", c.header)
		}
	}
}

// A path that is not in canonical form gets an OpenAI-shaped 404, not
// ServeMux's plain redirect.
func TestUncleanPath(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	for _, p := range []string{"/v1/../v1/models", "/v1//models", "/v1/./chat/completions"} {
		c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
		require.NoError(t, err)
		_, err = fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", p)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		c.Close()
		require.Equal(t, http.StatusNotFound, resp.StatusCode, "%s: %s", p, b)
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m), "%s", b)
		require.Contains(t, errorOf(t, m)["message"], "not in canonical form", p)
	}
}

// fullModel's queue is always full.
type fullModel struct{}

func (fullModel) Complete(context.Context, chat.Request) (chat.Response, error) {
	return chat.Response{}, chat.ErrQueueFull
}
func (fullModel) QueueFull() bool { return true }

// With the model's queue full, a request is answered 429 before its body
// is read: here the body never comes, and the answer still does.
func TestQueueFullBeforeBody(t *testing.T) {
	srv := httptest.NewServer((&serve.Server{Model: fullModel{}, Name: "tiny"}).Handler())
	defer srv.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\n\r\n{")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "no answer while the body is missing: the server read it first")
	resp.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
}

// A body announced larger than 4 MiB is refused before it is read.
func TestTooLargeBeforeBody(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n{")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}

// Many large bodies at once are decoded a budget's worth at a time (8 MiB
// here), and a message far beyond the context is tokenized only at its
// end: 100 concurrent 1 MB messages keep the live heap small. Measured on
// a 2-core machine: 35 MB above the start with the budget, 240–280 MB
// without it; the bound is 200 MB.
func TestLargeBodiesBoundedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 100 MB")
	}
	ck := chattest.Checkpoint(t, chat.HistoryObservations)
	set, err := chat.CheckpointSettings(ck)
	require.NoError(t, err)
	set.MaxTokens = 2
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Name: "tiny", Settings: set})
	require.NoError(t, err)
	defer eng.Close()
	srv := httptest.NewServer((&serve.Server{Model: eng, Name: "tiny", DecodeBytes: 8 << 20}).Handler())
	defer srv.Close()

	words := strings.Repeat("higher lower 7 ", 1<<20/15)
	body := []byte(`{"temperature":0,"messages":[{"role":"user","content":"` + words + `"}]}`)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
		}
	}()
	tr := &http.Transport{MaxConnsPerHost: 100, MaxIdleConnsPerHost: 100}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	var ok atomic.Int64
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	growth := int64(peak.Load()) - int64(base.HeapAlloc)
	t.Logf("100 × %d-byte bodies: %d answered, peak heap %d MB above the start", len(body), ok.Load(), growth>>20)
	require.EqualValues(t, 100, ok.Load())
	require.Less(t, growth, int64(200<<20))
}
