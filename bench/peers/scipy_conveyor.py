#!/usr/bin/python3
"""Peer benchmark: the vibratory-conveyor model (point mass, Newton restitution, Coulomb impulse, coupled motion) solved with
scipy's solve_ivp and terminal events, restarted after every event. It mirrors
cvode_conveyor.cpp event for event so the two peers differ only in the integrator.

Usage: /usr/bin/python3 scipy_conveyor.py CASES.csv PERIODS WINDOW [ATOL] [--method DOP853|RK45]
  CASES.csv : lines "a_hat,z0" (a header line "a_hat,z0" is skipped)
  stdout    : a_hat,z0,mean_velocity,impacts,accumulations,wall_s
  stderr    : one summary line (cases/s, impacts/s) and a line per failed case

Use Debian's /usr/bin/python3 (scipy 1.10), the interpreter peers.md's numbers were taken with.

State y = [h, u, x, vx]: gap and relative normal velocity in the plate frame (tiny chatter gaps stay
far above the rounding of an absolute position), absolute tangential position and velocity.
In coupled motion h = u = 0 and their derivatives are 0.
"""

import argparse
import math
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

FLIGHT, SLIP, STICK = 0, 1, 2


class Model:
    def __init__(self, a_hat, f=50.0, phi_deg=12.0, g=9.81, cr=0.6, mu=0.15, u_tol=1e-9):
        self.f, self.g, self.cr, self.mu, self.u_tol = f, g, cr, mu, u_tol
        self.w = 2.0 * math.pi * f
        phi = math.radians(phi_deg)
        self.A = a_hat * math.sin(phi) / self.w**2
        self.B = a_hat * math.cos(phi) / self.w**2
        self.Aw2 = self.A * self.w**2
        self.Bw2 = self.B * self.w**2

    def plate_vt(self, t):
        return self.B * self.w * math.cos(self.w * t)

    def normal_force(self, t):
        """Normal contact force per mass if the part rides on the plate."""
        return self.g - self.Aw2 * math.sin(self.w * t)


def make_mode(m, mode, s):
    """Right-hand side and terminal events (all direction -1) of one mode."""
    w = m.w

    if mode == FLIGHT:
        def rhs(t, y):
            return [y[1], -m.g + m.Aw2 * math.sin(w * t), y[3], 0.0]

        def gap(t, y):
            return y[0]
        events = [gap]
    elif mode == SLIP:
        def rhs(t, y):
            return [0.0, 0.0, y[3], s * m.mu * (m.g - m.Aw2 * math.sin(w * t))]

        def slip_end(t, y):
            return s * (m.plate_vt(t) - y[3])

        def lift_off(t, y):
            return m.normal_force(t)
        events = [slip_end, lift_off]
    else:
        def rhs(t, y):
            return [0.0, 0.0, y[3], -m.Bw2 * math.sin(w * t)]

        def break_fwd(t, y):  # sin(wt) rising through sigma+: the part overtakes the plate
            return m.mu * m.normal_force(t) - m.Bw2 * math.sin(w * t)

        def break_back(t, y):  # sin(wt) falling through -sigma-: the plate outruns the part
            return m.mu * m.normal_force(t) + m.Bw2 * math.sin(w * t)

        def lift_off(t, y):
            return m.normal_force(t)
        events = [break_fwd, break_back, lift_off]
    for ev in events:
        ev.terminal = True
        ev.direction = -1
    return rhs, events


class CaseResult:
    def __init__(self):
        self.mean_velocity = float("nan")
        self.impacts = 0
        self.accumulations = 0
        self.wall_s = 0.0
        self.error = None


