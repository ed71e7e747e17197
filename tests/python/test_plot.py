"""vibro.plot draws what the Dataset holds: one dot per ok case, every strobe point, one cell per case."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import vibro  # noqa: E402
import vibro.plot  # noqa: E402


@pytest.fixture(scope="module")
def small():
    """A 6 x 3 conveyor grid over a_hat and the drop height (S, M1 and H1 cases)."""
    return vibro.sweep({"model": "conveyor", "axes": {"a_hat": np.linspace(35, 60, 6), "z0": [0.0, 0.001, 0.002]},
                        "run": {"max_periods": 60, "window_periods": 10}}, threads=1)


def offsets_of(collection):
    return collection.get_offsets()


def test_classes_one_dot_per_ok_case(small):
    ax = vibro.plot.classes(small, "a_hat", "mean_velocity", ax=plt.figure().gca())
    dots = np.concatenate([offsets_of(c) for c in ax.collections])
    ok = small.status.values == 0
    assert len(dots) == ok.sum() > 0
    assert sorted(dots[:, 1]) == sorted(small.mean_velocity.values[ok])
    assert ax.get_xlabel() == "a_hat [m/s^2]" and ax.get_ylabel() == "mean_velocity [m/s]"  # vibro.style


def test_bifurcation_every_strobe_point(small):
    ax = vibro.plot.bifurcation(small, "a_hat", "vT", ax=plt.figure().gca())
    dots = np.concatenate([offsets_of(c) for c in ax.collections])
    ok = small.status.values == 0
    assert len(dots) == small.strobe_count.values[ok].sum()
    assert sorted(dots[:, 1]) == sorted(small.strobe_values.sel(component="vT").values)


def test_basin_and_drift_map_cells(small):
    ax = vibro.plot.basin(small, "a_hat", "z0", variable="class", ax=plt.figure().gca())
    assert ax.collections[0].get_array().size == small.sizes["a_hat"] * small.sizes["z0"]
    ax = vibro.plot.drift_map(small, "a_hat", "z0", ax=plt.figure().gca())
    cells = np.asarray(ax.collections[0].get_array()).reshape(small.sizes["z0"], small.sizes["a_hat"])
    assert np.allclose(cells, small.mean_velocity.where(small.status == 0).transpose("z0", "a_hat").values, equal_nan=True)


def write_curve(path, kind, names, first, second):
    """A curve file of the layout `vibro continue --curve` writes (docs/hdf5_schema.md), with the given
    two parameters' values; the orbit columns are placeholders (the plot does not draw them)."""
    import h5py

    n = len(first)
    with h5py.File(path, "w") as h5:
        h5.attrs.update({"format": "vibro-curve", "schema_version": 1, "model": "conveyor", "kind": kind,
                         "parameters": ",".join(names), "end": "reached the end of the range", "periods": 1})
        parameters = h5.create_group("parameters")
        for name, value in zip(names, (first[0], second[0])):
            parameters.create_dataset(name, data=value).attrs.update({"unit": "-", "description": name})
        curve = h5.create_group("curve")
        for key, name, values in (("parameter_1", names[0], first), ("parameter_2", names[1], second)):
            curve.create_dataset(key, data=np.asarray(values, dtype=float)).attrs.update({"name": name, "unit": "-"})
        curve.create_dataset("state", data=np.zeros((n, 3))).attrs["columns"] = "h,u,vT"
        curve.create_dataset("multipliers_real", data=np.zeros((n, 3)))
        curve.create_dataset("multipliers_imag", data=np.zeros((n, 3)))
        curve.create_dataset("impacts", data=np.ones(n, dtype=np.int64))
    return path


def test_regime_map_cells_and_overlaid_curves(small, tmp_path):
    codes = small["class"].where(small.status == 0, "").transpose("z0", "a_hat").values
    ax = vibro.plot.regime_map(small, "a_hat", "z0", ax=plt.figure().gca())
    found = sorted(set(str(c).rstrip("~") for c in codes.reshape(-1) if c))
    index = np.asarray(ax.collections[0].get_array()).reshape(codes.shape)
    for j, i in np.ndindex(codes.shape):  # one case per cell: its own class (a '~' as its base class)
        assert found[int(index[j, i])] == str(codes[j, i]).rstrip("~")
    ax = vibro.plot.regime_map(small, "a_hat", "z0", ax=plt.figure().gca(), present="H1")
    index = np.asarray(ax.collections[0].get_array()).reshape(codes.shape)
    assert (index == 1).sum() == sum(str(c).rstrip("~") == "H1" for c in codes.reshape(-1)) > 0
    curve = vibro.open(write_curve(tmp_path / "fold.curve.h5", "fold", ("a_hat", "z0"), [40, 45, 50], [0, 0.001, 0.002]))
    assert curve.attrs["kind"] == "fold" and list(curve["a_hat"].values) == [40, 45, 50]
    ax = vibro.plot.regime_map(small, "a_hat", "z0", ax=plt.figure().gca(), overlay=[curve])
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [40, 45, 50] and list(line.get_ydata()) == [0, 0.001, 0.002]
    assert "fold" in [t.get_text() for t in ax.get_legend().get_texts()]
    other = vibro.open(write_curve(tmp_path / "pd.curve.h5", "period_doubling", ("a_hat", "c_r"), [40, 50], [0.5, 0.6]))
    with pytest.raises(ValueError, match="curve of a_hat and c_r cannot be drawn over a_hat and z0"):
        vibro.plot.curves([other], "a_hat", "z0", ax=plt.figure().gca())
