package remote_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/envs/remote"
)

// pyTurn is one entry of the Python package's transcripts (the first of
// an episode holds only the reset observation).
type pyTurn struct {
	Action     string  `json:"action"`
	Obs        string  `json:"obs"`
	Reward     float64 `json:"reward"`
	Terminated bool    `json:"terminated"`
	Truncated  bool    `json:"truncated"`
}

type pyEpisode struct {
	Seed  uint64   `json:"seed"`
	Turns []pyTurn `json:"turns"`
}

// runPackage runs a script of testdata with the package of python/ on its
// path and GEMGO_SERVER set to url, and returns its standard output.
func runPackage(t *testing.T, py, url, script string, args ...string) []byte {
	t.Helper()
	return runPackageWith(t, py, url, false, script, args...)
}

// runPackageWith is runPackage, with numpy made unimportable when
// noNumpy (the package's lists stand in for GEM's arrays then).
func runPackageWith(t *testing.T, py, url string, noNumpy bool, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	pkg, err := filepath.Abs(filepath.Join("..", "..", "python"))
	require.NoError(t, err)
	argv := append([]string{filepath.Join("testdata", script)}, args...)
	if noNumpy {
		argv = append([]string{"-c", "import runpy, sys; sys.modules['numpy'] = None; sys.argv = sys.argv[1:]; " +
			"runpy.run_path(sys.argv[0], run_name='__main__')"}, argv...)
	}
	cmd := exec.CommandContext(ctx, py, argv...)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+pkg, "GEMGO_SERVER="+url)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		t.Fatalf("%s: %v\n%s", script, err, ee.Stderr)
	}
	require.NoError(t, err)
	return out
}

// historyOf reads a transcript's mode label: "none", "observations",
// "actions" or "actions:2" (history_keep 2).
func historyOf(t *testing.T, label string) (string, int) {
	mode, keep, found := strings.Cut(label, ":")
	if !found {
		return mode, 0
	}
	k, err := strconv.Atoi(keep)
	require.NoError(t, err)
	return mode, k
}

// replay plays an episode's seed and actions in-process and requires the
// same observations, rewards and flags.
func replay(t *testing.T, env envs.Env, seed uint64, turns []pyTurn, what string) {
	t.Helper()
	obs, _, err := env.Reset(seed)
	require.NoError(t, err)
	require.Equal(t, obs, turns[0].Obs, "%s: reset observation", what)
	for i, tu := range turns[1:] {
		st, err := env.Step(tu.Action)
		require.NoError(t, err)
		got := pyTurn{Action: tu.Action, Obs: st.Obs, Reward: st.Reward, Terminated: st.Terminated, Truncated: st.Truncated}
		require.Equal(t, got, tu, "%s: step %d", what, i+1)
	}
}

// Random play through the Python package (python/gemgo) equals in-process
// play: for two games and a math id, each history mode (asked of the
// server by make's history, or by the concat wrappers) and 20 seeds, the
// package's observations, rewards and flags are envbuild.Make's with that
// history. The vector env (make_vec, concat_with_action and
// episode_tracking, a changing subset of envs stepped by a dict of
// indices) autoresets in the step that ends an episode, keeps the final
// observation in info, and plays the same transcripts sync and async; each
// of its episodes replays in-process from its seed.
func TestPythonPackageMatchesInProcess(t *testing.T) {
	py := pythonWithWebsockets(t)
	_, url := serve(t, remote.Config{})
	// Every id in each history mode: TestPythonPackageEveryID. Here the
	// wrappers and history_keep, on a game with short and one with long
	// observations and a single-turn task.
	ids := []string{"game:GuessTheNumber-v0-hard", "game:Wordle-v0-easy", "math:Arithmetic-v0"}
	out := runPackage(t, py, url, "gemgo_transcripts.py", append([]string{url, "20"}, ids...)...)
	var res struct {
		Single []struct {
			ID       string     `json:"id"`
			Mode     string     `json:"mode"`
			Wrappers string     `json:"wrappers"`
			Episodes [][]pyTurn `json:"episodes"`
		} `json:"single"`
		Vector struct {
			ID    string        `json:"id"`
			Mode  string        `json:"mode"`
			Sync  [][]pyEpisode `json:"sync"`
			Async [][]pyEpisode `json:"async"`
			Ended int           `json:"ended"`
		} `json:"vector"`
		Checks []string `json:"checks"`
	}
	require.NoError(t, json.Unmarshal(out, &res))
	assert.Empty(t, res.Checks, "the script's own checks (final_obs iff done, episode_tracking, concat_chat, sync = async)")
	require.Len(t, res.Single, len(ids)*7)
	reg := builtin.Registry()
	mkEnv := func(id, label string) envs.Env {
		mode, keep := historyOf(t, label)
		env, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: id, History: mode, HistoryKeep: keep})
		require.NoError(t, err)
		t.Cleanup(func() { _ = envs.Close(env) })
		return env
	}
	for _, s := range res.Single {
		require.Len(t, s.Episodes, 20)
		env := mkEnv(s.ID, s.Mode)
		for seed, ep := range s.Episodes {
			replay(t, env, uint64(seed), ep, s.ID+" "+s.Mode+" "+s.Wrappers+" seed "+strconv.Itoa(seed))
		}
	}
	v := res.Vector
	assert.Equal(t, v.Sync, v.Async, "sync and async vector envs play the same episodes")
	assert.Greater(t, v.Ended, 4, "episodes ended and were autoreset")
	env := mkEnv(v.ID, v.Mode)
	for i, eps := range v.Sync {
		require.Greater(t, len(eps), 1, "env %d autoreset", i)
		for k, ep := range eps {
			if k == len(eps)-1 && len(ep.Turns) == 1 {
				// Reset and not yet stepped: only the first observation.
				obs, _, err := env.Reset(ep.Seed)
				require.NoError(t, err)
				assert.Equal(t, obs, ep.Turns[0].Obs)
				continue
			}
			replay(t, env, ep.Seed, ep.Turns, "vector env "+strconv.Itoa(i)+" episode "+strconv.Itoa(k))
		}
	}
}

