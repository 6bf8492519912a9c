package httpserve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The helper server: with GEMGO_HTTPSERVE_HELPER set, the test binary is a
// server with the default limits that prints its address and serves until
// its stdin closes. The tests run it under a low open-file limit.
func TestMain(m *testing.M) {
	if os.Getenv("GEMGO_HTTPSERVE_HELPER") != "" {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
		err := Run(ctx, Config{Addr: "127.0.0.1:0", Handler: okHandler(), Grace: time.Second,
			Ready: func(a string) { fmt.Println(a) }})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// okHandler answers "ok", after reading the body when there is one.
func okHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			status := http.StatusBadRequest
			if errors.Is(err, os.ErrDeadlineExceeded) {
				status = http.StatusRequestTimeout
			}
			http.Error(w, err.Error(), status)
			return
		}
		_, _ = io.WriteString(w, "ok")
	})
}

// startRun serves h with lim on a loopback port until the test ends.
func startRun(t *testing.T, h http.Handler, lim Limits) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Addr: "127.0.0.1:0", Handler: h, Grace: 2 * time.Second, Limits: lim,
			Ready: func(a string) { addrc <- a }})
	}()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return addr
}

// openIdle opens n keep-alive connections to addr, each sending one GET and
// reading its answer, then staying silent, 32 at a time. A connection the
// server does not answer within 3 s is kept open unanswered. It returns
// the connections (closed, with a reset, when the test ends) and how many
// were answered.
func openIdle(t *testing.T, addr string, n int) ([]net.Conn, int) {
	t.Helper()
	conns := make([]net.Conn, n)
	var answered atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				c, err := net.DialTimeout("tcp", addr, 3*time.Second)
				if err != nil {
					continue
				}
				conns[i] = c
				_ = c.SetDeadline(time.Now().Add(3 * time.Second))
				if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
					continue
				}
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					answered.Add(1)
				}
				_ = c.SetDeadline(time.Time{})
			}
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range conns {
			if c != nil {
				_ = c.(*net.TCPConn).SetLinger(0) // no TIME_WAIT left behind
				_ = c.Close()
			}
		}
	})
	var held []net.Conn
	for _, c := range conns {
		if c != nil {
			held = append(held, c)
		}
	}
	return held, int(answered.Load())
}

// stillOpen counts the connections the server has not closed: a read
// returns EOF (or a reset) on a closed one and times out on an open one.
func stillOpen(conns []net.Conn) int {
	deadline := time.Now().Add(500 * time.Millisecond)
	var open atomic.Int64
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetReadDeadline(deadline)
			var b [1]byte
			if _, err := c.Read(b[:]); errors.Is(err, os.ErrDeadlineExceeded) {
				open.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(open.Load())
}

// timedGet answers the status of GET url on a fresh connection and how
// long it took; the client gives up after 20 s.
func timedGet(url string) (int, time.Duration, error) {
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	t0 := time.Now()
	resp, err := client.Get(url)
	if err != nil {
		return 0, time.Since(t0), err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, time.Since(t0), nil
}

// With every slot held by an idle keep-alive connection, a new request
// still answers: the server closes the longest idle connection to make
// room. Scale: a cap of 200 and 1,000 idle connections. Without the
// eviction the request waits for the idle timeout (set to a minute here);
// the bound, 5 s, is generous for a loaded 2-core machine.
func TestIdleConnectionsLeaveRoom(t *testing.T) {
	addr := startRun(t, okHandler(), Limits{MaxConns: 200, IdleTimeout: time.Minute})
	conns, answered := openIdle(t, addr, 1000)
	if answered != 1000 {
		t.Fatalf("%d of 1000 connections answered: a new connection must evict an idle one", answered)
	}
	if n := stillOpen(conns); n > 200 {
		t.Fatalf("%d idle connections still open; the cap is 200", n)
	}
	code, took, err := timedGet("http://" + addr + "/")
	if err != nil || code != http.StatusOK || took > 5*time.Second {
		t.Fatalf("a request behind 1,000 idle connections: status %d in %s, err %v", code, took, err)
	}
}

// A connection that is busy (its request's body still arriving) is never
// evicted; a new one waits for room, which BodyTimeout frees.
func TestBusyConnectionsAreNotEvicted(t *testing.T) {
	addr := startRun(t, okHandler(), Limits{MaxConns: 2, BodyTimeout: 1500 * time.Millisecond})
	var busy []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab"); err != nil {
			t.Fatal(err)
		}
		busy = append(busy, c)
	}
	time.Sleep(200 * time.Millisecond) // both are being read
	code, took, err := timedGet("http://" + addr + "/")
	if err != nil || code != http.StatusOK {
		t.Fatalf("status %d, err %v", code, err)
	}
	// the new request waited for a body deadline (1.5 s after the start)
	if took < time.Second {
		t.Fatalf("answered in %s: a busy connection was evicted", took)
	}
	for _, c := range busy {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("the slow body got no answer: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
			t.Fatalf("the slow body: status %d, close %v; want 408 and Connection: close", resp.StatusCode, resp.Close)
		}
	}
}

