#!/usr/bin/env python3
"""End-to-end tests of the vibro command line.

usage: test_cli.py VIBRO_BINARY REPO_ROOT

Runs the binary with its working directory in a fresh temporary directory (nothing is written into
the repository): --version, --help, models, describe, input errors of `run` (exit code 2, the key in
the message, no output file: errors come before any work), and a small real conveyor sweep whose
HDF5 file is checked against docs/hdf5_schema.md and against known physics.

Python standard library plus h5py (and numpy, which h5py needs). Prints every failed check and
exits 1 if there was one. test_known_bugs holds regression checks of bugs it found, since fixed.
"""
import contextlib
import io
import math
import os
import re
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as error:  # the test needs h5py (Debian: python3-h5py, see scripts/install_deps.sh)
    print(f"test_cli.py: cannot import h5py/numpy: {error}", file=sys.stderr)
    sys.exit(1)

FAILURES = []
CHECKS = 0
REPO_ROOT = "."  # set by main() from the command line


def check(condition, what, detail=""):
    global CHECKS
    CHECKS += 1
    if condition:
        return True
    FAILURES.append(what)
    print(f"FAIL: {what}" + (f"\n      {detail}" if detail else ""), flush=True)
    return False


class Vibro:
    def __init__(self, binary):
        self.binary = os.path.abspath(binary)

    def __call__(self, *args, cwd, timeout=300):
        try:
            p = subprocess.run([self.binary, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "", f"timed out after {timeout} s"
        return p.returncode, p.stdout, p.stderr


def show(rc, out, err):
    return f"rc={rc}\n      stdout: {out.strip()[:800]!r}\n      stderr: {err.strip()[:800]!r}"


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def new_dir(root, name):
    path = os.path.join(root, name)
    os.mkdir(path)
    return path


# ------------------------------------------------------------------------------------------------
def test_version_and_help(vibro, tmp):
    rc, out, err = vibro("--version", cwd=tmp)
    check(rc == 0, "--version exits 0", show(rc, out, err))
    check(out.startswith("vibro ") and any(c.isdigit() for c in out), "--version prints 'vibro X.Y.Z (...)'", show(rc, out, err))

    rc, out, err = vibro("--help", cwd=tmp)
    check(rc == 0, "--help exits 0", show(rc, out, err))
    for text in ("usage", "vibro run", "vibro models", "vibro describe", "linspace", "logspace", "range",
                 "run.max_periods", "run.window_periods", "output.file"):
        check(text in out, f"--help mentions {text!r}", show(rc, out, err))

    rc, out, err = vibro(cwd=tmp)
    check(rc == 2 and "usage" in out, "no arguments: usage and exit code 2", show(rc, out, err))

    rc, out, err = vibro("frobnicate", cwd=tmp)
    check(rc == 2 and "frobnicate" in err, "an unknown command exits 2 and names it", show(rc, out, err))


def test_models_and_describe(vibro, tmp):
    rc, out, err = vibro("models", cwd=tmp)
    check(rc == 0, "models exits 0", show(rc, out, err))
    check(any(line.split()[:1] == ["conveyor"] for line in out.splitlines()), "models lists conveyor", show(rc, out, err))

    rc, out, err = vibro("describe", "conveyor", cwd=tmp)
    check(rc == 0, "describe conveyor exits 0", show(rc, out, err))
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ") and line.split()}
    a_hat = rows.get("a_hat", "")
    check(a_hat.split()[1:2] == ["m/s^2"], "describe conveyor: a_hat has unit m/s^2", repr(a_hat))
    check("[0, 10000]" in a_hat, "describe conveyor: a_hat shows its range [0, 10000]", repr(a_hat))
    check("[0, 1)" in rows.get("c_r", ""), "describe conveyor: c_r shows its range [0, 1)", repr(rows.get("c_r")))
    for section in ("[parameters]", "[initial]", "[numerics]"):
        check(section in out, f"describe conveyor shows the section {section}", out[:400])
    check("mean_velocity" in out, "describe conveyor lists the observable mean_velocity", out[-600:])

    rc, out, err = vibro("describe", "nosuch", cwd=tmp)
    check(rc == 2, "describe nosuch exits 2", show(rc, out, err))
    check("nosuch" in err and "conveyor" in err, "describe nosuch names the model and lists the registered ones",
          show(rc, out, err))
    check(out == "", "describe nosuch prints nothing on stdout", show(rc, out, err))


def test_describe_columns(vibro, tmp):
    # Known bug: the 'accepted' column is padded to 30 characters without a separator, so a longer
    # range runs into the description: "one of: drop, first_impact, statedrop: from height ...".
    rc, out, err = vibro("describe", "conveyor", cwd=tmp)
    for line in out.splitlines():
        if line.split()[:1] == ["start"]:
            check("one of: drop, first_impact, state " in line,
                  "describe conveyor: the accepted column of 'start' is separated from its meaning", repr(line))


# ------------------------------------------------------------------------------------------------
GOOD = """model = conveyor

[parameters]
c_r = 0.6

[axes]
a_hat = 40, 50

[run]
max_periods = 20
window_periods = 10
"""

# name -> (sweep text, texts the message must contain)
BAD_SWEEPS = {
    "malformed_line": ("model = conveyor\n[parameters]\nc_r 0.5\n", ["c_r 0.5"]),
    "unknown_key": ("model = conveyor\n[parameters]\nfoo = 1\n", ["parameters.foo", "parameters.c_r", "initial.z0"]),
    "out_of_range": ("model = conveyor\n[parameters]\nc_r = 1.5\n", ["parameters.c_r", "[0, 1)"]),
    "not_a_number": ("model = conveyor\n[parameters]\nmu = abc\n", ["parameters.mu", "abc"]),
    "axis_out_of_range": ("model = conveyor\n[axes]\na_hat = 40, 20000\n", ["axes.a_hat", "[0, 10000]"]),
    "axis_malformed": ("model = conveyor\n[axes]\na_hat = linspace(30, 80)\n", ["axes.a_hat"]),
    "bad_choice": ("model = conveyor\n[initial]\nstart = fly\n", ["initial.start", "drop", "first_impact", "state"]),
    "unknown_model": ("model = nosuch\n", ["nosuch", "conveyor"]),
    "missing_model": ("[parameters]\nc_r = 0.5\n", ["missing key 'model'"]),
    "window_too_long": ("model = conveyor\n[run]\nmax_periods = 50\nwindow_periods = 50\n",
                        ["run.window_periods", "run.max_periods"]),
    # A feature the model cannot serve (the dimer has no variational equations): refused before any case.
    "floquet_without_jacobians": ("model = dimer\n[output]\nfloquet = true\n", ["'dimer'", "output.floquet", "Jacobian"]),
    "lyapunov_without_jacobians": ("model = dimer\n[output]\nlyapunov_periods = 10\n",
                                   ["'dimer'", "output.lyapunov_periods", "Jacobian"]),
}


def test_input_errors(vibro, tmp):
    for name, (text, expected) in BAD_SWEEPS.items():
        work = new_dir(tmp, "bad_" + name)
        sweep = write(work, name + ".ini", text)
        before = set(os.listdir(work))
        rc, out, err = vibro("run", sweep, cwd=work)
        check(rc == 2, f"run {name}.ini exits 2", show(rc, out, err))
        for text_ in expected:
            check(text_ in err, f"run {name}.ini: the message contains {text_!r}", show(rc, out, err))
        check(err.count("\n") <= 2, f"run {name}.ini: one short message, no trace", show(rc, out, err))
        created = set(os.listdir(work)) - before
        check(not created, f"run {name}.ini creates no file (errors come before any work)", f"created: {sorted(created)}")

    # The same errors from command-line overrides, with an explicit output file that must not appear.
    work = new_dir(tmp, "bad_overrides")
    sweep = write(work, "good.ini", GOOD)
    for args, expected in (
        (["--parameters.c_r=1.5"], ["parameters.c_r", "[0, 1)"]),
        (["--parameters.foo=1"], ["parameters.foo"]),
        (["--axes.a_hat=40,20000"], ["axes.a_hat"]),
        (["--run.window_periods=20"], ["run.window_periods", "run.max_periods"]),
    ):
        out_file = os.path.join(work, "out.h5")
        rc, out, err = vibro("run", sweep, *args, f"--output.file={out_file}", cwd=work)
        check(rc == 2, f"run good.ini {' '.join(args)} exits 2", show(rc, out, err))
        for text_ in expected:
            check(text_ in err, f"run good.ini {' '.join(args)}: the message contains {text_!r}", show(rc, out, err))
        left = sorted(set(os.listdir(work)) - {"good.ini"})
        check(not left, f"run good.ini {' '.join(args)} creates no file", f"created: {left}")

    # A missing sweep file.
    work = new_dir(tmp, "missing_file")
    rc, out, err = vibro("run", "no_such_sweep.ini", cwd=work)
    check(rc == 2, "run on a missing file exits 2", show(rc, out, err))
    check("no_such_sweep.ini" in err and "cannot read" in err, "run on a missing file names it and says it cannot be read",
          show(rc, out, err))
    check(not os.listdir(work), "run on a missing file creates nothing", str(os.listdir(work)))

    # Two sweep files.
    rc, out, err = vibro("run", "a.ini", "b.ini", cwd=work)
    check(rc == 2 and "a.ini" in err and "b.ini" in err, "run with two sweep files exits 2 and names both",
          show(rc, out, err))

    # Empty names and keys, control characters: refused, never taken for "no file given" (which
    # would run the embedded default sweep).
    work = new_dir(tmp, "empty_names")
    write(work, "good.ini", GOOD)
    for args, expected in (
        ([""], "sweep file name"), (["  "], "sweep file name"), (["--resume="], "--resume"), (["--resume", ""], "--resume"),
        (["good.ini", "--=5"], "--=5"), (["good.ini", "--run.tol=1e-3\ntouch x"], "run.tol"),
        (["good.ini", "--output.file=\n"], "output.file"), (["good.ini", "--output.file= "], "output.file"),
    ):
        rc, out, err = vibro("run", *args, cwd=work, timeout=60)
        check(rc == 2 and expected in err and "embedded default" not in err,
              f"run {args!r} exits 2 naming {expected!r}", show(rc, out, err))
        check(sorted(os.listdir(work)) == ["good.ini"], f"run {args!r} creates no file", str(os.listdir(work)))


# ------------------------------------------------------------------------------------------------
SMALL = """# vibro CLI end-to-end test: a small conveyor sweep (the conveyor paper parameters)
model = conveyor

[parameters]
f = 50
phi = 12
c_r = 0.6
mu = 0.15

[initial]
start = drop
on_plate = coupled

[axes]
a_hat = 40, 50, 70
z0 = 0, 0.002

[run]
max_periods = 100
window_periods = 50
steady_state = adaptive
"""

H1_VELOCITY = 0.1153810534  # m/s: the hopping orbit at a_hat = 50 m/s^2 (the conveyor paper)


def as_str(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def test_small_sweep(vibro, tmp):
    work = new_dir(tmp, "small")
    sweep = write(work, "small.ini", SMALL)
    out_dir = new_dir(tmp, "small_out")
    out_file = os.path.join(out_dir, "small.h5")
    rc, out, err = vibro("run", sweep, f"--output.file={out_file}", cwd=work)
    if not check(rc == 0, "the small sweep exits 0", show(rc, out, err)):
        return
    check(os.path.exists(out_file), "the small sweep writes --output.file", str(os.listdir(out_dir)))
    check(sorted(os.listdir(out_dir)) == ["small.h5"], "no temporary file is left beside the output", str(os.listdir(out_dir)))
    check(sorted(os.listdir(work)) == ["small.ini"], "nothing else is written into the working directory", str(os.listdir(work)))
    check("6 cases" in out and out_file in out, "the summary counts the cases and names the file", show(rc, out, err))
    if not os.path.exists(out_file):
        return

    with h5py.File(out_file, "r") as f:
        attrs = f.attrs
        # Root attributes.
        check(as_str(attrs.get("format")) == "vibro-sweep", "root attr format == 'vibro-sweep'", repr(attrs.get("format")))
        check(attrs.get("schema_version") == 6 and np.issubdtype(np.asarray(attrs.get("schema_version")).dtype, np.integer),
              "root attr schema_version is the integer 6", repr(attrs.get("schema_version")))
        rc_v, out_v, _ = vibro("--version", cwd=work)
        version = as_str(attrs.get("vibro_version", ""))
        check(version != "" and out_v.startswith(f"vibro {version} "), "root attr vibro_version matches --version",
              f"{version!r} vs {out_v!r}")
        revision = as_str(attrs.get("git_revision", ""))
        check(revision != "", "root attr git_revision is not empty ('unknown' when git is not available)", repr(revision))
        check(f"({revision})" in out_v, "root attr git_revision matches --version", f"{revision!r} vs {out_v!r}")
        check(as_str(attrs.get("model")) == "conveyor", "root attr model == 'conveyor'", repr(attrs.get("model")))
        check(as_str(attrs.get("sweep_file")) == sweep, "root attr sweep_file is the path given", repr(attrs.get("sweep_file")))
        sweep_text = as_str(attrs.get("sweep_text", ""))
        # The file's text exactly, then the command-line overrides as comment lines.
        check(sweep_text.startswith(SMALL), "root attr sweep_text starts with the sweep file's text exactly", repr(sweep_text[:200]))
        check(f"--output.file={out_file}" in sweep_text[len(SMALL):], "root attr sweep_text records the overrides",
              repr(sweep_text[len(SMALL):]))
        threads = attrs.get("threads")
        check(threads is not None and int(threads) >= 1, "root attr threads >= 1", repr(threads))
        for name in ("started_utc", "finished_utc"):
            value = as_str(attrs.get(name, ""))
            check(len(value) == 20 and value.endswith("Z") and value[10] == "T", f"root attr {name} is ISO 8601 UTC", repr(value))
        check(as_str(attrs.get("steady_state")) == "adaptive", "root attr steady_state == 'adaptive'", repr(attrs.get("steady_state")))
        check(attrs.get("max_periods") == 100 and attrs.get("window_periods") == 50,
              "root attrs max_periods/window_periods", f"{attrs.get('max_periods')!r} {attrs.get('window_periods')!r}")
        check(float(attrs.get("wall_seconds", -1)) >= 0, "root attr wall_seconds >= 0", repr(attrs.get("wall_seconds")))

        # /parameters: every declared key, fixed values as scalar datasets; choices as names.
        params = {k: d[()] for k, d in f["parameters"].items()}
        for key, value in (("f", 50.0), ("phi", 12.0), ("c_r", 0.6), ("mu", 0.15), ("g", 9.81)):
            check(key in params and float(params[key]) == value, f"/parameters/{key} == {value}", repr(params.get(key)))
        check(as_str(params.get("start")) == "drop", "/parameters/start == 'drop' (choices by name)", repr(params.get("start")))
        check(as_str(f["parameters/f"].attrs.get("unit")) == "Hz", "/parameters/f carries its unit", repr(dict(f["parameters/f"].attrs)))
        for key in ("a_hat", "z0"):
            check(key not in params, f"/parameters has no dataset for the swept key {key} (its values are in /axes)",
                  repr(sorted(params.keys())))
        check({"v0", "on_plate", "u_tol", "coupled_friction", "event_cap"} <= set(params.keys()),
              "/parameters holds the unswept keys of every section", repr(sorted(params.keys())))

        # /axes.
        axes = f["axes"]
        order = as_str(axes.attrs.get("order", ""))
        check(order == "a_hat,z0", "/axes attr order == 'a_hat,z0'", repr(order))
        check(list(axes["a_hat"][()]) == [40.0, 50.0, 70.0], "/axes/a_hat values", repr(axes["a_hat"][()]))
        check(list(axes["z0"][()]) == [0.0, 0.002], "/axes/z0 values", repr(axes["z0"][()]))
        check(as_str(axes["a_hat"].attrs.get("unit")) == "m/s^2", "/axes/a_hat attr unit == 'm/s^2'", repr(axes["a_hat"].attrs.get("unit")))
        check(as_str(axes["z0"].attrs.get("unit")) == "m", "/axes/z0 attr unit == 'm'", repr(axes["z0"].attrs.get("unit")))
        check(as_str(axes["a_hat"].attrs.get("expression")) == "40, 50, 70", "/axes/a_hat attr expression",
              repr(axes["a_hat"].attrs.get("expression")))
        check(int(axes["a_hat"].attrs.get("order", -1)) == 0 and int(axes["z0"].attrs.get("order", -1)) == 1,
              "/axes/<name> attr order is the axis' position")

        # /cases.
        cases = f["cases"]
        n = 6
        status = cases["status"][()]
        check(status.shape == (n,) and status.dtype == np.int8, "/cases/status is int8 of shape (6,)", f"{status.dtype} {status.shape}")
        check(list(status) == [0] * n, "/cases/status all 0 (ok)", repr(status))
        classes = [as_str(c) for c in cases["class"][()]]
        check(len(classes) == n, "/cases/class has 6 entries", repr(classes))
        check(all(classes), "/cases/class: every ok case has a class code", repr(classes))
        reasons = [as_str(r) for r in cases["reason"][()]]
        check(reasons == [""] * n, "/cases/reason empty for ok cases", repr(reasons))
        for name, dtype in (("periodicity", np.int8), ("period", np.int32), ("periods_run", np.int32),
                            ("window_periods", np.int32), ("jumps", np.int32), ("stopped_early", np.int8),
                            ("wall_seconds", np.float64)):
            data = cases[name][()] if name in cases else None
            check(data is not None and data.shape == (n,) and data.dtype == dtype, f"/cases/{name} is {np.dtype(dtype)} of shape (6,)",
                  repr(None if data is None else (data.dtype, data.shape)))
        periods_run = cases["periods_run"][()]
        window_periods = cases["window_periods"][()]
        check(all(1 <= w < p <= 100 for w, p in zip(window_periods, periods_run)),
              "/cases: 0 < window_periods < periods_run <= max_periods", f"{window_periods} {periods_run}")

        observables = cases["observables"]
        v = observables["mean_velocity"][()]
        check(v.shape == (n,) and bool(np.all(np.isfinite(v))), "/cases/observables/mean_velocity: 6 finite values", repr(v))
        check(as_str(observables["mean_velocity"].attrs.get("unit")) == "m/s", "/cases/observables/mean_velocity attr unit == 'm/s'")
        for name in ("mean_velocity_first_half", "mean_velocity_second_half", "impacts_per_period", "last_impact_phase"):
            check(name in observables and observables[name].shape == (n,), f"/cases/observables/{name} has shape (6,)")
        for group in ("counters", "window_counters"):
            g = cases.get(group)
            check(g is not None and "impacts" in g and g["impacts"].dtype == np.int64 and g["impacts"].shape == (n,),
                  f"/cases/{group}/impacts is int64 of shape (6,)")

        strobe = cases["strobe"]
        offsets = strobe["offsets"][()]
        check(offsets.shape == (n + 1,), "/cases/strobe/offsets has length 7", repr(offsets))
        check(offsets[0] == 0 and bool(np.all(np.diff(offsets) >= 0)), "/cases/strobe/offsets starts at 0 and is nondecreasing",
              repr(offsets))
        values = strobe["values"]
        columns = as_str(values.attrs.get("columns", ""))
        check(values.shape == (int(offsets[-1]), len(columns.split(","))), "/cases/strobe/values is (offsets[-1], columns)",
              f"{values.shape} {columns!r}")
        check(columns == "h,u,vT", "/cases/strobe/values attr columns == 'h,u,vT'", repr(columns))
        check(strobe["drift_position"].shape == (int(offsets[-1]),) and strobe["mode"].shape == (int(offsets[-1]),),
              "/cases/strobe/drift_position and mode have one entry per point")
        check(list(np.diff(offsets)) == [w + 1 for w in window_periods],
              "/cases/strobe: each ok case stores window_periods + 1 points", f"{np.diff(offsets)} vs {window_periods}")

        # Physics. Case index = i_a_hat * len(z0) + i_z0 (C order, first axis slowest).
        a_values, z_values = list(axes["a_hat"][()]), list(axes["z0"][()])

        def case(a_hat, z0):
            return a_values.index(a_hat) * len(z_values) + z_values.index(z0)

        i = case(50.0, 0.002)
        check(classes[i] == "H1", "a_hat 50, z0 0.002 is class H1 (hopping, one impact per period)", repr(classes))
        check(abs(v[i] - H1_VELOCITY) < 1e-6, f"a_hat 50, z0 0.002: mean_velocity within 1e-6 of {H1_VELOCITY} m/s",
              f"{v[i]!r}")
        check(cases["period"][i] == 1 and cases["periodicity"][i] == 0, "a_hat 50, z0 0.002: periodic with period 1")
        check(abs(observables["impacts_per_period"][i] - 1) < 1e-12, "a_hat 50, z0 0.002: one impact per period",
              repr(observables["impacts_per_period"][i]))

        i = case(40.0, 0.0)
        gamma = 40.0 * math.sin(math.radians(float(params["phi"]))) / float(params["g"])
        check(gamma < 1, "a_hat 40: Gamma = a_hat sin(phi) / g < 1", repr(gamma))
        check(classes[i] == "S", "a_hat 40, z0 0 is class S (permanent contact, Gamma < 1)", repr(classes))
        check(cases["window_counters"]["impacts"][i] == 0 and cases["window_counters"]["lift_offs"][i] == 0,
              "a_hat 40, z0 0: no impact and no lift-off in the window")
        modes = strobe["mode"][int(offsets[i]):int(offsets[i + 1])]
        check(len(modes) > 0 and bool(np.all(modes == 1)), "a_hat 40, z0 0: every window point is coupled (mode 1)", repr(modes))

    test_schema_doc(out_file)


def undocumented_names(h5_file, doc):
    """The group, dataset and attribute names of a file that docs/hdf5_schema.md does not quote."""
    names = set()
    with h5py.File(h5_file, "r") as f:
        names.update(f.attrs.keys())
        f.visititems(lambda path, obj: names.update([path.split("/")[-1], *obj.attrs.keys()]))
        # /parameters and /axes hold one dataset per model key, /legend's groups one attribute per model
        # class code, state component or mode: model vocabulary, not schema names.
        names -= set(f["parameters"].keys()) | (set(f["axes"].keys()) if "axes" in f else set())
        # The grid view's variables are named after /cases columns (counters_<counter name>, ...), whose
        # own names are checked where they lie.
        names -= {key for key, obj in f.items() if isinstance(obj, h5py.Dataset) and obj.is_virtual}
        for group in ("classes", "states", "modes"):
            names -= set(f["legend"][group].attrs.keys()) if group in f.get("legend", {}) else set()
    quoted = " ".join(re.findall(r"`([^`]*)`", doc))
    return sorted(n for n in names if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", quoted))


def test_continue(vibro, tmp):
    """vibro continue follows Model A's (1,1) orbit down to its fold, where natural continuation stops and says so,
    and with --method arclength round the fold to the grazing, where the branch turns back; both write a
    documented branch file."""
    d = new_dir(tmp, "continue")
    ini = write(d, "a.ini", "model = gap_oscillator\n[parameters]\nlaw = restitution\nlambda = 1\n[run]\nmax_periods = 300\n")
    rc, out, err = vibro("continue", ini, "--parameter", "lambda", "--to", "0.55", cwd=d)
    check(rc == 0, "vibro continue runs", show(rc, out, err))
    check("the branch turns back at a fold at lambda = 0.56438" in out and "natural continuation cannot pass" in out,
          "natural continuation stops at the fold (lambda = 0.56438) naming it, rather than jump", out)
    branch = os.path.join(d, "a.branch.h5")
    if check(os.path.exists(branch), "vibro continue writes SWEEP.branch.h5", str(os.listdir(d))):
        with h5py.File(branch, "r") as f:
            check(as_str(f.attrs["format"]) == "vibro-branch", "the branch file says format = vibro-branch")
            p = f["branch/parameter"][...]
            check(p[0] == 1.0 and np.all(np.diff(p) < 0), "the branch runs down from 1", str(p))
            check(np.all(f["branch/impacts"][...] == 1), "one impact per period all along")
            check([as_str(k) for k in f["events/kind"][...]] == ["neimark_sacker", "fold"],
                  "two events: the Neimark-Sacker point, then the fold where it ends")
            check(abs(abs(complex(f["events/multiplier_real"][0], f["events/multiplier_imag"][0])) - 1) < 1e-6,
                  "its multiplier lies on the unit circle")
        with open(os.path.join(REPO_ROOT, "docs", "hdf5_schema.md")) as doc:
            missing = undocumented_names(branch, doc.read())
        check(not missing, "docs/hdf5_schema.md documents every name of the branch file", f"missing: {missing}")
        rc, out, err = vibro("plot", branch, cwd=d)
        check(rc == 0 and is_png(os.path.join(d, "a.branch.png")), "vibro plot draws a branch file", show(rc, out, err))
    rc, out, err = vibro("continue", ini, "--parameter", "lambda", "--to", "0.55", "--method", "arclength", cwd=d)
    check(rc == 0 and "reached the end of the range" in out, "vibro continue --method arclength reaches 0.55", show(rc, out, err))
    m = re.search(r"grazing at lambda = ([0-9.]+) \(impacts per period 1 -> 0; the branch turns back there\)", out)
    check(m is not None and abs(float(m.group(1)) - 0.5670028) < 1e-6,
          "arclength reports the grazing at lambda* = 0.5670028 +- 1e-6, where the branch turns back", out)
    # --switch PD1: the impact oscillator's (2,2) branch born at the (1,1) orbit's period doubling.
    example = os.path.join(REPO_ROOT, "examples", "impact_oscillator_continuation.ini")
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.3", "--switch", "PD1",
                         "--output.file=io.h5", cwd=d)
    check(rc == 0 and "orbits of period 2 from the period doubling at omega = 2.169495463" in out,
          "vibro continue --switch PD1 continues the doubled branch from the period doubling", show(rc, out, err))
    doubled = os.path.join(d, "io.pd1.branch.h5")
    if check(os.path.exists(doubled), "--switch PD1 writes OUT.pd1.branch.h5", str(os.listdir(d))):
        with h5py.File(doubled, "r") as f:
            check(int(f.attrs["periods"]) == 2 and np.all(f["branch/impacts"][...] == 2),
                  "the doubled branch's orbits have period 2 and two impacts")
            kinds = [as_str(k) for k in f["events/kind"][...]]
            check(kinds == ["period_doubling"] and abs(f["events/parameter"][0] - 2.1754106) < 1e-6,
                  "its own period doubling at omega = 2.1754106", str(kinds))
    # --curve grazing: the grazing's curve in (omega, sigma), against the closed form sigma = amplitude(omega).
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.3", "--curve", "grazing",
                         "--parameters", "omega,sigma", "--curve-to", "0.3", "--output.file=io.h5", cwd=d)
    check(rc == 0 and "of the grazing curve in (omega, sigma)" in out and "reached the end of the range" in out,
          "vibro continue --curve grazing traces the grazing's curve to sigma = 0.3", show(rc, out, err))
    curve = os.path.join(d, "io.grazing1.curve.h5")
    if check(os.path.exists(curve), "--curve grazing writes OUT.grazing1.curve.h5", str(os.listdir(d))):
        with h5py.File(curve, "r") as f:
            check(as_str(f.attrs["format"]) == "vibro-curve" and int(f.attrs["schema_version"]) == 1 and
                  as_str(f.attrs["kind"]) == "grazing" and as_str(f.attrs["parameters"]) == "omega,sigma" and
                  as_str(f.attrs["model"]) == "impact_oscillator" and int(f.attrs["periods"]) == 1,
                  "the curve file's root attributes", str(dict(f.attrs)))
            omega, sigma = f["curve/parameter_1"][...], f["curve/parameter_2"][...]
            check(as_str(f["curve/parameter_1"].attrs["name"]) == "omega" and
                  as_str(f["curve/parameter_2"].attrs["name"]) == "sigma", "the curve's parameters are named")
            amplitude = 1 / np.sqrt((1 - omega ** 2) ** 2 + (2 * 0.05 * omega) ** 2)
            check(len(omega) >= 5 and sigma[0] == 0.25 and abs(sigma[-1] - 0.3) < 1e-12 and
                  np.max(np.abs(amplitude - sigma)) < 1e-8, "every point on the closed form sigma = amplitude(omega)",
                  f"{omega} {sigma}")
            check(f["curve/state"].shape == (len(omega), 2) and f["curve/multipliers_real"].shape[0] == len(omega) and
                  np.all(f["curve/impacts"][...] == 0), "the grazing orbit's state, multipliers and impacts per point")
            check(abs(f["parameters/omega"][()] - omega[0]) < 1e-15, "/parameters holds the curve's first point")
        with open(os.path.join(REPO_ROOT, "docs", "hdf5_schema.md")) as doc:
            missing = undocumented_names(curve, doc.read())
        check(not missing, "docs/hdf5_schema.md documents every name of the curve file", f"missing: {missing}")
    for bad, says in ((["--curve", "grazng"], "did you mean 'grazing'"), (["--curve", "pd"], "period_doubling"),
                      (["--parameters", "omega,sigm"], "did you mean 'sigma'"),
                      (["--parameters", "sigma,omega"], "--parameter omega")):
        given = {"--curve": "grazing", "--parameters": "omega,sigma", "--curve-to": "0.3"}
        given[bad[0]] = bad[1]
        rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.3",
                             *[w for kv in given.items() for w in kv], cwd=d)
        check(rc == 2 and bad[0] in err and says in err and "orbits" not in out,
              f"{' '.join(bad)} is refused before any work, naming the option", show(rc, out, err))
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.3", "--curve", "fold2",
                         "--parameters", "omega,sigma", "--curve-to", "0.3", "--output.file=io.h5", cwd=d)
    check(rc != 0 and "--curve fold2: the branch has 0 fold event(s)" in err, "a missing event is named", show(rc, out, err))
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.3", "--switch", "PDx", cwd=d)
    check(rc == 2 and "--switch = 'PDx'" in err and "PD1" in err, "a bad --switch is refused naming what is accepted",
          show(rc, out, err))
    # --method arclength follows Model A's (1,1) orbit in omega round its fold and back to its grazing.
    fold = write(d, "fold.ini", "model = gap_oscillator\n[parameters]\nlaw = restitution\nomega = 7\n[run]\nmax_periods = 2000\n")
    rc, out, err = vibro("continue", fold, "--parameter", "omega", "--to", "7.6", "--step", "0.01", "--max-step", "0.02",
                         "--method", "arclength", cwd=d)
    check(rc == 0 and "reached the end of the range" in out, "vibro continue --method arclength runs", show(rc, out, err))
    m = re.search(r"fold at omega = ([0-9.]+)", out)
    check(m is not None and abs(float(m.group(1)) - 7.4442) < 1e-3, "arclength reports the fold at omega ~ 7.4442", out)
    m = re.search(r"grazing at omega = ([0-9.]+)", out)
    check(m is not None and abs(float(m.group(1)) - 7.24905) < 1e-4, "arclength reports the grazing at omega ~ 7.24905", out)
    if os.path.exists(os.path.join(d, "fold.branch.h5")):
        with h5py.File(os.path.join(d, "fold.branch.h5"), "r") as f:
            p = f["branch/parameter"][...]
            check(as_str(f.attrs["method"]) == "arclength" and np.any(np.diff(p) < 0) and np.any(np.diff(p) > 0),
                  "the arclength branch file says so and its parameter turns back", str(p))
            check(abs(f["events/multiplier_real"][0] - 1) < 1e-3, "the fold's multiplier is +1 in the file")
    rc, out, err = vibro("continue", fold, "--parameter", "omega", "--to", "7.6", "--method", "secant", cwd=d)
    check(rc == 2 and "natural" in err and "arclength" in err, "an unknown --method names the accepted ones", err)
    rc, out, err = vibro("continue", ini, "--parameter", "lambda", "--to", "-1", cwd=d)
    check(rc == 2 and "lambda" in err and "expected [" in err, "an out-of-range --to names the key and its range", err)
    rc, out, err = vibro("continue", ini, "--parameter", "law", "--to", "1", cwd=d)
    check(rc == 2 and "not a numeric parameter" in err, "a choice parameter cannot be continued", err)
    # A conveyor microthrow orbit (M1: coupled motion every period) continues through its tangent map.
    m1 = write(d, "m1.ini", "model = conveyor\n[parameters]\na_hat = 50\n[initial]\nz0 = 0.001\n[run]\nmax_periods = 300\n")
    rc, out, err = vibro("continue", m1, "--parameter", "a_hat", "--to", "52", cwd=d)
    check(rc == 0 and "orbits of period 1" in out and os.path.exists(os.path.join(d, "m1.branch.h5")),
          "a microthrow orbit (M1) is continued", show(rc, out, err))
    # A case that ends without a periodic orbit (X at 80 m/s^2 within 100 periods): a clear failure, no file.
    x = write(d, "x.ini", "model = conveyor\n[parameters]\na_hat = 80\n[initial]\nz0 = 0.001\n")
    rc, out, err = vibro("continue", x, "--parameter", "a_hat", "--to", "81", cwd=d)
    check(rc == 2 and "class X" in err and not os.path.exists(os.path.join(d, "x.branch.h5")),
          "a start case without an orbit to continue fails with its class and writes nothing", show(rc, out, err))
    grid = write(d, "grid.ini", "model = gap_oscillator\n[axes]\nlambda = 1, 2\n")
    rc, out, err = vibro("continue", grid, "--parameter", "lambda", "--to", "3", cwd=d)
    check(rc == 2 and "single case" in err, "a sweep file with axes is refused by vibro continue", err)


