#!/usr/bin/python3
"""output.strobe_points = orbit, through the vibro binary.

usage: test_strobe_orbit.py VIBRO_BINARY REPO_ROOT

The same sweeps run with output.strobe_points = window (the default) and = orbit:
- the Fig. 6 study of the conveyor on a 21 x 11 grid, adaptive on the cpu back end and fixed on the
  batched one, and the conveyor basin example on 21 x 21 initial conditions;
- every dataset outside /cases/strobe (wall times aside) is the same in both files, attractor labels and
  /basins included, but /basins/attractors/multiplier_estimate, which needs the windows (NaN in the
  orbit file);
- /cases/strobe of the orbit file holds, for each ok case with a period k, the window file's last k
  points of that case (values, drift position, mode: the same bits); the whole window for the other
  ok cases; nothing for the rest; its `points` attribute says `orbit`. The sweeps have cases of both kinds.
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

FAILURES = []
PERIODIC, SLOWLY_CONVERGING = 0, 1


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))


def datasets(path):
    found = {}
    with h5py.File(path, "r") as h5:
        h5.visititems(lambda name, obj: found.__setitem__(name, obj[()]) if isinstance(obj, h5py.Dataset) else None)
        found["points attribute"] = h5["cases/strobe"].attrs.get("points", b"(none)")
    return found


def same(a, b):
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def compare(name, window_file, orbit_file):
    w, o = datasets(window_file), datasets(orbit_file)
    check(w["points attribute"] in ("window", b"window"), name + ": the window file says points = window",
          str(w["points attribute"]))
    check(o["points attribute"] in ("orbit", b"orbit"), name + ": the orbit file says points = orbit",
          str(o["points attribute"]))
    # The multiplier estimate reads the transient in a window; one orbit shows none: NaN in the orbit file.
    estimate = "basins/attractors/multiplier_estimate"
    if estimate in o:
        check(np.isnan(o[estimate]).all(), name + ": no multiplier estimate from single orbits", str(o[estimate]))
    others = [k for k in set(w) | set(o) if not k.startswith("cases/strobe/") and "wall_seconds" not in k
              and k not in ("points attribute", estimate)]
    differ = sorted(k for k in others if k not in w or k not in o or not same(w[k], o[k]))
    check(not differ, name + ": every dataset outside /cases/strobe is the same", str(differ))
    wo, oo = w["cases/strobe/offsets"], o["cases/strobe/offsets"]
    status, periodicity, period = w["cases/status"], w["cases/periodicity"], w["cases/period"]
    wrong, one_orbit = [], 0
    for i in range(len(status)):
        window = int(wo[i + 1] - wo[i])
        periodic = status[i] == 0 and periodicity[i] in (PERIODIC, SLOWLY_CONVERGING) and 0 < period[i] <= window
        kept = int(period[i]) if periodic else window
        one_orbit += periodic
        rows_w, rows_o = slice(int(wo[i + 1]) - kept, int(wo[i + 1])), slice(int(oo[i]), int(oo[i + 1]))
        if int(oo[i + 1] - oo[i]) != kept or not all(
                same(w["cases/strobe/" + d][rows_w], o["cases/strobe/" + d][rows_o])
                for d in ("values", "drift_position", "mode")):
            wrong.append(i)
    check(not wrong, name + ": each case stores its last orbit (a period found) or its whole window",
          "cases %s" % wrong[:10])
    print("%s: %d cases, %d with a period; points stored %d (window) -> %d (orbit)"
          % (name, len(status), one_orbit, wo[-1], oo[-1]))
    return one_orbit, len(status) - one_orbit


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    fig6 = os.path.join(root, "examples", "conveyor_fig6.ini")
    basin = os.path.join(root, "examples", "conveyor_basin_a50.ini")
    small_fig6 = ["--axes.a_hat=linspace(30, 80, 21)", "--axes.z0=linspace(0, 0.005, 11)"]
    sweeps = {
        "Fig. 6, adaptive, cpu": (fig6, small_fig6),
        "Fig. 6, fixed, batched": (fig6, small_fig6 + ["--run.steady_state=fixed", "--run.backend=batched"]),
        "basin example": (basin, ["--axes.z0=linspace(0, 0.005, 21)", "--axes.v0=linspace(-0.3, 0.3, 21)"]),
    }
    kinds = np.zeros(2, dtype=int)  # cases with a period, cases without, over all sweeps
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, (ini, extra)) in enumerate(sweeps.items()):
            files = {}
            for points in ("window", "orbit"):
                out = os.path.join(tmp, "%d_%s.h5" % (k, points))
                done = subprocess.run([vibro, "run", ini, "--output.file=" + out, "--run.progress=never",
                                       "--output.strobe_points=" + points, *extra],
                                      capture_output=True, text=True, timeout=600)
                check(done.returncode == 0, "%s with strobe_points = %s runs" % (name, points), done.stderr[-400:])
                files[points] = out
            if not FAILURES:
                kinds += compare(name, files["window"], files["orbit"])
    check(kinds.min() > 0, "the sweeps have cases with and without a period", str(kinds))
    print("ok" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
