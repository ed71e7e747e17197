#!/usr/bin/python3
"""The bouncing dimer (Liu, Zhao and Brogliato 2008, vibro model `dimer`) in Siconos 4.4 (python3-siconos).

Same body, plate, release and averaging window as vibro's R5 case (A_r 3.9, 25 Hz, Gamma 0.9,
h0 0.25 mm, theta0 5 deg, 100 periods, drift = (X(100 T) - X(50 T)) / (50 T)), simulated with
Siconos's TimeStepping + MoreauJeanOSI(theta) and two NewtonImpactFrictionNSL(e_n, 0, mu, 2)
contacts solved as a 2-D FrictionContact problem: Newton restitution and Coulomb friction on the
total impulse of each step, one friction coefficient, no static/dynamic distinction. That is the
scheme that gets the drift sign wrong at A_r = 3.9.

Model choices (see docs/models/dimer_siconos.md):
- Coordinates q = (X, Y, theta) of the centre of mass, M = diag(m, m, I) (LagrangianLinearTIDS).
- Plate frame: Y is measured from the moving plate, y_p(t) = -A sin(omega t). For a rigid plate
  that only translates vertically this is exact: gaps, relative normal velocities and slip
  velocities are the same functions of the relative state, and the only change is the body force
  -m (g + y_p''(t)) on Y (uniform, so no torque about the centre of mass). The force is applied as
  the step-exact impulse -m g h - m (y_p'(t+h) - y_p'(t)), so the relative velocity sees exactly
  the plate's velocity change over each step. (Siconos's moving obstacle, LagrangianRheonomousR,
  needs a compiled C plugin; peers.md: not implemented for event-driven anyway.)
- Contacts: per tip, y = (gap, tangential), with the Jacobian rows n = (0, 1, -+c),
  t = (1, 0, rho_i) of the report's contact kinematics. Python-subclassed LagrangianScleronomousR crashes Siconos 4.4 in
  MoreauJeanOSI::computeFreeOutput at the first contact (segfault, see the doc), so each tip is a
  LagrangianLinearTIR whose H and b are re-linearised at the start of every step (the gap is exact
  at q_k, its derivative is the exact Jacobian at theta_k); the one-step problem's blocks are
  marked stale every step so Siconos rebuilds W with the new H.

Prints one line per run: `siconos_dimer scheme=... h=... wall=... drift=... rel=...` (mm/s).
  /usr/bin/python3 bench/peers/siconos_dimer.py                 # R5 case, mu 0.12
  /usr/bin/python3 bench/peers/siconos_dimer.py --mu 0.08 --periods 100
  /usr/bin/python3 bench/peers/siconos_dimer.py --check         # sanity checks with known answers
"""
import argparse
import math
import sys
import time

import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn


def dimer_body(A_r, r=4.75e-3, rho_ball=7.8e3, rho_rod=1.0e3, d_rod=4e-3):
    l = 2 * (A_r - 1) * r
    m_b = 4.0 / 3.0 * math.pi * r ** 3 * rho_ball
    rod = l - 2 * r
    m_r = rho_rod * math.pi * (d_rod / 2) ** 2 * rod
    J_b = 0.4 * m_b * r * r
    J_r = m_r * rod * rod / 12
    return dict(r=r, l=l, m=2 * m_b + m_r, I=m_b * l * l / 2 + 2 * J_b + J_r)


