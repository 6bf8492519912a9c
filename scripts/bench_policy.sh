#!/usr/bin/env bash
# gemgo's policy trainer and KV-cache sampler against the PyTorch reference
# (scripts/torchref), on the reference workload, in one run on this machine
# with the same core count: GOMAXPROCS=$THREADS for Go, --threads $THREADS
# for torch. Prints a table of tokens/s (training: 32×32 tokens per step with
# the weighted loss and Adam; sampling: 32 rows × 16 new tokens after a
# 16-token prompt, KV cache on both sides) and FLOP rates beside the
# machine's fp32 FMA peak (cores × FLOPs per cycle × clock, the clock read
# from sysfs or /proc/cpuinfo).
#
# The anchor is PyTorch at its best on this machine: torch_ref.sh runs in
# each setting of OPENBLAS_NUM_THREADS (1, 2) and OMP_WAIT_POLICY (PASSIVE,
# ACTIVE), for TORCH_STEPS timed training steps after 10 untimed ones, and
# each workload's ratio is against the fastest setting for it (PyTorch 1.13
# sends its GEMMs to OpenBLAS, so one OpenBLAS thread leaves a core idle,
# and spinning OpenMP threads win on an idle machine and lose on a busy one).
#   scripts/bench_policy.sh            # d = 64, 128 and 256, pure-Go BLAS
#   TAGS=openblas scripts/bench_policy.sh   # float32 GEMM through OpenBLAS (apt-get install libopenblas-dev; docs/openblas.md)
#   DIMS=64 TORCH_STEPS=20 SETTINGS="1:PASSIVE" BENCHTIME=200ms scripts/bench_policy.sh   # a quick smoke run
# Env: THREADS (2), BENCHTIME (Go -benchtime, default 3s), DIMS ("64 128
# 256"), TORCH_STEPS (200), SETTINGS (space-separated
# OPENBLAS_NUM_THREADS:OMP_WAIT_POLICY pairs, default "1:PASSIVE 2:PASSIVE
# 1:ACTIVE 2:ACTIVE"), GEMGO_BENCH (dir of torch_ref.sh; default
# scripts/torchref). Needs Debian's python3-torch; torch_ref.sh installs it
# with apt-get when it is missing. FLOPs count 6 × parameters per trained
# token and 2 × parameters per sampled token (the matrix products; attention
# scores and the optimizer are left out), the same count for both sides.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${GEMGO_BENCH:-$root/scripts/torchref}"
threads="${THREADS:-2}"
benchtime="${BENCHTIME:-3s}"
dims="${DIMS:-64 128 256}"
torch_steps="${TORCH_STEPS:-200}"
settings="${SETTINGS:-1:PASSIVE 2:PASSIVE 1:ACTIVE 2:ACTIVE}"
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

bench_re="$(tr ' ' '|' <<<"$dims")"
echo "Go benchmarks (GOMAXPROCS=$threads, -benchtime $benchtime${tags:+, tags $tags}, d = $dims)..." >&2
GOMAXPROCS="$threads" go test ${tags:+-tags "$tags"} ./policy/ -run '^$' -bench "^(BenchmarkTrainStep|BenchmarkSample)\$/^d=($bench_re)\$" \
  -benchtime "$benchtime" -count 1 | tee "$tmp/go.txt" >&2
for d in $dims; do
  for s in $settings; do
    ob="${s%%:*}" wp="${s##*:}"
    echo "PyTorch reference d=$d (--threads $threads, OPENBLAS_NUM_THREADS=$ob, OMP_WAIT_POLICY=$wp, $torch_steps steps)..." >&2
    OPENBLAS_NUM_THREADS="$ob" OMP_WAIT_POLICY="$wp" "$bench/torch_ref.sh" --d "$d" --threads "$threads" \
      --steps "$torch_steps" --warmup 10 --json "$tmp/torch-$d-$ob-$wp.json" >&2
  done
done

# shellcheck source=scripts/cpu.sh
. "$root/scripts/cpu.sh"
read -r ghz clock_src <<<"$(cpu_clock_ghz)"
read -r fpc fpc_why <<<"$(cpu_fp32_flops_per_cycle)"
echo "CPU: $(cpu_summary); $threads threads each${tags:+; gemgo built with -tags $tags}"
echo "FMA peak: $threads cores x $fpc FLOP/cycle ($fpc_why) x $ghz GHz ($clock_src); load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$dims" "$settings" "$threads" "$fpc" "$ghz" <<'PY'
import json, re, sys
tmp, dims, settings = sys.argv[1], [int(d) for d in sys.argv[2].split()], sys.argv[3].split()
cores, fpc, ghz = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
peak = cores * fpc * ghz  # GFLOP/s
print(f"peak {peak:.1f} GFLOP/s fp32")
go = {}
for line in open(f"{tmp}/go.txt"):
    m = re.match(r"Benchmark(TrainStep|Sample)/d=(\d+)\S*\s+\d+\s+.*?([\d.]+) tokens/s", line)
    if m:
        go[(m.group(1), int(m.group(2)))] = float(m.group(3))
print(f"{'d':>4} {'workload':<20} {'gemgo tok/s':>11} {'GFLOP/s':>8} {'%peak':>6} {'torch tok/s':>11} {'GFLOP/s':>8} {'%peak':>6} {'ratio':>6}  torch's best setting (of {len(settings)})")
for d in dims:
    runs = {}
    for s in settings:
        ob, wp = s.split(":")
        t = json.load(open(f"{tmp}/torch-{d}-{ob}-{wp}.json"))
        if not t.get("openblas_core"):
            print(f"warning: torch ran without OpenBLAS at d={d} (libblas.so.3 is another BLAS, often the slow reference one); "
                  "apt-get install libopenblas0-pthread makes it the reference setup", file=sys.stderr)
        runs[f"OPENBLAS_NUM_THREADS={ob} OMP_WAIT_POLICY={wp}"] = t
    params = next(iter(runs.values()))["params"]
    for name, key, flops, pick in (
            ("train (32x32, Adam)", "TrainStep", 6 * params, lambda t: t["train_tokens_per_s"]),
            ("sample (kv-cache)", "Sample", 2 * params, lambda t: t["gen_tokens_per_s"]["kv-cache"])):
        best = max(runs, key=lambda k: pick(runs[k]))
        r, g = pick(runs[best]), go.get((key, d))
        rf = r * flops / 1e9
        if g:
            gf = g * flops / 1e9
            gs = f"{g:11.0f} {gf:8.1f} {100 * gf / peak:5.1f}%"
            ratio = f"{g / r:6.2f}"
        else:
            gs, ratio = f"{'n/a':>11} {'':>8} {'':>6}", f"{'n/a':>6}"
        print(f"{d:>4} {name:<20} {gs} {r:11.0f} {rf:8.1f} {100 * rf / peak:5.1f}% {ratio}  {best}")
    others = ", ".join(f"{k.replace('OPENBLAS_NUM_THREADS=', 'ob').replace(' OMP_WAIT_POLICY=', '/')}: "
                       f"{runs[k]['train_tokens_per_s']:.0f}/{runs[k]['gen_tokens_per_s']['kv-cache']:.0f}" for k in runs)
    print(f"     torch train/sample tok/s per setting: {others}")
PY
