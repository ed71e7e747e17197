"""vibro.simulate: one case's time history. The conveyor's n = 1 hopping orbit at a_hat = 50 (Fig. 6)
impacts once per period at the phase acos(a*/a_hat) (Eq. 26 with Eq. 64) and feeds at the velocity of
Eq. 28; Model A's (1,1) orbit at lambda = 1 is the orbit the sweep computes (its strobe samples and
impact count)."""
import math
import os
import sys

import numpy as np
import pytest

import vibro

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import conveyor_analytic  # noqa: E402

FIG6 = dict(f=50.0, phi=12.0, c_r=0.6, mu=0.15, start="drop", on_plate="coupled")  # examples/conveyor_fig6.ini


def test_conveyor_hopping_orbit():
    a_hat, periods = 50.0, 100
    traj = vibro.simulate("conveyor", periods=periods, samples_per_period=50, a_hat=a_hat, z0=0.002, **FIG6)
    T = float(traj.period)
    assert T == pytest.approx(1 / 50.0, rel=1e-15)
    assert traj.attrs["components"] == "h,u,vT,x" and traj.time.size >= periods * 50
    assert vibro.state(traj).shape == (traj.time.size, 4)
    assert [traj[name].attrs["units"] for name in ("time", "h", "u", "vT", "x", "event_time", "u_before",
                                                   "strobe_u", "strobe_drift_position", "period")] \
        == ["s", "m", "m/s", "m/s", "m", "s", "m/s", "m/s", "m", "s"]
    assert traj.a_hat.attrs["units"] == "m/s^2" and float(traj.a_hat) == a_hat  # the parameters given, as coordinates
    last = periods - 20  # the orbit over the last 20 periods (the drop's transient is over by then)
    impacts = traj.event_time[traj.event_kind == "impact"].values
    late = impacts[impacts >= last * T]
    assert np.array_equal(np.floor(late / T + 1e-12).astype(int), np.arange(last, periods))  # one per period
    a_star = conveyor_analytic.a_star(0.6, 12.0, 9.81)
    phase = np.mod(2 * math.pi * 50.0 * late, 2 * math.pi)
    assert np.max(np.abs(phase - math.acos(a_star / a_hat))) < 1e-9
    # The feeding velocity: the drift coordinate's advance over the 20 periods, against Eq. 28.
    k = traj.strobe_period.values
    x = traj.strobe_drift_position.values
    velocity = (x[k == periods][0] - x[k == last][0]) / (20 * T)
    assert velocity == pytest.approx(conveyor_analytic.v_t_star(0.6, 12.0, 50.0, 9.81), rel=1e-9)
    # Across each impact the normal velocity reverses with restitution c_r (state before/after).
    impact = (traj.event_kind == "impact").values
    before, after = traj.u_before.values[impact][-20:], traj.u_after.values[impact][-20:]
    assert np.allclose(after, -0.6 * before, rtol=1e-9)


def test_model_a_orbit_is_the_sweeps():
    """Model A (rigid impacts, e = 1) at lambda = 1: the trace's strobe samples are the sweep's window
    samples and its impacts are the sweep's impact count, period by period."""
    periods, window = 200, 20
    case = {"law": "restitution", "lambda": 1.0}
    ds = vibro.sweep({"model": "gap_oscillator", "parameters": case,
                      "run": {"steady_state": "fixed", "max_periods": periods, "window_periods": window}}, threads=1)
    assert str(ds["class"].values) == "(1,1)"
    traj = vibro.simulate("gap_oscillator", periods=periods, samples_per_period=20, **case)
    window_samples = ds.strobe_values.values  # t = (periods - window) T ... periods T
    from_trace = vibro.state(traj, prefix="strobe_")[np.isin(traj.strobe_period, np.arange(periods - window, periods + 1))]
    assert from_trace.shape == window_samples.shape
    assert np.array_equal(from_trace, window_samples)  # the same orbit, to the bit
    impacts = traj.event_time[traj.event_kind == "impact"].values
    assert len(impacts) == int(ds.counters_impacts.values)
    in_window = impacts[impacts > (periods - window) * float(traj.period)]
    assert len(in_window) / window == float(ds.impacts_per_period.values) == 1.0


def test_simulate_refuses_bad_input():
    with pytest.raises(vibro.InputError, match="unknown key 'parameters.c_rr'"):
        vibro.simulate("conveyor", c_rr=0.5)
    with pytest.raises(vibro.InputError, match=r"parameters.c_r = 1.5 is out of range; expected \[0, 1\)"):
        vibro.simulate("conveyor", c_r=1.5)
    with pytest.raises(vibro.InputError, match="unknown model 'conveyr'"):
        vibro.simulate("conveyr")
    with pytest.raises(vibro.InputError, match="periods"):
        vibro.simulate("conveyor", periods=0)