def is_png(path):
    with open(path, "rb") if os.path.exists(path) else open(os.devnull, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_plot(vibro, tmp):
    """vibro plot draws every kind of figure from a real sweep file, and refuses foreign files and kinds."""
    d = new_dir(tmp, "plot")
    ini = write(d, "p.ini", "model = conveyor\n[axes]\na_hat = 40, 60\nz0 = 0, 0.003\n[run]\nmax_periods = 60\n")
    rc, out, err = vibro("run", ini, cwd=d)
    check(rc == 0, "the sweep to plot runs", show(rc, out, err))
    for kind, extra in (("bifurcation", []), ("drift", []), ("timeseries", ["--case", "1"]), ("basin", []),
                        ("regimes", ["--class", "H1"])):
        png = os.path.join(d, "p_%s.png" % kind)
        rc, out, err = vibro("plot", os.path.join(d, "p.h5"), "--kind", kind, *extra, cwd=d)
        check(rc == 0 and is_png(png), "vibro plot --kind %s writes a PNG" % kind, show(rc, out, err))
    rc, out, err = vibro("plot", ini, cwd=d)
    check(rc == 2 and "not a vibro sweep, branch, curve or trace file" in err, "vibro plot refuses a file that is not a vibro file", err)
    sweep = os.path.join(d, "p.h5")
    rc, out, err = vibro("plot", sweep, "--overlay", sweep, cwd=d)
    check(rc == 2 and "--overlay takes a curve file" in err, "vibro plot --overlay refuses a sweep file", err)
    rc, out, err = vibro("plot", sweep, "--kind", "basin", "--overlay", sweep, cwd=d)
    check(rc == 2 and "use it with --kind regimes" in err, "--overlay only over a regime map", err)
    rc, out, err = vibro("plot", os.path.join(d, "p.h5"), "--kind", "pie", cwd=d)
    check(rc == 2 and "accepted: bifurcation, basin, drift, timeseries, branch" in err, "an unknown plot kind lists the kinds", err)


def test_schema_doc(h5_file):
    """docs/hdf5_schema.md names every group, dataset and attribute of the file, and its h5py example runs."""
    doc_path = os.path.join(REPO_ROOT, "docs", "hdf5_schema.md")
    if not check(os.path.exists(doc_path), "docs/hdf5_schema.md exists", doc_path):
        return
    with open(doc_path) as f:
        doc = f.read()
    missing = undocumented_names(h5_file, doc)
    check(not missing, "docs/hdf5_schema.md documents every group, dataset and attribute name of the file (in `...`)",
          f"missing: {missing}")

    blocks = doc.split("```python\n")
    if not check(len(blocks) >= 2, "docs/hdf5_schema.md has an h5py example"):
        return
    code = blocks[1].split("```")[0].replace('"conveyor_fig6.h5"', repr(h5_file))
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "hdf5_schema.md example", "exec"), {})
        ok, detail = True, printed.getvalue()
    except Exception as error:
        ok, detail = False, f"{type(error).__name__}: {error}"
    check(ok and "H1" in detail, "the h5py example of docs/hdf5_schema.md runs on the small sweep", detail[:800])