// A script written against GEM's documented API (its README's env loop
// and a make_vec loop with GEM's done = terminated | truncated), with
// `import gem` replaced by `import gemgo as gem`, runs against the server
// and plays to the end of its episodes, with numpy (GEM's arrays) and
// without it (the package's FlagList).
func TestPythonPackageRunsGEMScript(t *testing.T) {
	py := pythonWithWebsockets(t)
	_, url := serve(t, remote.Config{})
	for _, noNumpy := range []bool{false, true} {
		out := runPackageWith(t, py, url, noNumpy, "gem_readme.py")
		checkGEMScript(t, out)
	}
}

func checkGEMScript(t *testing.T, out []byte) {
	t.Helper()
	var res struct {
		Steps    int  `json:"steps"`
		Done     bool `json:"done"`
		VecSteps int  `json:"vec_steps"`
		VecEnded int  `json:"vec_ended"`
	}
	require.NoError(t, json.Unmarshal(lastLine(out), &res), "%s", out)
	assert.True(t, res.Done)
	assert.Greater(t, res.Steps, 0)
	assert.Equal(t, 30, res.VecSteps)
	assert.Greater(t, res.VecEnded, 0)
}

// make with no server listening says how to start one.
func TestPythonPackageNoServer(t *testing.T) {
	py := pythonWithWebsockets(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	pkg, err := filepath.Abs(filepath.Join("..", "..", "python"))
	require.NoError(t, err)
	cmd := exec.Command(py, "-c", "import gemgo; gemgo.make('game:GuessTheNumber-v0-easy')")
	cmd.Env = append(os.Environ(), "PYTHONPATH="+pkg, "GEMGO_SERVER=http://"+addr)
	msg, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(msg), "ConnectionError: no gemgo env server answers at ws://"+addr+"/ws")
	assert.Contains(t, string(msg), "go run ./cmd/envserver -addr 127.0.0.1:8000")
}

func lastLine(b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return []byte(lines[len(lines)-1])
}

