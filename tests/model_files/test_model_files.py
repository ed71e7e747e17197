#!/usr/bin/python3
"""Model files (docs/model_files.md): examples/models/impact_oscillator.vibro,
dry_friction_oscillator.vibro and gap_oscillator.vibro (Model A) give the C++ models' results (every dataset under axes/,
cases/ and parameters/ but the wall times, to 1e-10, Floquet multipliers included) on small sweeps,
on the cpu and the batched back ends; a model file of another state count runs; a sweep naming a
model file resumes only from checkpoints of the same file; and bad model files are refused before
any work with FILE:LINE:COL and the documented message.

usage: test_model_files.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from model_file_sweeps import FRICTION, IMPACT  # noqa: E402
from result_datasets import datasets, largest_difference  # noqa: E402

FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))
    else:
        print("ok: %s" % what)


def run(vibro, ini, out, *overrides):
    return subprocess.run([vibro, "run", ini, "--output.file=" + out, "--run.progress=never"] + list(overrides),
                          capture_output=True, text=True, timeout=300)


# Model A (gap_oscillator.vibro) against gap_oscillator_declared, the same system in C++ through the
# hybrid-model API: elastic impacts, inelastic ones and plastic chatter that ends in the bodies
# moving together and separating again.
MODEL_A = """model = {model}
[axes]
e = 0.1, 0.5, 1
lambda = linspace(0.6, 3.0, 6)
[run]
max_periods = 300
window_periods = 16
[output]
floquet = true
"""


def same_results(vibro, repo, tmp, label, text, builtin, model_file, events):
    files = {}
    for which, model in (("builtin", builtin), ("file", os.path.join(repo, "examples", "models", model_file))):
        ini = os.path.join(tmp, "%s_%s.ini" % (label, which))
        with open(ini, "w") as out:
            out.write(text.format(model=model))
        for backend in ("cpu", "batched"):
            extra = ["--run.backend=" + backend] + (["--output.floquet=false"] if backend == "batched" else [])
            h5 = os.path.join(tmp, "%s_%s_%s.h5" % (label, which, backend))
            r = run(vibro, ini, h5, *extra)
            check(r.returncode == 0, "%s %s %s runs" % (label, which, backend), r.stderr[-2000:])
            if r.returncode == 0:
                files[(which, backend)] = datasets(h5)
    if len(files) != 4:
        return
    worst, bad = largest_difference(files[("builtin", "cpu")], files[("file", "cpu")])
    print("  %s: largest difference model file - C++ model (cpu): %.3g" % (label, worst))
    check(not bad and worst <= 1e-10, "%s: the model file gives the C++ model's results to 1e-10 (cpu)" % label,
          "%s, largest difference %g" % (bad, worst))
    worst, bad = largest_difference(files[("builtin", "batched")], files[("file", "batched")])
    print("  %s: largest difference model file - C++ model (batched): %.3g" % (label, worst))
    check(not bad and worst <= 1e-10, "%s: the model file gives the C++ model's results to 1e-10 (batched)" % label,
          "%s, largest difference %g" % (bad, worst))
    cpu = files[("file", "cpu")]
    status = cpu["cases/status"]
    check((status == 0).sum() >= len(status) - 2, "%s: the cases ran" % label, str(status))
    # The comparison covers the events and (impact sweep) the Floquet multipliers.
    check(cpu["cases/counters/" + events].max() > 0, "%s: the sweep has %s" % (label, events))
    if "stickings" in {k.split("/")[-1] for k in cpu}:
        print("  %s: cases with rest after chatter: %d" % (label, (cpu["cases/counters/stickings"] > 0).sum()))
    if "floquet = true" in text:
        check(np.isfinite(cpu["cases/floquet/max_modulus"]).sum() > len(status) // 2, "%s: Floquet multipliers compared" % label)


# A model file with three states (a forced oscillator against a moving stop and a low-pass filter of
# its position), run through the dispatch on the state count.
THREE_STATES = """model three_state_filter: a forced oscillator and a first-order filter of its position
param omega = 1.3 in (0, 10) forcing frequency
param c = 0.5 in [0, 10] filter rate
state x [m] = 0
state v [m/s] = 0
state z [m] = 0
period 2*pi/omega
mode free
  x' = v
  v' = 0.5*sin(omega*t + 0.3) - 0.1*v - x
  z' = c*(x - z)
  stop wall: x >= -1 + 0.2*cos(omega*t) restitution 0.9
