// Package code holds gemgo's coding tasks (GEM's code envs): a problem
// statement in, a Python 3 program out, judged on stdin/stdout tests in
// package sandbox.
//
// Ids (see Register):
//
//   - code:sample — 22 short problems written for gemgo (3 to 8 tests each),
//     embedded in the binary; reference solutions live in testdata.
//   - code:jsonl — a JSONL problem set, option path; one object per line,
//     {"question": "...", "tests": [{"input": "...", "output": "..."}]} (or
//     tests as {"inputs": [...], "outputs": [...]}), field names set by the
//     options id_field, question_field, tests_field, input_field,
//     output_field. A bad line is an error naming the file and line.
//
// Each episode is one turn. Reset(seed) picks a problem with the env's own
// generator. The action is a response; its program is the last ```python
// fenced block (or, when there is none, the last untagged ``` block; see
// ExtractCode). No such block is a format error: reward -format_penalty
// (default -0.1), Info format_error, episode terminated. Otherwise the
// program runs on each test (at most max_tests, default 12, the first
// ones) as `python3 -I -S main.py` — isolated mode, no site-packages:
// only the standard library — and the reward is 1 when every test passes,
// else 0. Outputs are compared line by line ignoring trailing spaces and
// tabs on each line, "\r\n" line ends and trailing blank lines (SameOutput).
//
// Step's Info: "correct" and envs.InfoSuccess (all passed), "passed" and
// "total" (counts), "failed" (the failing tests' numbers, from 1), "tests"
// ([]TestResult: verdict and detail of each test — the first differing
// line, the limit reached, the exit code and tail of stderr), "problem_id",
// and "sandbox" (the isolation in force, see sandbox.Detect, then the
// interpreter: "; python: /usr/bin/python3", with the reason when it is not
// PATH's python3).
//
// Options of both ids: timeout (seconds per test, wall clock and CPU,
// default 1), memory_mb (default 256), output_kb (default 1024), concurrency
// (tests run at once, default 4), python (interpreter, default python3:
// PATH's, or where the isolation cannot run that one, /usr/bin/python3 or
// /usr/local/bin/python3; see sandbox.PythonFor),
// max_tests (default 12), fail_fast (skip the tests after the first failure,
// default false), isolation (auto — the strongest the machine allows — or
// bwrap, netns, userns+netns, none; see package sandbox), style (gem or
// brief), format_penalty (0 to 1, default 0.1), fresh_process (default
// false, see below). Where python3 is missing, Make fails with an error
// saying how to install it. For a server's client (envs.ClientPolicy,
// cmd/envserver) python, isolation, fresh_process and code:jsonl's path
// are the operator's, and timeout, memory_mb, output_kb, concurrency and
// max_tests are capped (10 s, 1024, 1024, 4 and 50 unless the operator
// sets other caps).
//
// By default a test does not start an interpreter: it is forked from a
// warm one (sandbox.PythonServer without the site module), under the same
// isolation and limits, from a few kept per process that all code envs of
// the process share (one more than CPUs, at least three). A test then costs
// a fork instead of an interpreter's start (docs/sandbox.md); verdicts
// and details are the same. The steps of different envs share
// them fairly: one step holds all but one at most, and a freed one goes
// to the waiting step that holds the fewest, so a step whose tests run to
// their time limit does not stall the others (warm.go). CloseWarm stops
// them. fresh_process: true runs every test in a fresh
// process instead; where no warm interpreter starts, tests run fresh
// without a word. A wall-clock limit of 1 s is GEM's; on a loaded machine a
// larger timeout avoids failing correct programs.
package code
