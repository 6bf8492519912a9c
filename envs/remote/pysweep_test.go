package remote_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/sandbox"
)

// Seeds of the every-id sweep's default run, chosen to keep it within go
// test's budget on 2 cores: in history mode none, where an env's own
// dynamics, rewards and flags show, 20 seeds of every id (2 of the ids
// whose steps start processes: code, terminal); in the history modes,
// whose text grows with every turn and differs from none only by
// envs.WithHistory's rendering, 5 seeds (1). GEMGO_PY_SWEEP_SEEDS=20
// (scripts/pysweep.sh) plays that many seeds of every id in every mode.
var sweepSeeds = map[string][2]int{ // mode: {seeds, seeds of a slow id}
	envs.HistoryNone:         {20, 2},
	envs.HistoryObservations: {5, 1},
	envs.HistoryActions:      {5, 1},
}

// sweepModes are the history modes of the sweep: make's history= keyword,
// which the concat wrappers set (TestPythonPackageMatchesInProcess plays
// them through the wrappers too).
var sweepModes = []string{envs.HistoryNone, envs.HistoryObservations, envs.HistoryActions}

// sweepSkip says why id cannot be played here ("" when it can): the code
// envs run python3 in the sandbox, the terminal envs score with pytest, and
// both start processes at every step (-short skips them).
func sweepSkip(id string, slow bool) string {
	if slow && testing.Short() {
		return "-short: this env starts processes at every step"
	}
	if strings.HasPrefix(id, "code:") {
		if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
			return "the code envs need a Python 3 the sandbox can run: " + err.Error()
		}
	}
	if strings.HasPrefix(id, "terminal:") {
		env, err := builtin.Registry().Make("terminal:sample", envs.With("task", "word-count"))
		if err != nil {
			return "the terminal envs score with pytest: " + err.Error() + " (apt-get install python3-pytest)"
		}
		_ = envs.Close(env)
	}
	return ""
}

// sweepJob is one id in one history mode, as the script reads it.
type sweepJob struct {
	ID      string         `json:"id"`
	Options map[string]any `json:"options,omitempty"`
	Mode    string         `json:"mode"`
	Seeds   int            `json:"seeds"`
}

// sweepResult is one line of the script's output: one job's episodes.
type sweepResult struct {
	ID       string     `json:"id"`
	Mode     string     `json:"mode"`
	Error    string     `json:"error"`
	Episodes [][]pyTurn `json:"episodes"`
}

// For every built-in id and each history mode (none, observations,
// actions), random play of seeds 0..n-1 through the Python package
// (gem.make with history=, reset, sample_random_action, step) on a
// loopback server equals in-process play of envbuild.Make with that
// history: every observation, reward, terminated and truncated flag. n is
// sweepSeeds's, or GEMGO_PY_SWEEP_SEEDS's in every mode. One Python process
// plays the whole sweep; each job is replayed as its line arrives, while
// the script plays the next. Ids that need an extra missing here are
// skipped by name with the reason.
func TestPythonPackageEveryID(t *testing.T) {
	py := pythonWithWebsockets(t)
	all := 0
	if s := os.Getenv("GEMGO_PY_SWEEP_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err, "GEMGO_PY_SWEEP_SEEDS=%q: want a whole number of seeds", s)
		require.Positive(t, n, "GEMGO_PY_SWEEP_SEEDS")
		all = n
	}
	// The jsonl envs read the file a client names, the eval envs the data
	// directory, the code envs' tests get 20 s: the operator allows them,
	// as for TestRemoteConforms.
	_, url := serve(t, remote.Config{AllowOptions: []string{"path", "data_dir"}, OptionCaps: map[string]float64{"timeout": 20}})
	reg := builtin.Registry()

	opts := map[string][]envs.Option{}
	var jobs, slowJobs []sweepJob
	for _, id := range reg.IDs() {
		o, slow := setup(id)
		if why := sweepSkip(id, slow); why != "" {
			t.Run(id, func(t *testing.T) { t.Skip(why) })
			continue
		}
		opts[id] = o
		var m map[string]any
		if len(o) > 0 {
			m = map[string]any{}
			for _, op := range o {
				m[op.Name] = op.Value
			}
		}
		for _, mode := range sweepModes {
			n := sweepSeeds[mode][0]
			if slow {
				n = sweepSeeds[mode][1]
			}
			if all > 0 {
				n = all
			}
			job := sweepJob{ID: id, Options: m, Mode: mode, Seeds: n}
			if slow { // first, so that the script's slowest jobs do not end its run
				slowJobs = append(slowJobs, job)
			} else {
				jobs = append(jobs, job)
			}
		}
	}
	jobs = append(slowJobs, jobs...)
	spec, err := json.Marshal(map[string]any{"server": url, "jobs": jobs})
	require.NoError(t, err)
	specPath := filepath.Join(t.TempDir(), "spec.json")
	require.NoError(t, os.WriteFile(specPath, spec, 0o644))

	want := map[string]int{} // seeds by id and mode
	for _, j := range jobs {
		want[j.ID+" "+j.Mode] = j.Seeds
	}
	got := map[string]bool{}
	var mu sync.Mutex
	lines := make(chan sweepResult)
	var wg sync.WaitGroup
	for range 2 { // replays beside the script and the server: 2 cores
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range lines {
				t.Run(r.ID+"/"+r.Mode, func(t *testing.T) {
					require.Empty(t, r.Error, "the Python package failed")
					require.Len(t, r.Episodes, want[r.ID+" "+r.Mode])
					env, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: r.ID, Options: opts[r.ID], History: r.Mode})
					require.NoError(t, err)
					defer envs.Close(env)
					for seed, ep := range r.Episodes {
						replay(t, env, uint64(seed), ep, r.ID+" history "+r.Mode+" seed "+strconv.Itoa(seed))
					}
				})
			}
		}()
	}
	stderr, runErr := streamPackage(t, py, url, "gemgo_every_id.py", func(line []byte) {
		var r sweepResult
		if err := json.Unmarshal(line, &r); err != nil {
			t.Errorf("gemgo_every_id.py printed %.200q: %v", line, err)
			return
		}
		mu.Lock()
		got[r.ID+" "+r.Mode] = true
		mu.Unlock()
		lines <- r
	}, specPath)
	close(lines)
	wg.Wait()
	require.NoError(t, runErr, "gemgo_every_id.py: %s", stderr)
	for k := range want {
		assert.True(t, got[k], "%s: the script printed no transcript (stderr: %s)", k, stderr)
	}
}

// streamPackage runs a script of testdata with the package of python/ on
// its path, GEMGO_SERVER set to url, and calls f with each line of its
// standard output as it comes. It returns the script's standard error, and
// an error if the script failed.
func streamPackage(t *testing.T, py, url, script string, f func([]byte), args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	pkg, err := filepath.Abs(filepath.Join("..", "..", "python"))
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, py, append([]string{filepath.Join("testdata", script)}, args...)...)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+pkg, "GEMGO_SERVER="+url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		f(sc.Bytes())
	}
	scanErr := sc.Err()
	if err := cmd.Wait(); err != nil {
		return stderr.String(), fmt.Errorf("%s: %w", script, err)
	}
	ps := cmd.ProcessState
	t.Logf("%s: %.1f CPU-seconds (user %.1f, system %.1f)", script, (ps.UserTime() + ps.SystemTime()).Seconds(),
		ps.UserTime().Seconds(), ps.SystemTime().Seconds())
	return stderr.String(), scanErr
}
