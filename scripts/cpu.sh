# Sourced by the benchmark scripts: cpu_summary prints the CPU model, the
# core count and whether the CPU has AVX-512, for the line each prints with
# its table (speed figures differ between machine kinds).
cpu_summary() {
  local model avx512=no
  model="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)"
  grep -qw avx512f /proc/cpuinfo 2>/dev/null && avx512=yes
  echo "${model:-unknown} ($(nproc) cores, AVX-512: $avx512)"
}
