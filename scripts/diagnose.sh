#!/usr/bin/env bash
# Diagnoses configs before tuning them: for each config, a one-iteration run (the vocabulary, the
# warm-up and one update) and then `cmd/train -diagnose` on it: prompt tokens against the room the
# context leaves, answer tokens against sample.max_new_tokens, and random, greedy and sampled play
# of the held-out seeds by the warmed-up policy. Resumable: a config whose diagnosis.txt exists is
# skipped (delete it to redo one).
# Usage: scripts/diagnose.sh [-out DIR] CONFIG... [-- -set key=value ...]
#   scripts/diagnose.sh configs/baselines/sudoku_easy.yaml configs/baselines/wordle_easy.yaml
#   scripts/diagnose.sh configs/baselines/mastermind_easy.yaml -- -set env.history=observations
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out=runs/diagnose
if [ "${1:-}" = "-out" ]; then out="$2"; shift 2; fi
configs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do configs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ${#configs[@]} -eq 0 ]; then
  echo "usage: scripts/diagnose.sh [-out DIR] CONFIG... [-- -set key=value ...]" >&2
  exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=cpu.sh
. "$root/scripts/cpu.sh"
echo "CPU: $(cpu_summary)"
go build -o "$tmp/train" ./cmd/train
for c in "${configs[@]}"; do
  name="$(basename "$c" .yaml)"
  dir="$out/$name"
  if [ -s "$dir/diagnosis.txt" ]; then
    echo "== $name: done ($dir/diagnosis.txt)"
    continue
  fi
  rm -rf "$dir"
  mkdir -p "$out"
  start=$(date +%s)
  "$tmp/train" -config "$c" -set iterations=1 -set eval.every=0 "$@" -out "$tmp/runs" >"$tmp/train.log" 2>&1 || { cat "$tmp/train.log" >&2; exit 1; }
  run="$(ls -d "$tmp/runs"/*/ | head -1)"
  "$tmp/train" -diagnose "$run" >"$tmp/diagnosis.txt"
  mv "$run" "$dir"
  mv "$tmp/diagnosis.txt" "$dir/diagnosis.txt"
  echo "== $name ($(( $(date +%s) - start )) s)"
  cat "$dir/diagnosis.txt"
done
