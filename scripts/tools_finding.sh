#!/usr/bin/env bash
# Trains a from-scratch policy with and without a tool, on the two task
# families where a tool matters, over 3 seeds, and prints each run's final
# greedy success:
#   configs/rebn_products_python.yaml vs configs/rebn_products_notool.yaml (math:Products-v0)
#   configs/rebn_qa_search.yaml       vs configs/rebn_qa_notool.yaml       (qa:Fictional-v0-onehop)
# Re-running skips finished runs and resumes interrupted ones (cmd/train -resume).
# Usage: scripts/tools_finding.sh [config ...]   (default: the four above)
# Runs go in runs/tools_finding/<config>-s<seed>; SEEDS="1 2 3" by default.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out=runs/tools_finding
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/train" ./cmd/train
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(rebn_products_python rebn_products_notool rebn_qa_search rebn_qa_notool)
for cfg in "${configs[@]}"; do
  for seed in ${SEEDS:-1 2 3}; do
    dir="$out/$cfg-s$seed"
    run="$dir/$cfg"
    if [ -f "$run/final.safetensors" ]; then
      echo "== $cfg seed $seed: done"
      continue
    fi
    echo "== $cfg seed $seed ($(date -u +%H:%M:%S) UTC, load: $(cut -d' ' -f1-3 /proc/loadavg))"
    start=$(date +%s)
    if [ -f "$run/checkpoint.safetensors" ]; then
      "$tmp/train" -resume "$run"
    else
      "$tmp/train" -config "$cfg" -seed "$seed" -out "$dir"
    fi
    echo "   wall $(( $(date +%s) - start )) s" | tee -a "$dir/wall.txt"
  done
done
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
