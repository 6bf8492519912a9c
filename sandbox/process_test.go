package sandbox_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/sandbox"
)

// TestStartServesOverPipes: a program started with Start answers over its
// pipes, runs as a uid of its own when the isolation has one, and Close
// ends it and a child it left sleeping in the background.
func TestStartServesOverPipes(t *testing.T) {
	iso := sandbox.Detect()
	if err := iso.CanRun("sh"); err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp(t.TempDir(), "dir")
	require.NoError(t, err)
	// each input line is answered with the uid and the line; a child
	// sleeps in the background, its pid written to a file; the program
	// outlives its stdin
	script := `sleep 300 & echo $! > child.pid; while read -r line; do echo "$(id -u) $line"; done; sleep 300`
	p, err := sandbox.Start(context.Background(), sandbox.Spec{Cmd: []string{"sh", "-c", script}, Dir: dir,
		Limits: sandbox.Limits{Wall: 300 * time.Second, CPU: 10 * time.Second}}, iso)
	require.NoError(t, err)
	r := bufio.NewReader(p.Stdout)
	_, err = p.Stdin.Write([]byte("hello\n"))
	require.NoError(t, err)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	uid, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	require.Equal(t, "hello", rest)
	if iso.Unprivileged {
		require.NotEqual(t, "0", uid, "the program runs as a uid of its own")
	}
	var child int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(dir + "/child.pid")
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && child > 0
	}, 10*time.Second, 10*time.Millisecond)
	start := time.Now()
	require.NoError(t, p.Close())
	// Close kills at once; without its kill the program would end at its
	// wall limit, 300 s (a generous bound for a loaded machine)
	require.Less(t, time.Since(start), 60*time.Second)
	select {
	case <-p.Done():
	default:
		t.Fatal("Done is open after Close")
	}
	switch {
	case iso.Unprivileged: // no process of the run's uid is left
		ents, err := os.ReadDir("/proc")
		require.NoError(t, err)
		for _, e := range ents {
			b, err := os.ReadFile("/proc/" + e.Name() + "/status")
			if err == nil {
				require.NotContains(t, string(b), "\nUid:\t"+uid+"\t", "process %s of the run's uid outlived Close", e.Name())
			}
		}
	case !iso.OwnProc: // in a PID namespace of its own the child's pid means nothing here
		_, err := os.Stat("/proc/" + strconv.Itoa(child))
		require.True(t, os.IsNotExist(err), "the background child outlived Close")
	}
	require.NoError(t, p.Close(), "a second Close is harmless")
}

// TestStartRefusesBadDir: Start needs an existing absolute directory.
func TestStartRefusesBadDir(t *testing.T) {
	_, err := sandbox.Start(context.Background(), sandbox.Spec{Cmd: []string{"sh"}, Dir: "relative"}, sandbox.Detect())
	require.ErrorContains(t, err, "must be an existing directory given by its absolute path")
	_, err = sandbox.Start(context.Background(), sandbox.Spec{Dir: t.TempDir()}, sandbox.Detect())
	require.ErrorContains(t, err, "empty Spec.Cmd")
}
