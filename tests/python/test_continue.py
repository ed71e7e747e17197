"""vibro.continue_ follows an orbit as `vibro continue` does: the same branch file's contents, bit for
bit, from a sweep file's path or a dict; bad input raises InputError naming the option."""
import os

import numpy as np
import pytest

import vibro

EXAMPLE = "examples/impact_oscillator_continuation.ini"
# Shaw and Holmes' impact oscillator (zeta 0.05, sigma 0.25, r 0.8): closed forms of the (1,1) orbit's
# period doubling and grazing in omega.
PERIOD_DOUBLING, GRAZING = 2.169495463, 2.234670654


def test_continue_is_the_commands_branch(cli, root, tmp_path):
    out = str(tmp_path / "orbit.h5")
    code, _, err = cli("continue", os.path.join(root, EXAMPLE), "--parameter", "omega", "--to", "2.3",
                       "--output.file=" + out)
    assert code == 0, err
    by_command = vibro.open(str(tmp_path / "orbit.branch.h5"))
    branch = vibro.continue_(os.path.join(root, EXAMPLE), "omega", 2.3)
    assert set(branch.data_vars) == set(by_command.data_vars)
    for name in branch.data_vars:
        ours, theirs = branch[name].values, by_command[name].values
        assert np.array_equal(ours, theirs, equal_nan=ours.dtype.kind in "fc"), name
    kinds = [str(k) for k in branch.event_kind.values]
    assert "period_doubling" in kinds and "grazing" in kinds
    located = dict(zip(kinds, branch.event_parameter.values))
    assert abs(located["period_doubling"] - PERIOD_DOUBLING) < 1e-8
    assert abs(located["grazing"] - GRAZING) < 1e-8


def test_continue_from_a_dict_and_bad_input():
    spec = {"model": "impact_oscillator",
            "parameters": {"zeta": 0.05, "omega": 1.6, "sigma": 0.25, "r": 0.8},
            "run": {"max_periods": 600, "window_periods": 32}}
    branch = vibro.continue_(spec, "omega", 1.7, method="arclength")
    assert branch.sizes[branch.omega.dims[0]] > 1 if "omega" in branch else max(branch.sizes.values()) > 1
    with pytest.raises(vibro.InputError, match="--method"):
        vibro.continue_(spec, "omega", 1.7, method="secant")
    with pytest.raises(vibro.InputError, match="omgea"):
        vibro.continue_(spec, "omgea", 1.7)


def test_continue_with_a_curve(cli, root, tmp_path):
    """curve='grazing': the command's curve file as a Dataset along `point`, on the closed form
    sigma = 1 / sqrt((1 - omega^2)^2 + (2 zeta omega)^2); bad curve options raise InputError."""
    out = str(tmp_path / "orbit.h5")
    code, _, err = cli("continue", os.path.join(root, EXAMPLE), "--parameter", "omega", "--to", "2.3", "--curve",
                       "grazing", "--parameters", "omega,sigma", "--curve-to", "0.3", "--output.file=" + out)
    assert code == 0, err
    by_command = vibro.open(str(tmp_path / "orbit.grazing1.curve.h5"))
    branch, curve = vibro.continue_(os.path.join(root, EXAMPLE), "omega", 2.3, curve="grazing",
                                    parameters=("omega", "sigma"), curve_to=0.3)
    assert "event_kind" in branch
    assert curve.attrs["kind"] == "grazing" and curve.attrs["format"] == "vibro-curve"
    assert curve.omega.dims == ("point",) and curve.sigma.dims == ("point",)
    for name in list(curve.data_vars) + ["omega", "sigma"]:
        assert np.array_equal(curve[name].values, by_command[name].values), name
    omega, sigma = curve.omega.values, curve.sigma.values
    assert sigma[0] == 0.25 and abs(sigma[-1] - 0.3) < 1e-12 and len(sigma) >= 5
    assert np.max(np.abs(1 / np.sqrt((1 - omega ** 2) ** 2 + (2 * 0.05 * omega) ** 2) - sigma)) < 1e-8
    assert np.all(curve.impacts.values == 0) and curve.multipliers.dtype.kind == "c"
    with pytest.raises(vibro.InputError, match="--curve"):
        vibro.continue_(os.path.join(root, EXAMPLE), "omega", 2.3, curve="grazng", parameters="omega,sigma",
                        curve_to=0.3)
    with pytest.raises(vibro.InputError, match="sigm"):
        vibro.continue_(os.path.join(root, EXAMPLE), "omega", 2.3, curve="grazing", parameters="omega,sigm",
                        curve_to=0.3)


def test_continue_with_a_cascade(root):
    """switch='PD1', cascade=3 up to omega = 2.1763: the (1,1) branch, the (2,2) branch born at the first
    doubling and the (4,4) branch born at the (2,2) branch's; the cascade stops there (the (4,4) branch's
    own doubling, at 2.176417063, lies beyond 2.1763), so three branches come back."""
    branches = vibro.continue_(os.path.join(root, EXAMPLE), "omega", 2.1763, switch="PD1", cascade=3)
    assert len(branches) == 3
    assert [int(b.attrs["periods"]) for b in branches] == [1, 2, 4]
    assert abs(branches[1].event_parameter.values[0] - 2.175410635) < 1e-8
    with pytest.raises(vibro.InputError, match="--cascade"):
        vibro.continue_(os.path.join(root, EXAMPLE), "omega", 2.1763, switch="G1", cascade=2)
