#!/usr/bin/python3
"""`vibro submit` through a real single-node Slurm: a small sweep submitted as 2 MPI ranks, run by
slurmctld/slurmd on localhost (started here by scripts/local_slurm.sh), and its file checked
against a local run. Exits 77 (skipped) where Slurm cannot be started (not root, not installed).

usage: test_submit.py VIBRO_BINARY REPO_ROOT
"""
import os
import subprocess
import sys
import tempfile
import time

import h5py

SWEEP = "model = conveyor\n[axes]\na_hat = 40, 50, 60, 70\nz0 = 0, 0.002\n"


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    slurm = os.path.join(root, "scripts", "local_slurm.sh")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "slurm")
        started = subprocess.run([slurm, "start", state], capture_output=True, text=True)
        if started.returncode == 77:
            print("skipped: " + started.stderr.strip())
            return 77
        if started.returncode != 0:
            # The machine cannot run the daemons (not a fault of vibro): reported as skipped, with why.
            logs = ""
            for name in ("slurmctld.log", "slurmd.log"):
                path = os.path.join(state, name)
                if os.path.exists(path):
                    logs += "\n%s: %s" % (name, open(path).read()[-600:])
            print("skipped: local Slurm did not start: " + started.stderr.strip() + logs)
            subprocess.run([slurm, "stop", state], capture_output=True)
            return 77
        env = dict(os.environ, SLURM_CONF=os.path.join(state, "slurm.conf"))
        try:
            sweep = os.path.join(tmp, "small.ini")
            with open(sweep, "w") as f:
                f.write(SWEEP)
            out = os.path.join(tmp, "submitted.h5")
            bad = subprocess.run([vibro, "submit", sweep, "--nodes", "1", "--time", "5 minutes"], cwd=tmp, env=env,
                                 capture_output=True, text=True)
            if bad.returncode != 2 or "--time" not in bad.stderr:
                failures.append("a malformed --time is refused before submission: " + bad.stderr)
            submit = subprocess.run([vibro, "submit", sweep, "--nodes", "1", "--ntasks-per-node", "2",
                                     "--cpus-per-task", "1", "--time", "00:05:00", "--output.file=" + out],
                                    cwd=tmp, env=env, capture_output=True, text=True)
            print(submit.stdout.strip())
            job = submit.stdout.strip().split()[-1] if submit.returncode == 0 else None
            if not job or not job.isdigit():
                failures.append("submit prints the job id: " + submit.stdout + submit.stderr)
            else:
                deadline = time.time() + 120
                while time.time() < deadline:
                    queue = subprocess.run(["squeue", "-h", "-j", job], env=env, capture_output=True, text=True)
                    if job not in queue.stdout:
                        break
                    time.sleep(0.5)
                if not os.path.exists(out):
                    log = [f for f in os.listdir(tmp) if ".slurm-" in f]
                    text = open(os.path.join(tmp, log[0])).read() if log else "no job log"
                    failures.append("the job wrote its file: " + text)
                else:
                    local = os.path.join(tmp, "local.h5")
                    subprocess.run([vibro, "run", sweep, "--output.file=" + local], cwd=tmp, check=True,
                                   capture_output=True)
                    with h5py.File(out) as a, h5py.File(local) as b:
                        if int(a.attrs["ranks"]) != 2:
                            failures.append("the job ran on 2 ranks (file says %s)" % a.attrs["ranks"])
                        for key in ("class", "period", "observables/mean_velocity", "counters/impacts"):
                            if list(a["cases/" + key][...]) != list(b["cases/" + key][...]):
                                failures.append("cases/%s equals a local run" % key)
                    print("job %s: file written on 2 ranks, results equal a local run" % job)
        finally:
            subprocess.run([slurm, "stop", state], capture_output=True)
    for f in failures:
        print("FAIL: " + f)
    print("ok" if not failures else "%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
