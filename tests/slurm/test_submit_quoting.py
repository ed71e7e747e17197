#!/usr/bin/python3
"""`vibro submit` with hostile names: no name reaches the batch script as a command.

usage: test_submit_quoting.py VIBRO_BINARY

The sweep file's name, --output.file, the working folder and --script are given names that hold a
newline, single and double quotes, $(touch PWNED), backticks, ';', '#', '%' and spaces. A name with a
control character must be refused (exit 2, the option named, no script written): no quoting can
carry a newline through an #SBATCH line. Every other name must give a script that, run by bash with
stub srun/sbatch/mpirun/scontrol first on PATH (the stubs only record their arguments), creates no
file PWNED and hands srun exactly the sweep and output paths that were asked for; its #SBATCH header,
read the way sbatch reads it, must hold every directive with the output path intact. Without
--dry-run, the stub sbatch must receive the script's path as one argument. Also checks --time
against every Slurm time format. Needs no Slurm; runs in a few seconds.
"""
import os
import subprocess
import sys
import tempfile

SWEEP = "model = conveyor\n[parameters]\nc_r = 0.5\n"
MARKER = "PWNED"
# Names that bash or sbatch would take for syntax if they were written unquoted.
PAYLOADS = [
    "q'; touch PWNED; echo '",
    'dq"; touch PWNED; echo "',
    "$(touch PWNED)",
    "`touch PWNED`",
    "semi; touch PWNED",
    "hash #x %j 100% sp ace",
    "glob*?[a]",
]
# Names with a control character: refused, whatever they would do.
CONTROL = ["nl\ntouch PWNED\n", "cr\rtouch PWNED", "tab\tname", "del\x7fname", "esc\x1b[31m"]
STUB = """#!/bin/sh
# Records its name and arguments (NUL-separated), never runs anything.
f=$(mktemp "$STUB_CALLS/call.XXXXXX")
printf '%s\\0' "$(basename "$0")" "$@" > "$f"
[ "$(basename "$0")" = sbatch ] && echo 4242
exit 0
"""

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from check_log import FAILURES, check  # noqa: E402


def sbatch_arguments(line):
    """The arguments of one #SBATCH line as sbatch's own reader splits them (quotes, backslash, #)."""
    args, i, text = [], 0, line[len("#SBATCH"):]
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            break
        arg, quote, started = "", None, False
        while i < len(text) and (quote or not text[i].isspace()):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                arg += text[i + 1]
                i += 2
            elif quote:
                if c == quote:
                    quote = None
                else:
                    arg += c
                i += 1
            elif c in "\"'":
                quote = c
                i += 1
            elif c == "#":
                i = len(text)
                break
            else:
                arg += c
                i += 1
            started = True
        if quote:
            return None  # sbatch: "Unmatched quote", a fatal error
        if started:
            args.append(arg)
    return args


def sbatch_directives(script):
    """sbatch reads #SBATCH lines up to the first line that is not a comment or blank."""
    directives = []
    for line in script.split("\n")[1:]:
        if line.strip() and not line.startswith("#"):
            break
        if line.startswith("#SBATCH"):
            directives.extend(sbatch_arguments(line) or ["<unparsable: " + line + ">"])
    return directives


def calls(stub_calls):
    """The stubs' calls since the last look, less `srun --mpi=list`: vibro submit's own question for the
    MPI types srun takes (it starts no job step)."""
    out = []
    for name in sorted(os.listdir(stub_calls)):
        with open(os.path.join(stub_calls, name), "rb") as f:
            call = [a.decode(errors="replace") for a in f.read().split(b"\0")[:-1]]
        if call != ["srun", "--mpi=list"]:
            out.append(call)
        os.remove(os.path.join(stub_calls, name))
    return out


def markers(root):
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if f == MARKER]


def scripts(root):
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if f.endswith(".sbatch")]


