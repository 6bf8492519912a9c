#!/usr/bin/env bash
# Gradient and 5-step loss parity of gemgo's Gorgonia trainer with the PyTorch
# reference (scripts/torchref): dumps initial weights, the gradients of batch 0
# and five losses from Go, then lets torch_ref.py replay the same batches from
# the same weights. Usage: scripts/parity.sh [d ...]   (default: 64 128)
# Target: worst relative L2 gradient error ≤ 1e-4. The reference model is
# untied (its own wout): model.tie_embeddings is checked by the Go tests only
# (policy/model_test.go, policy/sampler_test.go).
# Needs Debian's python3-torch; scripts/torchref/torch_ref.sh installs it with
# apt-get when it is missing. Env: GEMGO_BENCH (dir of torch_ref.sh; default
# scripts/torchref).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${GEMGO_BENCH:-$root/scripts/torchref}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/paritydump" ./policy/internal/paritydump
for d in "${@:-64 128}"; do
  for dd in $d; do
    echo "== d=$dd"
    "$tmp/paritydump" -d "$dd" -out "$tmp/d$dd"
    "$bench/torch_ref.sh" --parity "$tmp/d$dd" --d "$dd"
  done
done
