"""/basins in the Dataset: a small global continuation of the conveyor (6 amplitudes x 2 restitution
coefficients x 5 x 5 initial conditions, well under a second) read by vibro.open holds, per parameter
point and global id, exactly the file's rows (read here with h5py), the events with the value of every
parameter axis at their point, and vibro.sweep of the same sweep gives the same variables."""
import os

import h5py
import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import vibro  # noqa: E402
import vibro.plot  # noqa: E402

# The births of H1 near 37 and of the microthrow state near 47, the loss of H1 near 62: on two lines.
OVERRIDES = {"axes__a_hat": "36, 38, 46, 48, 61, 63", "axes__c_r": "0.6, 0.7", "axes__z0": "linspace(0, 0.005, 5)",
             "axes__v0": "linspace(-0.3, 0.3, 5)"}
POINT_COLUMNS = {"cases_run": "basin_cases_run", "cases_settled": "basin_cases_settled",
                 "attractor_count": "attractor_count", "basin_entropy": "basin_entropy",
                 "boundary_basin_entropy": "boundary_basin_entropy", "entropy_boxes": "basin_entropy_boxes",
                 "boundary_boxes": "basin_boundary_boxes"}
ROW_COLUMNS = {"fraction": "basin_fraction", "fraction_error": "basin_fraction_error",
               "basin_stability": "basin_stability", "cases": "basin_cases", "class": "attractor_class",
               "period": "attractor_period", "label": "attractor_label"}
EVENT_COLUMNS = ["kind", "global_id", "partner", "parameter_from", "parameter_to", "point"]


def text(values):
    return [v.decode() if isinstance(v, bytes) else v for v in np.asarray(values).tolist()]


@pytest.fixture(scope="module")
def continuation(cli, root, tmp_path_factory):
    """The sweep run by `vibro run` (its file and vibro.open of it) and by vibro.sweep."""
    folder = tmp_path_factory.mktemp("basins")
    ini = os.path.join(root, "examples", "conveyor_global_continuation.ini")
    path = str(folder / "cli.h5")
    overrides = ["--%s=%s" % (key.replace("__", "."), value) for key, value in OVERRIDES.items()]
    code, _, err = cli("run", ini, "--output.file=" + path, "--run.threads=2", *overrides, cwd=folder)
    assert code == 0, err
    return path, vibro.open(path), vibro.sweep(ini, threads=2, **OVERRIDES)


def test_point_columns_are_the_files(continuation):
    path, ds, _ = continuation
    with h5py.File(path, "r") as h5:
        basins = h5["basins"]
        axes = basins.attrs["parameter_axes"].decode().split(",")
        assert axes == ["a_hat", "c_r"]
        shape = tuple(ds.sizes[a] for a in axes)
        for key, name in POINT_COLUMNS.items():
            assert ds[name].dims == tuple(axes), name
            np.testing.assert_array_equal(ds[name].values, basins[key][()].reshape(shape), err_msg=name)
            assert ds[name].attrs["description"] == basins[key].attrs["meaning"].decode()
        for key, value in basins.attrs.items():
            assert ds.attrs["basins_" + key] == (value.decode() if isinstance(value, bytes) else value)
    assert ds.basin_entropy.attrs["units"] == "nat" and ds.basin_fraction.attrs["units"] == "1"


def test_every_row_at_its_point_and_id(continuation):
    """Each row of /basins/attractors lands at (its point, its global id); every other cell holds the
    documented absent value; the fractions and the share without a steady state sum to 1."""
    path, ds, _ = continuation
    with h5py.File(path, "r") as h5:
        table = h5["basins/attractors"]
        offsets = table["offsets"][()]
        rows = {key: (text(table[key][()]) if key == "class" else table[key][()]) for key in ROW_COLUMNS}
        ids = table["global_id"][()]
        count = h5["basins"].attrs["global_ids"]
    shape = (ds.sizes["a_hat"], ds.sizes["c_r"])
    assert ds.basin_fraction.dims == ("a_hat", "c_r", "attractor_id")
    assert ds.attractor_id.values.tolist() == list(range(count))
    seen = np.zeros(shape + (count,), dtype=bool)
    for p in range(len(offsets) - 1):
        i, j = np.unravel_index(p, shape)
        for r in range(offsets[p], offsets[p + 1]):
            seen[i, j, ids[r]] = True
            for key, name in ROW_COLUMNS.items():
                assert ds[name].values[i, j, ids[r]] == rows[key][r], (name, p, r)
    assert seen.sum() == len(ids) > 10
    for name in ROW_COLUMNS.values():
        assert (ds[name].values[~seen] == ds[name].attrs["absent"]).all(), name
    assert (ds.attractor_count.values == seen.sum(axis=-1)).all()
    no_steady_state = 1 - ds.basin_cases_settled / ds.basin_cases_run
    np.testing.assert_allclose((ds.basin_fraction.sum("attractor_id") + no_steady_state).values, 1.0, rtol=1e-12)
    # The labels are those of /cases/attractor: the cases of each (point, id) are counted there too.
    for i, j, gid in zip(*np.nonzero(seen)):
        label = ds.attractor_label.values[i, j, gid]
        cases = ds.attractor.isel(a_hat=i, c_r=j)
        assert int((cases == label).sum()) == ds.basin_cases.values[i, j, gid]