def simulate(A_r=3.9, f=25.0, Gamma=0.9, e_n=0.65, mu=0.12, h0=2.5e-4, theta0_deg=5.0, g=9.81,
             steps_per_period=4000, periods=100, window=50, theta_osi=0.5, static_plate=False,
             q0=None, v0=None, record=None, solver="LEMKE"):
    b = dimer_body(A_r)
    r, l, m, I = b["r"], b["l"], b["m"], b["I"]
    omega = 2 * math.pi * f
    A = 0.0 if static_plate else Gamma * g / omega ** 2
    T = 1.0 / f
    h = T / steps_per_period
    nsteps = steps_per_period * periods
    th0 = math.radians(theta0_deg)

    def plate_velocity(t):  # y_p = -A sin(omega t)
        return -A * omega * math.cos(omega * t)

    # Released at rest (lab frame) with the lower tip h0 above the plate's mean position, t = 0.
    if q0 is None:
        q0 = [0.0, h0 + r + 0.5 * l * abs(math.sin(th0)), th0]
    if v0 is None:
        v0 = [0.0, 0.0, 0.0]
    v0 = [v0[0], v0[1] - plate_velocity(0.0), v0[2]]  # relative to the plate
    ds = sk.LagrangianLinearTIDS(np.array(q0, float), np.array(v0, float), np.diag([m, m, I]))
    fext = np.array([0.0, -m * g, 0.0])
    ds.setFExtPtr(fext)

    rels, inters = [], []
    for sign in (-1.0, 1.0):  # tip 1 (left, Y - s), tip 2 (right, Y + s)
        rel = sk.LagrangianLinearTIR(np.zeros((2, 3)), np.zeros(2))
        nsl = sk.NewtonImpactFrictionNSL(e_n, 0.0, mu, 2)
        inter = sk.Interaction(nsl, rel)
        rels.append((sign, rel))
        inters.append(inter)

    def relink(q):
        th = q[2]
        c, s = 0.5 * l * math.cos(th), 0.5 * l * math.sin(th)
        for sign, rel in rels:
            H = np.array([[0.0, 1.0, sign * c], [1.0, 0.0, r - sign * s]])
            # gap(q) = Y + sign s(theta) - r, linearised at theta_k: exact value and slope at q_k.
            e = np.array([sign * (s - c * th) - r, 0.0])
            rel.setCPtr(H)
            rel.setEPtr(e)

    relink(q0)
    nsds = sk.NonSmoothDynamicalSystem(0.0, nsteps * h)
    nsds.insertDynamicalSystem(ds)
    for inter in inters:
        nsds.link(inter, ds)
    td = sk.TimeDiscretisation(0.0, h)
    osi = sk.MoreauJeanOSI(theta_osi)
    osnspb = sk.FrictionContact(2, getattr(sn, "SICONOS_FRICTION_2D_" + solver))
    sim = sk.TimeStepping(nsds, td, osi, osnspb)

    x_window = None
    theta_sum = 0.0
    start = time.perf_counter()
    for k in range(nsteps):
        t = k * h
        if k == (periods - window) * steps_per_period:
            x_window = ds.q()[0]
        q = ds.q()
        relink(q)
        osnspb.setHasBeenUpdated(False)
        fext[1] = -m * g - m * (plate_velocity(t + h) - plate_velocity(t)) / h
        ds.setFExtPtr(fext)
        sim.computeOneStep()
        sim.nextStep()
        if k >= (periods - window) * steps_per_period:
            theta_sum += ds.q()[2]
        if record is not None:
            record(t + h, ds.q().copy(), ds.velocity().copy())
    wall = time.perf_counter() - start
    q = ds.q()
    if not np.all(np.isfinite(q)):
        raise RuntimeError("non-finite state")
    drift = (q[0] - x_window) / (window * T) if x_window is not None else float("nan")
    mean_theta = theta_sum / (window * steps_per_period)
    rel = drift * (1.0 if mean_theta >= 0 else -1.0)  # towards the bouncing end (vibro's _rel)
    return dict(wall=wall, drift=drift * 1e3, drift_rel=rel * 1e3, mean_theta_deg=math.degrees(mean_theta),
                h=h, q=q.copy(), v=ds.velocity().copy())


