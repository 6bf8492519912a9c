package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/internal/nginxtest"
)

// TestMain lets a test start the command as a process of its own: the test
// binary runs main when asMain is set in its environment, so the replicas
// are real envserver processes (signals, drain, exit status) without a
// separate build.
func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

const asMain = "GEMGO_TEST_ENVSERVER_MAIN"

// replica is a cmd/envserver process on a loopback port.
type replica struct {
	cmd    *exec.Cmd
	addr   string
	exited chan struct{} // closed when it has exited, with err
	err    error
	mu     sync.Mutex
	stderr strings.Builder
}

func (r *replica) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stderr.String()
}

var listening = regexp.MustCompile(`listening on ws://(\S+)/ws`)

// startReplica starts envserver with args on a free loopback port and
// waits (at most 30 s) until it listens; it is killed when the test ends
// if it still runs.
func startReplica(t *testing.T, args ...string) *replica {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	r := &replica{cmd: cmd, exited: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			r.mu.Lock()
			r.stderr.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, pipe)
		r.err = cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // a no-op error once it has exited
		select {
		case <-r.exited:
		case <-time.After(10 * time.Second):
		}
	})
	select {
	case r.addr = <-addr:
	case <-r.exited:
		t.Fatalf("envserver exited before listening: %v\n%s", r.err, r.log())
	case <-time.After(30 * time.Second):
		t.Fatalf("envserver did not listen within 30 s\n%s", r.log())
	}
	return r
}

// episode is one episode's record: the reset's observation and each
// turn's action and step.
type episode struct {
	Obs   string
	Info  envs.Info
	Turns []turn
}

type turn struct {
	Action string
	Step   envs.Step
}

// playEpisode plays one episode of env with its SampleAction and rng;
// pause, when not nil, runs before the turn it names.
func playEpisode(env envs.Env, seed uint64, rng *rand.Rand, pauseAt int, pause func() error) (episode, error) {
	sampler, ok := envs.SamplerOf(env)
	if !ok {
		return episode{}, fmt.Errorf("env has no SampleAction")
	}
	obs, info, err := env.Reset(seed)
	if err != nil {
		return episode{}, err
	}
	ep := episode{Obs: obs, Info: info}
	for i := 0; i < 200; i++ {
		if i == pauseAt && pause != nil {
			if err := pause(); err != nil {
				return ep, err
			}
		}
		a := sampler.SampleAction(rng)
		st, err := env.Step(a)
		if err != nil {
			return ep, fmt.Errorf("turn %d: %w", i, err)
		}
		ep.Turns = append(ep.Turns, turn{a, st})
		if st.Done() {
			return ep, nil
		}
	}
	return ep, fmt.Errorf("no end within 200 turns")
}

const nginxEnv = "game:GuessTheNumber-v0-hard"

// Three envserver replicas behind Debian's nginx: 64 sessions play two
// episodes each through the balancer; in the middle of the first
// episodes one replica is sent SIGTERM. Its sessions reconnect through
// nginx to the other replicas and replay their episodes, so no episode is
// lost and every one equals the same episode played in-process (random
// actions included: they are drawn from the client's RNG).
func TestReplicasBehindNginx(t *testing.T) {
	if nginxtest.Binary() == "" {
		t.Skip("nginx is not installed: apt-get install nginx")
	}
	reps := make([]*replica, 3)
	var addrs []string
	for i := range reps {
		reps[i] = startReplica(t, "-env", nginxEnv)
		addrs = append(addrs, reps[i].addr)
	}
	lb := nginxtest.Start(t, addrs)

	const sessions, pauseAt = 64, 3
	seedOf := func(s, ep int) uint64 { return uint64(1000*ep + s) }
	rngOf := func(s int) *rand.Rand { return rand.New(rand.NewPCG(uint64(s), 42)) }
	want := make([][2]episode, sessions)
	for s := range want {
		local, err := builtin.Registry().Make(nginxEnv)
		require.NoError(t, err)
		rng := rngOf(s)
		for ep := range 2 {
			want[s][ep], err = playEpisode(local, seedOf(s, ep), rng, -1, nil)
			require.NoError(t, err)
		}
		_ = envs.Close(local)
	}

	// Every wait below is bounded by ctx: a lost session fails the test
	// within 3 minutes instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var paused, done sync.WaitGroup
	paused.Add(sessions)
	done.Add(sessions)
	resume := make(chan struct{})
	got := make([][2]episode, sessions)
	errs := make([]error, sessions)
	reconnects := make([]int, sessions)
	start := time.Now()
	for s := range sessions {
		go func() {
			defer done.Done()
			pausedOnce := sync.OnceFunc(paused.Done)
			defer pausedOnce()
			env, err := client.Dial(ctx, "ws://"+lb, nginxEnv)
			if err != nil {
				errs[s] = err
				return
			}
			defer envs.Close(env)
			wait := func() error {
				pausedOnce()
				select {
				case <-resume:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			rng := rngOf(s)
			for ep := range 2 {
				got[s][ep], err = playEpisode(env, seedOf(s, ep), rng, pauseAt, wait)
				if err != nil {
					errs[s] = fmt.Errorf("episode %d: %w", ep, err)
					return
				}
				if ep == 0 {
					if err := wait(); err != nil { // a first episode shorter than pauseAt turns
						errs[s] = err
						return
					}
				}
			}
			reconnects[s] = env.(interface{ Reconnects() int }).Reconnects()
		}()
	}
	waitGroup(t, ctx, &paused, "the sessions to reach turn 3")
	victim := reps[1]
	require.NoError(t, victim.cmd.Process.Signal(syscall.SIGTERM))
	killed := time.Now()
	close(resume)
	waitGroup(t, ctx, &done, "the sessions to finish")
	finished := time.Now()

	select {
	case <-victim.exited:
		assert.NoError(t, victim.err, "a drained replica exits 0\n%s", victim.log())
	case <-ctx.Done():
		t.Fatalf("the stopped replica did not exit\n%s", victim.log())
	}
	m := regexp.MustCompile(`draining (\d+) sessions`).FindStringSubmatch(victim.log())
	require.NotNil(t, m, victim.log())
	drained, _ := strconv.Atoi(m[1])
	steps, moved, total := 0, 0, 0
	for s := range sessions {
		require.NoError(t, errs[s], "session %d", s)
		for ep := range 2 {
			assert.Equal(t, want[s][ep], got[s][ep], "session %d episode %d", s, ep)
			steps += len(got[s][ep].Turns)
		}
		total += reconnects[s]
		if reconnects[s] > 0 {
			moved++
		}
	}
	assert.Greater(t, drained, 0, "nginx gave the stopped replica sessions")
	assert.Equal(t, drained, moved, "every session of the stopped replica, and only those, reconnected")
	t.Logf("%d sessions, %d episodes, %d steps in %s; SIGTERM to one replica mid-episode: %d sessions drained, %d reconnects, all done %s after the signal",
		sessions, 2*sessions, steps, finished.Sub(start).Round(time.Millisecond), drained, total, finished.Sub(killed).Round(time.Millisecond))
}

// waitGroup waits for wg or fails the test when ctx ends first.
func waitGroup(t *testing.T, ctx context.Context, wg *sync.WaitGroup, what string) {
	t.Helper()
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	select {
	case <-ch:
	case <-ctx.Done():
		t.Fatalf("timed out waiting for %s", what)
	}
}