def test_strobe_points_none(vibro, tmp):
    work = new_dir(tmp, "no_strobe")
    sweep = write(work, "s.ini", GOOD)
    rc, out, err = vibro("run", sweep, "--output.strobe_points=none", cwd=work)
    if not check(rc == 0, "run with output.strobe_points = none exits 0", show(rc, out, err)):
        return
    out_file = os.path.join(work, "s.h5")  # default: the sweep file's stem, in the working directory
    if not check(os.path.exists(out_file), "the default output file is <stem>.h5 in the working directory", str(os.listdir(work))):
        return
    with h5py.File(out_file, "r") as f:
        check("strobe" not in f["cases"], "output.strobe_points = none writes no /cases/strobe")
        check(list(f["cases/status"][()]) == [0, 0], "output.strobe_points = none: both cases ran")


def test_known_bugs(vibro, tmp):
    test_describe_columns(vibro, tmp)
    work = new_dir(tmp, "known_bugs")
    sweep = write(work, "good.ini", GOOD)
    # --model on the command line must take precedence over the file's model.
    rc, out, err = vibro("run", sweep, "--model=nosuch", cwd=work)
    check(rc == 2 and "nosuch" in err, "run --model=nosuch overrides the file's model (and fails)", show(rc, out, err))
    # Abbreviated keys must not be guessed.
    rc, out, err = vibro("run", sweep, "--parameters.c=0.7", cwd=work)
    check(rc == 2 and "parameters.c" in err, "run --parameters.c=0.7 is an unknown key, not parameters.c_r", show(rc, out, err))
    # An output path that cannot be written is only found after every case has run (exit 1).
    bad_out = os.path.join(work, "no_such_dir", "x.h5")
    rc, out, err = vibro("run", sweep, f"--output.file={bad_out}", cwd=work)
    check(rc == 2 and "no_such_dir" in err, "run into a missing directory is an input error before any case runs",
          show(rc, out, err))
    # A directory given as the sweep file.
    rc, out, err = vibro("run", work, cwd=work)
    check(rc == 2 and "cannot read" in err, "run on a directory says it cannot be read", show(rc, out, err))


