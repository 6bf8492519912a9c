#!/usr/bin/env bash
# Trains the baseline suite (configs/baselines/suite.yaml: one ReBN config per env, seeds 1-3)
# and writes runs/baselines/{table.md,report.html,summary.json}. Re-running skips finished runs
# and resumes interrupted ones, so the suite can be run in pieces.
# Usage: scripts/baselines.sh [flags of cmd/baselines]
#   scripts/baselines.sh -only guess_easy,count_bits   # some configs only
#   scripts/baselines.sh -report                       # redraw the table from what ran
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=cpu.sh
. "$root/scripts/cpu.sh"
echo "CPU: $(cpu_summary)"
go build -o "$tmp/baselines" ./cmd/baselines
echo "== baselines ($(date -u +%H:%M:%S) UTC, load: $(cut -d' ' -f1-3 /proc/loadavg))"
start=$(date +%s)
"$tmp/baselines" "$@"
echo "wall $(( $(date +%s) - start )) s"
