#!/usr/bin/python3
"""`vibro submit`'s cluster options, written with --dry-run (no Slurm needed, a few seconds).

usage: test_submit_options.py VIBRO_BINARY

Each of --account, --qos, --mem, --constraint, --gpus-per-task and --sbatch-line must give its
#SBATCH line; --mpi must reach srun; --setup FILE must be copied into the script before srun, and
the script must ask for the progress (a batch log is no terminal). A value Slurm would not read as
intended (spaces, quotes, a second directive, an unknown unit) is refused with exit 2 naming the
option, and no script is written. The real single-node Slurm test (test_submit.py) runs a job with
most of these options.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from check_log import FAILURES, check  # noqa: E402

SWEEP = "model = conveyor\n[axes]\na_hat = 40, 50\n"
GOOD = [
    (["--account", "proj_42"], "#SBATCH --account=proj_42"),
    (["--qos=normal"], "#SBATCH --qos=normal"),
    (["--mem", "16G"], "#SBATCH --mem=16G"),
    (["--mem=4000"], "#SBATCH --mem=4000"),
    (["--constraint", "intel&ib"], "#SBATCH --constraint=intel&ib"),
    (["--constraint=[rack1|rack2]"], "#SBATCH --constraint=[rack1|rack2]"),
    (["--gpus-per-task", "1"], "#SBATCH --gpus-per-task=1"),
    (["--gpus-per-task=a100:2"], "#SBATCH --gpus-per-task=a100:2"),
    (["--sbatch-line=--exclusive"], "#SBATCH --exclusive"),
    (["--sbatch-line=--mail-type=END"], "#SBATCH --mail-type=END"),
    (["--mpi", "pmi2"], "srun --mpi=pmi2 "),
]
BAD = [
    ("--account", "a b"), ("--qos", "x;y"), ("--mem", "16 GB"), ("--mem", "lots"), ("--constraint", "a b"),
    ("--gpus-per-task", "0"), ("--gpus-per-task", "two"), ("--mpi", "pm ix"), ("--sbatch-line", "exclusive"),
    ("--sbatch-line", "--comment=a b"), ("--sbatch-line", "--x\n#SBATCH --y"), ("--sbatch-line", "--c='q'"),
]


def submit(vibro, folder, extra):
    script = os.path.join(folder, "job.sbatch")
    if os.path.exists(script):
        os.remove(script)
    done = subprocess.run([vibro, "submit", "sweep.ini", "--dry-run", "--script", script] + extra, cwd=folder,
                          capture_output=True, text=True)
    text = open(script).read() if os.path.exists(script) else None
    return done, text


def main():
    vibro = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "sweep.ini"), "w") as f:
            f.write(SWEEP)
        for extra, line in GOOD:
            done, text = submit(vibro, tmp, extra)
            check(done.returncode == 0 and text is not None and line in text, f"{extra} writes '{line}'",
                  done.stderr + (text or ""))
        for option, value in BAD:
            done, text = submit(vibro, tmp, [option + "=" + value])  # '=': a value may start with --
            check(done.returncode == 2 and option in done.stderr and text is None,
                  f"{option} {value!r} is refused naming {option}, no script", done.stderr)

        # The default: srun --mpi=pmix, the progress asked for, no optional directive.
        done, text = submit(vibro, tmp, [])
        check(done.returncode == 0 and "srun --mpi=pmix " in text and " --run.progress=always" in text,
              "the default script uses pmix and asks for the progress", text or done.stderr)
        check(not any(f"#SBATCH --{o}=" in (text or "") for o in ("account", "qos", "mem", "constraint")),
              "no optional directive unless asked for", text or "")
        # The user's own choice of progress stands.
        done, text = submit(vibro, tmp, ["--run.progress=never"])
        check("--run.progress=always" not in (text or "") and "--run.progress=never" in (text or ""),
              "a given run.progress is kept, not overridden", text or done.stderr)

        # --setup: the file's lines go into the script, before srun, after the #SBATCH block.
        setup = os.path.join(tmp, "cluster setup.sh")
        with open(setup, "w") as f:
            f.write("module load openmpi/4.1\nexport VIBRO_MARK=set")
        done, text = submit(vibro, tmp, ["--setup", setup])
        ok = done.returncode == 0 and text is not None
        check(ok and "module load openmpi/4.1\nexport VIBRO_MARK=set\n" in text, "--setup is copied", text or done.stderr)
        if ok:
            lines = text.splitlines()
            module = lines.index("module load openmpi/4.1")
            srun = next(i for i, l in enumerate(lines) if l.startswith("srun "))
            last_directive = max(i for i, l in enumerate(lines) if l.startswith("#SBATCH"))
            check(last_directive < module < srun, "the setup lines come after every #SBATCH line and before srun")
        for missing in (os.path.join(tmp, "absent.sh"), tmp):
            done, text = submit(vibro, tmp, ["--setup", missing])
            check(done.returncode == 2 and "--setup" in done.stderr and text is None,
                  f"--setup {missing} (not a readable file) is refused", done.stderr)
        with open(os.path.join(tmp, "binary.sh"), "wb") as f:
            f.write(b"echo a\x00b\n")
        done, text = submit(vibro, tmp, ["--setup", os.path.join(tmp, "binary.sh")])
        check(done.returncode == 2 and "NUL" in done.stderr, "a setup file with NUL bytes is refused", done.stderr)

        # The usage lists every option.
        usage = subprocess.run([vibro, "submit", "--help"], capture_output=True, text=True).stdout
        for option in ("--account", "--qos", "--mem", "--constraint", "--gpus-per-task", "--mpi", "--sbatch-line",
                       "--setup"):
            check(option in usage, f"vibro submit --help lists {option}")
    print("ok" if not FAILURES else f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
