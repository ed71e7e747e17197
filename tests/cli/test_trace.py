#!/usr/bin/env python3
"""vibro trace end to end: one case of a conveyor sweep traced to HDF5 and CSV, read back and checked
against the orbit's own samples (the dense state at t = k T is the sample), the reset across each
impact (Newton restitution, u_after = -c_r u_before), units and event kinds in the file; the help
text; bad input (case out of range, zero periods, unknown option, an existing output) refused with
exit code 2 before any file is written; vibro plot --kind trace draws the file, and refuses a sweep file.

usage: test_trace.py VIBRO_BINARY REPO_ROOT

A few seconds: 2 cases of 6 periods.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import Vibro, check, new_dir, run_all, show, write  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402

C_R = 0.6
SWEEP = f"""model = conveyor
[parameters]
c_r = {C_R}
[initial]
start = drop
z0 = 0.002
[axes]
a_hat = 40, 60
[run]
max_periods = 40
window_periods = 10
[output]
file = conv.h5
"""


def strings(attr):
    return (attr.decode() if isinstance(attr, bytes) else str(attr)).split(",")


def test_trace_file(vibro, tmp):
    d = new_dir(tmp, "trace")
    ini = write(d, "conv.ini", SWEEP)
    rc, out, err = vibro("trace", ini, "--case", "1", "--periods", "6", "--samples-per-period", "50", "--csv", cwd=d)
    check(rc == 0, "vibro trace --case 1 --periods 6 --csv exits 0", show(rc, out, err))
    h5_path = os.path.join(d, "conv.trace1.h5")
    check(os.path.exists(h5_path), "the trace file is OUT.trace<I>.h5 beside output.file", str(os.listdir(d)))
    if not os.path.exists(h5_path):
        return
    with h5py.File(h5_path, "r") as f:
        check(f.attrs["format"] in (b"vibro-trace", "vibro-trace"), "format = vibro-trace")
        check(int(f.attrs["case"]) == 1, "the file names its case")
        check(abs(float(f["parameters/a_hat"][0]) - 60) < 1e-12, "case 1 is a_hat = 60 (the grid's second value)")
        check(f["parameters/a_hat"].attrs["unit"] in (b"m/s^2", "m/s^2"), "parameters carry their unit")
        comps = strings(f["trace"].attrs["components"])
        check(comps == ["h", "u", "vT", "x"], "the conveyor's components are h, u, vT, x", str(comps))
        for c, unit in zip(comps, ["m", "m/s", "m/s", "m"]):
            got = f["trace"][c].attrs["unit"]
            check((got.decode() if isinstance(got, bytes) else got) == unit, f"/trace/{c} has unit {unit}", str(got))
        t = f["trace/time"][...]
        T = float(f.attrs["period"])
        check(abs(T - 0.02) < 1e-15, "period = 1 / f", str(T))
        check(len(t) == 6 * 50 + 1 and abs(t[-1] - 6 * T) < 1e-15, "301 grid times from 0 to 6 T", str(len(t)))
        states = np.column_stack([f["trace"][c][...] for c in comps])
        strobe_t, strobe = f["strobe/time"][...], f["strobe/state"][...]
        check(len(strobe_t) == 6, "6 stroboscopic samples", str(len(strobe_t)))
        for k, ts in enumerate(strobe_t):
            row = int(np.searchsorted(t, ts))
            same = row < len(t) and t[row] == ts and np.allclose(states[row, :3], strobe[k], rtol=0, atol=1e-12)
            check(same, f"the trace at t = {k + 1} T is the sample", f"{states[row, :3] if row < len(t) else None} vs {strobe[k]}")
            check(abs(states[row, 3] - f["strobe/drift_position"][k]) < 1e-12, f"x at t = {k + 1} T is the drift position")
        kinds = [k.decode() if isinstance(k, bytes) else str(k) for k in f["events/kind"][...]]
        before, after = f["events/before"][...], f["events/after"][...]
        impacts = [i for i, k in enumerate(kinds) if k == "impact"]
        check(len(impacts) >= 3, "a hopping conveyor has impacts in 6 periods", str(kinds))
        for i in impacts:
            check(abs(after[i, 1] + C_R * before[i, 1]) < 1e-12, f"impact {i}: u_after = -c_r u_before",
                  f"{before[i, 1]} -> {after[i, 1]}")
            check(before[i, 0] == 0 and after[i, 0] == 0, f"impact {i} happens at h = 0")
        check(strings(f["events/before"].attrs["units"]) == ["m", "m/s", "m/s", "m"], "event states carry units")
        check(bool(np.all(states[:, 0] > -1e-12)), "the gap never goes negative")
    csv_path = os.path.join(d, "conv.trace1.csv")
    events_path = os.path.join(d, "conv.trace1_events.csv")
    check(os.path.exists(csv_path) and os.path.exists(events_path), "--csv writes FILE.csv and FILE_events.csv",
          str(os.listdir(d)))
    if os.path.exists(csv_path):
        with open(csv_path) as fh:
            rows = list(csv.reader(fh))
        check(rows[0] == ["time [s]", "mode", "h [m]", "u [m/s]", "vT [m/s]", "x [m]"], "the CSV header has units", str(rows[0]))
        check(len(rows) == 1 + 301, "the CSV has one row per grid time", str(len(rows)))
    if os.path.exists(events_path):
        with open(events_path) as fh:
            rows = list(csv.reader(fh))
        check(rows[0][:3] == ["time [s]", "kind", "h_before [m]"], "the events CSV header", str(rows[0]))
        check(len(rows) - 1 == len(kinds), "the events CSV has every event", f"{len(rows) - 1} vs {len(kinds)}")

    png = os.path.join(d, "trace.png")
    rc, out, err = vibro("plot", h5_path, "--kind", "trace", "--out", png, cwd=d)
    with open(png, "rb") if os.path.exists(png) else open(os.devnull, "rb") as fh:
        check(rc == 0 and fh.read(8) == b"\x89PNG\r\n\x1a\n", "vibro plot --kind trace draws a PNG", show(rc, out, err))
    rc, out, err = vibro("plot", h5_path, "--out", os.path.join(d, "default.png"), cwd=d)
    check(rc == 0 and os.path.exists(os.path.join(d, "default.png")), "a trace file's default plot kind is trace",
          show(rc, out, err))

    # Again into the same file: refused unless output.overwrite.
    rc, out, err = vibro("trace", ini, "--case", "1", "--periods", "6", cwd=d)
    check(rc == 2 and "exists" in err, "an existing trace file is not overwritten", show(rc, out, err))
    rc, out, err = vibro("trace", ini, "--case", "1", "--periods", "2", "--output.overwrite=true", cwd=d)
    check(rc == 0, "--output.overwrite=true replaces it", show(rc, out, err))


def test_trace_errors(vibro, tmp):
    d = new_dir(tmp, "trace_errors")
    ini = write(d, "conv.ini", SWEEP)
    for args, what, text in [
        (["--case", "2"], "--case past the grid", "--case"),
        (["--case", "-1"], "a negative --case", "--case"),
        (["--case", "one"], "a non-numeric --case", "--case"),
        (["--periods", "0"], "--periods 0", "--periods"),
        (["--samples-per-period", "0"], "--samples-per-period 0", "--samples-per-period"),
        (["--bogus"], "an unknown option", "--bogus"),
    ]:
        rc, out, err = vibro("trace", ini, *args, cwd=d)
        check(rc == 2 and text in err, f"vibro trace refuses {what} (exit 2, names {text})", show(rc, out, err))
    rc, out, err = vibro("trace", cwd=d)
    check(rc == 2 and "sweep file" in err, "vibro trace without a file says what it needs", show(rc, out, err))
    check(sorted(os.listdir(d)) == ["conv.ini"], "no refused trace writes a file", str(os.listdir(d)))
    for args in (["trace", "--help"], ["help", "trace"]):
        rc, out, err = vibro(*args, cwd=d)
        check(rc == 0 and "--samples-per-period" in out and "--case" in out, f"vibro {' '.join(args)} prints the usage",
              show(rc, out, err))
    # A sweep file is not a trace file.
    rc, out, err = vibro("run", ini, cwd=d)
    check(rc == 0, "the sweep itself runs", show(rc, out, err))
    rc, out, err = vibro("plot", os.path.join(d, "conv.h5"), "--kind", "trace", cwd=d)
    check(rc == 2 and "trace file" in err, "plot --kind trace refuses a sweep file", show(rc, out, err))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    return run_all(Vibro(args[0]), [test_trace_file, test_trace_errors])


if __name__ == "__main__":
    sys.exit(main())