observe max_z, impacts_per_period
"""

# Bad model files: (what, file text, expected line:col, expected fragment of the message).
GOOD = """model bad_demo: a demo
param zeta = 0.1 in [0, 1] damping
param omega = 0.8 in (0, 10] frequency
state x = 0
state v = 0
period 2*pi/omega
mode free
  x' = v
  v' = cos(omega*t) - 2*zeta*v - x
  stop wall: x <= 1 restitution 0.8
"""
# A gap between two bodies: each body's mass divides the impulse; each state may carry a scale.
TWO_BODIES = """model bad_two: two bodies
param D = 0.1 in (0, 1] gap
state x1 = 0
state v1 = 0
state x2 = 0
state v2 = 0
period 2*pi
mode free
  x1' = v1
  v1' = cos(t) - x1
  x2' = v2
  v2' = x1 - x2
  stop gap: x1 <= x2 + D restitution 0.5 mass x1 = 2, x2 = 1
"""
BAD = [
    ("a gap between bodies without a mass", TWO_BODIES.replace(", x2 = 1", ""), "13:16",
     "stop 'gap' reads 2 states and has no mass for x2"),
    ("a mass of a state the stop does not read", TWO_BODIES.replace("x2 = 1", "x2 = 1, v1 = 3"), "13:63",
     "stop 'gap' does not read v1"),
    ("a negative mass", TWO_BODIES.replace("x2 = 1", "x2 = -D"), "13:60", "the mass of x2 in stop 'gap' is -0.1"),
    ("a negative scale", TWO_BODIES.replace("state x1 = 0", "state x1 = 0 scale -D"), "3:20", "the scale of x1 is -0.1"),
    ("one velocity for two bodies", TWO_BODIES.replace("mass x1", "velocity v1 mass x1"), "13:51",
     "'velocity' names one"),
    ("unknown name", GOOD.replace("2*zeta*v", "2*zta*v"), "9:25", "unknown name 'zta'; did you mean 'zeta'?"),
    ("unknown function", GOOD.replace("cos(omega", "cso(omega"), "9:8", "unknown function 'cso'; did you mean 'cos'?"),
    ("wrong arity", GOOD.replace("2*zeta*v", "2*min(zeta)*v"), "9:25", "min takes 2 arguments, not 1"),
    ("a rest on a curved stop", GOOD.replace("x <= 1", "x*x <= 1"), "10:3", "a rest on such a stop is not supported"),
    ("non-affine guard through a function", GOOD.replace("stop wall: x <= 1 restitution 0.8", "switch wall: sin(x) rises above 0.5 -> free  sticking"),
     "10:16", "guard 'wall' is not affine in the state here, and it is a switch with sticking"),
    ("a mode without every field", GOOD.replace("  v' = cos(omega*t) - 2*zeta*v - x\n", ""), "7:6",
     "mode 'free' has no field for state v"),
    ("duplicate parameter", GOOD.replace("param omega", "param zeta"), "3:7", "'zeta' is declared twice (first at line 2)"),
    ("duplicate mode", GOOD + "mode free\n  x' = v\n  v' = -x\n", "11:6", "mode 'free' is declared twice"),
    ("duplicate guard", GOOD + "  stop wall: x >= -1\n", "11:8", "guard 'wall' is declared twice"),
    ("t outside the forcing", GOOD.replace("cos(omega*t)", "t"), "9:8", "t may appear only as cos(w*t + phase)"),
    ("a frequency that is not the forcing's", GOOD.replace("cos(omega*t)", "cos(2*omega*t)"), "9:8",
     "angular frequency"),
    ("sign of the state", GOOD.replace("- x\n", "- sign(x)\n"), "9:34", "sign() of a value that changes"),
    ("unknown switch target", GOOD + "  switch go: v falls below 0 -> fre\n", "11:33", "'fre' is not a mode; did you mean 'free'?"),
    ("unknown statement", GOOD.replace("period", "periode"), "6:1", "unknown statement 'periode'; did you mean 'period'?"),
    ("unknown observable", GOOD + "observe max_y\n", "11:9", "unknown observable 'max_y'"),
    ("a state in the period", GOOD.replace("period 2*pi/omega", "period 2*pi/x"), "6:13", "not fixed before a run starts"),
    ("a default out of range", GOOD.replace("= 0.1 in [0, 1]", "= 2 in [0, 1]"), "2:14", "lies outside the range"),
    ("an unfinished expression", GOOD.replace("- x\n", "- \n"), "9:34", "the expression ends too early"),
]


def bad_files(vibro, tmp):
    for what, text, at, fragment in BAD:
        path = os.path.join(tmp, "bad.vibro")
        with open(path, "w") as out:
            out.write(text)
        r = subprocess.run([vibro, "describe", path], capture_output=True, text=True, timeout=60)
        message = r.stderr.strip()
        check(r.returncode == 2 and (path + ":" + at + ":") in message and fragment in message,
              "refused: %s" % what, "exit %d: %s" % (r.returncode, message))
    # The good files themselves are accepted (the table's refusals come from each change alone).
    for name, text in (("bad_demo", GOOD), ("bad_two", TWO_BODIES)):
        path = os.path.join(tmp, name + ".vibro")
        with open(path, "w") as out:
            out.write(text)
        r = subprocess.run([vibro, "describe", path], capture_output=True, text=True, timeout=60)
        check(r.returncode == 0 and name in r.stdout, "the table's base file %s is accepted" % name, r.stderr)
    check("stop on x1 and x2" in r.stdout, "describe names both bodies of a gap", r.stdout[:600])


def fuzz(vibro, repo, tmp, count=120):
    """Mutated example model files through `vibro describe`: exit 0 or 2, never a signal or a hang; a
    refusal is one printable line that names the file."""
    import random
    rng = random.Random(39)
    pieces = [b"(", b")", b"^", b"*", b"-", b"'", b":", b"=", b"[", b"]", b",", b"->", b"<=", b"\x00", b"\xff",
              b"1e999", b"nan", b"t", b"x", b"sin(", b"#", b"\n", b" ", b"mode m", b"stop s: x <= 1", b"state q = 0",
              b" reset v = -v", b" reset u = abs(u)", b" reset q = 1", b" no sticking", b"x^2 + y^2", b"sqrt(",
              b" reset v = v*x^2/(x^2 + y^2)", b"stop c: x^2 + y^2 <= 1"]
    sources = []
    for name in ("impact_oscillator.vibro", "dry_friction_oscillator.vibro", "rocking_block.vibro", "ball_in_bowl.vibro",
                 "pendulum_wall.vibro"):
        with open(os.path.join(repo, "examples", "models", name), "rb") as src:
            sources.append(src.read())
    bad = 0
    for n in range(count):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            kind = rng.randrange(4)
            if kind == 0:
                del data[at:at + rng.randint(1, 8)]
            elif kind == 1:
                data[at:at] = rng.choice(pieces)
            elif kind == 2:
                data[at:at + 1] = rng.choice(pieces)
            else:
                lines = data.split(b"\n")
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
        path = os.path.join(tmp, "fuzz%d.vibro" % n)
        with open(path, "wb") as out:
            out.write(bytes(data).replace(b"model shaw_holmes_impact", b"model fuzz%d" % n)
                      .replace(b"model den_hartog_friction", b"model fuzz%d" % n)
                      .replace(b"model housner_rocking_block", b"model fuzz%d" % n)
                      .replace(b"model ball_in_bowl", b"model fuzz%d" % n)
                      .replace(b"model pendulum_wall", b"model fuzz%d" % n))
        try:
            r = subprocess.run([vibro, "describe", path], capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            bad += 1
            print("FAIL: fuzz %d hangs" % n)
            continue
        err = r.stderr.decode("utf-8", "replace").strip()
        if r.returncode not in (0, 2) or (r.returncode == 2 and (path not in err or "\n" in err)):
            bad += 1
            print("FAIL: fuzz %d: exit %d: %s" % (n, r.returncode, err[:300]))
    check(bad == 0, "%d mutated model files: each accepted or refused naming the file, none crashes" % count)


def resume_needs_the_same_file(vibro, repo, tmp):
    """A checkpoint of one version of a model file is refused by a run of an edited version."""
    model = os.path.join(tmp, "resumed.vibro")
    with open(os.path.join(repo, "examples", "models", "impact_oscillator.vibro")) as src:
        text = src.read().replace("shaw_holmes_impact", "resumed_impact")
    with open(model, "w") as out:
        out.write(text)
    ini = os.path.join(tmp, "resumed.ini")
    with open(ini, "w") as out:
        out.write(IMPACT.format(model="resumed.vibro"))
    h5 = os.path.join(tmp, "resumed.h5")
    first = run(vibro, ini, h5, "--output.keep_checkpoints=true")
    check(first.returncode == 0, "a sweep of a model file named relative to the sweep file runs", first.stderr[-2000:])
    os.remove(h5)
    # vibro run --resume from another folder: the checkpoints carry the model file's absolute path.
    elsewhere = subprocess.run([vibro, "run", "--resume", h5], capture_output=True, text=True, timeout=300, cwd="/")
    check(elsewhere.returncode == 0 and os.path.exists(h5), "vibro run --resume finds the model file from another folder",
          elsewhere.stderr[-600:])
    if os.path.exists(h5):
        os.remove(h5)
    same = run(vibro, ini, h5, "--output.keep_checkpoints=true")
    check(same.returncode == 0 and "resuming" in same.stderr, "the same model file resumes its checkpoints",
          same.stderr[-600:])
    os.remove(h5)
    with open(model, "w") as out:
        out.write(text.replace("restitution r", "restitution r*0.5"))
    edited = run(vibro, ini, h5)
    check(edited.returncode == 2 and "different sweep" in edited.stderr,
          "an edited model file does not resume the old file's checkpoints", edited.stderr[-600:])


def inline_section(vibro, repo, tmp):
    """A sweep file's [model] section holds a model file's text: the impact oscillator written inline
    gives the model file's results bit for bit and resumes from another folder; an error in the
    section names the sweep file's line and column; a [model] section and a model key are refused."""
    with open(os.path.join(repo, "examples", "models", "impact_oscillator.vibro")) as src:
        model_text = src.read()
    sweep = IMPACT.split("\n", 1)[1]  # the sweep without its model line
    inline = os.path.join(tmp, "inline.ini")
    with open(inline, "w") as out:
        out.write("# the model inline\n[model]\n" + model_text + "\n" + sweep)
    reference = os.path.join(tmp, "inline_reference.ini")
    with open(reference, "w") as out:
        out.write(IMPACT.format(model=os.path.join(repo, "examples", "models", "impact_oscillator.vibro")))
    h5, ref = os.path.join(tmp, "inline.h5"), os.path.join(tmp, "inline_reference.h5")
    a = run(vibro, inline, h5, "--output.keep_checkpoints=true")
    b = run(vibro, reference, ref)
    check(a.returncode == 0 and b.returncode == 0, "a sweep with a [model] section runs", a.stderr[-1500:])
    if a.returncode == 0 and b.returncode == 0:
        worst, bad = largest_difference(datasets(h5), datasets(ref))
        check(not bad and worst == 0, "the [model] section gives the model file's results", "%s %g" % (bad, worst))
        os.remove(h5)
        resumed = subprocess.run([vibro, "run", "--resume", h5], capture_output=True, text=True, timeout=300, cwd="/")
        check(resumed.returncode == 0 and os.path.exists(h5), "a sweep with a [model] section resumes from another folder",
              resumed.stderr[-600:])
    # A misspelt name in the section: the message gives the sweep file's line of that field.
    lines = ("# the model inline\n[model]\n" + model_text + "\n" + sweep).split("\n")
    field = next(i for i, l in enumerate(lines) if "2*zeta*v" in l)
    bad = os.path.join(tmp, "inline_bad.ini")
    with open(bad, "w") as out:
        out.write("\n".join(lines).replace("2*zeta*v", "2*zta*v"))
    r = run(vibro, bad, os.path.join(tmp, "inline_bad.h5"))
    check(r.returncode == 2 and ("%s:%d:" % (bad, field + 1)) in r.stderr and "unknown name 'zta'" in r.stderr,
          "an error in the [model] section names the sweep file's line", r.stderr[-600:])
    both = os.path.join(tmp, "inline_both.ini")
    with open(both, "w") as out:
        out.write("model = impact_oscillator\n[model]\n" + model_text + "\n" + sweep)
    r = run(vibro, both, os.path.join(tmp, "inline_both.h5"))
    check(r.returncode == 2 and "a [model] section and model = impact_oscillator" in r.stderr,
          "a [model] section and a model key are refused", r.stderr[-600:])