class Env:
    def __init__(self, vibro, root):
        self.vibro, self.root = vibro, root
        self.stubs = os.path.join(root, "stubs")
        self.stub_calls = os.path.join(root, "calls")
        os.mkdir(self.stubs)
        os.mkdir(self.stub_calls)
        for name in ("srun", "sbatch", "mpirun", "scontrol"):
            path = os.path.join(self.stubs, name)
            with open(path, "w") as f:
                f.write(STUB)
            os.chmod(path, 0o755)
        self.env = dict(os.environ, PATH=self.stubs + os.pathsep + os.environ["PATH"], STUB_CALLS=self.stub_calls)
        self.env.pop("SLURM_CPUS_PER_TASK", None)

    def submit(self, cwd, *args):
        return subprocess.run([self.vibro, "submit", *args], cwd=cwd, env=self.env, capture_output=True, timeout=60)

    def run_script(self, path):
        runner = tempfile.mkdtemp(dir=self.root, prefix="runner")
        return subprocess.run(["bash", path], cwd=runner, env=self.env, capture_output=True, timeout=60)


def case_dir(env, label):
    return tempfile.mkdtemp(dir=env.root, prefix=label)


def write_sweep(directory, name):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(SWEEP)
    return path


def expect_safe_script(env, label, cwd, sweep_arg, output_abs, extra=()):
    """Dry-run submit accepted, then the script run under the stubs: srun gets the paths, nothing else runs."""
    p = env.submit(cwd, sweep_arg, "--dry-run", "--time", "00:10:00", *extra)
    if not check(p.returncode == 0, f"{label}: submit --dry-run accepted (exit 0)", p.stderr.decode(errors="replace")):
        return
    script_path = output_abs + ".sbatch"
    if not check(os.path.isfile(script_path), f"{label}: the script is written next to the output", script_path):
        return
    script = open(script_path, encoding="utf-8", errors="replace").read()
    directives = sbatch_directives(script)
    for needed in ("--time=00:10:00", "--requeue", "--open-mode=append", "--signal=B:USR1@120"):
        check(needed in directives, f"{label}: sbatch reads {needed} from the header", str(directives))
    outputs = [d for d in directives if d.startswith("--output=")]
    # sbatch expands %j (the job id) and reads %% as %: the path's own % must come doubled.
    check(len(outputs) == 1 and outputs[0].endswith(".slurm-%j.log") and not outputs[0].endswith("%%j.log")
          and outputs[0].replace("%%", "%") == "--output=" + output_abs + ".slurm-%j.log",
          f"{label}: #SBATCH --output carries the output path intact", f"{outputs} vs {output_abs!r}")
    names = [d for d in directives if d.startswith("--job-name=")]
    check(len(names) == 1 and all(c.isalnum() or c in "._-=" for c in names[0]),
          f"{label}: the job name is plain", str(names))
    ran = env.run_script(script_path)
    check(ran.returncode == 0, f"{label}: the script runs under the stubs", ran.stderr.decode(errors="replace"))
    got = calls(env.stub_calls)
    srun = [c for c in got if c[0] == "srun"]
    check(len(got) == 1 and len(srun) == 1, f"{label}: the script calls srun once and nothing else", str(got))
    if srun:
        argv = srun[0]
        check(argv[4:6] == ["run", os.path.realpath(os.path.join(cwd, sweep_arg))] or
              argv[4:6] == ["run", os.path.join(cwd, sweep_arg)],
              f"{label}: srun runs vibro on the sweep file's path, unchanged", str(argv))
        check(argv[-1] == "--output.file=" + output_abs, f"{label}: srun gets --output.file unchanged", str(argv))
    check(not markers(env.root), f"{label}: no injected command ran", str(markers(env.root)))


def expect_refused(env, label, cwd, args, option):
    before = set(scripts(env.root))
    p = env.submit(cwd, *args, "--dry-run", "--time", "00:10:00")
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 2, f"{label}: refused with exit 2", f"rc={p.returncode} {err!r}")
    check(option in err, f"{label}: the refusal names {option}", repr(err))
    check("\n" not in err.rstrip("\n") and "\r" not in err and "\x1b" not in err,
          f"{label}: the message is one line of printable text", repr(err))
    written = set(scripts(env.root)) - before
    check(not written, f"{label}: no script written")
    for script in written:  # accepted after all: whatever it would run at job start runs here, under the stubs
        env.run_script(script)
        os.remove(script)
    check(not markers(env.root), f"{label}: no injected command ran", str(markers(env.root)))
    for marker in markers(env.root):
        os.remove(marker)
    calls(env.stub_calls)


