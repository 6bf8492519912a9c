package remote_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
)

// pyScript is a script of testdata run with the package of python/ that
// stops at points the test acts at: it prints a point's name and waits
// for "go" on its standard input.
type pyScript struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr bytes.Buffer
}

func startScript(t *testing.T, py, url, script string, args ...string) *pyScript {
	t.Helper()
	// The bound is for a script that hangs; the scripts take seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	pkg, err := filepath.Abs(filepath.Join("..", "..", "python"))
	require.NoError(t, err)
	s := &pyScript{t: t}
	s.cmd = exec.CommandContext(ctx, py, append([]string{filepath.Join("testdata", script)}, args...)...)
	s.cmd.Env = append(os.Environ(), "PYTHONPATH="+pkg, "GEMGO_SERVER="+url)
	s.cmd.Stderr = &s.stderr
	s.in, err = s.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := s.cmd.StdoutPipe()
	require.NoError(t, err)
	s.out = bufio.NewScanner(stdout)
	s.out.Buffer(nil, 16<<20)
	require.NoError(t, s.cmd.Start())
	t.Cleanup(func() { _ = s.in.Close(); _ = s.cmd.Wait() })
	return s
}

// line reads the script's next line.
func (s *pyScript) line() string {
	s.t.Helper()
	if !s.out.Scan() {
		_ = s.cmd.Wait()
		s.t.Fatalf("the script ended early: %v\n%s", s.out.Err(), s.stderr.String())
	}
	return s.out.Text()
}

// at waits for the script to reach point, runs act, and lets it go on.
func (s *pyScript) at(point string, act func()) {
	s.t.Helper()
	require.Equal(s.t, point, s.line(), "%s", s.stderr.String())
	act()
	_, err := io.WriteString(s.in, "go\n")
	require.NoError(s.t, err)
}

// result decodes the script's last line into v.
func (s *pyScript) result(v any) {
	s.t.Helper()
	require.NoError(s.t, json.Unmarshal([]byte(s.line()), v), "%s", s.stderr.String())
	require.NoError(s.t, s.cmd.Wait(), "%s", s.stderr.String())
}

// moveTo points the proxy at the server at url (ws://host:port).
func moveTo(p *switchProxy, url string) {
	b := url[len("ws://"):]
	p.backend.Store(&b)
}

// drain stops srv as cmd/envserver's SIGTERM does and returns once every
// session is closed, so that the script's next call finds its connection
// closed (a call made while the shutdown is on its way would be answered).
func drain(t *testing.T, srv *remote.Server) {
	t.Helper()
	wait := stopServer(t, srv)
	require.Eventually(t, func() bool { return srv.Sessions() == 0 }, 30*time.Second, 10*time.Millisecond)
	wait()
}

// The Python package's env, as the Go client's (TestReconnectReplaysTheEpisode):
// its server goes away after two steps of random play, the env
// reconnects through the proxy to another server, replays the episode and
// goes on; between episodes the next reset goes to a third server. Each
// episode, sampled actions included, is the one the same env plays with
// no server stopped, and its observations, rewards and flags are
// in-process play's; the env reconnected once, then twice. The envs of an
// async vector env, reset before the cut, reconnect once each and play
// what they play with no server stopped.
func TestPythonPackageReconnects(t *testing.T) {
	py := pythonWithWebsockets(t)
	srvA, urlA := serve(t, remote.Config{})
	srvB, urlB := serve(t, remote.Config{})
	_, urlC := serve(t, remote.Config{})
	proxy := newSwitchProxy(t, urlA[len("ws://"):])

	s := startScript(t, py, proxy.url(), "gemgo_reconnect.py", "replay", guessID, urlC)
	s.at("cut", func() { moveTo(proxy, urlB); drain(t, srvA) })
	s.at("between", func() { moveTo(proxy, urlC); drain(t, srvB) })
	var res struct {
		Episodes         []pyEpisode `json:"episodes"`
		Control          []pyEpisode `json:"control"`
		Reconnects       []int       `json:"reconnects"`
		Vector           []any       `json:"vector"`
		VectorControl    []any       `json:"vector_control"`
		VectorReconnects []int       `json:"vector_reconnects"`
	}
	s.result(&res)
	assert.Equal(t, []int{1, 2}, res.Reconnects)
	assert.Equal(t, []int{1, 1}, res.VectorReconnects)
	require.NotEmpty(t, res.Vector)
	assert.Equal(t, res.VectorControl, res.Vector)
	require.Len(t, res.Episodes, 2)
	assert.Equal(t, res.Control, res.Episodes, "the episodes of the env that reconnected are those of one that did not")
	require.Greater(t, len(res.Episodes[0].Turns), 4, "the episode goes on after the cut")
	local, err := builtin.Registry().Make(guessID)
	require.NoError(t, err)
	defer envs.Close(local)
	for _, ep := range res.Episodes {
		replay(t, local, ep.Seed, ep.Turns, "seed "+strconv.FormatUint(ep.Seed, 10))
	}
}

