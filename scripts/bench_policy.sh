#!/usr/bin/env bash
# gemgo's policy trainer and KV-cache sampler against the PyTorch reference
# (scripts/torchref), on the reference workload, in one run on this machine
# with the same core count: GOMAXPROCS=$THREADS for Go, --threads $THREADS
# for torch. Prints a table of tokens/s (training: 32×32 tokens per step with
# the weighted loss and Adam; sampling: 32 rows × 16 new tokens after a
# 16-token prompt, KV cache on both sides).
#   scripts/bench_policy.sh            # d = 64 and 128, pure-Go BLAS
#   TAGS=openblas scripts/bench_policy.sh   # float32 GEMM through OpenBLAS (apt-get install libopenblas-dev; docs/openblas.md)
# Env: THREADS (2), BENCHTIME (Go -benchtime, default 3s), GEMGO_BENCH (dir of
# torch_ref.sh; default scripts/torchref). Needs Debian's python3-torch;
# torch_ref.sh installs it with apt-get when it is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${GEMGO_BENCH:-$root/scripts/torchref}"
threads="${THREADS:-2}"
benchtime="${BENCHTIME:-3s}"
tags="${TAGS:-}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"

if [ "$tags" = openblas ] && [ -z "${OPENBLAS_CORETYPE+set}" ]; then
  # as torch_ref.sh does: OpenBLAS 0.3.21 falls back to generic kernels on CPUs it does not know
  flags="$(LC_ALL=C lscpu 2>/dev/null | grep -i '^flags:' || true)"
  if grep -qw avx512f <<<"$flags"; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 <<<"$flags"; then export OPENBLAS_CORETYPE=Haswell; fi
  export OPENBLAS_NUM_THREADS=1 # gemgo sets one OpenBLAS thread itself; this also spares the idle pool
fi

echo "Go benchmarks (GOMAXPROCS=$threads, -benchtime $benchtime${tags:+, tags $tags})..." >&2
GOMAXPROCS="$threads" go test ${tags:+-tags "$tags"} ./policy/ -run '^$' -bench 'BenchmarkTrainStep|BenchmarkSample' \
  -benchtime "$benchtime" -count 1 | tee "$tmp/go.txt" >&2
for d in 64 128; do
  echo "PyTorch reference d=$d (--threads $threads)..." >&2
  "$bench/torch_ref.sh" --d "$d" --threads "$threads" --json "$tmp/torch$d.json" >&2
done

# shellcheck source=scripts/cpu.sh
. "$root/scripts/cpu.sh"
echo "CPU: $(cpu_summary); $threads threads each${tags:+; gemgo built with -tags $tags}"
python3 - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
go = {}
for line in open(f"{tmp}/go.txt"):
    m = re.match(r"Benchmark(TrainStep|Sample)/d=(\d+)\S*\s+\d+\s+.*?([\d.]+) tokens/s", line)
    if m:
        go[(m.group(1), int(m.group(2)))] = float(m.group(3))
print(f"{'d':>4} {'workload':<22} {'gemgo tok/s':>12} {'torch tok/s':>12} {'ratio':>7}")
for d in (64, 128):
    t = json.load(open(f"{tmp}/torch{d}.json"))
    if not t.get("openblas_core"):
        print(f"warning: torch ran without OpenBLAS at d={d} (libblas.so.3 is another BLAS, often the slow reference one); "
              "apt-get install libopenblas0-pthread makes it the reference setup", file=sys.stderr)
    rows = [("train (32x32, Adam)", go.get(("TrainStep", d)), t["train_tokens_per_s"]),
            ("sample (kv-cache)", go.get(("Sample", d)), t["gen_tokens_per_s"]["kv-cache"])]
    for name, g, r in rows:
        gs = f"{g:12.0f}" if g else f"{'n/a':>12}"
        ratio = f"{g / r:7.2f}" if g else f"{'n/a':>7}"
        print(f"{d:>4} {name:<22} {gs} {r:12.0f} {ratio}")
PY
