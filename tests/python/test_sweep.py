"""vibro.sweep runs `vibro run`'s sweep in the process: the Fig. 6 study gives the arrays of the
command's file bit for bit, and vibro.open of that file gives the same Dataset."""
import os
import signal
import subprocess
import sys
import textwrap

import h5py
import numpy as np
import pytest
import xarray as xr

import vibro

# Per-case and per-run wall times and the run's dates and settings differ between any two runs.
RUN_DEPENDENT_VARIABLES = ["wall_seconds"]
RUN_DEPENDENT_ATTRS = ["started_utc", "finished_utc", "wall_seconds", "threads", "sweep_file", "sweep_text"]


@pytest.fixture(scope="module")
def fig6(cli, tmp_path_factory):
    """The Fig. 6 study run by `vibro run` and by vibro.sweep (2 threads each), both files kept."""
    folder = tmp_path_factory.mktemp("fig6")
    by_cli, by_python = str(folder / "cli.h5"), str(folder / "python.h5")
    code, _, err = cli("run", "--example", "conveyor_fig6", "--output.file=" + by_cli, "--run.threads=2", cwd=folder)
    assert code == 0, err
    dataset = vibro.sweep(example="conveyor_fig6", threads=2, output=by_python)
    return by_cli, by_python, dataset


def same_bits(a, b):
    """Equal to the bit (NaN payloads included); strings by value."""
    if a.dtype.kind == "O":
        return a.shape == b.shape and a.tolist() == b.tolist()
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def datasets(path):
    """Every dataset of an HDF5 file: name -> numpy array."""
    found = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, item: found.__setitem__(name, item[()]) if isinstance(item, h5py.Dataset) else None)
    return found


def test_fig6_arrays_bit_for_bit(fig6):
    by_cli, by_python, _ = fig6
    cli_data, python_data = datasets(by_cli), datasets(by_python)
    assert sorted(cli_data) == sorted(python_data)
    assert len(cli_data) > 20
    for name, values in cli_data.items():
        if name in ("cases/wall_seconds", "wall_seconds"):  # the column and its grid view
            continue
        other = python_data[name]
        assert values.dtype == other.dtype and values.shape == other.shape, name
        assert values.tobytes() == other.tobytes(), name  # bit for bit, NaN payloads included


def test_fig6_dataset_same_as_opened_file(fig6):
    by_cli, _, dataset = fig6
    opened = vibro.open(by_cli)
    assert dict(opened.sizes) == dict(dataset.sizes) == {"a_hat": 51, "z0": 21, "strobe_row": opened.sizes["strobe_row"],
                                                         "component": 3,  # z0 is an initial condition: /basins
                                                         "attractor_label": opened.sizes["attractor_label"]}
    drop = RUN_DEPENDENT_VARIABLES
    xr.testing.assert_identical(opened.drop_vars(drop).assign_attrs({k: None for k in RUN_DEPENDENT_ATTRS}),
                                dataset.drop_vars(drop).assign_attrs({k: None for k in RUN_DEPENDENT_ATTRS}))
    for name in dataset.data_vars:  # bitwise, beyond assert_identical's NaN == NaN
        if name not in drop:
            assert same_bits(dataset[name].values, opened[name].values), name


def test_fig6_dataset_contents(fig6):
    _, _, ds = fig6
    assert list(ds.mean_velocity.dims) == ["a_hat", "z0"]
    assert ds.mean_velocity.attrs["units"] == "m/s" and ds.mean_velocity.attrs["long_name"]
    assert ds.a_hat.attrs["units"] == "m/s^2" and ds.z0.attrs["units"] == "m"
    assert float(ds.c_r) == 0.6 and ds.c_r.attrs["units"] == "-"  # an unswept parameter, with its unit
    assert ds.attrs["model"] == "conveyor" and ds.attrs["format"] == "vibro-sweep"
    assert ds.status.attrs["flag_meanings"].split()[0] == "ok"
    assert list(ds.component.values) == ["h", "u", "vT"]
    # The n = 1 hopping state at a_hat = 50 (README): class H1 at its Eq. 28 velocity 0.11538105 m/s.
    hopping = ds.mean_velocity.sel(a_hat=50).where(ds["class"].sel(a_hat=50) == "H1", drop=True)
    assert hopping.size > 0 and np.allclose(hopping, 0.1153810534, atol=1e-7)
    case = vibro.case_strobe(ds, a_hat=50, z0=float(hopping.z0[0]))
    assert case.sizes["strobe_row"] == int(ds.window_periods.sel(a_hat=50, z0=float(hopping.z0[0]))) + 1


