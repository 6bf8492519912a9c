// Package slurmtest gives tests a one-node Slurm cluster on localhost:
// Start runs scripts/slurm_local.sh (munged, slurmctld and slurmd from
// Debian's slurm-wlm and munge, every file in the test's temporary
// directory, ports of its own) and stops it, with any job still queued,
// when the test ends. It skips the test, with the install line or the
// reason, where the packages are missing, the test is not root or the
// daemons cannot start.
package slurmtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Install is the line that installs what Start needs.
const Install = "apt-get install slurm-wlm munge"

// Bounds on the waits of Start and its cleanup. The daemons start in
// about two seconds on a busy 2-core machine and stop in well under one.
const (
	startBound = 60 * time.Second
	stopBound  = 30 * time.Second
)

// Cluster is a running one-node cluster.
type Cluster struct {
	Conf string // its slurm.conf: SLURM_CONF for the client commands
	Dir  string // its directory: the config, state and daemon logs
}

// Start starts a cluster for t and stops it when t ends. It skips t when
// the cluster cannot run here.
func Start(t testing.TB) *Cluster {
	t.Helper()
	for _, bin := range []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"} {
		if _, err := lookPath(bin); err != nil {
			t.Skipf("slurm: %s is not installed (%s)", bin, Install)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("slurm: the local cluster needs root (slurmd starts jobs as their users)")
	}
	script, err := script()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ports := freePorts(t, 2)
	cmd := exec.Command("bash", script, "-stdin", dir)
	cmd.Env = append(os.Environ(), "SLURMCTLD_PORT="+strconv.Itoa(ports[0]), "SLURMD_PORT="+strconv.Itoa(ports[1]))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the daemons too: one group to kill if the script cannot stop them
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", script, err)
	}
	exited := make(chan struct{}) // closed when the script has exited, waitErr set
	var waitErr error
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if conf, ok := strings.CutPrefix(sc.Text(), "ready: export SLURM_CONF="); ok {
				ready <- conf
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		waitErr = cmd.Wait()
		close(exited)
	}()
	c := &Cluster{Dir: dir}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		if c.Conf != "" {
			c.cancelAll()
		}
		// The script stops the daemons on SIGTERM, and when its input ends
		// (as it does if the test process dies first).
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = stdin.Close()
		select {
		case <-exited:
		case <-time.After(stopBound):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
			t.Errorf("slurm: the cluster did not stop within %s; killed it: %s", stopBound, stderr.String())
		}
		killLeftovers(dir)
	}
	t.Cleanup(stop)
	select {
	case c.Conf = <-ready:
		return c
	case <-exited:
		stop()
		t.Skipf("slurm: the local cluster cannot start here (%v): %s", waitErr, tail(stderr.String(), 1500))
	case <-time.After(startBound):
		stop()
		t.Skipf("slurm: the local cluster is not ready after %s: %s", startBound, tail(stderr.String(), 1500))
	}
	return nil
}

// Run runs a Slurm client command (sbatch, squeue, …) against c and
// returns its standard output; an error carries its standard error.
func (c *Cluster) Run(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.Conf)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), nil
}

// Submit runs sbatch --parsable with args and returns the job id.
func (c *Cluster) Submit(t testing.TB, args ...string) string {
	t.Helper()
	out, err := c.Run(context.Background(), "sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "id;cluster" on multi-cluster setups
	return id
}

// Wait returns when no task of job id is pending or running; it fails t
// after bound.
func (c *Cluster) Wait(t testing.TB, id string, bound time.Duration) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		out, err := c.Run(context.Background(), "squeue", "-h", "-j", id, "-o", "%i %T")
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(out) == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("slurm: job %s is not done after %s:\n%s", id, bound, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// States maps each finished or queued task of job id (its array index,
// or "" for a job that is no array) to its state (COMPLETED, CANCELLED,
// FAILED, …), as the controller remembers them (MinJobAge in
// slurm_local.sh keeps them ten minutes).
func (c *Cluster) States(t testing.TB, id string) map[string]string {
	t.Helper()
	out, err := c.Run(context.Background(), "scontrol", "-o", "show", "job", id)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var task, state string
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "ArrayTaskId="); ok {
				task = v
			}
			if v, ok := strings.CutPrefix(f, "JobState="); ok {
				state = v
			}
		}
		if state != "" {
			states[task] = state
		}
	}
	return states
}

// cancelAll cancels every job of the cluster (a test that failed in the
// middle leaves some) and waits, bounded, for their steps to end.
func (c *Cluster) cancelAll() {
	ctx, cancel := context.WithTimeout(context.Background(), stopBound)
	defer cancel()
	if _, err := c.Run(ctx, "scancel", "--user=root"); err != nil {
		return
	}
	for ctx.Err() == nil {
		if out, err := c.Run(ctx, "squeue", "-h"); err != nil || strings.TrimSpace(out) == "" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// killLeftovers kills any daemon whose pid file is still in dir with a
// live process: the script's own stop failed to.
func killLeftovers(dir string) {
	for _, f := range []string{"slurmd.pid", "slurmctld.pid", "munge/munged.pid"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 && syscall.Kill(pid, 0) == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// script finds scripts/slurm_local.sh above the working directory (a
// test runs in its package's directory).
func script() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "scripts", "slurm_local.sh"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("slurmtest: no go.mod above the working directory: scripts/slurm_local.sh is in the repository's root")
		}
		dir = parent
	}
}

// lookPath finds bin on PATH or in /usr/sbin, where Debian puts the
// daemons and which a user's PATH often lacks.
func lookPath(bin string) (string, error) {
	if p, err := exec.LookPath(bin); err == nil {
		return p, nil
	}
	return exec.LookPath(filepath.Join("/usr/sbin", bin))
}

// freePorts returns n loopback ports free at the time of the call.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		_ = ln.Close()
	}
	return ports
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// lockedBuffer is a bytes.Buffer that the process's writer and the test
// may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
