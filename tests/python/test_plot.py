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
