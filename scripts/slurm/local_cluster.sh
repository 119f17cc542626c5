#!/bin/bash
# A throwaway Slurm cluster on this one machine, for trying scripts/slurm/ and for its test
# (tests/e2e/slurm_fleet.sh): one slurmctld and one slurmd per node name (node1..nodeN, each on
# its own port, all on 127.0.0.1), everything (config, state, spool, logs) inside DIR, no munge
# (AuthType=auth/none, which Debian's slurm-wlm builds). Needs root (slurmd runs jobs as their
# user) and Debian's slurm-wlm (scripts/setup.sh --test installs it). Never touches /etc/slurm.
#
#   scripts/slurm/local_cluster.sh start DIR [NODES]   # NODES default 4; prints SLURM_CONF=...
#   SLURM_CONF=DIR/slurm.conf sbatch ...                # use it
#   scripts/slurm/local_cluster.sh stop DIR             # stops only the daemons it started
#
# Exit status of start: 0 the nodes are idle; 77 this machine cannot run it (the reason on
# stderr); stop always 0.
set -uo pipefail

cannot() { echo "local_cluster: $*" >&2; exit 77; }

stop() {
  local dir=$1 f pid
  for f in "$dir"/slurmctld.pid "$dir"/slurmd-*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null
  done
  for _ in $(seq 50); do  # up to 5 s for them to exit
    local alive=0
    for f in "$dir"/slurmctld.pid "$dir"/slurmd-*.pid; do
      [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for f in "$dir"/slurmctld.pid "$dir"/slurmd-*.pid; do
    [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    rm -f "$f"
  done
  return 0
}

write_conf() {
  local dir=$1 nodes=$2 base=$3 host
  host=$(hostname)
  cat > "$dir/slurm.conf" <<CONF
# Written by scripts/slurm/local_cluster.sh: a test cluster inside $dir.
ClusterName=gpusonar$base
SlurmctldHost=localhost
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
InactiveLimit=0
KillWait=5
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
CONF
  for i in $(seq "$nodes"); do
    echo "NodeName=node$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$((base + 1 + i)) CPUs=1 State=UNKNOWN" >> "$dir/slurm.conf"
  done
  echo "PartitionName=fleet Nodes=node[1-$nodes] Default=YES MaxTime=60 State=UP" >> "$dir/slurm.conf"
}

start() {
  local dir=$1 nodes=${2:-4} c
  [ "$(id -u)" -eq 0 ] || cannot "needs root: slurmd runs each job as its user"
  for c in slurmctld slurmd sbatch srun sinfo scontrol; do
    command -v "$c" > /dev/null || cannot "$c not found: install Debian's slurm-wlm (scripts/setup.sh --test)"
  done
  compgen -G "/usr/lib/*/slurm-wlm/auth_none.so" > /dev/null ||
    compgen -G "/usr/lib*/slurm/auth_none.so" > /dev/null ||
    cannot "this Slurm has no auth/none plugin (Debian's slurm-wlm has one)"
  mkdir -p "$dir/state" "$dir/spool" || cannot "cannot create $dir"
  # Ports from the process id, so two clusters (two worktrees' tests) do not meet.
  local base=$((20000 + ($$ * 7) % 30000))
  write_conf "$dir" "$nodes" "$base"
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" -c -i > "$dir/slurmctld.stderr" 2>&1 ||
    { stop "$dir"; cannot "slurmctld did not start: $(tail -3 "$dir/slurmctld.log" "$dir/slurmctld.stderr" 2>/dev/null)"; }
  for i in $(seq "$nodes"); do
    mkdir -p "$dir/spool/node$i"
    slurmd -f "$SLURM_CONF" -N "node$i" > "$dir/slurmd-node$i.stderr" 2>&1 ||
      { stop "$dir"; cannot "slurmd node$i did not start: $(tail -3 "$dir/slurmd-node$i.log" 2>/dev/null)"; }
  done
  for _ in $(seq 150); do  # up to 15 s for every node to register idle
    [ "$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" -eq "$nodes" ] && {
      echo "SLURM_CONF=$SLURM_CONF"
      return 0
    }
    sleep 0.1
  done
  local why
  why=$(sinfo -N 2>&1; tail -3 "$dir/slurmctld.log" 2>/dev/null)
  stop "$dir"
  cannot "the nodes did not become idle within 15 s: $why"
}

case "${1:-}" in
  start) start "${2:?usage: local_cluster.sh start DIR [NODES]}" "${3:-4}" ;;
  stop) stop "${2:?usage: local_cluster.sh stop DIR}" ;;
  *) echo "usage: local_cluster.sh start DIR [NODES] | stop DIR" >&2; exit 2 ;;
esac
