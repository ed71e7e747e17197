#!/usr/bin/python3
"""Fuzz of vibro's input: generated sweep files and overrides, run through the real binary.

usage: test_input_fuzz.py VIBRO_BINARY REPO_ROOT   (VIBRO_FUZZ_SEED=N picks another reproducible set)

What it generates (a fixed seed, so every run sees the same inputs):
  - every key of every model (from `vibro describe`) and every run./output. key set to NaN, inf,
    -inf, 1e308, -1, 0 or 1e-320 through an override (two of the seven values a key, drawn by the seed);
  - random mutations of the sweep files in examples/ (bytes deleted, inserted or replaced with
    control, syntax or non-ASCII bytes; lines duplicated, swapped or cut; numbers replaced by the
    values above; key names changed), each on a grid cut to at most two values an axis;
  - files that are not plain INI: raw binary, UTF-16 with and without a byte order mark, a NUL
    byte, ESC sequences, a 10 MB value; and files that are: UTF-8 with a byte order mark, CR-only and
    CR LF line ends, ';' comments (these must be accepted);
  - axis expressions: linspace/logspace/range and lists with odd counts, bounds and syntax (counts
    up to 1e5, 5e8, 1e9 and past it: the grid's size and memory are checked from the expressions
    before any axis is built, so a huge count is refused at once);
  - malformed overrides (no key, no value, a control character, no '--').

Every input first goes through `vibro submit --dry-run` (which parses and checks the whole sweep
and starts nothing). It must exit 0 or 2, never by a signal or past a timeout; a refusal (exit 2)
must be one line of printable text no longer than 4 kB that names the key it refuses (an override's
key, or for a file: the file's name or a section.key). Inputs that must be accepted must exit 0.
Then up to RUN_LIMIT accepted inputs with a grid of at most 8 cases run for real (`vibro run`, 4
periods a case, each case bounded by run.case_wall_limit = CASE_LIMIT s): exit 0, never a signal or
another code, and within RUN_TIMEOUT: the per-case budget must end any case, whatever the parameters
(the conveyor's g = 1e-100, a gap oscillator with m1 = 1e308, ...), recorded as a failed case.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

SEED = int(os.environ.get("VIBRO_FUZZ_SEED", "23"))
CHECK_TIMEOUT = 20   # s, vibro submit --dry-run: parsing alone
CASE_LIMIT = 2       # s, run.case_wall_limit of the real runs
RUN_TIMEOUT = 60     # s, vibro run of a grid of at most 8 cases x 4 periods, each within CASE_LIMIT
RUN_LIMIT = 60       # accepted inputs that are also run
WORKERS = 6          # mostly waiting on MPI start-up, little CPU each
SPECIAL = ["nan", "inf", "-inf", "1e308", "-1", "0", "1e-320"]
# Short runs: 4 periods a case; means mode may stop after (1 + 1) x 1 + 1 = 3 periods.
TINY = ["--run.max_periods=4", "--run.window_periods=2", "--run.means_window=1", "--run.means_checks=1",
        "--run.min_periods=0", "--output.lyapunov_periods=0", "--run.progress=never", "--run.threads=1"]
TINY_KEYS = {o[2:o.index("=")] for o in TINY}
KEY_PATTERN = re.compile(r"\b(model|(parameters|initial|numerics|axes|run|output)\.\w+)\b")

FAILURES = []
LOCK = threading.Lock()


def fail(what, detail=""):
    with LOCK:
        FAILURES.append(what)
        print(f"FAIL: {what}" + (f"\n      {detail}" if detail else ""), flush=True)


class Input:
    def __init__(self, label, text, args=(), names=(), expect=None, runnable=True):
        self.label = label
        self.text = text if isinstance(text, bytes) else text.encode()
        self.args = list(args)
        self.names = list(names)   # a refusal must name one of these (empty: the file or any key)
        self.expect = expect       # 0 or 2 where the outcome is known
        self.runnable = runnable   # run for real when accepted


def model_keys(vibro):
    keys = {}
    for model in subprocess.run([vibro, "models"], capture_output=True, text=True, check=True).stdout.split("\n"):
        if not model.strip():
            continue
        name = model.split()[0]
        section, found = None, []
        for line in subprocess.run([vibro, "describe", name], capture_output=True, text=True, check=True).stdout.split("\n"):
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
            elif section and line.startswith("  ") and not line.startswith("  key "):
                found.append(f"{section}.{line.split()[0]}")
            elif line.startswith("observables"):
                break
        keys[name] = found
    return keys


def run_keys(vibro):
    help_text = subprocess.run([vibro, "--help"], capture_output=True, text=True).stdout
    return sorted(set(re.findall(r"^\s+((?:run|output)\.\w+)", help_text, re.M)))


def small_grid(text):
    """At most two values an axis, so that an accepted mutation runs in seconds."""
    out, section = [], ""
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            section = s
        elif section == "[axes]" and "=" in s and not s.startswith("#"):
            key, expr = (p.strip() for p in s.split("=", 1))
            expr = expr.split("#")[0].strip()
            m = re.match(r"(linspace|logspace)\((.*),(.*),(.*)\)$", expr)
            if m:
                expr = f"{m.group(1)}({m.group(2)},{m.group(3)}, 2)"
            elif expr.startswith("range("):
                expr = ", ".join(expr[6:-1].split(",")[:2])
            else:
                expr = ", ".join(expr.split(",")[:2])
            line = f"{key} = {expr}"
        out.append(line)
    return "\n".join(out)


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(8)
        i = rng.randrange(len(data) + 1)
        if op == 0 and data:                      # delete a run of bytes
            del data[i:i + rng.randint(1, 8)]
        elif op == 1:                             # insert a byte a parser might trip on
            data[i:i] = bytes([rng.choice(b"=[];#\"'\\\x00\r\n\t\x1b\x7f\xff\xc3")])
        elif op == 2 and data:                    # replace a byte with any byte
            data[min(i, len(data) - 1)] = rng.randrange(256)
        elif op == 3:                             # duplicate a line (a key given twice)
            lines = data.split(b"\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
            data = bytearray(b"\n".join(lines))
        elif op == 4:                             # swap two lines (a key out of its section)
            lines = data.split(b"\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            data = bytearray(b"\n".join(lines))
        elif op == 5:                             # cut the file
            del data[i:]
        elif op == 6:                             # a number becomes a special value
            numbers = list(re.finditer(rb"-?\d+(\.\d+)?(e-?\d+)?", bytes(data)))
            if numbers:
                m = rng.choice(numbers)
                data[m.start():m.end()] = rng.choice(SPECIAL).encode()
        else:                                     # a key name changes
            keys = list(re.finditer(rb"^\s*(\w+)\s*=", bytes(data), re.M))
            if keys:
                m = rng.choice(keys)
                data[m.start(1):m.end(1)] = m.group(1) + rng.choice([b"x", b"_", b".a", b""])[:1]
    return bytes(data)


def generate(vibro, root, rng):
    inputs = []
    # 1. Every key with special values.
    for model, keys in model_keys(vibro).items():
        for key in keys:
            for value in rng.sample(SPECIAL, 2):
                inputs.append(Input(f"{model} --{key}={value}", f"model = {model}\n", TINY + [f"--{key}={value}"], [key]))
    for key in run_keys(vibro):
        if key not in TINY_KEYS:
            for value in rng.sample(SPECIAL, 2):
                # run./output. keys set the run's own size: checked, not run.
                inputs.append(Input(f"--{key}={value}", "model = conveyor\n", [f"--{key}={value}"], [key], runnable=False))
    # 2. Mutations of the examples.
    examples_dir = os.path.join(root, "examples")
    examples = sorted(f for f in os.listdir(examples_dir) if f.endswith(".ini"))
    for n in range(120):
        name = rng.choice(examples)
        text = small_grid(open(os.path.join(examples_dir, name)).read())
        inputs.append(Input(f"mutation {n} of {name}", mutate(rng, text.encode()), TINY))
    # 3. Encodings and line ends.
    base = small_grid(open(os.path.join(examples_dir, "conveyor_fig6.ini")).read())
    accepted = {
        "UTF-8 with BOM": b"\xef\xbb\xbf" + base.encode(),
        "CR-only line ends": base.replace("\n", "\r").encode(),
        "CR LF line ends": base.replace("\n", "\r\n").encode(),
        "';' comments": ("; a comment\n  ;another\n" + base.replace("\n[", "\n; section next\n[")).encode(),
    }
    for label, data in accepted.items():
        inputs.append(Input(label, data, TINY, expect=0))
    refused = {
        "UTF-16 LE with BOM": b"\xff\xfe" + base.encode("utf-16-le"),
        "UTF-16 BE with BOM": b"\xfe\xff" + base.encode("utf-16-be"),
        "UTF-16 LE without BOM": base.encode("utf-16-le"),
        "a NUL byte": base.encode().replace(b"\n[", b"\n\x00[", 1),
        "an ESC sequence": base.encode().replace(b"\n[", b"\n\x1b[31m\n[", 1),
        "a 10 MB value": f"model = conveyor\n[parameters]\nc_r = {'7' * 10_000_000}\n".encode(),
        "empty": b"",
    }
    for n in range(6):
        refused[f"binary {n}"] = bytes(rng.randrange(256) for _ in range(rng.randint(16, 4096)))
    for label, data in refused.items():
        inputs.append(Input(label, data, TINY, expect=2))
    # 4. Axis expressions.
    numbers = SPECIAL + ["2", "3", "0.5", "1e10", "1e9", "5e8", "100000", "2.5", "", "x"]
    for n in range(50):
        a, b, c = (rng.choice(numbers) for _ in range(3))
        expr = rng.choice([f"linspace({a}, {b}, {c})", f"logspace({a}, {b}, {c})", f"range({a}, {b}, {c})",
                           f"{a}, {b}, {c}", f"{a},,{b}", f"linspace({a}, {b})", f"linspace({a}, {b}, {c}, {a})",
                           f"linspace(({a}), {b}, {c})", f"exp({a})", f"{a} {b}", f"linspace({a}, {b}, {c}"])
        model = rng.choice(["conveyor", "gap_oscillator", "dimer"])
        key = {"conveyor": "c_r", "gap_oscillator": "omega", "dimer": "e_n"}[model]
        inputs.append(Input(f"axis {expr!r}", f"model = {model}\n[axes]\n{key} = {expr}\n", TINY, ["axes." + key]))
    # 5. Malformed overrides.
    odd = ["--=5", "--parameters.c_r", "--parameters.c_r=", "parameters.c_r=0.5", "-parameters.c_r=0.5",
           "--parameters.c_r=0.5\ntouch x", "--parameters.c_r=\x1b[31m",
           "--output.file=", "--output.file= ", "--output.file=\n", "--output.file=\t", "--run.tol=1e-3;",
           "--model=conveyor\n"]
    for o in odd:
        key = o.lstrip("-").split("=")[0].strip()
        inputs.append(Input(f"override {o!r}", "model = conveyor\n", [o], [key] if key else ["--="], expect=2))
    return inputs


def invoke(vibro, argv, cwd, timeout):
    try:
        p = subprocess.run([vibro, *argv], cwd=cwd, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", ""


def refusal_problem(item, err):
    """Why a refusal's message falls short, or None."""
    message = err.strip()
    if not message.startswith("vibro: error: "):
        return "no 'vibro: error:' message"
    if "\n" in message or "\r" in message or any(ord(c) < 0x20 or ord(c) == 0x7f for c in message):
        return "the message holds a raw control character"
    if len(message) > 4200:
        return f"the message is {len(message)} bytes long"
    names = item.names or ["sweep.ini"]
    # A model's cross-key checks name its parameters without their section ("d_rod must not exceed 2 r").
    bare = [n.split(".", 1)[1] for n in item.names if "." in n]
    named = any(n in message for n in names) or any(re.search(rf"(?<![\w.]){re.escape(b)}\b", message) for b in bare)
    if not named and not (not item.names and KEY_PATTERN.search(message)):
        return f"the message names none of {names}"
    return None


