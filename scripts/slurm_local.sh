#!/usr/bin/env bash
# slurm_local.sh: a one-node Slurm cluster on localhost, from Debian's
# packages (apt-get install slurm-wlm munge), for trying gemgo's job
# arrays (docs/scale.md) and for cmd/compare's TestSlurmArray.
#
#   scripts/slurm_local.sh [DIR]
#
# Writes a minimal slurm.conf into DIR (default: a new temporary directory)
# with this machine's CPUs and memory, starts munged, slurmctld and slurmd
# with every file (key, socket, state, spool, logs) under DIR, prints
#
#   ready: export SLURM_CONF=DIR/slurm.conf
#
# once the node takes jobs, and runs until it gets SIGINT or SIGTERM (or
# its standard input closes, with -stdin): then it stops the three
# daemons. Run it as root (slurmd starts the jobs as their users). No
# cgroups are used (linuxproc process tracking, no task plugin), so it
# runs in a container too. The ports are SLURMCTLD_PORT (default 6817)
# and SLURMD_PORT (6818).
set -euo pipefail

watch_stdin=0
if [ "${1:-}" = "-stdin" ]; then
  watch_stdin=1
  exec 3<&0 # a background job's own standard input is /dev/null
  shift
fi
for bin in munged mungekey slurmctld slurmd sinfo; do
  if ! command -v "$bin" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$bin" ]; then
    echo "slurm_local.sh: $bin is missing: apt-get install slurm-wlm munge" >&2
    exit 2
  fi
done
PATH="$PATH:/usr/sbin"
if [ "$(id -u)" != 0 ]; then
  echo "slurm_local.sh: run it as root (slurmd starts jobs as their users)" >&2
  exit 2
fi

dir="${1:-$(mktemp -d /tmp/gemgo-slurm.XXXXXX)}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 711 "$dir/munge" # the socket is for every user; the key is root's alone
ctld_port="${SLURMCTLD_PORT:-6817}"
slurmd_port="${SLURMD_PORT:-6818}"
host="$(hostname -s)"
cpus="$(nproc)"
# Slurm's RealMemory is in MiB; leave a tenth of the memory to the rest.
mem_mib=$(( $(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))

pids=()
stop() {
  trap - EXIT INT TERM
  # slurmd first: it ends the steps of running jobs; then the controller.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[$i]}" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  done
  echo "slurm_local.sh: stopped (logs in $dir)" >&2
}
trap stop EXIT
trap 'exit 0' INT TERM

mungekey --create --force --keyfile="$dir/munge/munge.key" >/dev/null
chmod 400 "$dir/munge/munge.key"
munged --foreground --force \
  --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
  --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" \
  --log-file="$dir/munged.log" >>"$dir/munged.out" 2>&1 &
pids+=($!)

cat >"$dir/slurm.conf" <<EOF
# A one-node cluster on localhost, written by scripts/slurm_local.sh.
ClusterName=gemgo
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroups: a container has none to give.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=gemgo NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mib State=UNKNOWN
PartitionName=local Nodes=gemgo Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

for _ in $(seq 100); do
  [ -S "$dir/munge/socket" ] && break
  sleep 0.1
done
slurmctld -D -i -f "$SLURM_CONF" >>"$dir/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N gemgo -f "$SLURM_CONF" >>"$dir/slurmd.out" 2>&1 &
pids+=($!)

# Ready when the node is idle (bounded: 30 s; slurmd registers in about one).
ready=0
for _ in $(seq 300); do
  for pid in "${pids[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "slurm_local.sh: a daemon exited; the end of its logs:" >&2
      tail -n 5 "$dir"/munged.log "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/*.out >&2 2>/dev/null || true
      exit 1
    fi
  done
  if [ "$(sinfo -h -N -o %t 2>/dev/null)" = "idle" ]; then
    ready=1
    break
  fi
  sleep 0.1
done
if [ "$ready" != 1 ]; then
  echo "slurm_local.sh: the node is not idle after 30 s: $(sinfo -h -N -o '%t %E' 2>&1); logs in $dir" >&2
  exit 1
fi
echo "ready: export SLURM_CONF=$SLURM_CONF"
# Wait in a child so that a signal's trap runs at once.
if [ "$watch_stdin" = 1 ]; then
  cat <&3 >/dev/null &
else
  sleep infinity &
fi
pids+=($!)
wait $! || true