// A server that answers describe and then nothing: the package's reset
// raises a ConnectionError naming the timeout (1 s here; the failure mode
// is a reset that never returns, caught by runPackage's 5-minute bound),
// and the next call raises the same error instead of reading a stale
// answer.
func TestPythonPackageSilentServer(t *testing.T) {
	py := pythonWithWebsockets(t)
	addr := newLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		if _, _, err := c.Read(ctx); err != nil {
			return
		}
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"describe","data":{"env_id":"game:GuessTheNumber-v0-easy","sampler":true,"format_error_reward":-0.1}}`))
		for { // read and never answer, until the client goes
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}))
	out := runPackage(t, py, "ws://"+addr, "gemgo_silent.py")
	var res map[string]string
	require.NoError(t, json.Unmarshal(out, &res), "%s", out)
	want := "gemgo session with ws://" + addr + "/ws broken: no answer within 1s (make a new env)"
	assert.Equal(t, want, res["first"])
	assert.Equal(t, want, res["second"])
}

// Bad input to the package raises an error that names the problem and
// the fix.
func TestPythonPackageErrors(t *testing.T) {
	py := pythonWithWebsockets(t)
	_, url := serve(t, remote.Config{})
	var res map[string]string
	out := runPackage(t, py, url, "gemgo_errors.py")
	require.NoError(t, json.Unmarshal(out, &res), "%s", out)
	for name, want := range map[string]string{
		"unknown_id":        "GemgoError: FACTORY_ERROR: ",
		"bad_history":       "ValueError: history='all': want one of none, observations, actions",
		"bad_reconnect":     "ValueError: reconnect='5': want a whole number of reconnects in a row, 0 for none",
		"bad_option":        "GemgoError: ",
		"bad_wrapper":       "ValueError: wrapper 'python_tool': gemgo runs tools on the server",
		"unknown_wrapper":   "ValueError: unknown wrapper 'concat_all': want a comma-separated list of concat, concat_with_action, concat_chat, episode_tracking",
		"bad_server":        "ValueError: server 'tcp://127.0.0.1:1': want a ws:// or http:// URL",
		"step_before_reset": "GemgoError: EXECUTION_ERROR: step before reset",
		"bad_action":        "TypeError: step: the action is a int: want the text of the agent's reply (a str)",
		"vec_short":         "ValueError: step: 1 actions for 2 envs (a dict steps some)",
		"bad_idx":           "ValueError: reset: idx=-1: want a whole number (the item, played as seed idx)",
		"vec_reset_kw":      "TypeError: reset: unknown keywords env2_kwargs: want seed and env0_kwargs..env1_kwargs",
	} {
		assert.True(t, strings.HasPrefix(res[name], want), "%s: got %q, want it to start with %q", name, res[name], want)
	}
	assert.Contains(t, res["unknown_id"], "game:GuessTheNumber-v0-easy", "did you mean")
	assert.Contains(t, res["bad_option"], "max_turns")
}

// The env loops of a GEM training script (testdata/gem_train_loop.py:
// a make_vec collection loop, and an evaluation loop that resets envs to
// dataset items with env{j}_kwargs {"idx": ...} and steps the envs still
// playing by a dict of indices), with only GEM's import replaced, run
// against the server; each evaluation episode replays in-process from seed
// idx (gemgo's dataset envs play item seed mod n) with the same
// observations, rewards and ends (the observation after an episode's last
// step is the next episode's first, SAME_STEP, and is not compared).
func TestPythonPackageRunsGEMTrainLoop(t *testing.T) {
	py := pythonWithWebsockets(t)
	if exec.Command(py, "-c", "import numpy").Run() != nil {
		t.Skip("GEM's training loops use numpy arrays: apt-get install python3-numpy")
	}
	_, url := serve(t, remote.Config{})
	out := runPackage(t, py, url, "gem_train_loop.py")
	var res struct {
		CollectedEpisodes int  `json:"collected_episodes"`
		CollectedSteps    int  `json:"collected_steps"`
		CollectedLastDone bool `json:"collected_last_done"`
		Evals             []struct {
			ID          string `json:"id"`
			Wrappers    string `json:"wrappers"`
			Idx         uint64 `json:"idx"`
			Transitions []struct {
				Obs     string  `json:"obs"`
				Action  string  `json:"action"`
				Reward  float64 `json:"reward"`
				NextObs string  `json:"next_obs"`
				Done    bool    `json:"done"`
			} `json:"transitions"`
		} `json:"evals"`
	}
	require.NoError(t, json.Unmarshal(lastLine(out), &res), "%s", out)
	assert.GreaterOrEqual(t, res.CollectedSteps, 40)
	assert.Positive(t, res.CollectedEpisodes)
	assert.True(t, res.CollectedLastDone, "each collected episode ends at its last transition only")
	require.Len(t, res.Evals, 20, "10 items of each of 2 ids")
	reg := builtin.Registry()
	for _, ep := range res.Evals {
		history := ""
		if ep.Wrappers == "concat_with_action" {
			history = envs.HistoryActions
		}
		env, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: ep.ID, History: history})
		require.NoError(t, err)
		obs, _, err := env.Reset(ep.Idx)
		require.NoError(t, err)
		require.NotEmpty(t, ep.Transitions)
		for i, tr := range ep.Transitions {
			what := []any{"%s idx %d step %d", ep.ID, ep.Idx, i + 1}
			require.Equal(t, obs, tr.Obs, what...)
			st, err := env.Step(tr.Action)
			require.NoError(t, err)
			require.Equal(t, st.Reward, tr.Reward, what...)
			require.Equal(t, st.Done(), tr.Done, what...)
			if !st.Done() {
				require.Equal(t, st.Obs, tr.NextObs, what...)
			}
			obs = st.Obs
		}
		require.True(t, ep.Transitions[len(ep.Transitions)-1].Done, "%s idx %d: played to the end", ep.ID, ep.Idx)
		require.NoError(t, envs.Close(env))
	}
}
