# Sourced by the benchmark scripts: cpu_summary prints the CPU model, the
# core count and whether the CPU has AVX-512, for the line each prints with
# its table (speed figures differ between machine kinds).
cpu_summary() {
  local model avx512=no
  model="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)"
  grep -qw avx512f /proc/cpuinfo 2>/dev/null && avx512=yes
  echo "${model:-unknown} ($(nproc) cores, AVX-512: $avx512)"
}

# cpu_clock_ghz prints the clock the FMA peak is computed at, in GHz, and
# where it was read: the highest frequency the kernel reports
# (cpufreq's cpuinfo_max_freq), else the "cpu MHz" of /proc/cpuinfo (on
# VMs without cpufreq, the nominal or current clock).
cpu_clock_ghz() {
  local khz mhz
  khz="$(cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq 2>/dev/null || true)"
  if [ -n "$khz" ]; then
    awk -v k="$khz" 'BEGIN { printf "%.3f sysfs cpuinfo_max_freq\n", k / 1e6 }'
    return
  fi
  mhz="$(grep -m1 'cpu MHz' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | tr -d ' ' || true)"
  awk -v m="${mhz:-0}" 'BEGIN { printf "%.3f /proc/cpuinfo cpu MHz\n", m / 1e3 }'
}

# cpu_fp32_flops_per_cycle prints the fp32 FLOPs one core's FMA units can
# do per cycle and why: 2 FMA pipes × 8 lanes × 2 (multiply and add) with
# AVX2; with AVX-512F, 2 × 16 × 2 on Intel, but AMD's Zen 4 runs a 512-bit
# FMA as two 256-bit halves, so it stays at 32 there.
cpu_fp32_flops_per_cycle() {
  if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
    if grep -qm1 AuthenticAMD /proc/cpuinfo 2>/dev/null; then
      echo "32 AVX-512 on AMD (2 FMA pipes x 8 lanes x 2, 512-bit ops double-pumped)"
    else
      echo "64 AVX-512 (2 FMA pipes x 16 lanes x 2)"
    fi
  elif grep -qw fma /proc/cpuinfo 2>/dev/null; then
    echo "32 AVX2 (2 FMA pipes x 8 lanes x 2)"
  else
    echo "8 SSE (no FMA: 4 lanes x 2 pipes, multiply and add apart)"
  fi
}
