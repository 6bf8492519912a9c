#!/usr/bin/env bash
# Runs the shipped comparison sweeps one after the other and prints where
# their reports are. Re-running skips finished runs and resumes interrupted
# ones. Usage: scripts/compare.sh [sweep ...]   (default: guess fifteen hanoi mastermind rg leg_counting letter_counting gamma gamma_loose)
# Extra flags for cmd/compare go in COMPARE_FLAGS, e.g. COMPARE_FLAGS="-parallel 4".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/compare" ./cmd/compare
for s in "${@:-guess fifteen hanoi mastermind rg leg_counting letter_counting gamma gamma_loose}"; do
  for name in $s; do
    echo "== compare_$name ($(date -u +%H:%M:%S) UTC, load: $(cut -d' ' -f1-3 /proc/loadavg))"
    # shellcheck disable=SC2086
    "$tmp/compare" -config "compare_$name" ${COMPARE_FLAGS:-}
  done
done
