package terminal

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gemgo/gemgo/sandbox"
)

// runnerPy runs pytest in the verifier; see its own comments.
//
//go:embed runner.py
var runnerPy []byte

// verdict is what the verifier found.
type verdict struct {
	reward        float64
	passed, total int
	// tests maps each test to its outcome: passed, failed, error, skipped,
	// xfailed, xpassed, or missing (weighted but absent from the results).
	tests map[string]string
	// err says why the reward is 0 regardless of the tests ("" if none).
	err string
}

// report is the runner's JSON report.
type report struct {
	ExitCode      int               `json:"exit_code"`
	Tests         map[string]string `json:"tests"`
	CollectErrors []string          `json:"collect_errors"`
}

// verify runs the task's tests on the work dir in a fresh sandbox run: the
// tests are copied into a new directory beside the work dir only now, so
// no command of the agent ever saw them, and the result is read from a
// report file, never from the run's output. The run's working dir is the
// episode's root, which holds both (bwrap makes only it writable); the
// tests run in the work dir.
func (e *Env) verify() (verdict, error) {
	t := e.cur
	vdir, err := os.MkdirTemp(e.root, "verify-")
	if err != nil {
		return verdict{}, fmt.Errorf("terminal: verifier dir: %w", err)
	}
	tests := filepath.Join(vdir, "tests")
	out := filepath.Join(vdir, "out")
	home := filepath.Join(vdir, "home")
	for _, d := range []string{tests, out, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return verdict{}, fmt.Errorf("terminal: verifier dir: %w", err)
		}
	}
	if err := writeTree(tests, t.Tests); err != nil {
		return verdict{}, err
	}
	spec := sandbox.Spec{
		Dir: e.root,
		// HOME outside the agent's files: a planted .gitconfig or
		// .bashrc in the work dir is not read.
		Env: []string{"HOME=" + home, "TESTS_DIR=" + tests, "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1"},
		Limits: sandbox.Limits{
			Wall:        seconds(t.Spec.MaxTestTimeoutSec),
			CPU:         seconds(t.Spec.MaxTestTimeoutSec),
			MemoryBytes: 1 << 30,
			OutputBytes: 1 << 20,
			FileBytes:   64 << 20,
		},
	}
	reportFile := filepath.Join(out, "report.json")
	if t.RunTests {
		reportFile = filepath.Join(out, "reward.txt")
		spec.Cmd = []string{"bash", "-c", `cd "$1" && exec bash "$2"`, "bash", e.work, filepath.Join(tests, "run-tests.sh")}
		spec.Env = append(spec.Env, "REWARD_FILE="+reportFile)
	} else {
		ini := filepath.Join(vdir, "pytest.ini")
		if _, ok := t.Tests["pytest.ini"]; ok {
			ini = filepath.Join(tests, "pytest.ini")
		} else if err := os.WriteFile(ini, []byte("[pytest]\n"), 0o644); err != nil {
			return verdict{}, fmt.Errorf("terminal: verifier: %w", err)
		}
		runner := filepath.Join(vdir, "runner.py")
		if err := os.WriteFile(runner, runnerPy, 0o644); err != nil {
			return verdict{}, fmt.Errorf("terminal: verifier: %w", err)
		}
		spec.Cmd = []string{e.python, "-I", runner, reportFile, tests, ini, e.work}
	}
	res, err := sandbox.RunWith(context.Background(), spec, e.iso)
	if err != nil {
		return verdict{}, fmt.Errorf("terminal: task %s: verifier: %w", t.Name, err)
	}
	// Every process of the run is gone now: the file is what the run left.
	data, rerr := os.ReadFile(reportFile)
	if rerr != nil {
		why := "the tests wrote no report"
		if t.RunTests {
			why = "run-tests.sh wrote no reward file ($REWARD_FILE)"
		}
		return verdict{err: fmt.Sprintf("%s (verifier %s, exit code %d)", why, res.Status, res.ExitCode)}, nil
	}
	if t.RunTests {
		return rewardFile(data), nil
	}
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		return verdict{err: "the verifier's report does not parse: " + err.Error()}, nil
	}
	return score(rep, t.Spec.TestWeights), nil
}

// rewardFile reads run-tests.sh's reward: one number from 0 to 1.
func rewardFile(data []byte) verdict {
	r, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
	if err != nil || r < 0 || r > 1 || r != r {
		return verdict{err: fmt.Sprintf("the reward file holds %q: want one number from 0 to 1", truncate(string(data), 80))}
	}
	v := verdict{reward: r, total: 1}
	if r == 1 {
		v.passed = 1
	}
	return v
}

// score turns the runner's report into the reward: passed tests over all
// tests, or with weights the weight of the passed listed tests over the
// weight of every listed test (a listed test missing from the report
// counts as failed; an unlisted test weighs 0). Only an outcome "passed"
// passes. Zero tests, a collection error or a pytest exit status other
// than 0 (all passed) or 1 (some failed) give 0.
func score(rep report, weights map[string]float64) verdict {
	v := verdict{tests: rep.Tests}
	if v.tests == nil {
		v.tests = map[string]string{}
	}
	for _, o := range v.tests {
		v.total++
		if o == "passed" {
			v.passed++
		}
	}
	switch {
	case len(rep.CollectErrors) > 0:
		v.err = "collection error in " + strings.Join(rep.CollectErrors, ", ")
		return v
	case v.total == 0:
		v.err = "no test ran"
		return v
	case rep.ExitCode != 0 && rep.ExitCode != 1:
		v.err = fmt.Sprintf("pytest exit status %d (interrupted, internal or usage error)", rep.ExitCode)
		return v
	}
	if len(weights) == 0 {
		v.reward = float64(v.passed) / float64(v.total)
		return v
	}
	var num, den float64
	names := make([]string, 0, len(weights))
	for name := range weights {
		names = append(names, name)
	}
	slices.Sort(names) // a fixed order: the same sum, bit for bit
	for _, name := range names {
		w := weights[name]
		den += w
		o, ok := v.tests[name]
		if !ok {
			v.tests[name] = "missing"
			continue
		}
		if o == "passed" {
			num += w
		}
	}
	v.reward = num / den
	return v
}

// writeTree writes files under dir, creating directories as needed.
func writeTree(dir string, files map[string]File) error {
	for name, f := range files {
		if !filepath.IsLocal(name) {
			return fmt.Errorf("terminal: file name %q must stay inside its directory", name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("terminal: write %s: %w", name, err)
		}
		mode := os.FileMode(0o644)
		if f.Exec {
			mode = 0o755
		}
		if err := os.WriteFile(p, f.Data, mode); err != nil {
			return fmt.Errorf("terminal: write %s: %w", name, err)
		}
		if err := os.Chmod(p, mode); err != nil { // past the umask
			return fmt.Errorf("terminal: write %s: %w", name, err)
		}
	}
	return nil
}

// seconds converts a task.yaml duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

var errNoPytest = errors.New("the terminal envs run their tests with pytest, which the sandbox's python3 cannot import: apt-get install python3-pytest")