def test_names(env):
    for n, payload in enumerate(PAYLOADS):
        # The sweep file's name (its default output is named after it).
        d = case_dir(env, f"sweep{n}")
        write_sweep(d, payload + ".ini")
        expect_safe_script(env, f"sweep file {payload!r}", d, payload + ".ini", os.path.join(d, payload + ".h5"))
        # --output.file.
        d = case_dir(env, f"output{n}")
        write_sweep(d, "s.ini")
        out = os.path.join(d, payload + ".h5")
        expect_safe_script(env, f"output.file {payload!r}", d, "s.ini", out, ["--output.file=" + out])
        # The working folder (part of every absolute path in the script).
        d = os.path.join(case_dir(env, f"folder{n}"), payload)
        os.mkdir(d)
        write_sweep(d, "s.ini")
        expect_safe_script(env, f"working folder {payload!r}", d, "s.ini", os.path.join(d, "s.h5"))
    for n, bad in enumerate(CONTROL):
        d = case_dir(env, f"csweep{n}")
        write_sweep(d, bad + ".ini")
        expect_refused(env, f"sweep file {bad!r}", d, [bad + ".ini"], "sweep file name")
        d = case_dir(env, f"coutput{n}")
        write_sweep(d, "s.ini")
        expect_refused(env, f"output.file {bad!r}", d, ["s.ini", "--output.file=" + bad + ".h5"], "output.file")
        d = os.path.join(case_dir(env, f"cfolder{n}"), bad)
        os.mkdir(d)
        write_sweep(d, "s.ini")
        expect_refused(env, f"working folder {bad!r}", d, ["s.ini"], "working folder")
        d = case_dir(env, f"cscript{n}")
        write_sweep(d, "s.ini")
        expect_refused(env, f"--script {bad!r}", d, ["s.ini", "--script", bad + ".sbatch"], "--script")
        expect_refused(env, f"override value {bad!r}", d, ["s.ini", "--parameters.c_r=0.5" + bad], "parameters.c_r")


def test_sbatch_call(env):
    """Without --dry-run: sbatch (the stub) gets the script's path as one argument."""
    for n, payload in enumerate(PAYLOADS):
        d = case_dir(env, f"submit{n}")
        write_sweep(d, "s.ini")
        script = os.path.join(d, payload + ".sbatch")
        p = env.submit(d, "s.ini", "--time", "00:10:00", "--script", script)
        check(p.returncode == 0 and b"submitted batch job 4242" in p.stdout,
              f"submit --script {payload!r}: sbatch called, job id read", p.stdout + p.stderr)
        got = calls(env.stub_calls)
        check(got == [["sbatch", "--parsable", script]], f"submit --script {payload!r}: sbatch gets the path unchanged", str(got))
        check(not markers(env.root), f"submit --script {payload!r}: no injected command ran")


def test_time(env):
    d = case_dir(env, "time")
    write_sweep(d, "s.ini")
    accepted = ["90", "5:30", "01:00:00", "100:00:00", "2-3", "2-03:04", "2-03:04:05", "365-00:00:00"]
    refused = ["99999999-99:99:99", "0", "00:00:00", "1:60", "1:60:00", "1:00:60", "2-24", "2-03:60", "366-00",
               "5 minutes", "1h", "-5", "1:2:3:4", "", "1-", ":30", "10\n#SBATCH --x"]
    for t in accepted:
        p = env.submit(d, "s.ini", "--dry-run", "--time", t)
        check(p.returncode == 0, f"--time {t!r} accepted", p.stderr.decode(errors="replace"))
    for t in refused:
        p = env.submit(d, "s.ini", "--dry-run", "--time", t)
        err = p.stderr.decode(errors="replace")
        check(p.returncode == 2 and "--time" in err and "D-HH:MM:SS" in err and "MM:SS" in err,
              f"--time {t!r} refused naming the option and the accepted formats", f"rc={p.returncode} {err!r}")
    calls(env.stub_calls)


def main():
    vibro = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as root:
        env = Env(vibro, os.path.realpath(root))
        test_names(env)
        test_sbatch_call(env)
        test_time(env)
    print("ok" if not FAILURES else f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