// A client trickling its body is cut at BodyTimeout: the handler's read
// fails with a deadline error and the connection closes. Without the
// deadline it is held as long as the client trickles (here 20 s; the
// bound 6 s is generous against the 1 s deadline).
func TestSlowBodyIsCut(t *testing.T) {
	addr := startRun(t, okHandler(), Limits{BodyTimeout: time.Second})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // 1,000 bytes a second, for 20 s at most
		for range 200 {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := c.Write([]byte(strings.Repeat("x", 100))); err != nil {
				return
			}
		}
	}()
	t0 := time.Now()
	_ = c.SetReadDeadline(t0.Add(20 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to the slow body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "did not arrive within 1s") {
		t.Fatalf("status %d %q", resp.StatusCode, body)
	}
	if _, err := br.ReadByte(); err == nil {
		t.Fatal("the connection stays open after a cut body")
	}
	if took := time.Since(t0); took > 6*time.Second {
		t.Fatalf("cut after %s", took)
	}
}

// A handler that works longer than BodyTimeout after reading its body is
// not cancelled: the deadline ends with the body.
func TestLongHandlerAfterBody(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		select {
		case <-time.After(1200 * time.Millisecond):
			_, _ = io.WriteString(w, "done")
		case <-r.Context().Done():
			http.Error(w, "cancelled", http.StatusServiceUnavailable)
		}
	})
	addr := startRun(t, h, Limits{BodyTimeout: 300 * time.Millisecond})
	resp, err := http.Post("http://"+addr+"/", "text/plain", strings.NewReader("body"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "done" {
		t.Fatalf("got %d %q: the body deadline cancelled the handler", resp.StatusCode, b)
	}
}

// The limits are checked; zero means the default; the cap stays under
// 3/4 of the open-file limit.
func TestLimitsDefaults(t *testing.T) {
	if err := (Limits{MaxConns: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "max connections = -1") {
		t.Fatalf("got %v", err)
	}
	if err := (Limits{BodyTimeout: -time.Second}).Validate(); err == nil || !strings.Contains(err.Error(), "body timeout") {
		t.Fatalf("got %v", err)
	}
	got := Limits{}.withDefaults(0)
	want := Limits{MaxConns: DefaultMaxConns, IdleTimeout: DefaultIdleTimeout, HeaderTimeout: DefaultHeaderTimeout, BodyTimeout: DefaultBodyTimeout}
	if got != want {
		t.Fatalf("got %+v", got)
	}
	if n := (Limits{}).withDefaults(1024).MaxConns; n != 768 {
		t.Fatalf("cap under a 1024-file limit: %d", n)
	}
	if n := (Limits{MaxConns: 10}).withDefaults(1 << 20).MaxConns; n != 10 {
		t.Fatalf("cap: %d", n)
	}
}

// startHelper runs the helper server under an open-file limit of nofile
// (soft and hard) and returns its address.
func startHelper(t *testing.T, nofile int) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$0"`, nofile), exe)
	cmd.Env = append(os.Environ(), "GEMGO_HTTPSERVE_HELPER=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the helper server did not start: %v", err)
	}
	return strings.TrimSpace(line)
}

// A server whose open-file limit is 512 (so its default cap is 384) keeps
// answering behind 1,000 idle keep-alive connections. Without the cap the
// server runs out of descriptors (accept: too many open files) and a new
// request is never answered.
func TestIdleConnectionsUnderFileLimit(t *testing.T) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Max < 512 || r.Cur < 1200 {
		t.Skipf("needs an open-file limit of 1,200 here and 512 for the server: %+v %v", r, err)
	}
	addr := startHelper(t, 512)
	_, answered := openIdle(t, addr, 1000)
	code, took, err := timedGet("http://" + addr + "/")
	if err != nil || code != http.StatusOK || took > 5*time.Second {
		t.Fatalf("after 1,000 idle connections (%d answered): status %d in %s, err %v", answered, code, took, err)
	}
	if answered != 1000 {
		t.Fatalf("%d of 1,000 connections answered", answered)
	}
}

// The documented scale, with the default limits: 20,000 idle keep-alive
// connections (as many as this process's open-file limit allows, less
// 200), then a request answers within 1 s (the bound here is 5 s, for a
// loaded machine).
func TestIdleConnectionsDefaultScale(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 20,000 connections")
	}
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		t.Fatal(err)
	}
	if r.Cur < 2200 {
		t.Skipf("the open-file limit, %d, leaves too few connections", r.Cur)
	}
	n := int(min(20000, r.Cur-200))
	addr := startHelper(t, int(r.Max))
	t0 := time.Now()
	_, answered := openIdle(t, addr, n)
	t.Logf("%d idle connections opened in %s, %d answered", n, time.Since(t0), answered)
	code, took, err := timedGet("http://" + addr + "/")
	if err != nil || code != http.StatusOK || took > 5*time.Second {
		t.Fatalf("after %d idle connections: status %d in %s, err %v", n, code, took, err)
	}
	t.Logf("a request behind them: %s", took)
}

// At the cap an idle connection, already served, makes room before a new
// one whose request may still be on its way, even a newer idle one before
// an older silent one.
func TestIdleEvictedBeforeNew(t *testing.T) {
	addr := startRun(t, okHandler(), Limits{MaxConns: 2, IdleTimeout: time.Minute})
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	time.Sleep(200 * time.Millisecond) // accepted before the idle one
	served, answered := openIdle(t, addr, 1)
	if answered != 1 {
		t.Fatal("the second connection was not answered")
	}
	code, _, err := timedGet("http://" + addr + "/")
	if err != nil || code != http.StatusOK {
		t.Fatalf("a third connection: status %d, err %v", code, err)
	}
	if n := stillOpen(served); n != 0 {
		t.Error("the idle connection is still open: the new one must have evicted it")
	}
	if n := stillOpen([]net.Conn{silent}); n != 1 {
		t.Error("the silent new connection was closed before the idle one")
	}
}
