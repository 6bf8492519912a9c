#!/usr/bin/env bash
# The main job's training loop as a benchmark: the config (default
# configs/rebn_guess.yaml) for a fixed number of iterations, with one
# greedy evaluation at the end, and a table of env steps/s, trained
# tokens/s and where the time went (setup: tokenizer and warm-up; rollout;
# update, of which the KL reference; evaluation), and the share of prompt
# tokens the sampler took from its cache of earlier turns. With BASE=<git rev> the
# same run is made first with a build of that revision, on this machine,
# in this invocation, and the table gets a ratio column: compare runs only
# within one invocation.
#   scripts/bench_loop.sh                       # 100 iterations of the main job
#   ITERS=200 BASE=HEAD~3 scripts/bench_loop.sh  # before/after a change
#   CONFIG=configs/rebn_guess_hard.yaml BASE_SET=algo.pack=false scripts/bench_loop.sh
#                                                # this tree twice: a setting off, then as configured
# Env: CONFIG (configs/rebn_guess.yaml), ITERS (100), BASE (unset), BASE_SET
# and SET (space-separated key=value overrides of the base run and of this
# tree's run; BASE_SET alone makes the base run with this tree's build),
# TAGS (go build tags, e.g. openblas), THREADS (GOMAXPROCS; default all cores).
# The metrics it reads are perf/* and global/* of the run's metrics.csv.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config="${CONFIG:-configs/rebn_guess.yaml}"
iters="${ITERS:-100}"
base="${BASE:-}"
base_set="${BASE_SET:-}"
head_set="${SET:-}"
tags="${TAGS:-}"
tmp="$(mktemp -d)"
cleanup() {
  if [ -d "$tmp/base-src" ]; then git -C "$root" worktree remove --force "$tmp/base-src" >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$root"
command -v awk >/dev/null || { echo "bench_loop.sh: needs awk" >&2; exit 1; }

# shellcheck source=scripts/cpu.sh
. "$root/scripts/cpu.sh"
echo "CPU: $(cpu_summary); GOMAXPROCS=${THREADS:-$(nproc)}; config $config, $iters iterations${tags:+, tags $tags}"

# run NAME SRC [KEY=VALUE ...]: build cmd/train from SRC and run the loop with
# these overrides; the run directory is $tmp/NAME
run() {
  local name="$1" src="$2" kv
  shift 2
  local sets=()
  for kv in "$@"; do sets+=(-set "$kv"); done
  (cd "$src" && go build ${tags:+-tags "$tags"} -o "$tmp/train-$name" ./cmd/train)
  echo "running $name ($( cd "$src" && git rev-parse --short HEAD 2>/dev/null || echo '?')${*:+, $*})..." >&2
  ${THREADS:+env GOMAXPROCS=$THREADS} "$tmp/train-$name" -config "$root/$config" -set iterations="$iters" -set eval.every=0 \
    -set checkpoint.every=0 ${sets[@]+"${sets[@]}"} -out "$tmp/$name" >"$tmp/$name.log" 2>&1 || { tail -5 "$tmp/$name.log" >&2; exit 1; }
}

# summary NAME: one line of figures from the run's metrics.csv
summary() {
  local csv
  csv="$(ls "$tmp/$1"/*/metrics.csv)"
  awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    function v(name) { return (name in col) ? $(col[name]) + 0 : 0 }
    v("iteration") > 0 {
      ro += v("perf/rollout_s"); up += v("perf/update_s"); ref += v("perf/reference_s"); ev += v("perf/eval_s")
      tok += v("perf/trained_tokens"); if (v("global/wall_s") > wall) wall = v("global/wall_s")
      if (v("global/env_steps") > steps) steps = v("global/env_steps")
      reuse += v("perf/prompt_reuse"); iters++
    }
    END {
      setup = wall - ro - up - ev
      printf "%.0f %.2f %.2f %.2f %.2f %.2f %.2f %.0f %.0f %.3f\n", steps, wall, setup, ro, up, ref, ev, steps / ro, tok / up, reuse / iters
    }' "$csv"
}

# shellcheck disable=SC2086 # the *_set variables are lists of overrides
if [ -n "$base" ]; then
  git worktree add --detach "$tmp/base-src" "$base" >/dev/null 2>&1 || { echo "bench_loop.sh: cannot check out BASE=$base" >&2; exit 1; }
  run base "$tmp/base-src" $base_set
elif [ -n "$base_set" ]; then
  base="($base_set)"
  run base "$root" $base_set
fi
# shellcheck disable=SC2086
run head "$root" $head_set

awk -v base="$([ -n "$base" ] && summary base || echo)" -v head="$(summary head)" -v basename="$base" 'BEGIN {
  n = split("env steps|wall s (all)|setup s (tokenizer, warm-up)|rollout s|update s|  of it, KL reference s|eval s|env steps/s (rollout)|trained tokens/s (update)|prompt tokens reused (mean)", names, "|")
  split(head, h, " "); nb = split(base, b, " ")
  if (nb) printf "%-32s %12s %12s %8s\n", "", "base " basename, "this tree", "ratio"
  else printf "%-32s %12s\n", "", "this tree"
  for (i = 1; i <= n; i++) {
    if (nb) {
      if (b[i] == 0 && (i == 6 || i == 7 || i == 9 || i == 10)) { # a metric the base does not log
        printf "%-32s %12s %12s %8s\n", names[i], "n/a", h[i], ""
        continue
      }
      if (i == 10) { # a fraction, not a time or a rate
        printf "%-32s %12s %12s %8s\n", names[i], b[i], h[i], ""
        continue
      }
      r = (i >= 8) ? (b[i] > 0 ? h[i] / b[i] : 0) : (h[i] > 0 ? b[i] / h[i] : 0)
      printf "%-32s %12s %12s %7.2fx\n", names[i], b[i], h[i], r
    } else printf "%-32s %12s\n", names[i], h[i]
  }
  if (nb) print "(ratio: how many times faster this tree is; above 1 is better)"
}'
