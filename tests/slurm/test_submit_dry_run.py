#!/usr/bin/python3
"""`vibro submit` never submits what it was not asked to, and says so when sbatch fails: under a fake
sbatch and a fake srun first on PATH (each records its calls in a file; no Slurm needed, a few seconds).

usage: test_submit_dry_run.py VIBRO_BINARY

- A dry run never calls sbatch, wherever --dry-run stands; `--partition --dry-run` is refused (the
  partition is missing) and calls nothing.
- sbatch failing, or printing no job id, is a failure: exit 1, sbatch's message, no "submitted" line.
- --mpi is checked against `srun --mpi=list` (Slurm 20 and Slurm 22+ output), or Slurm's documented
  types without srun; the default pmix is warned about where srun lacks it.
- Warnings: an --sbatch-line that repeats a directive the script writes, or repeats another one;
  --gpus-per-task for a sweep on the cpu back end.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from check_log import FAILURES, check  # noqa: E402

SWEEP = "model = conveyor\n[axes]\na_hat = 40, 50\n"
# Each fake appends its name and arguments as one line to $CALLS, then prints $SBATCH_OUT or $SRUN_OUT
# (shell builtins only: PATH holds nothing but the fakes).
FAKE = """#!/bin/sh
echo "${0##*/} $*" >> "$CALLS"
case "${0##*/}" in
  sbatch) printf '%b' "$SBATCH_OUT"; exit "${SBATCH_RC:-0}" ;;
  srun) printf '%b' "$SRUN_OUT"; exit 0 ;;
