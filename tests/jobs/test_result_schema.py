#!/usr/bin/python3
"""Every result file explains itself (schema version 6): a small sweep of every built-in model, then

- every dataset carries a `unit` or a `meaning` attribute; every /parameters dataset (the fixed
  parameters) and every /axes dataset carries both a unit and a description;
- /cases/strobe/values names a unit for each of its columns, and every counter and mode has a
  meaning stated by the model;
- /legend/classes is not empty and covers every class code in /cases/class (codes may be patterns:
  <k> a positive integer, [~] an optional ~);
- `vibro describe MODEL` lists the same class codes.

Usage: test_result_schema.py VIBRO_BINARY. Takes a few seconds.
"""
import os
import re
import subprocess
import sys
import tempfile

import h5py

RUN = "[run]\nmax_periods = %d\nwindow_periods = %d\n"
SWEEPS = {  # model -> sweep-file body: two or more short cases each, reaching several classes
    "conveyor": "[axes]\na_hat = 40, 50, 70\nz0 = 0, 0.002\n" + RUN % (100, 50),
    "gap_oscillator": "[parameters]\nlaw = restitution\n[axes]\nlambda = 0.3, 1\n" + RUN % (300, 50),
    "vibro_platform": "[axes]\nF0 = 1e5, 2.44e5\n" + RUN % (100, 20),
    "dimer": "[numerics]\nsteps_per_period = 400\n[axes]\nA_r = 3.9, 5.7\n" + RUN % (30, 10),
    "ball_balancer": "[axes]\nspin_ratio = 0.5, 1.5\n" + RUN % (60, 20),
    "beam_slider": "[parameters]\nvariant = reference\n[axes]\nf = 120, 130\n" + RUN % (30, 10),
    "impact_oscillator": "[axes]\nsigma = 0.5, 3\n" + RUN % (200, 20),
    "dry_friction_oscillator": "[axes]\nomega = 0.7, 1.5\n" + RUN % (100, 20),
    "gap_oscillator_declared": "[axes]\nlambda = 0.3, 1\n" + RUN % (300, 50),
}
UNSTATED = "(not stated by the model)"
FAILURES = []


def check(ok, what, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else "\n      " + detail))
    if not ok:
        FAILURES.append(what)
    return ok


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def pattern_regex(pattern):
    """The class-code pattern syntax of engine/core/model_legend.hpp as a regular expression."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("[~]", i):
            out, i = out + "~?", i + 3
        elif pattern[i] == "<" and ">" in pattern[i:]:
            out, i = out + "[1-9][0-9]*", pattern.index(">", i) + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def check_file(model, path):
    with h5py.File(path, "r") as f:
        check(int(f.attrs["schema_version"]) == 6, f"{model}: schema_version 6", repr(f.attrs["schema_version"]))
        bare = []
        f.visititems(lambda name, obj: bare.append(name) if isinstance(obj, h5py.Dataset)
                     and not ({"unit", "meaning"} & set(obj.attrs)) else None)
        check(not bare, f"{model}: every dataset carries a unit or a meaning", repr(bare))
        for group in ("parameters", "axes"):
            lacking = [n for n, d in f[group].items() if not {"unit", "description"} <= set(d.attrs)
                       or not text(d.attrs["description"])]
            check(not lacking, f"{model}: every /{group} dataset carries a unit and a description", repr(lacking))
        check(len(f["parameters"]) > 0 and len(f["axes"]) > 0, f"{model}: fixed and swept parameters present")
        values = f["cases/strobe/values"]
        columns = text(values.attrs["columns"]).split(",")
        units = text(values.attrs["units"]).split(",")
        check(len(units) == len(columns) == values.shape[1] and all(u and u != "?" for u in units),
              f"{model}: a unit for every strobe column", f"{columns} {units}")
        states = dict(f["legend/states"].attrs)
        check(set(states) == set(columns) and UNSTATED not in " ".join(map(text, states.values())),
              f"{model}: /legend/states gives every column's unit", repr(states))
        for group in ("counters", "window_counters"):
            unstated = [n for n, d in f["cases"][group].items() if UNSTATED in text(d.attrs["meaning"])]
            check(len(f["cases"][group]) > 0 and not unstated, f"{model}: every {group[:-1]} has the model's meaning",
                  repr(unstated))
        modes = {k: text(v) for k, v in f["legend/modes"].attrs.items()}
        check(modes and all(UNSTATED not in v for v in modes.values()), f"{model}: every mode has a meaning", repr(modes))
        mode_meaning = text(f["cases/strobe/mode"].attrs["meaning"])
        check(all(f"{v.split(':')[0]} {k}" in mode_meaning for k, v in modes.items()),
              f"{model}: /cases/strobe/mode names each mode index", mode_meaning)
        legend = {k: text(v) for k, v in f["legend/classes"].attrs.items()}
        check(legend and all(legend.values()), f"{model}: /legend/classes is not empty", repr(legend))
        status = f["cases/status"][()]
        codes = {c for c, s in zip(f["cases/class"].asstr()[()], status) if s == 0}
        uncovered = [c for c in codes if not any(pattern_regex(p).match(c) for p in legend)]
        check(codes and not uncovered, f"{model}: the legend covers every class code in the file {sorted(codes)}",
              f"uncovered {uncovered}; legend {sorted(legend)}")
        return legend


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_result_schema.py VIBRO_BINARY")
    vibro = sys.argv[1]
    # The pattern syntax itself: what must and must not match.
    for pattern, code, expected in (("H<k>[~]", "H1", True), ("H<k>[~]", "H12~", True), ("H<k>[~]", "H0", False),
                                    ("H<k>[~]", "H", False), ("(<n>,<k>)[~]", "(2,1)~", True),
                                    ("D+[~]<k>", "D+~3", True), ("D+[~]<k>", "D-3", False), ("S[~]", "S~", True)):
        check(bool(pattern_regex(pattern).match(code)) == expected, f"pattern {pattern} {'matches' if expected else 'rejects'} {code}")
    with tempfile.TemporaryDirectory() as work:
        for model, body in SWEEPS.items():
            sweep, out = os.path.join(work, model + ".ini"), os.path.join(work, model + ".h5")
            with open(sweep, "w") as f:
                f.write(f"model = {model}\n{body}")
            run = subprocess.run([vibro, "run", sweep, "--output.file=" + out, "--run.threads=1"],
                                 capture_output=True, text=True, timeout=300)
            if not check(run.returncode == 0 and os.path.exists(out), f"{model}: the small sweep runs",
                         run.stdout[-500:] + run.stderr[-1500:]):
                continue
            legend = check_file(model, out)
            described = subprocess.run([vibro, "describe", model], capture_output=True, text=True, timeout=60).stdout
            block = described.split("class codes", 1)[-1]
            check("class codes" in described and all(code in block for code in legend),
                  f"{model}: vibro describe lists the class codes", described[-1500:])
    print(f"{len(FAILURES)} failure(s)")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