def test_events_are_the_files(continuation):
    path, ds, _ = continuation
    with h5py.File(path, "r") as h5:
        events = h5["basins/events"]
        raw = {key: (text(events[key][()]) if key == "kind" else events[key][()]) for key in EVENT_COLUMNS}
    assert ds.event_kind.dims == ("event",) and ds.sizes["event"] == len(raw["kind"]) > 0
    for key in EVENT_COLUMNS:
        assert ds["event_" + key].values.tolist() == list(raw[key]), key
    assert {"birth", "death"} <= set(raw["kind"])
    shape = (ds.sizes["a_hat"], ds.sizes["c_r"])
    i, j = np.unravel_index(raw["point"], shape)
    np.testing.assert_array_equal(ds.event_a_hat.values, ds.a_hat.values[i])
    np.testing.assert_array_equal(ds.event_c_r.values, ds.c_r.values[j])
    # The point where an event is first seen is the interval's upper end.
    np.testing.assert_array_equal(ds.event_parameter_to.values, ds.event_a_hat.values)
    assert ds.event_parameter_from.attrs["units"] == ds.a_hat.attrs["units"] == "m/s^2"
    # A birth's id is found at its point and not at the point before; a death's the other way round.
    for k, kind in enumerate(raw["kind"]):
        if kind in ("birth", "death"):
            gid, before = raw["global_id"][k], np.flatnonzero(ds.a_hat.values == raw["parameter_from"][k])[0]
            found = ds.basin_cases.isel(c_r=j[k], attractor_id=gid).values > 0
            assert (found[i[k]], found[before]) == ((True, False) if kind == "birth" else (False, True)), k


def test_sweep_equals_open(continuation):
    _, opened, swept = continuation
    names = [n for n in opened.variables if n.startswith(("basin", "attractor_", "event"))] + ["attractor_count"]
    assert len(names) > 20
    for name in names:
        assert opened[name].identical(swept[name]), name
    assert {k: v for k, v in opened.attrs.items() if k.startswith("basins_")} == \
        {k: v for k, v in swept.attrs.items() if k.startswith("basins_")}


def test_without_continuation_labels_per_point():
    """With initial-condition axes and no global continuation: per point and label, no events."""
    ds = vibro.sweep({"model": "conveyor", "axes": {"a_hat": [36.0, 46.0], "z0": np.linspace(0, 0.005, 5)},
                      "run": {"max_periods": 100, "window_periods": 50}}, threads=1)
    assert ds.attrs["basins_continuation_axis"] == "none" and "event" not in ds.dims
    assert ds.basin_fraction.dims == ("a_hat", "attractor_label")
    for i in range(ds.sizes["a_hat"]):
        labels = ds.attractor.isel(a_hat=i).values
        counts = [int((labels == k).sum()) for k in ds.attractor_label.values]
        assert counts == ds.basin_cases.isel(a_hat=i).values.tolist()
        assert sum(counts) == ds.basin_cases_settled.values[i]


def test_fractions_plot_one_band_per_id(continuation):
    """One band per id found on the line (by a seed too), the legend naming each id's class and the range
    where it is found (the longest-lived first), then the grey share, then the event kinds."""
    _, ds, _ = continuation
    ax = vibro.plot.fractions(ds, ax=plt.figure().gca(), c_r=0.7)
    line = ds.sel(c_r=0.7)
    absent = ds.attractor_label.attrs["absent"]
    where = {int(g): (line.attractor_label.sel(attractor_id=g) != absent).values for g in ds.attractor_id.values}
    found = sorted((g for g in where if where[g].any()), key=lambda g: (-int(where[g].sum()), g))
    a_hat = line.a_hat.values

    def named(g):
        code = [str(c) for c in line.attractor_class.sel(attractor_id=g).values[where[g]] if str(c)][0]
        return "%d %s, a_hat %g..%g m/s^2" % (g, code, a_hat[where[g]].min(), a_hat[where[g]].max())

    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    n = len(found)
    assert 0 < n <= 14 and labels[:n] == [named(g) for g in found]
    assert labels[n] == "no steady state" and len(ax.collections) == n + 1
    seeded = any((where[g] & (line.basin_fraction.sel(attractor_id=g).values == 0)).any() for g in found)
    rest = labels[n + 1 + int(seeded):]
    assert not seeded or labels[n + 1] == "found only by a seed"
    assert rest == sorted(set(str(k) for k in ds.event_kind.values[ds.event_c_r.values == 0.7]))  # event markers
    markers = [m for m in ax.lines if m.get_ydata()[0] > 1]
    assert len(markers) == int((ds.event_c_r == 0.7).sum()) > 0
    with pytest.raises(ValueError, match="c_r"):
        vibro.plot.fractions(ds, ax=plt.figure().gca())
