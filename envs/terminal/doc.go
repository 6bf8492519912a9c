// Package terminal holds gemgo's terminal tasks (GEM's terminal env, built
// on package sandbox instead of Docker): the agent runs shell commands in
// a sandboxed work dir until it finishes, then hidden tests score the
// files it left.
//
// Ids (see Register):
//
//   - terminal:sample — the tasks shipped with gemgo (envs/terminal/tasks,
//     embedded in the binary); Reset(seed) picks one, option task pins one.
//   - terminal:dir — the task directory, or directory of task directories,
//     at option path.
//
// A task is a directory in a Terminal-Bench-like layout (LoadTask):
// task.yaml (Spec: instruction, max_turns, command_timeout_sec,
// max_agent_timeout_sec, max_test_timeout_sec, test_weights), files/
// (copied into the work dir), setup.sh (run in the sandbox in the work dir
// before the episode), solution.sh (the reference solution) and tests/
// (pytest files, or run-tests.sh, which writes its reward to $REWARD_FILE).
//
// Actions (the first <bash> or <finish> tag of the reply wins; other text
// is ignored): <bash>COMMAND</bash> runs COMMAND as `bash -c` in a fresh
// sandbox process (package sandbox: its own uid, no network, CPU, memory,
// file-size and process limits) in the episode's work dir, with stderr
// joined to stdout. GEM's YAML body (cmd: ..., timeout_secs: N) is read
// when the body parses as a mapping with a string cmd; timeout_secs may
// only shorten the command's limit. At the limit the command and every
// process it started are killed. The observation is the output between
// <bash_output> tags (at most option output_bytes, head and tail with a
// "[... N bytes cut ...]" marker; the work dir's path reads as ".") and
// the exit code or what stopped the command. cd and exports do not
// persist: only files do. <finish> (also <finish/>) ends the episode. A
// reply with neither tag, an unclosed <bash>, or an empty command is an
// error observation (Info format_error) that costs a turn and no reward.
//
// Rewards are 0 until the episode ends: at <finish> (Terminated), at the
// turn cap or when the commands' total wall time reaches the task's
// max_agent_timeout_sec (Truncated). Then the verifier runs in a fresh
// sandbox process: the tests are copied into a new directory only now
// (the agent never saw them; a task is read into memory at load), pytest
// runs under `python3 -I` (no cwd, no user site, no PYTHON* variables) with
// its rootdir, confcutdir and ini file set to the verifier's own, no cache
// and no plugin autoload, so that a conftest.py, pytest.ini,
// sitecustomize.py or pytest.py planted in the work dir has no effect, and
// HOME points outside the work dir. runner.py records each outcome in
// memory, kills every other process of the run, and only then writes its
// report, which the env reads: never screen text. The reward is the
// fraction of tests passed, or with test_weights the weight of the passed
// listed tests over the weight of all listed tests (a listed test missing
// from the results counts as failed). Only "passed" passes: skips, xfails,
// errors, zero tests and collection errors do not.
//
// Step's Info: turn, task, sandbox (the isolation and interpreter), and
// after a command exit_code and status; at the end passed, total, tests
// (test name to outcome), success, verifier_error when the tests could
// not score the work, and truncated_by (max_turns or max_agent_timeout_sec)
// when a limit ended the episode.
//
// Options of both ids: max_turns and command_timeout (seconds) override
// the task's, output_bytes (default 4096), python (the verifier's
// interpreter; it must import pytest: apt-get install python3-pytest),
// isolation (auto or a sandbox isolation name).
package terminal
