package code

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gemgo/gemgo/sandbox"
)

// Verdict is the outcome of one test.
type Verdict string

// The verdicts of a test.
const (
	Passed       Verdict = "passed"
	WrongAnswer  Verdict = "wrong_answer"
	TimeLimit    Verdict = "time_limit"
	MemoryLimit  Verdict = "memory_limit"
	OutputLimit  Verdict = "output_limit"
	RuntimeError Verdict = "runtime_error"
	// Skipped: not judged, because an earlier test failed and fail_fast is on.
	Skipped Verdict = "skipped"
)

// TestResult is the verdict on one test, numbered from 1.
type TestResult struct {
	Test    int     `json:"test"`
	Verdict Verdict `json:"verdict"`
	// Detail says why a test failed: the first differing line, the limit
	// reached, or the exit code and the tail of stderr.
	Detail string `json:"detail,omitempty"`
}

// String is "test 3: wrong_answer (line 1: expected "5", got "6")".
func (r TestResult) String() string {
	if r.Detail == "" {
		return fmt.Sprintf("test %d: %s", r.Test, r.Verdict)
	}
	return fmt.Sprintf("test %d: %s (%s)", r.Test, r.Verdict, r.Detail)
}

// Judge runs a Python program against tests in the sandbox.
type Judge struct {
	// Python is the interpreter's path (see sandbox.FindPython).
	Python string
	// Limits bound each test's run.
	Limits sandbox.Limits
	// Concurrency is how many tests run at once (at least 1).
	Concurrency int
	// FailFast skips the tests after the first failing one.
	FailFast bool
	// Isolation is the sandbox isolation of each run (one of
	// sandbox.Available; the zero value has none).
	Isolation sandbox.Isolation
	// FreshProcess starts a fresh interpreter for every test (paying its
	// start each time) instead of forking the test from a warm one the
	// process's judges share (see warmPool). The verdicts are the same either way.
	FreshProcess bool
}

// Run judges code on tests. The results are in test order and depend only
// on each test's own run: with FailFast, every test after the first
// failure is Skipped, whatever the timing. An error means a test could
// not be run at all (the interpreter could not start).
func (j Judge) Run(ctx context.Context, code string, tests []Test) ([]TestResult, error) {
	results := make([]TestResult, len(tests))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cancels := make([]context.CancelFunc, len(tests))
	ctxs := make([]context.Context, len(tests))
	for i := range tests {
		ctxs[i], cancels[i] = context.WithCancel(ctx)
		defer cancels[i]()
	}
	var (
		mu       sync.Mutex
		firstBad = len(tests)
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, max(1, j.Concurrency))
	st := &poolShare{} // this call's share of the warm pool
	for i, tc := range tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = TestResult{Test: i + 1, Verdict: Skipped}
			if ctxs[i].Err() != nil {
				return
			}
			r, err := j.runOne(ctxs[i], st, code, tc)
			if err != nil {
				if ctxs[i].Err() != nil && ctx.Err() == nil {
					return // cancelled by fail-fast: stays Skipped
				}
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
				return
			}
			r.Test = i + 1
			results[i] = r
			if r.Verdict != Passed && j.FailFast {
				mu.Lock()
				if i < firstBad {
					firstBad = i
					for k := i + 1; k < len(tests); k++ {
						cancels[k]()
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	for k := firstBad + 1; k < len(results); k++ {
		results[k] = TestResult{Test: k + 1, Verdict: Skipped}
	}
	return results, nil
}

// runOne runs code on one test.
func (j Judge) runOne(ctx context.Context, st *poolShare, code string, tc Test) (TestResult, error) {
	res, err := j.execute(ctx, st, code+"\n", tc.Input)
	if err != nil {
		return TestResult{}, fmt.Errorf("judge: %w", err)
	}
	switch res.Status {
	case sandbox.StatusOK:
		if d := diffOutput(string(res.Stdout), tc.Output); d != "" {
			return TestResult{Verdict: WrongAnswer, Detail: d}, nil
		}
		return TestResult{Verdict: Passed}, nil
	case sandbox.StatusTimeout:
		return TestResult{Verdict: TimeLimit, Detail: fmt.Sprintf("wall-clock limit of %v reached", j.Limits.Wall)}, nil
	case sandbox.StatusCPULimit:
		return TestResult{Verdict: TimeLimit, Detail: fmt.Sprintf("CPU limit of %v reached", j.Limits.CPU)}, nil
	case sandbox.StatusMemoryLimit:
		return TestResult{Verdict: MemoryLimit, Detail: fmt.Sprintf("memory limit of %d MiB reached", j.Limits.MemoryBytes>>20)}, nil
	case sandbox.StatusOutputLimit:
		return TestResult{Verdict: OutputLimit, Detail: fmt.Sprintf("more than %d KiB of output", j.Limits.OutputBytes>>10)}, nil
	case sandbox.StatusRuntimeError:
		what := fmt.Sprintf("exit code %d", res.ExitCode)
		if res.Signal != "" {
			what = "killed by signal: " + res.Signal
		}
		// The working directory differs from run to run: strip it, so
		// that the same program gets the same Info.
		stderr := bytes.ReplaceAll(res.Stderr, []byte(res.Dir+"/"), nil)
		if tail := stderrTail(stderr); tail != "" {
			what += ": " + tail
		}
		return TestResult{Verdict: RuntimeError, Detail: what}, nil
	}
	return TestResult{}, errors.New("judge: unknown sandbox status " + string(res.Status))
}

// execute runs the program as `python3 -I -S main.py` on input: forked
// from a warm interpreter, or in a fresh process with FreshProcess or
// when no warm one can run it.
func (j Judge) execute(ctx context.Context, st *poolShare, code, input string) (sandbox.Result, error) {
	if !j.FreshProcess {
		res, err := sharedPool(j.Python, j.Isolation).run(ctx, st, []byte(code), []byte(input), j.Limits)
		if !errors.Is(err, errCold) {
			return res, err
		}
	}
	return sandbox.RunWith(ctx, sandbox.Spec{
		Cmd:    []string{j.Python, "-I", "-S", "main.py"},
		Files:  map[string][]byte{"main.py": []byte(code)},
		Stdin:  []byte(input),
		Limits: j.Limits,
	}, j.Isolation)
}

// stderrTail returns the last lines of stderr (a traceback ends with the
// error), at most a few hundred bytes.
func stderrTail(stderr []byte) string {
	const maxLines, maxBytes = 3, 300
	lines := splitLines(string(stderr))
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	s := strings.TrimSpace(strings.Join(lines, " | "))
	if len(s) > maxBytes {
		s = "…" + strings.ToValidUTF8(s[len(s)-maxBytes:], "")
	}
	return s
}