def check():
    """Known answers: a ball-like drop rebounds with e_n; the dimer at rest on a static plate stays."""
    ok = True
    # 1. Dimer dropped flat (theta 0) onto the static plate, no friction: both tips hit together;
    #    the rebound velocity ratio must be e_n.
    ratios = []
    prev = [0.0]

    def rec(t, q, v):
        if prev[0] < -0.01 and v[1] > 0 and not ratios:
            ratios.append(-v[1] / prev[0])
        prev[0] = v[1]

    simulate(static_plate=True, mu=0.0, theta0_deg=0.0, h0=2e-3, periods=3, window=1, record=rec)
    ratio = ratios[0] if ratios else float("nan")
    print(f"check 1: flat drop on a static plate, rebound ratio {ratio:.6f} (e_n 0.65)")
    ok &= abs(ratio - 0.65) < 1e-3
    # 2. Dimer at rest on the static plate (both tips touching, theta 0) with mu: stays at rest.
    b = dimer_body(3.9)
    res = simulate(static_plate=True, q0=[0.0, b["r"], 0.0], v0=[0.0, 0.0, 0.0], periods=4, window=2)
    dev = np.abs(res["q"] - np.array([0.0, b["r"], 0.0])).max()
    print(f"check 2: dimer resting on a static plate after 0.16 s: max |q - q0| = {dev:.3e}, |v| = {np.abs(res['v']).max():.3e}")
    ok &= dev < 1e-8
    # 3. Sliding on a static plate with mu: X' decelerates at mu g (both tips, flat): v(t) = v0 - mu g t.
    res = simulate(static_plate=True, mu=0.12, q0=[0.0, b["r"], 0.0], v0=[0.05, 0.0, 0.0], periods=1,
                   window=1)
    expect = 0.05 - 0.12 * 9.81 * 0.04
    print(f"check 3: flat slide, v(0.04 s) = {res['v'][0]:.6f} m/s (expected {expect:.6f}), theta {res['q'][2]:.2e}")
    ok &= abs(res["v"][0] - expect) < 1e-6
    # 4. Plate-frame forcing: the dimer resting on the vibrating plate at Gamma 0.9 < 1 never lifts off.
    res = simulate(q0=[0.0, b["r"], 0.0], v0=[0.0, -0.9 * 9.81 / (2 * math.pi * 25), 0.0], periods=4, window=2)
    print(f"check 4: flat dimer on the plate at Gamma 0.9: gap {res['q'][1] - b['r']:.3e} m, drift {res['drift']:.3e} mm/s")
    ok &= abs(res["q"][1] - b["r"]) < 1e-8
    # 5. Tilted drop (theta0 5 deg, lower tip 2 mm up), no friction: only tip 1 hits; its normal
    #    velocity Y' - c theta' must reverse with ratio e_n (checks the re-linearised Jacobian) and
    #    X' must stay 0.
    l = b["l"]
    tips = []
    prev_un = [0.0]

    def rec_tilt(t, q, v):
        un = v[1] - 0.5 * l * math.cos(q[2]) * v[2]
        if prev_un[0] < -0.01 and un > 0 and not tips:
            tips.append((-un / prev_un[0], v[0]))
        prev_un[0] = un

    simulate(static_plate=True, mu=0.0, theta0_deg=5.0, h0=2e-3, periods=1, window=1, record=rec_tilt)
    ratio, vx = tips[0] if tips else (float("nan"), float("nan"))
    print(f"check 5: tilted drop on tip 1, tip normal-velocity ratio {ratio:.6f} (e_n 0.65), X' after {vx:.1e}")
    ok &= abs(ratio - 0.65) < 2e-3 and abs(vx) < 1e-12
    # 6. Plate frame: free flight over one period above the vibrating plate (Gamma 0.9), back in the
    #    lab frame (Y = Y' + y_p, y_p(T) = 0, lab velocity = Y'' + y_p'(T)) must be the parabola.
    res = simulate(h0=20e-3, theta0_deg=0.0, periods=1, window=1)
    Y0, Tp = 20e-3 + b["r"], 0.04
    omega = 2 * math.pi * 25
    A = 0.9 * 9.81 / omega ** 2
    err_y = abs(res["q"][1] - (Y0 - 0.5 * 9.81 * Tp * Tp))
    err_v = abs(res["v"][1] + (-A * omega * math.cos(omega * Tp)) - (-9.81 * Tp))
    print(f"check 6: free flight in the plate frame, lab Y error {err_y:.1e} m, lab Y' error {err_v:.1e} m/s")
    ok &= err_y < 1e-9 and err_v < 1e-12
    print("checks", "passed" if ok else "FAILED")
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--A_r", type=float, default=3.9)
    p.add_argument("--mu", type=float, default=0.12)
    p.add_argument("--e_n", type=float, default=0.65)
    p.add_argument("--steps", type=int, default=4000, help="steps per period")
    p.add_argument("--periods", type=int, default=100)
    p.add_argument("--window", type=int, default=50)
    p.add_argument("--theta", type=float, default=0.5, help="MoreauJeanOSI theta")
    p.add_argument("--theta0", type=float, default=5.0)
    p.add_argument("--solver", default="LEMKE", help="2-D friction solver: LEMKE, NSGS, ENUM, CPG")
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    if a.check:
        sys.exit(0 if check() else 1)
    res = simulate(A_r=a.A_r, mu=a.mu, e_n=a.e_n, steps_per_period=a.steps, periods=a.periods, window=a.window,
                   theta_osi=a.theta, theta0_deg=a.theta0, solver=a.solver)
    print(f"siconos_dimer scheme=MoreauJeanOSI(theta={a.theta}) solver={a.solver} mu={a.mu} e_n={a.e_n} h={res['h']:.3e} "
          f"wall={res['wall']:.3f} drift={res['drift']:+.3f} rel={res['drift_rel']:+.3f} "
          f"mean_theta={res['mean_theta_deg']:.3f}")


if __name__ == "__main__":
    main()
