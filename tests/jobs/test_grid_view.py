#!/usr/bin/python3
"""A sweep file is a netCDF-4 grid that standard tools read (schema 6, the grid view at the root).

usage: test_grid_view.py VIBRO_BINARY

- the conveyor's Fig. 6 example on a 6 x 3 grid: `xr.open_dataset(FILE, engine="h5netcdf")` has the
  dimensions a_hat and z0 with their values and units, mean_velocity on (a_hat, z0) in m/s with the same
  bits as vibro.open's, status and periodicity with CF flags, class_index whose flag meanings name each
  case's class code; every view equals its /cases column reshaped to the grid;
- `ncdump -h FILE` lists the dimensions a_hat = 6 and z0 = 3 and mean_velocity(a_hat, z0);
- a sweep with an initial-condition axis (three axes) is a 3-D grid; a sweep without axes has no view
  and still opens;
- the same file stripped of the view and given schema_version 5 (the previous layout) reads through
  vibro.open as before.
Needs python3-h5netcdf and netcdf-bin (scripts/install_deps.sh --tests installs both); each check whose
tool is absent is reported as skipped. Exits 1 on any failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import vibro  # noqa: E402  (the pure-Python reader)

FAILURES = []


def check(condition, what, detail=""):
    print(("ok    " if condition else "FAIL  ") + what + ("" if condition else "\n      " + str(detail)[-800:]))
    if not condition:
        FAILURES.append(what)
    return condition


def run(binary, folder, name, *args):
    out = os.path.join(folder, name + ".h5")
    done = subprocess.run([binary, "run", *args, "--output.file=" + out, "--run.threads=2"], capture_output=True,
                          text=True, cwd=folder, timeout=300)
    check(done.returncode == 0, "%s: vibro run exits 0" % name, done.stderr)
    return out


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def views_equal_columns(path, shape):
    """Every root variable but the axes is /cases/<source> reshaped to the grid, bit for bit."""
    with h5py.File(path, "r") as h5:
        order = text(h5["axes"].attrs["order"]).split(",")
        views = [k for k, v in h5.items() if isinstance(v, h5py.Dataset) and k not in order]
        bad = []
        for name in views:
            view = h5[name]
            source = h5[view.virtual_sources()[0].dset_name]
            if view.shape != shape or view[()].tobytes() != source[()].reshape(shape).tobytes():
                bad.append(name)
        return views, bad


def test_fig6(binary, folder, xr):
    path = run(binary, folder, "fig6", "--example", "conveyor_fig6", "--axes.a_hat=linspace(30, 80, 6)",
               "--axes.z0=0, 0.002, 0.004")
    views, bad = views_equal_columns(path, (6, 3))
    check({"status", "class_index", "periodicity", "mean_velocity", "counters_impacts", "window_counters_impacts",
           "attractor"} <= set(views), "Fig. 6: the per-case columns have grid views", views)
    check(not bad, "Fig. 6: every view is its /cases column in the grid's shape", bad)
    if xr is None:
        print("skip  xarray's h5netcdf engine (python3-h5netcdf not installed)")
    else:
        grid = xr.open_dataset(path, engine="h5netcdf")
        opened = vibro.open(path)
        print(grid)
        check(dict(grid.sizes) == {"a_hat": 6, "z0": 3}, "xarray: dims a_hat = 6, z0 = 3", dict(grid.sizes))
        check(grid.a_hat.attrs.get("units") == "m/s^2" and grid.z0.attrs.get("units") == "m",
              "xarray: the axes carry their units", (grid.a_hat.attrs, grid.z0.attrs))
        check(list(grid.a_hat.values) == [30.0, 40.0, 50.0, 60.0, 70.0, 80.0], "xarray: a_hat's values", grid.a_hat.values)
        v = grid.mean_velocity
        check(v.dims == ("a_hat", "z0") and v.attrs.get("units") == "m/s" and v.attrs.get("long_name"),
              "xarray: mean_velocity on (a_hat, z0) in m/s with a long_name", (v.dims, v.attrs))
        check(v.values.tobytes() == opened.mean_velocity.values.tobytes(), "xarray: mean_velocity = vibro.open's, bit for bit")
        hopping = v.sel(a_hat=50.0, z0=0.002).item()
        check(abs(hopping - 0.1153810534) < 1e-7, "xarray: a_hat 50, z0 2 mm feeds at the Eq. 28 velocity", hopping)
        status = grid.status
        check(list(status.attrs.get("flag_values", [])) == [0, 1, 2, 3]
              and status.attrs.get("flag_meanings") == "ok infeasible failed not_run",
              "xarray: status carries CF flags", status.attrs)
        check(grid.periodicity.attrs.get("flag_meanings") == "periodic slowly_converging not_converged quasi-periodic",
              "xarray: periodicity carries CF flags", grid.periodicity.attrs)
        index = grid.class_index
        codes = index.attrs["codes"].split(",")
        check(list(index.attrs["flag_values"]) == list(range(len(codes))) and len(codes) >= 2,
              "xarray: class_index's flag_values number its codes", index.attrs)
        named = np.array([codes[k] if k >= 0 else "" for k in index.values.ravel()], dtype=object).reshape(6, 3)
        check(named.tolist() == opened["class"].values.tolist(), "xarray: class_index names each case's class",
              (named, opened["class"].values))
        grid.close()
    ncdump = shutil.which("ncdump")
    if ncdump is None:
        print("skip  ncdump -h (netcdf-bin not installed)")
    else:
        done = subprocess.run([ncdump, "-h", path], capture_output=True, text=True, timeout=60)
        header = done.stdout
        print("\n".join(header.splitlines()[:12]))
        check(done.returncode == 0, "ncdump -h exits 0", done.stderr)
        check("dimensions:\n\ta_hat = 6 ;\n\tz0 = 3 ;" in header, "ncdump -h: the dimensions a_hat = 6 and z0 = 3", header[:400])
        check("double mean_velocity(a_hat, z0) ;" in header and 'mean_velocity:units = "m/s" ;' in header,
              "ncdump -h: mean_velocity(a_hat, z0) with units m/s", header[:2000])
    return path


def test_initial_condition_axes(binary, folder, xr):
    path = run(binary, folder, "basins", "--example", "conveyor_global_continuation", "--axes.a_hat=36, 46",
               "--axes.z0=0, 0.002, 0.004", "--axes.v0=-0.2, 0.2")
    views, bad = views_equal_columns(path, (2, 3, 2))
    check("attractor" in views and not bad, "initial-condition axes: a 2 x 3 x 2 grid, attractor labels included", (views, bad))
    if xr is not None:
        grid = xr.open_dataset(path, engine="h5netcdf")
        check(grid.attractor.dims == ("a_hat", "z0", "v0"), "xarray: attractor on (a_hat, z0, v0)", grid.attractor.dims)
        grid.close()


def test_no_axes(binary, folder, xr):
    sweep = os.path.join(folder, "one.ini")
    with open(sweep, "w") as out:
        out.write("model = conveyor\n[run]\nmax_periods = 30\nwindow_periods = 10\n")
    path = run(binary, folder, "one", sweep)
    with h5py.File(path, "r") as h5:
        check(not [k for k, v in h5.items() if isinstance(v, h5py.Dataset)], "no axes: no grid view")
    if xr is not None:
        grid = xr.open_dataset(path, engine="h5netcdf")
        check(len(grid.data_vars) == 0, "no axes: xarray opens the file (no variables)", grid)
        grid.close()


def test_schema_5_still_reads(path, folder):
    """The view and class_index are all that schema 6 adds: without them, as schema 5, vibro.open reads
    the same variables."""
    old = os.path.join(folder, "schema5.h5")
    shutil.copyfile(path, old)
    with h5py.File(old, "r+") as h5:
        for name in [k for k, v in h5.items() if isinstance(v, h5py.Dataset)] + ["cases/class_index"]:
            del h5[name]
        h5.attrs.modify("schema_version", 5)
        del h5.attrs["Conventions"]
    new, before = vibro.open(path), vibro.open(old)
    check(before.attrs["schema_version"] == 5 and set(new.data_vars) - set(before.data_vars) == {"class_index"},
          "schema 5: vibro.open reads the previous layout", set(new.data_vars) ^ set(before.data_vars))
    check(all(new[k].values.tobytes() == before[k].values.tobytes() for k in before.data_vars
              if new[k].dtype.kind != "O" and k != "wall_seconds"),
          "schema 5: the same values")


def main():
    binary = sys.argv[1]
    try:
        import xarray as xr
        import h5netcdf  # noqa: F401
    except ImportError:
        xr = None
    with tempfile.TemporaryDirectory(prefix="vibro-grid-") as folder:
        path = test_fig6(binary, folder, xr)
        test_initial_condition_axes(binary, folder, xr)
        test_no_axes(binary, folder, xr)
        test_schema_5_still_reads(path, folder)
    print("%d failure(s)" % len(FAILURES))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
