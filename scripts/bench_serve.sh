#!/usr/bin/env bash
# cmd/serve's throughput: requests/s of 1 and of 32 concurrent clients
# (greedy GuessTheNumber-easy conversations over loopback HTTP, the clients
# on the same cores as the server), for each model of serve's
# BenchmarkServe (small: 1 layer of d = 32; d64: 2 layers; d128: 4
# layers), COUNT runs each, and the ratio of the medians.
#   scripts/bench_serve.sh                 # every model, 3 runs of 3 s
#   MODELS=d64 COUNT=5 scripts/bench_serve.sh
# Env: MODELS (a regexp of model names, default every one), COUNT (3),
# BENCHTIME (3s), PRIORITY=1 (run in a session of its own whose autogroup
# and nice are −20, as root: near-idle figures on a machine shared with
# other jobs; the line above the table says whether it was used).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/cpu.sh
. "$root/scripts/cpu.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/serve.test" ./serve/
run=("$tmp/serve.test" -test.run '^$' -test.bench "BenchmarkServe/${MODELS:-.}/" -test.benchtime "${BENCHTIME:-3s}" -test.count "${COUNT:-3}")
prio=no
if [ "${PRIORITY:-0}" = 1 ]; then
  [ "$(id -u)" = 0 ] || { echo "bench_serve.sh: PRIORITY=1 needs root (it sets nice −20)" >&2; exit 1; }
  prio=yes
  # shellcheck disable=SC2016
  run=(setsid bash -c 'echo -20 > /proc/$$/autogroup 2>/dev/null || true; exec nice -n -20 "$@"' _ "${run[@]}")
fi
echo "CPU: $(cpu_summary); load average $(cut -d' ' -f1-3 /proc/loadavg); priority −20: $prio"
"${run[@]}" | tee "$tmp/out" | grep '^Benchmark' >&2 || true
awk '
  /^BenchmarkServe\// {
    split($1, p, "/"); sub(/-[0-9]+$/, "", p[3]); m = p[2]; c = p[3]
    for (i = 2; i <= NF; i++) if ($(i+1) == "requests/s") { v[m, c, ++n[m, c]] = $i; batch[m, c] += $(i-2) }
    if (!(m in seen)) { seen[m] = 1; order[++k] = m }
  }
  function median(m, c,   i, j, t, a, cnt) {
    cnt = n[m, c]; for (i = 1; i <= cnt; i++) a[i] = v[m, c, i]
    for (i = 1; i <= cnt; i++) for (j = i + 1; j <= cnt; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return cnt % 2 ? a[(cnt + 1) / 2] : (a[cnt / 2] + a[cnt / 2 + 1]) / 2
  }
  END {
    print "| model | 1 client, requests/s (median) | 32 clients, requests/s (median) | requests per sampler call at 32 | 32 clients ÷ 1 |"
    print "|---|---|---|---|---|"
    for (i = 1; i <= k; i++) {
      m = order[i]; a = median(m, "clients=1"); b = median(m, "clients=32")
      printf "| %s | %.0f | %.0f | %.1f | %.2f× |\n", m, a, b, batch[m, "clients=32"] / n[m, "clients=32"], b / a
    }
  }' "$tmp/out"
