#!/usr/bin/env bash
# The Python package's full every-id sweep: random play of seeds 0..N-1
# (default 20) of every built-in id in each history mode (none,
# observations, actions) through python/gemgo on a loopback env server,
# replayed in-process (envs/remote's TestPythonPackageEveryID, whose default
# run plays fewer seeds in the history modes). Needs a python3 with
# websockets (apt-get install python3-websockets); the code and terminal ids
# also need a Python 3 the sandbox runs and pytest (apt-get install
# python3-pytest), else they are skipped by name.
# Usage: scripts/pysweep.sh [N]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
rc=0
GEMGO_PY_SWEEP_SEEDS="${1:-20}" go test ./envs/remote/ -run 'TestPythonPackageEveryID$' -count=1 -timeout 30m -v >"$log" 2>&1 || rc=$?
grep -E -- '--- (FAIL|SKIP)|^(ok|FAIL)' "$log" || true
{ grep -E -c -- '--- PASS: TestPythonPackageEveryID/' "$log" || true; } | sed 's/$/ id and mode jobs passed/'
[ "$rc" -eq 0 ] || tail -50 "$log"
exit "$rc"
