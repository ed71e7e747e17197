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
            setup = os.path.join(tmp, "setup.sh")
            with open(setup, "w") as f:
                f.write('export VIBRO_SETUP_MARK=from-setup\necho "setup ran: $VIBRO_SETUP_MARK"\n')
            # The cluster options a real site needs, through a real slurmctld (the node has the feature
            # vibro_test and half the machine's memory; no accounting, so any account name is taken).
            submit = subprocess.run([vibro, "submit", sweep, "--nodes", "1", "--ntasks-per-node", "2",
                                     "--cpus-per-task", "1", "--time", "10", "--account", "vibro_acct",
                                     "--mem", "200M", "--constraint", "vibro_test", "--mpi", "pmix",
                                     "--sbatch-line=--comment=vibro-extra-line", "--setup", setup,
                                     "--run.progress_seconds=0.1", "--output.file=" + out],
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
                log = [f for f in os.listdir(tmp) if ".slurm-" in f]
                text = open(os.path.join(tmp, log[0])).read() if log else "no job log"
                shown = subprocess.run(["scontrol", "show", "job", job], env=env, capture_output=True, text=True).stdout
                if "Comment=vibro-extra-line" not in shown or "Account=vibro_acct" not in shown:
                    failures.append("--sbatch-line and --account reach the job: " + shown)
                if "setup ran: from-setup" not in text:
                    failures.append("the --setup lines ran in the job: " + text)
                # A batch log is no terminal: progress comes as whole lines, never redrawn with \r.
                progress = [line for line in text.splitlines() if " cases " in line and "cases/s" in line]
                if not progress or "\r" in text or not progress[-1].startswith("8 / 8 cases"):
                    failures.append("the log has whole progress lines ending at 8 / 8: " + repr(text[-800:]))
                if "on 2 rank(s) x 1 thread(s)" not in text:
                    failures.append("the summary reports ranks x threads: " + text[-400:])
                if not os.path.exists(out):
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