def check_one(vibro, base, n, item):
    cwd = os.path.join(base, f"in{n}")
    os.mkdir(cwd)
    with open(os.path.join(cwd, "sweep.ini"), "wb") as f:
        f.write(item.text)
    rc, out, err = invoke(vibro, ["submit", "sweep.ini", "--dry-run", "--time", "00:10:00", *item.args], cwd, CHECK_TIMEOUT)
    where = f"[{item.label!r}] vibro submit --dry-run"
    if rc is None:
        fail(f"{where}: past {CHECK_TIMEOUT} s")
    elif rc < 0:
        fail(f"{where}: killed by signal {-rc}", err[-400:])
    elif rc not in (0, 2):
        fail(f"{where}: exit {rc}", err[-400:])
    elif item.expect is not None and rc != item.expect:
        fail(f"{where}: exit {rc}, expected {item.expect}", err[-400:])
    elif rc == 2 and (problem := refusal_problem(item, err)):
        fail(f"{where}: {problem}", repr(err[:400]))
    cases = re.search(r"\((\d+) cases", out)
    return rc, cwd, int(cases.group(1)) if cases else None


def run_one(vibro, item, cwd):
    rc, out, err = invoke(vibro, ["run", "sweep.ini", *item.args, f"--run.case_wall_limit={CASE_LIMIT}"], cwd, RUN_TIMEOUT)
    where = f"[{item.label!r}] vibro run"
    if rc is None:
        fail(f"{where}: still running after {RUN_TIMEOUT} s: a case escaped its budget")
        return item.label
    if rc < 0:
        fail(f"{where}: killed by signal {-rc}", err[-400:])
    elif rc != 0:
        fail(f"{where}: exit {rc} after the dry run accepted it", err[-400:])
    return None


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rng = random.Random(SEED)
    inputs = generate(vibro, root, rng)
    started = time.time()
    with tempfile.TemporaryDirectory() as base, ThreadPoolExecutor(WORKERS) as pool:
        checked = list(pool.map(lambda a: check_one(vibro, base, *a), enumerate(inputs)))
        refused = sum(1 for rc, _, _ in checked if rc == 2)
        candidates = [(item, cwd) for item, (rc, cwd, cases) in zip(inputs, checked)
                      if rc == 0 and item.runnable and cases is not None and cases <= 8]
        chosen = rng.sample(candidates, min(RUN_LIMIT, len(candidates)))
        # The inputs that must be accepted always run.
        chosen += [c for c in candidates if c[0].expect == 0 and c not in chosen]
        checked_at = time.time()
        unbounded = [u for u in pool.map(lambda c: run_one(vibro, *c), chosen) if u]
    print(f"checks {checked_at - started:.1f} s, runs {time.time() - checked_at:.1f} s")
    print(f"seed {SEED}: {len(inputs)} inputs checked ({refused} refused, {len(inputs) - refused} accepted); "
          f"{len(chosen)} accepted inputs run, {len(unbounded)} past {RUN_TIMEOUT} s")
    for label in unbounded:
        print(f"  past {RUN_TIMEOUT} s: {label}")
    print("ok" if not FAILURES else f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
