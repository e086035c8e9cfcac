#!/usr/bin/env bash
# End-to-end test of `aicore-sim sweep --executor slurm` on a real single-node Slurm cluster that
# this script configures and starts itself (munged, slurmctld, slurmd as plain daemons: no systemd,
# no cgroups, so it works as root in a CI chroot) and stops again on exit. It installs nothing:
# scripts/deps.sh test installs slurm-wlm and munge. Exit 77 (CTest SKIP_RETURN_CODE) when Slurm
# is not installed or cannot be started here.
#
#   slurm_e2e.sh AICORE_SIM TRACES_DIR
#
# Checks: a small study (with a failing point) gives the same results through Slurm as through the
# local executor; the job was an array of the expected number of tasks; re-running submits nothing
# and skips every point; a refused submission (unknown partition) exits 2 with sbatch's message.
set -euo pipefail
sim=$(readlink -f "$1")
traces=$(readlink -f "$2")
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for p in munged slurmctld slurmd sbatch squeue sinfo scancel python3; do
  command -v "$p" >/dev/null || skip "$p is not installed (bash scripts/deps.sh test installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs (this test runs it as a plain daemon)"

T=$(mktemp -d /tmp/aicore-slurm-XXXXXX)
chmod 755 "$T"
stop() {
  local f pid
  for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$T"
}
trap stop EXIT

# Two free TCP ports (controller, node daemon): a refused connection means nobody listens.
free_port() {
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  skip "no free TCP port found"
}
ctld_port=$(free_port)
node_port=$(free_port)
[ "$ctld_port" != "$node_port" ] || node_port=$((ctld_port + 1))

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$T/munge/munge.key"
munged --force --socket="$T/munge/sock" --key-file="$T/munge/munge.key" --log-file="$T/log/munged.log" \
  --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/seed" || skip "munged does not start: $(tail -2 "$T/log/munged.log" 2>/dev/null)"

host=$(hostname -s)
cpus=$(nproc)
cat >"$T/slurm.conf" <<CONF
ClusterName=aicoretest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
AuthType=auth/munge
AuthInfo=socket=$T/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=60
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -f "$SLURM_CONF" || skip "slurmctld does not start: $(tail -3 "$T/log/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || skip "slurmd does not start: $(tail -3 "$T/log/slurmd.log" 2>/dev/null)"
state=""
for _ in $(seq 100); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || skip "the node did not become idle (state '$state'): $(tail -3 "$T/log/slurmd.log" 2>/dev/null)"
echo "slurm up: $host, $cpus CPUs, ports $ctld_port/$node_port"

# 2 x 3 points on the seed trace, one of them a fault (L0B too small for its load).
cp "$traces"/seed_sparse_16x64x16/* "$T/"
cat >"$T/study.yaml" <<STUDY
name: slurm_check
traces: [seed_sparse_16x64x16.trace]
grid:
  mte1.sparse.bytes_per_cycle: [32, 64, 128]
  cube.head_cycles: [0, 8]
zip:
  buffers.l0b_bytes: [65536]
STUDY
cat >"$T/fault.yaml" <<STUDY
name: slurm_fault
traces: [seed_sparse_16x64x16.trace]
timing_only: true
grid:
  buffers.l0a_bytes: [65536, 512]
STUDY

cd "$T"
"$sim" sweep study.yaml --out local -q -j2 >local.out 2>&1 || fail "local sweep exit $?: $(cat local.out)"
export AICORE_SLURM_POLL_SECONDS=0.3
"$sim" sweep study.yaml --out viaslurm --executor slurm --chunk 2 >slurm.out 2>slurm.err ||
  fail "slurm sweep exit $?: $(cat slurm.out slurm.err)"
cat slurm.out
grep -q "Slurm job [0-9]*, 3 task(s)" slurm.out || fail "expected one job of 3 array tasks: $(cat slurm.out)"
grep -q "6 run, 0 skipped" slurm.out || fail "expected 6 points run"
for t in 0 1 2; do [ -f viaslurm/slurm/task-$t.done ] || fail "task $t wrote no .done marker"; done

# Same rows, except the wall times (and ids are the same keys, so also the same).
python3 - local/results.csv viaslurm/results.csv <<'PY' || fail "results differ between the executors"
import csv, sys
def rows(p):
    with open(p, newline="") as f:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(f)]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert len(a) == 6, len(a)
assert all(r["status"] == "ok" for r in a), [r["status"] for r in a]
if a != b:
    for x, y in zip(a, b):
        if x != y:
            print("local:", x, "\nslurm:", y)
    sys.exit(1)
PY

# Resume: nothing left to run, so nothing is submitted.
"$sim" sweep study.yaml --out viaslurm --executor slurm -q >again.out 2>&1 || fail "re-run exit $?: $(cat again.out)"
grep -q "0 run, 6 skipped" again.out || fail "re-run did not skip: $(cat again.out)"
grep -q "nothing to submit" again.out || fail "re-run submitted a job: $(cat again.out)"

# A failing point through Slurm: recorded, the study goes on, the sweep exits 3.
set +e
"$sim" sweep fault.yaml --out fault --executor slurm -q >fault.out 2>&1
st=$?
set -e
[ "$st" -eq 3 ] || fail "a failing point: expected exit 3, got $st: $(cat fault.out)"
grep -q "1 ok, 1 failed" fault.out || fail "expected 1 ok and 1 failed: $(cat fault.out)"
grep -q "fault 1" fault.out || fail "expected a fault: $(cat fault.out)"

# A submission Slurm refuses: exit 2 with sbatch's own words.
set +e
"$sim" sweep study.yaml --out refused --executor slurm --partition nosuch --force -q >refused.out 2>&1
st=$?
set -e
[ "$st" -eq 2 ] || fail "unknown partition: expected exit 2, got $st: $(cat refused.out)"
grep -q "sbatch refused the job" refused.out || fail "no sbatch message: $(cat refused.out)"
grep -qi "partition" refused.out || fail "sbatch's message does not name the partition: $(cat refused.out)"
echo "PASS: slurm executor matches the local executor (6 points, 3 array tasks), resumes, reports failures"
