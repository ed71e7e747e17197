#!/usr/bin/env bash
# A single-node Slurm on localhost for tests (root only): `local_slurm.sh start DIR` writes
# DIR/slurm.conf, starts munged, slurmctld and slurmd, and waits until the node is idle;
# `local_slurm.sh stop DIR` stops them. Use with SLURM_CONF=DIR/slurm.conf.
set -euo pipefail
action=$1
dir=$(realpath -m "$2")
conf=$dir/slurm.conf

stop() {
  for daemon in slurmd slurmctld; do
    if [[ -f $dir/$daemon.pid ]]; then kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true; fi
  done
  sleep 0.5
}

if [[ $action == stop ]]; then
  stop
  exit 0
fi

[[ $(id -u) -eq 0 ]] || { echo "local_slurm.sh: needs root" >&2; exit 77; }
command -v slurmctld >/dev/null || { echo "local_slurm.sh: slurm-wlm is not installed" >&2; exit 77; }
mkdir -p "$dir/state" "$dir/spool"
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 2048 ))  # MB, half the machine's: never above what slurmd finds
cat > "$conf" <<CONF
ClusterName=vibrotest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
MailProg=/bin/true
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory Features=vibro_test State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 0755 /run/munge
  [[ -f /etc/munge/munge.key ]] || /usr/sbin/mungekey --create 2>/dev/null || true
  runuser -u munge -- /usr/sbin/munged
  sleep 0.5
fi
stop
slurmctld -f "$conf"
slurmd -f "$conf" -N localhost
for _ in $(seq 1 50); do
  if SLURM_CONF=$conf sinfo -h -o %T 2>/dev/null | grep -q idle; then exit 0; fi
  sleep 0.2
done
echo "local_slurm.sh: the node did not come up; see $dir/*.log" >&2
exit 1