def test_one_orbit_of_strobe_points():
    """output.strobe_points = orbit: a case with a period k keeps its window's last k samples."""
    spec = {"model": "conveyor", "parameters": {"c_r": 0.6, "mu": 0.15}, "axes": {"a_hat": [40.0, 50.0, 79.0]},
            "run": {"max_periods": 60, "window_periods": 20, "steady_state": "fixed"}}
    window = vibro.sweep(spec, threads=1)
    orbit = vibro.sweep(dict(spec, output={"strobe_points": "orbit"}), threads=1)
    assert window.strobe_count.attrs["points"] == "window" and orbit.strobe_count.attrs["points"] == "orbit"
    periodic = (orbit.periodicity.values <= 1) & (orbit.period.values > 0)
    assert periodic.any()
    expected = np.where(periodic, orbit.period.values, window.strobe_count.values)
    assert list(orbit.strobe_count.values) == list(expected)
    for a_hat in spec["axes"]["a_hat"]:
        last = vibro.case_strobe(window, a_hat=a_hat).strobe_values.values[-int(orbit.strobe_count.sel(a_hat=a_hat)):]
        assert same_bits(vibro.case_strobe(orbit, a_hat=a_hat).strobe_values.values, last)


def test_sweep_from_dict_equals_sweep_from_text():
    spec = {"model": "conveyor", "parameters": {"c_r": 0.6, "mu": 0.15}, "axes": {"a_hat": [40.0, 50.0]},
            "run": {"max_periods": 60, "window_periods": 20}}
    from_dict = vibro.sweep(spec, threads=1)
    from_text = vibro.sweep(vibro.sweep_text(spec), threads=1)
    assert list(from_dict.a_hat.values) == [40.0, 50.0]
    for name in from_dict.data_vars:
        if name != "wall_seconds":
            assert same_bits(from_dict[name].values, from_text[name].values), name


def test_failed_cases_are_recorded_with_their_reason():
    """A runaway case (Model A with m1 = 1: an event cap) is a failed entry of the Dataset, not an abort."""
    ds = vibro.sweep("model = gap_oscillator\n[parameters]\nlaw = restitution\n[axes]\nm1 = 1, 1000\n"
                     "[run]\nmax_periods = 4\nwindow_periods = 2\n", threads=1)
    assert list(ds.status.values) == [2, 0]
    assert "run.max_events_per_period" in ds.reason.sel(m1=1).item()
    assert ds.reason.sel(m1=1000).item() == "" and np.isnan(ds.mean_velocity.sel(m1=1).item() if "mean_velocity" in ds
                                                            else np.nan)


def test_ctrl_c_stops_the_sweep_cleanly(root):
    """SIGINT while the sweep runs: KeyboardInterrupt once the cases in progress are done, saying that
    without output= the cases done are lost, and the interpreter goes on (the next sweep runs whole)."""
    script = textwrap.dedent("""
        import sys, vibro
        try:
            vibro.sweep(example="conveyor_fig6", threads=1, run__steady_state="fixed", run__max_periods=2000,
                        run__progress="always", run__progress_seconds=0.2)
            print("finished")
        except KeyboardInterrupt as stop:
            print("interrupted")
            print("message:", stop, file=sys.stderr)
        ds = vibro.sweep({"model": "conveyor", "axes": {"a_hat": [50.0]}}, threads=1)
        print("after", int(ds.status.values[0]))
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ))
    seen = ""
    # The progress line: the sweep is under way. Off a terminal the first comes after
    # run.progress_seconds (30 by default: after this sweep's end, when the signal would find the file
    # being written).
    while "cases" not in seen:
        char = child.stderr.read(1)
        assert char, "the sweep ended before showing progress"
        seen += char
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.split() == ["interrupted", "after", "0"], out + err
    # Without output= the checkpoints lay in a temporary folder, deleted by now: no "rerun to resume".
    assert "the cases done so far are lost" in err and "output=PATH" in err and "resume from" not in err, err


def test_open_branch_file(cli, tmp_path):
    """A branch of `vibro continue --method arclength` (Model A's (1,1) orbit round its fold to the grazing,
    where it turns back onto the impact-free orbits) opens along `point`, its events along `event` with
    the orbit there."""
    ini = tmp_path / "a.ini"
    ini.write_text("model = gap_oscillator\n[parameters]\nlaw = restitution\nlambda = 1\n[run]\nmax_periods = 300\n")
    code, _, err = cli("continue", str(ini), "--parameter", "lambda", "--to", "0.55", "--method", "arclength",
                       cwd=tmp_path)
    assert code == 0, err
    branch = vibro.open(str(tmp_path / "a.branch.h5"))
    assert branch.attrs["format"] == "vibro-branch" and branch.attrs["parameter"] == "lambda"
    assert branch["lambda"].dims == ("point",) and branch["lambda"].values[0] == 1.0 and branch["lambda"].values[-1] == 0.55
    assert list(branch.component.values) == ["x1", "v1", "u2", "v2"]
    assert branch.multipliers.dtype.kind == "c" and branch.multipliers.dims == ("point", "multiplier")
    assert list(branch.event_kind.values) == ["neimark_sacker", "fold", "grazing"]
    assert abs(float(branch.event_parameter[2]) - 0.5670028) < 1e-6
    assert branch.event_state.dims == ("event", "component")
    assert branch.event_multipliers.dims == ("event", "multiplier")
    assert abs(abs(complex(branch.event_multiplier[0])) - 1) < 1e-6  # the Neimark-Sacker pair on the unit circle
    assert list(branch.impacts.values[[0, -1]]) == [1, 0]