ROCKING = """model = {model}
[axes]
w = 2, 3, 5
[run]
max_periods = 60
"""


def rocking_block(vibro, repo, tmp):
    """Housner's rocking block file (its own test, tests/model_files/test_rocking_block.cpp, checks it
    against an independent solution): a sweep on cpu and batched gives the same bits, it comes to rest
    and is released on both corners each period; its trace names the mode each switch enters, and the
    time axis carries the file's unit of time."""
    model = os.path.join(repo, "examples", "models", "rocking_block.vibro")
    ini = os.path.join(tmp, "rocking.ini")
    with open(ini, "w") as out:
        out.write(ROCKING.format(model=model))
    files = {}
    for backend in ("cpu", "batched"):
        h5 = os.path.join(tmp, "rocking_%s.h5" % backend)
        r = run(vibro, ini, h5, "--run.backend=" + backend)
        check(r.returncode == 0, "the rocking block file runs (%s)" % backend, r.stderr[-2000:])
        if r.returncode == 0:
            files[backend] = datasets(h5)
    if len(files) == 2:
        worst, bad = largest_difference(files["cpu"], files["batched"])
        check(not bad and worst == 0, "the rocking block file: batched equals cpu", "%s %g" % (bad, worst))
        counters = files["cpu"]
        check((counters["cases/status"] == 0).all(), "the rocking block's cases ran", str(counters["cases/status"]))
        check((counters["cases/counters/stickings"] > 0).all() and (counters["cases/counters/releases"] > 0).all(),
              "the rocking block comes to rest and is released in every case")
    csv = os.path.join(tmp, "rocking_trace.csv")
    r = subprocess.run([vibro, "trace", ini, "--case", "0", "--periods", "2", "--csv", "--out", csv[:-4] + ".h5"], capture_output=True,
                       text=True, timeout=120)
    check(r.returncode == 0, "vibro trace of the rocking block file", r.stderr[-1000:])
    if r.returncode == 0:
        with open(csv) as f:
            header = f.readline()
        with open(csv[:-4] + "_events.csv") as f:
            kinds = {line.split(",")[1] for line in f.readlines()[1:]}
        check(header.startswith("time [s],mode,theta [rad],omega [rad/s]"), "the trace's header has the file's units", header)
        check({"release to left", "release to right", "switch to left", "switch to right"} <= kinds,
              "the trace's events name the mode entered", str(sorted(kinds))[:300])
    impact_trace = os.path.join(tmp, "impact_trace.csv")  # written beside impact_trace.h5
    with open(os.path.join(tmp, "impact_file.ini"), "w") as out:
        out.write(IMPACT.format(model=os.path.join(repo, "examples", "models", "impact_oscillator.vibro")))
    r = subprocess.run([vibro, "trace", os.path.join(tmp, "impact_file.ini"), "--case", "0", "--periods", "1", "--csv",
                        "--out", impact_trace[:-4] + ".h5"], capture_output=True, text=True, timeout=120)
    if r.returncode == 0:
        with open(impact_trace) as f:
            header = f.readline()
        check(header.startswith("time [-],"), "a dimensionless model file's trace has a dimensionless time axis", header)
    else:
        check(False, "vibro trace of the impact oscillator file", r.stderr[-1000:])