esac
"""
SLURM22 = "MPI plugin types are...\\n\\tnone\\n\\tcray_shasta\\n\\tpmi2\\n\\tpmix\\n" \
          "specific pmix plugin versions available: pmix_v4,pmix_v5\\n"
SLURM20 = "srun: MPI types are...\\nsrun: none\\nsrun: pmi2\\nsrun: openmpi\\n"


class Fakes:
    def __init__(self, root, names):
        self.bin = os.path.join(root, "bin_" + "_".join(names))
        os.mkdir(self.bin)
        for name in names:
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write(FAKE)
            os.chmod(path, 0o755)
        self.calls = os.path.join(root, "calls_" + "_".join(names))

    def submit(self, vibro, cwd, args, sbatch_out="4242\\n", sbatch_rc=0, srun_out=SLURM22):
        for stale in (self.calls, os.path.join(cwd, "sweep.h5.sbatch")):
            if os.path.exists(stale):
                os.remove(stale)
        # Only the fakes on PATH: a real sbatch or srun on this machine is never reached.
        env = dict(os.environ, PATH=self.bin, CALLS=self.calls, SBATCH_OUT=sbatch_out, SBATCH_RC=str(sbatch_rc),
                   SRUN_OUT=srun_out)
        done = subprocess.run([vibro, "submit", "sweep.ini", *args], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=60)
        return done, self.called()

    def called(self):
        return open(self.calls).read().splitlines() if os.path.exists(self.calls) else []


def sbatch_calls(calls):
    return [c for c in calls if c.startswith("sbatch")]


def main():
    vibro = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "sweep.ini"), "w") as f:
            f.write(SWEEP)
        fakes = Fakes(tmp, ["sbatch", "srun"])
        script = os.path.join(tmp, "sweep.h5.sbatch")

        # A dry run never calls sbatch, wherever --dry-run stands.
        for args in (["--dry-run"], ["--dry-run", "--time", "10"], ["--time", "10", "--dry-run"],
                     ["--partition", "gpu", "--dry-run", "--nodes", "2"], ["--run.tol=1e-6", "--dry-run"]):
            done, calls = fakes.submit(vibro, tmp, args)
            check(done.returncode == 0 and os.path.exists(script), f"dry run {args} writes the script", done.stderr)
            check(sbatch_calls(calls) == [], f"dry run {args} never calls sbatch", str(calls))
            check("submitted" not in done.stdout, f"dry run {args} prints no submission", done.stdout)
            os.remove(script)
        # The reported defect: --partition without a value took --dry-run and then submitted.
        for args in (["--partition", "--dry-run"], ["--script", "--dry-run"], ["--sbatch-line", "--dry-run"],
                     ["--time", "--dry-run"]):
            done, calls = fakes.submit(vibro, tmp, args)
            check(done.returncode == 2 and f"{args[0]} needs a value; got the option '--dry-run'" in done.stderr,
                  f"{args} is refused naming {args[0]}", done.stderr)
            check(sbatch_calls(calls) == [] and not os.path.exists(script), f"{args}: no sbatch call, no script",
                  str(calls))
        done, calls = fakes.submit(vibro, tmp, ["--sbatch-line", "--exclusive", "--dry-run"])
        check(done.returncode == 2 and "--sbatch-line=VALUE" in done.stderr,
              "--sbatch-line --exclusive is refused, saying to write --sbatch-line=--exclusive", done.stderr)
        done, calls = fakes.submit(vibro, tmp, ["--partition", "a", "--partition", "b", "--dry-run"])
        check(done.returncode == 2 and "--partition is given twice ('a' and 'b')" in done.stderr,
              "--partition given twice is refused", done.stderr)

        # sbatch's failure is a failure.
        done, calls = fakes.submit(vibro, tmp, [], sbatch_out="sbatch: error: Invalid partition name specified\\n",
                                   sbatch_rc=1)
        check(len(sbatch_calls(calls)) == 1, "without --dry-run sbatch is called once", str(calls))
        check(done.returncode == 1 and "submitted" not in done.stdout and "Invalid partition name" in done.stderr,
              "sbatch failing: exit 1, its message, no 'submitted' line", f"rc {done.returncode}\n{done.stdout}{done.stderr}")
        done, calls = fakes.submit(vibro, tmp, [], sbatch_out="", sbatch_rc=0)
        check(done.returncode == 1 and "submitted" not in done.stdout,
              "sbatch printing no job id: exit 1, no 'submitted' line", f"rc {done.returncode}\n{done.stdout}{done.stderr}")
        done, calls = fakes.submit(vibro, tmp, [], sbatch_out="4242;cluster\\n")
        check(done.returncode == 0 and "submitted batch job 4242\n" in done.stdout, "a submission prints its job id",
              done.stdout + done.stderr)
        no_sbatch = Fakes(tmp, ["srun"])
        done, calls = no_sbatch.submit(vibro, tmp, [])
        check(done.returncode == 1 and "submitted" not in done.stdout and "sbatch" in done.stderr,
              "no sbatch on PATH: exit 1, no 'submitted' line", f"rc {done.returncode}\n{done.stdout}{done.stderr}")

        # --mpi against srun's list.
        done, calls = fakes.submit(vibro, tmp, ["--mpi", "foo", "--dry-run"])
        check(done.returncode == 2 and "--mpi = 'foo'" in done.stderr and "pmix_v4" in done.stderr
              and "srun --mpi=list" in done.stderr and not os.path.exists(script),
              "--mpi foo is refused with srun's list (Slurm 22+ output)", done.stderr)
        check(any(c.startswith("srun --mpi=list") for c in calls), "srun --mpi=list was asked", str(calls))
        done, calls = fakes.submit(vibro, tmp, ["--mpi", "pmix_v5", "--dry-run"])
        check(done.returncode == 0 and "srun --mpi=pmix_v5 " in open(script).read(),
              "--mpi pmix_v5 (from the versions line) is accepted", done.stderr)
        os.remove(script)
        done, calls = fakes.submit(vibro, tmp, ["--mpi", "openmpi", "--dry-run"], srun_out=SLURM20)
        check(done.returncode == 0, "--mpi openmpi is accepted where srun (Slurm 20 output) lists it", done.stderr)
        check("srun --mpi=pmix" not in done.stderr, "no default warning when --mpi is given", done.stderr)
        os.remove(script)
        done, calls = fakes.submit(vibro, tmp, ["--dry-run"], srun_out=SLURM20)
        check(done.returncode == 0 and "warning" in done.stderr and "--mpi=pmix (the default)" in done.stderr,
              "the default pmix is warned about where srun lacks it", done.stderr)
        os.remove(script)
        no_srun = Fakes(tmp, ["sbatch"])
        done, calls = no_srun.submit(vibro, tmp, ["--mpi", "foo", "--dry-run"])
        check(done.returncode == 2 and "documented" in done.stderr and "pmi2" in done.stderr,
              "without srun, --mpi foo is refused with Slurm's documented types", done.stderr)
        done, calls = no_srun.submit(vibro, tmp, ["--mpi", "pmi2", "--dry-run"])
        check(done.returncode == 0 and "warning" not in done.stderr, "without srun, --mpi pmi2 is accepted quietly",
              done.stderr)
        os.remove(script)

        # Directives given twice, and GPUs for the cpu back end: warned, the script still written.
        done, calls = fakes.submit(vibro, tmp, ["--time", "10", "--sbatch-line=--time=5", "--dry-run"])
        check(done.returncode == 0 and "--sbatch-line=--time=5 gives #SBATCH --time a second time" in done.stderr
              and "give --time instead" in done.stderr, "--sbatch-line=--time=5 with --time is warned", done.stderr)
        os.remove(script)
        done, calls = fakes.submit(vibro, tmp, ["--sbatch-line=--output=x.log", "--dry-run"])
        check(done.returncode == 0 and "#SBATCH --output a second time" in done.stderr,
              "--sbatch-line=--output (written by the script) is warned", done.stderr)
        os.remove(script)
        done, calls = fakes.submit(vibro, tmp, ["--sbatch-line=--exclusive", "--sbatch-line=--exclusive", "--dry-run"])
        check(done.returncode == 0 and "--sbatch-line gives --exclusive twice" in done.stderr,
              "the same --sbatch-line twice is warned", done.stderr)
        os.remove(script)
        done, calls = fakes.submit(vibro, tmp, ["--gpus-per-task", "1", "--dry-run"])
        check(done.returncode == 0 and "--gpus-per-task" in done.stderr and "cpu back end" in done.stderr,
              "--gpus-per-task with the cpu back end is warned", done.stderr)
        os.remove(script)
        done, calls = fakes.submit(vibro, tmp, ["--time", "10", "--sbatch-line=--exclusive", "--dry-run"])
        check(done.returncode == 0 and "warning" not in done.stderr, "no warning when nothing repeats", done.stderr)
    print(f"{len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