def main():
    global REPO_ROOT
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    vibro = Vibro(args[0])
    REPO_ROOT = os.path.abspath(args[1])
    if not os.access(vibro.binary, os.X_OK):
        print(f"test_cli.py: {vibro.binary} is not an executable", file=sys.stderr)
        return 1
    tests = [test_version_and_help, test_models_and_describe, test_input_errors, test_small_sweep, test_strobe_points_none,
             test_continue, test_plot]
    tests.append(test_known_bugs)  # bugs found by this test and since fixed: regression checks
    return run_all(vibro, tests)


def main_of(tests, doc):
    """The main() of a CLI test file over this module's checks: VIBRO_BINARY REPO_ROOT from the command
    line (options ignored), then run_all; 2 with `doc` printed when the arguments are wrong."""
    global REPO_ROOT
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(doc, file=sys.stderr)
        return 2
    REPO_ROOT = os.path.abspath(args[1])
    return run_all(Vibro(args[0]), tests)


def run_all(vibro, tests):
    """Runs every test in one temporary folder, reports each, returns the exit code."""
    with tempfile.TemporaryDirectory(prefix="vibro_cli_") as tmp:
        for test in tests:
            before = len(FAILURES)
            try:
                test(vibro, tmp)
            except Exception as error:  # a crash in one test is a failure, the others still run
                check(False, f"{test.__name__} raised {type(error).__name__}: {error}")
            print(f"{test.__name__}: {'ok' if len(FAILURES) == before else 'FAILED'}", flush=True)
    print(f"{CHECKS - len(FAILURES)} passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
