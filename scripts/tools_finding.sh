#!/usr/bin/env bash
# Trains a from-scratch policy with and without a tool, on the two task
# families where a tool matters, over 3 seeds, and prints each run's final
# greedy success:
#   configs/rebn_products_python.yaml  vs configs/rebn_products_notool.yaml  (math:Products-v0)
#   configs/grpo_filter_qa_search.yaml vs configs/grpo_filter_qa_notool.yaml (qa:Fictional-v2-onehop)
# and, named on the command line, the earlier QA recipes of docs/results.md section 5:
# configs/rebn_qa_{search,notool}.yaml (ReBN) and configs/grpo_qa_{search,notool}.yaml (GRPO
# without dynamic sampling).
# Re-running skips finished runs and resumes interrupted ones (cmd/train -resume), in the
# warm-up too (it is saved every 500 steps).
# Usage: [PARALLEL=2] [SEEDS="1 2 3"] scripts/tools_finding.sh [config ...]   (default: the four above)
# Each run's output goes to its directory's train.log.
# Runs go in runs/tools_finding/<config>-s<seed>; SEEDS="1 2 3" by default.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out=runs/tools_finding
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/train" ./cmd/train
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(rebn_products_python rebn_products_notool grpo_filter_qa_search grpo_filter_qa_notool)
# one_run CONFIG SEED: train it, or resume it, or skip it when finished.
one_run() {
  local cfg=$1 seed=$2
  local dir="$out/$cfg-s$seed"
  local run="$dir/$cfg"
  if [ -f "$run/final.safetensors" ]; then
    echo "== $cfg seed $seed: done"
    return 0
  fi
  echo "== $cfg seed $seed ($(date -u +%H:%M:%S) UTC, load: $(cut -d' ' -f1-3 /proc/loadavg))"
  local start
  start=$(date +%s)
  mkdir -p "$dir"
  if [ -f "$run/checkpoint.safetensors" ] || [ -f "$run/warmup.safetensors" ]; then
    "$tmp/train" -resume "$run" > "$dir/train.log" 2>&1 || { echo "   $cfg seed $seed failed: see $dir/train.log"; return 1; }
  else
    "$tmp/train" -config "$cfg" -seed "$seed" -out "$dir" > "$dir/train.log" 2>&1 || { echo "   $cfg seed $seed failed: see $dir/train.log"; return 1; }
  fi
  echo "   $cfg seed $seed: wall $(( $(date +%s) - start )) s" | tee -a "$dir/wall.txt"
}
export -f one_run
export out tmp
# PARALLEL runs at a time (default 1: alone on the machine, as the wall times in docs/results.md).
for cfg in "${configs[@]}"; do
  for seed in ${SEEDS:-1 2 3}; do
    echo "$cfg $seed"
  done
done | xargs -P "${PARALLEL:-1}" -n 2 bash -c 'one_run "$@"' _ || failed=1
echo
echo "config seed final_greedy_success tool_calls_per_episode"
for cfg in "${configs[@]}"; do
  for seed in ${SEEDS:-1 2 3}; do
    m="$out/$cfg-s$seed/$cfg/metrics.jsonl"
    [ -f "$m" ] || continue
    s=$(grep -o '"eval/success_rate":[0-9.e-]*' "$m" | tail -1 | cut -d: -f2)
    c=$(grep -o '"eval/tool_calls":[0-9.e-]*' "$m" | tail -1 | cut -d: -f2)
    echo "$cfg $seed ${s:-?} ${c:-?}"
  done
done
exit "${failed:-0}"