def run_case(a_hat, z0, periods, window, rtol, atol, method):
    res = CaseResult()
    t_start_wall = time.perf_counter()
    m = Model(a_hat)
    T = 1.0 / m.f
    t_end = periods * T
    t_win = (periods - window) * T
    max_events = 10000 * periods  # guard against an endless event loop
    # First step after a coupled-phase event or a lift-off: short against any arc that can follow,
    # so the restart point's own zero is never taken for the next event.
    coupled_first_step = T / 1000.0

    y = np.zeros(4)
    t = 0.0
    state = {}

    def set_mode(mode, s=0.0, first_step=None):
        state["mode"], state["s"], state["first_step"] = mode, s, first_step

    def stick_or_reverse(t):
        # Relative tangential velocity is 0: stick if static friction holds the part (full Coulomb friction at r = 0).
        y[3] = m.plate_vt(t)  # exact, so the next slip-end event starts at exactly 0
        sn = math.sin(m.w * t)
        if abs(m.Bw2 * sn) <= m.mu * m.normal_force(t):
            set_mode(STICK, first_step=coupled_first_step)
        else:
            set_mode(SLIP, -1.0 if sn > 0.0 else 1.0, coupled_first_step)

    def enter_coupled(t):
        y[0] = y[1] = 0.0
        r = m.plate_vt(t) - y[3]
        if abs(r) <= 1e-13 * m.B * m.w:
            stick_or_reverse(t)
        else:
            set_mode(SLIP, 1.0 if r > 0.0 else -1.0, coupled_first_step)

    if z0 > 0.0:  # drop from rest: absolute vz = 0, plate moves up at A w
        y[0], y[1] = z0, -m.A * m.w
        set_mode(FLIGHT)
    else:  # resting on the plate: coupled start, relative velocity 0 (the default on_plate = coupled)
        enter_coupled(t)

    have_x_win = t_win <= 0.0
    x_win = y[2] if have_x_win else 0.0
    events = 0
    while True:
        tout = t_end if have_x_win else t_win
        if tout - t > 1e-13 * tout:
            rhs, evs = make_mode(m, state["mode"], state["s"])
            # solve_ivp rejects a first step beyond the end of the span.
            kw = {"first_step": min(state["first_step"], tout - t)} if state["first_step"] else {}
            try:
                sol = solve_ivp(rhs, (t, tout), y, method=method, rtol=rtol, atol=atol,
                                events=evs, **kw)
            except ValueError as exc:
                res.error = f"solve_ivp raised: {exc}"
                break
            if sol.status < 0:
                res.error = "solve_ivp failed: " + sol.message
                break
            t = float(sol.t[-1])
            y = np.array(sol.y[:, -1])
            status = sol.status
        else:  # an event landed within rounding of tout: solve_ivp cannot take an empty span
            t, status = tout, 0
        if status == 0:  # reached tout
            if not have_x_win:
                # Continue in the same mode; the restart keeps the last first_step, which is
                # short enough for whatever bounce or arc may be in progress.
                have_x_win, x_win = True, y[2]
                continue
            res.mean_velocity = (y[2] - x_win) / (window * T)
            break
        events += 1
        if events > max_events:
            res.error = "event cap reached"
            break
        fired = [len(te) > 0 for te in sol.t_events]
        mode = state["mode"]
        if mode == FLIGHT:
            res.impacts += 1
            # A positive approach velocity is interpolation rounding at a tangency: grazing.
            u_minus = min(y[1], 0.0)
            u_plus = -m.cr * u_minus
            s_imp = (1.0 + m.cr) * (-u_minus)  # normal impulse per mass
            wt = m.plate_vt(t)
            if y[3] < wt:
                y[3] = min(y[3] + m.mu * s_imp, wt)
            elif y[3] > wt:
                y[3] = max(y[3] - m.mu * s_imp, wt)
            if u_plus < m.u_tol and m.normal_force(t) > 0.0:
                res.accumulations += 1
                enter_coupled(t)
            else:
                y[0], y[1] = 0.0, u_plus
                # peers.md's first_step fix: at most half the shortest possible bounce, else
                # solve_ivp's first step can jump a whole short bounce and report the event at the
                # restart point, silently cutting chatter sequences short.
                fs = min(T / 20.0, u_plus / (m.g + m.Aw2))
                set_mode(FLIGHT, first_step=fs if fs > 0.0 else coupled_first_step)
        elif mode == SLIP:
            if fired[1]:  # lift-off wins over a simultaneous slip end
                y[0] = y[1] = 0.0
                set_mode(FLIGHT, first_step=coupled_first_step)
            else:
                stick_or_reverse(t)
        else:
            if fired[2]:
                y[0] = y[1] = 0.0
                set_mode(FLIGHT, first_step=coupled_first_step)
            else:
                # Break-away sets the slip sign directly; re-testing the stick condition exactly on
                # its boundary would let rounding bounce between stick and slip.
                y[3] = m.plate_vt(t)
                set_mode(SLIP, -1.0 if fired[0] else 1.0, coupled_first_step)
    res.wall_s = time.perf_counter() - t_start_wall
    return res


def read_cases(path):
    cases = []
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(",")
            try:
                cases.append((float(parts[0]), float(parts[1])))
            except (ValueError, IndexError):
                continue  # header line
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases")
    ap.add_argument("periods", type=int)
    ap.add_argument("window", type=int)
    ap.add_argument("atol", type=float, nargs="?", default=1e-12)
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("--method", default="DOP853", choices=["DOP853", "RK45"])
    a = ap.parse_args()
    if not 0 < a.window <= a.periods:
        ap.error("need 0 < WINDOW <= PERIODS")

    cases = read_cases(a.cases)
    print("a_hat,z0,mean_velocity,impacts,accumulations,wall_s", flush=True)
    total_wall, total_impacts, failed = 0.0, 0, 0
    for a_hat, z0 in cases:
        r = run_case(a_hat, z0, a.periods, a.window, a.rtol, a.atol, a.method)
        print(f"{a_hat:.10g},{z0:.10g},{r.mean_velocity:.12g},{r.impacts},{r.accumulations},"
              f"{r.wall_s:.6g}", flush=True)
        if r.error:
            failed += 1
            print(f"case a_hat={a_hat:g} z0={z0:g} failed: {r.error}", file=sys.stderr)
        total_wall += r.wall_s
        total_impacts += r.impacts
    rate = (lambda n: n / total_wall) if total_wall > 0 else (lambda n: 0.0)
    print(f"scipy_conveyor ({a.method}): {len(cases)} cases ({failed} failed), {a.periods} periods, "
          f"rtol {a.rtol:g} atol {a.atol:g}: {total_wall:.3f} s, {rate(len(cases)):.3f} cases/s, "
          f"{rate(total_impacts):.4g} impacts/s", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
