package nginxtest

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Config is an nginx.conf that listens on listen (host:port) and balances
// WebSocket sessions and HTTP requests over upstreams (host:port each),
// writing its pid, logs and temp files under dir. runAs ("user group"),
// when not empty, is the user nginx's workers run as (nginx reads it only
// when started by root).
func Config(dir, listen string, upstreams []string, runAs string) string {
	var b strings.Builder
	b.WriteString("# nginx in front of cmd/envserver replicas (WebSocket sessions at /ws).\n")
	b.WriteString("daemon off;\nworker_processes 1;\n")
	if runAs != "" {
		fmt.Fprintf(&b, "user %s;\n", runAs)
	}
	fmt.Fprintf(&b, "pid %s;\nerror_log %s info;\n", filepath.Join(dir, "nginx.pid"), filepath.Join(dir, "error.log"))
	b.WriteString("events { worker_connections 1024; }\n\nhttp {\n")
	fmt.Fprintf(&b, "    access_log %s;\n", filepath.Join(dir, "access.log"))
	for _, t := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		fmt.Fprintf(&b, "    %s_temp_path %s;\n", t, filepath.Join(dir, t))
	}
	b.WriteString(`
    # A WebSocket upgrade is passed on; other requests (/health) are not.
    map $http_upgrade $connection_upgrade {
        default upgrade;
        ''      close;
    }

    upstream envservers {
        # A replica that refuses a connection is left out for 10 s.
`)
	for _, u := range upstreams {
		fmt.Fprintf(&b, "        server %s max_fails=1 fail_timeout=10s;\n", u)
	}
	fmt.Fprintf(&b, `    }

    server {
        listen %s;
        location / {
            proxy_pass http://envservers;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            # A session may wait long between messages (a slow policy).
            proxy_read_timeout 3600s;
            proxy_send_timeout 3600s;
            proxy_connect_timeout 5s;
            # A connection refused (a replica gone) or a 503 (a draining
            # replica's /health, /reset) tries the next replica; a session
            # that a draining replica refuses is retried by the client.
            proxy_next_upstream error timeout http_502 http_503;
        }
    }
}
`, listen)
	return b.String()
}

// Binary returns nginx's path, or "" when it is not installed.
func Binary() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil { // not on a non-root PATH
		return "/usr/sbin/nginx"
	}
	return ""
}

// Start runs nginx in front of upstreams (host:port each) until the test
// ends and returns the address it listens on (127.0.0.1:port). It skips
// the test when nginx is not installed.
func Start(t testing.TB, upstreams []string) string {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skip("nginx is not installed: apt-get install nginx")
	}
	dir := t.TempDir()
	runAs := ""
	if os.Geteuid() == 0 { // root's workers would run as nobody, who cannot write dir
		if u, err := user.Current(); err == nil {
			if g, err := user.LookupGroupId(u.Gid); err == nil {
				runAs = u.Username + " " + g.Name
			}
		}
	}
	var lastErr error
	for range 5 { // a free port, then taken by nginx: another process may win it
		listen := freePort(t)
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, []byte(Config(dir, listen, upstreams, runAs)), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", conf)
		cmd.Stdout, cmd.Stderr = &stderr, &stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its workers with it, should it be killed
		if err := cmd.Start(); err != nil {
			t.Fatalf("start nginx: %v", err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		if err := waitReady(listen, exited); err != nil {
			stop(cmd, exited)
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			lastErr = fmt.Errorf("%v\n%s%s", err, stderr.String(), log)
			continue
		}
		t.Cleanup(func() { stop(cmd, exited) })
		return listen
	}
	t.Fatalf("nginx did not start: %v", lastErr)
	return ""
}

// waitReady waits (at most 20 s) until nginx answers /health, or exits.
func waitReady(listen string, exited <-chan error) error {
	deadline := time.Now().Add(20 * time.Second)
	c := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("nginx exited: %v", err)
		default:
		}
		if resp, err := c.Get("http://" + listen + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("nginx on %s did not answer /health within 20 s", listen)
}

// stop asks nginx to stop at once (SIGTERM), waiting at most 10 s
// before killing it and its workers (its process group).
func stop(cmd *exec.Cmd, exited <-chan error) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
}

// freePort returns a loopback address no one listens on now.
func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