def main():
    vibro, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        started = time.time()
        same_results(vibro, repo, tmp, "impact", IMPACT, "impact_oscillator", "impact_oscillator.vibro", "impacts")
        same_results(vibro, repo, tmp, "Model A", MODEL_A, "gap_oscillator_declared", "gap_oscillator.vibro", "impacts")
        same_results(vibro, repo, tmp, "friction", FRICTION, "dry_friction_oscillator", "dry_friction_oscillator.vibro",
                     "switches")
        print("  sweeps: %.1f s" % (time.time() - started))
        three = os.path.join(tmp, "three.vibro")
        with open(three, "w") as out:
            out.write(THREE_STATES)
        ini = os.path.join(tmp, "three.ini")
        with open(ini, "w") as out:
            out.write("model = three.vibro\n[axes]\nc = 0.5, 2\n[run]\nmax_periods = 100\n")
        for backend in ("cpu", "batched"):
            r = run(vibro, ini, os.path.join(tmp, "three_%s.h5" % backend), "--run.backend=" + backend, "--output.floquet=false")
            check(r.returncode == 0, "a three-state model file runs (%s)" % backend, r.stderr[-2000:])
        if all(os.path.exists(os.path.join(tmp, "three_%s.h5" % b)) for b in ("cpu", "batched")):
            a = datasets(os.path.join(tmp, "three_cpu.h5"))
            b = datasets(os.path.join(tmp, "three_batched.h5"))
            worst, bad = largest_difference(a, b)
            check(not bad and worst == 0, "the three-state model file: batched equals cpu", "%s %g" % (bad, worst))
        started = time.time()
        bad_files(vibro, tmp)
        fuzz(vibro, repo, tmp)
        print("  refusals and fuzz: %.1f s" % (time.time() - started))
        resume_needs_the_same_file(vibro, repo, tmp)
        inline_section(vibro, repo, tmp)
        started = time.time()
        rocking_block(vibro, repo, tmp)
        print("  rocking block: %.1f s" % (time.time() - started))
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)


main()