// A replay that differs from the first play (the new server's guessID is
// another env, as a replica of another version would be) raises an error
// that names it, and the env stays broken; reconnect=0 raises at the
// broken connection, as the package did before it reconnected; a
// reconnect the proxy refuses counts as one, and the next call tries
// again.
func TestPythonPackageRefusesADifferentReplay(t *testing.T) {
	py := pythonWithWebsockets(t)
	srvA, urlA := serve(t, remote.Config{})
	other := envs.NewRegistry()
	require.NoError(t, other.Register(guessID, func(*envs.Options) (envs.Env, error) {
		return builtin.Registry().Make("game:GuessTheNumber-v0-easy")
	}))
	srvB, err := remote.NewServer(other, remote.Config{})
	require.NoError(t, err)
	urlB := "ws://" + newLoopback(t, srvB)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		assert.NoError(t, srvB.Shutdown(ctx))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	nowhere := "ws://" + ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	proxy := newSwitchProxy(t, urlA[len("ws://"):])

	s := startScript(t, py, proxy.url(), "gemgo_reconnect.py", "differ", guessID)
	s.at("refused", func() { moveTo(proxy, nowhere); drain(t, srvA) })
	s.at("differ", func() { moveTo(proxy, urlB) })
	var res map[string]any
	s.result(&res)

	url := proxy.url() + "/ws"
	assert.Contains(t, res["refused"], "ConnectionError: gemgo session with "+url+" broken: ConnectionClosedOK")
	assert.Contains(t, res["refused"], "a new session: "+url+" did not open a WebSocket session")
	assert.Contains(t, res["refused"], "(after 2 reconnects in a row)")
	assert.Equal(t, 0.0, res["refused_reconnects"])

	mismatch := "replaying the episode (seed 3) on a new session at " + url +
		": the reset's observation differs from the first play (is the env deterministic, and do all servers behind that URL run the same version? make a new env)"
	assert.Equal(t, "ConnectionError: gemgo env "+guessID+": "+mismatch+" (after 1 reconnects in a row)", res["first"])
	assert.Equal(t, "ConnectionError: gemgo env "+guessID+": "+mismatch, res["second"], "a failed replay stays failed")
	assert.Equal(t, 1.0, res["far_reconnects"])

	assert.Regexp(t, `^ConnectionError: gemgo session with `+regexp.QuoteMeta(url)+` broken: ConnectionClosedOK\(.*1001.*\) \(make a new env\)$`, res["off"])
	assert.Equal(t, 0.0, res["off_reconnects"])

	assert.Contains(t, res["again"], mismatch, "the env whose reconnects were refused tries again at its next call")
	assert.Equal(t, 1.0, res["again_reconnects"])
}

// A connection dropped in the middle of a sample_random_action, after the
// server asked for its random numbers (TestReconnectMidSample's proxy):
// the draw is made again on the new session with the same numbers, so the
// episode, sampled actions included, is the one played with no cut.
func TestPythonPackageReconnectsMidSample(t *testing.T) {
	py := pythonWithWebsockets(t)
	_, url := serve(t, remote.Config{})
	proxy := cuttingProxy(t, url, cutThirdSample())
	s := startScript(t, py, proxy, "gemgo_reconnect.py", "midsample", guessID, url)
	var res struct {
		Episode    pyEpisode `json:"episode"`
		Control    pyEpisode `json:"control"`
		Reconnects int       `json:"reconnects"`
	}
	s.result(&res)
	assert.Equal(t, 1, res.Reconnects)
	require.Greater(t, len(res.Episode.Turns), 4, "the episode goes on after the cut")
	assert.Equal(t, res.Control, res.Episode)
	local, err := builtin.Registry().Make(guessID)
	require.NoError(t, err)
	defer envs.Close(local)
	replay(t, local, 11, res.Episode.Turns, "seed 11")
}
