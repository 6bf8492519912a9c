package httpserve

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Run serves until its context ends, drains before the HTTP shutdown, and
// returns nil after a clean stop.
func TestRunServesThenDrains(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	drained := make(chan bool, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{
			Addr:    "127.0.0.1:0",
			Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hi") }),
			Grace:   2 * time.Second,
			Ready:   func(a string) { addrc <- a },
			Drain:   func(context.Context) error { drained <- true; return nil },
		})
	}()
	addr := <-addrc
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hi" {
		t.Fatalf("body %q", body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after a clean stop: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	select {
	case <-drained:
	default:
		t.Fatal("Drain was not called")
	}
	if _, err := http.Get("http://" + addr + "/"); err == nil {
		t.Fatal("the server still answers after Run returned")
	}
}

// A port in use is an error naming the address and the fix.
func TestRunPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = Run(context.Background(), Config{Addr: ln.Addr().String(), Handler: http.NotFoundHandler()})
	if err == nil || !strings.Contains(err.Error(), ln.Addr().String()) || !strings.Contains(err.Error(), "-addr") {
		t.Fatalf("got %v", err)
	}
}
