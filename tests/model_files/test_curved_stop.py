#!/usr/bin/python3
"""A curved stop and reset maps that are not affine (examples/models/ball_in_bowl.vibro: a ball inside a
shaken circular bowl, the wall x^2 + y^2 <= R^2, Newton restitution along the wall's normal).

Checked against an independent event-driven solution (scipy's DOP853 at rtol 1e-13 with its own event
location on R^2 - x^2 - y^2 and its own Newton law along the normal, restarted after each impact):
- `vibro describe` says the wall is a curved stop followed by an auxiliary state;
- `vibro trace`: every impact time and the state just after it, over 10 periods, to 1e-8;
- `output.shooting` + `output.floquet`: the period-1 orbit's point on the section against scipy's own
  Newton shooting, and its Floquet multipliers against the eigenvalues of a central-difference Jacobian
  of scipy's one-period map, to 1e-7 (the auxiliary state adds exp(-4 pi));
- the same wall written as a switch whose reset lines are the normal reflection written out (a reset
  map that is not affine, on a switch) gives the stop's impacts and multipliers (1e-10);
- the batched back end (the reset map's tape) gives the cpu back end's sweep bit for bit;
- the same ball in the lab frame (a moving curved wall: the gap reads the forcing, the impact acts on
  the velocity relative to the wall) gives the bowl frame's impacts, shifted (1e-9), and multipliers;
- `vibro continue` in A finds a period doubling where the independent map has the multiplier -1 (1e-7);
- the pendulum's wall (pendulum_wall.vibro) written as a curved stop on one coordinate, whose Newton law
  is omega -> -r omega, gives the switch version's impacts; the impact oscillator's stop written with
  a reset line `reset v = -r*v` gives its restitution's;
- mistakes refused with FILE:LINE:COL: a start outside the curved stop, a rest on a curved stop, a
  friction impulse on one, a reset that is not differentiable (abs), a reset of an unknown state, an
  unknown name in a reset, a state reset twice, reset lines beside a restitution or with a mass.

usage: test_curved_stop.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import math
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from check_log import check, exit_code  # noqa: E402
from result_datasets import datasets, largest_difference  # noqa: E402

VIBRO, REPO = (os.path.abspath(a) for a in sys.argv[1:3])
MODELS = os.path.join(REPO, "examples", "models")
MODEL = os.path.join(MODELS, "ball_in_bowl.vibro")
# The file's defaults: R, g, c, e, A, B, w.
R, G, C, E, A, B, W = 1.0, 1.0, 0.2, 0.8, 0.025, 0.03, 2 * math.pi
START = np.array([0.0, -0.97, 0.0, 0.44])


def vibro(*args, cwd=None):
    return subprocess.run([VIBRO, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def reference_run(start, periods):
    """The ball from `start` at t = 0 over `periods` periods: [(impact time, state after)], final state."""
    def field(t, y):
        drive = math.cos(W * t)
        return [y[2], y[3], B * W * W * drive - C * y[2], A * W * W * drive - C * y[3] - G]

    def wall(t, y):
        return R * R - y[0] ** 2 - y[1] ** 2
    wall.terminal, wall.direction = True, -1
    t, y, end, hits = 0.0, list(start), periods * 2 * math.pi / W, []
    while t < end:
        s = solve_ivp(field, (t, end), y, method="DOP853", rtol=1e-13, atol=1e-15, events=wall)
        t, y = s.t[-1], list(s.y[:, -1])
        if s.status != 1:
            break
        t, y = s.t_events[0][0], list(s.y_events[0][0])
        nx, ny = -2 * y[0], -2 * y[1]  # the gap's gradient
        impulse = -(1 + E) * (nx * y[2] + ny * y[3]) / (nx * nx + ny * ny)
        y[2] += impulse * nx
        y[3] += impulse * ny
        hits.append((t, np.array(y)))
        if len(hits) > 20 * periods:
            raise RuntimeError("the reference chatters")
    return hits, np.array(y)


def one_period(state):
    return reference_run(state, 1)[1]


def jacobian(state, h=1e-6):
    """Central differences of scipy's one-period map."""
    columns = []
    for k in range(4):
        step = np.zeros(4)
        step[k] = h
        columns.append((one_period(state + step) - one_period(state - step)) / (2 * h))
    return np.array(columns).T


def reference_orbit(guess):
    """The period-1 orbit's point on the section by Newton shooting on scipy's map."""
    x = np.array(guess, dtype=float)
    for _ in range(20):
        residual = one_period(x) - x
        if np.max(np.abs(residual)) < 1e-13:
            break
        x = x - np.linalg.solve(jacobian(x) - np.eye(4), residual)
    return x


def paired_difference(found, expected):
    """The largest distance from each expected multiplier to its own nearest found one."""
    found, worst = list(found), 0.0
    for m in expected:
        k = int(np.argmin([abs(m - f) for f in found]))
        worst = max(worst, abs(m - found.pop(k)))
    return worst


def line_of(text, start):
    return next(i + 1 for i, line in enumerate(text.splitlines()) if line.strip().startswith(start))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def trace_events(model, tmp, periods, label, extra=""):
    ini = write(os.path.join(tmp, label + ".ini"), "model = %s\n%s[run]\nmax_periods = 100\n" % (model, extra))
    r = vibro("trace", ini, "--case", "0", "--periods", str(periods), "--csv", "--out", os.path.join(tmp, label + ".h5"))
    check(r.returncode == 0, "vibro trace of %s" % label, r.stderr[-2000:])
    if r.returncode != 0:
        return []
    with open(os.path.join(tmp, label + "_events.csv")) as f:
        f.readline()
        return [line.strip().split(",") for line in f]


def shooting_and_floquet(model, tmp, label):
    ini = write(os.path.join(tmp, label + ".ini"),
                "model = %s\n[run]\nmax_periods = 400\n[output]\nfloquet = true\nshooting = true\n" % model)
    out = os.path.join(tmp, label + ".h5")
    r = vibro("run", ini, "--output.file=" + out, "--run.progress=never")
    check(r.returncode == 0, "a sweep of %s with shooting and Floquet multipliers" % label, r.stderr[-1500:])
    if r.returncode != 0:
        return None, None
    with h5py.File(out, "r") as h5:
        check(h5["cases/shooting/converged"][0] == 1, "shooting converges on %s" % label)
        state = np.array(h5["cases/shooting/state"][0], dtype=float)
        multipliers = h5["cases/floquet/real"][0] + 1j * h5["cases/floquet/imag"][0]
    return state, multipliers


def main():
    global A  # the reference solver's shaking amplitude, moved to a period doubling below
    with open(MODEL) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        r = vibro("describe", MODEL)
        check(r.returncode == 0, "vibro describe of the bowl file", r.stderr)
        wall = [line for line in r.stdout.splitlines() if line.strip().startswith("wall:")]
        check(len(wall) == 1 and "curved stop" in wall[0] and "Newton restitution along the gap's gradient" in wall[0]
              and "z_wall" in wall[0] and "integration error" in wall[0],
              "describe says the wall is a curved stop followed by an auxiliary state", "\n".join(wall) or r.stdout[-1500:])

        # Impacts over 10 periods from the file's start, against scipy.
        periods = 10
        rows = trace_events(MODEL, tmp, periods, "bowl")
        hits, _ = reference_run(START, periods)
        impacts = [row for row in rows if row[1] == "impact"]
        print("  impacts: vibro %d, scipy %d" % (len(impacts), len(hits)), flush=True)
        check(len(hits) >= 8 and len(impacts) == len(hits) and len(rows) == len(impacts),
              "as many impacts as the independent solution, and no other event", str(rows[:4]))
        if len(impacts) == len(hits):
            # Each row: time, kind, the components before (x, y, u, v, z_wall), then after.
            dt = max(abs(float(row[0]) - t) for row, (t, _) in zip(impacts, hits))
            dx = max(np.max(np.abs(np.array([float(v) for v in row[7:11]]) - y)) for row, (_, y) in zip(impacts, hits))
            print("  largest difference from scipy: impact time %.3g, state after the impact %.3g" % (dt, dx), flush=True)
            check(dt <= 1e-8, "impact times agree with the independent solution to 1e-8", "%g" % dt)
            check(dx <= 1e-8, "the states after the impacts agree with the independent solution to 1e-8", "%g" % dx)

        # The period-1 orbit by shooting, and its Floquet multipliers.
        state, found = shooting_and_floquet(MODEL, tmp, "bowl_floquet")
        if state is not None:
            orbit = reference_orbit(state[:4])
            hits, end = reference_run(orbit, 1)
            check(len(hits) == 1, "the reference orbit has one impact per period", str(len(hits)))
            check(np.max(np.abs(end - orbit)) <= 1e-12, "scipy's shooting converged (|P(x) - x| <= 1e-12)", str(np.max(np.abs(end - orbit))))
            expected = np.linalg.eigvals(jacobian(orbit))
            auxiliary = found[np.argmin(np.abs(found))]
            own = [m for m in found if abs(m) > 1e-3]
            orbit_difference = np.max(np.abs(state[:4] - orbit))
            worst = paired_difference(own, expected) if len(own) == 4 else np.inf
            print("  orbit: vibro %s, scipy %s, difference %.3g" % (state, orbit, orbit_difference), flush=True)
            print("  multipliers: vibro %s, scipy %s, largest difference %.3g; auxiliary %.6g" % (own, expected, worst, abs(auxiliary)), flush=True)
            check(orbit_difference <= 1e-8, "the shooting orbit agrees with scipy's to 1e-8", "%g" % orbit_difference)
            check(worst <= 1e-7, "the orbit's multipliers agree with the independent finite-difference ones to 1e-7", "%g" % worst)
            check(abs(auxiliary - math.exp(-4 * math.pi)) <= 1e-9, "the auxiliary state adds the multiplier exp(-4 pi)", str(auxiliary))

            # The same wall as a switch whose reset lines write the reflection out: a reset map that
            # is not affine on a switch.
            switched = text.replace("stop wall: x^2 + y^2 <= R^2  restitution e  no sticking",
                                    "switch wall: x^2 + y^2 rises above R^2 -> flight  "
                                    "reset u = u - (1 + e)*(x*u + y*v)*x/(x^2 + y^2)  "
                                    "reset v = v - (1 + e)*(x*u + y*v)*y/(x^2 + y^2)")
            check(switched != text, "the bowl file has the wall line the switch version replaces")
            path = write(os.path.join(tmp, "bowl_switch.vibro"), switched)
            rows = trace_events(path, tmp, periods, "bowl_switch")
            events = [row for row in rows if row[1] == "switch to flight"]
            if len(events) == len(impacts) and impacts:
                dt = max(abs(float(a[0]) - float(b[0])) for a, b in zip(events, impacts))
                dx = max(abs(float(p) - float(q)) for a, b in zip(events, impacts) for p, q in zip(a[2:], b[2:]))
                print("  switch with reset lines vs curved stop: time %.3g, states %.3g" % (dt, dx), flush=True)
                check(dt <= 1e-10 and dx <= 1e-10, "the switch with a non-affine reset gives the curved stop's events", "%g %g" % (dt, dx))
            else:
                check(False, "the switch with a non-affine reset has the curved stop's events", "%d vs %d" % (len(events), len(impacts)))
            s_state, s_found = shooting_and_floquet(path, tmp, "bowl_switch_floquet")
            if s_state is not None:
                worst = paired_difference([m for m in s_found if abs(m) > 1e-3], own)
                print("  switch version's multipliers differ by %.3g" % worst, flush=True)
                check(worst <= 1e-10, "the switch version's multipliers are the stop's", "%g" % worst)

        # The same ball in the lab frame: the bowl moves by (B cos wt, A cos wt), the wall's gap reads the
        # forcing and Newton's law acts on the velocity relative to the moving wall (the gap's dg/dt).
        # Its impacts are the bowl frame's, its positions and velocities shifted by the bowl's.
        lab = (text.replace("model ball_in_bowl:", "model ball_in_moving_bowl:")
               .replace("state x [-] = x0", "state x [-] = x0 + B").replace("state y [-] = y0", "state y [-] = y0 + A")
               .replace("u' = B*w^2*cos(w*t) - c*u", "u' = -c*(u + B*w*sin(w*t))")
               .replace("v' = A*w^2*cos(w*t) - c*v - g", "v' = -c*(v + A*w*sin(w*t)) - g")
               .replace("stop wall: x^2 + y^2 <= R^2", "stop wall: (x - B*cos(w*t))^2 + (y - A*cos(w*t))^2 <= R^2"))
        check(lab.count("cos(w*t)") == 2 and "u + B*w*sin" in lab, "the lab-frame version replaces the bowl file's lines")
        path = write(os.path.join(tmp, "bowl_lab.vibro"), lab)
        rows = [row for row in trace_events(path, tmp, periods, "bowl_lab") if row[1] == "impact"]
        if rows and len(rows) == len(impacts):
            dt = max(abs(float(a[0]) - float(b[0])) for a, b in zip(rows, impacts))
            dx = 0.0
            for a, b in zip(rows, impacts):
                t = float(a[0])
                bowl = np.array([B * math.cos(W * t), A * math.cos(W * t), -B * W * math.sin(W * t), -A * W * math.sin(W * t)])
                dx = max(dx, np.max(np.abs(np.array([float(v) for v in a[7:11]]) - bowl - np.array([float(v) for v in b[7:11]]))))
            print("  lab frame vs bowl frame: impact times %.3g, states after %.3g" % (dt, dx), flush=True)
            check(dt <= 1e-9 and dx <= 1e-9, "the lab-frame file (a moving curved wall) gives the bowl frame's impacts", "%g %g" % (dt, dx))
        else:
            check(False, "the lab-frame file has the bowl frame's impacts", "%d vs %d" % (len(rows), len(impacts)))
        if found is not None:
            l_state, l_found = shooting_and_floquet(path, tmp, "bowl_lab_floquet")
            if l_state is not None:
                worst = paired_difference([m for m in l_found if abs(m) > 1e-3], own)
                print("  lab frame's multipliers differ by %.3g" % worst, flush=True)
                check(worst <= 1e-8, "the lab-frame orbit has the bowl frame's multipliers", "%g" % worst)

        # vibro continue in A from the file's orbit: its period doubling, where the independent map's
        # Jacobian (at scipy's own orbit for that A) must have the multiplier -1.
        ini = write(os.path.join(tmp, "continue.ini"), "model = %s\n[run]\nmax_periods = 300\n[output]\nfile = %s\n"
                    % (MODEL, os.path.join(tmp, "bowl_branch.h5")))
        r = vibro("continue", ini, "--parameter", "A", "--to", "0.05", "--step", "0.002", "--max-step", "0.005")
        check(r.returncode == 0 and "period_doubling at A = " in r.stdout, "vibro continue in A finds a period doubling",
              r.stdout[-800:] + r.stderr[-800:])
        if r.returncode == 0:
            with h5py.File(os.path.join(tmp, "bowl_branch.branch.h5"), "r") as h5:
                kinds = [k.decode() if isinstance(k, bytes) else k for k in h5["events/kind"][...]]
                at = kinds.index("period_doubling") if "period_doubling" in kinds else None
                if at is not None:
                    a_pd, pd_state = float(h5["events/parameter"][at]), np.array(h5["events/state"][at], dtype=float)
            if at is not None:
                saved, A = A, a_pd
                orbit = reference_orbit(pd_state[:4])
                residual = np.max(np.abs(one_period(orbit) - orbit))
                multipliers = np.linalg.eigvals(jacobian(orbit))
                A = saved
                check(residual <= 1e-12, "scipy's shooting converged at the period doubling", "%g" % residual)
                off = float(np.min(np.abs(multipliers + 1)))
                print("  period doubling at A = %.10f; the independent map's multiplier nearest -1 is %.3g away" % (a_pd, off), flush=True)
                check(off <= 1e-7, "the independent map has the multiplier -1 at vibro's period doubling", "%g" % off)

        # The batched back end runs the reset map's tape: a small sweep gives the cpu's results bit for bit.
        results = {}
        for backend in ("cpu", "batched"):
            ini = write(os.path.join(tmp, "bowl_%s.ini" % backend),
                        "model = %s\n[axes]\nB = 0, 0.06\nA = 0.02, 0.025\n[run]\nmax_periods = 300\nbackend = %s\n" % (MODEL, backend))
            out = os.path.join(tmp, "bowl_%s.h5" % backend)
            r = vibro("run", ini, "--output.file=" + out, "--run.progress=never")
            check(r.returncode == 0, "a sweep of the bowl file on the %s back end" % backend, r.stderr[-1500:])
            if r.returncode == 0:
                results[backend] = datasets(out)
        if len(results) == 2:
            worst, bad = largest_difference(results["cpu"], results["batched"])
            print("  bowl sweep, batched - cpu: %.3g" % worst, flush=True)
            check(not bad and worst == 0, "the batched back end gives the cpu's results bit for bit", "%s %g" % (bad, worst))
            check(list(results["cpu"]["cases/status"]) == [0, 0, 0, 0], "every case of the bowl sweep ran", str(results["cpu"]["cases/status"]))

        # A curved stop on one coordinate (the pendulum's wall L sin(theta) <= d): Newton's law along
        # the gradient is omega -> -r omega, the switch version's reset.
        with open(os.path.join(MODELS, "pendulum_wall.vibro")) as f:
            pendulum = f.read()
        as_stop = pendulum.replace("switch wall: L*sin(theta) rises above d -> swing  reset omega = -r*omega",
                                   "stop wall: L*sin(theta) <= d  restitution r  no sticking")
        check(as_stop != pendulum, "the pendulum file has the wall line the stop version replaces")
        switch_rows = trace_events(os.path.join(MODELS, "pendulum_wall.vibro"), tmp, 10, "pendulum_switch")
        stop_rows = trace_events(write(os.path.join(tmp, "pendulum_stop.vibro"), as_stop), tmp, 10, "pendulum_stop")
        if switch_rows and len(switch_rows) == len(stop_rows):
            dt = max(abs(float(a[0]) - float(b[0])) for a, b in zip(switch_rows, stop_rows))
            print("  pendulum: curved stop vs switch, %d impacts, time difference %.3g" % (len(stop_rows), dt), flush=True)
            check(dt <= 1e-10 and all(row[1] == "impact" for row in stop_rows), "the pendulum's wall as a curved stop gives the switch's impacts", "%g" % dt)
        else:
            check(False, "the pendulum's wall as a curved stop has the switch's impacts", "%d vs %d" % (len(stop_rows), len(switch_rows)))

        # An affine stop whose impact is a reset line: the same impacts as its restitution.
        with open(os.path.join(MODELS, "impact_oscillator.vibro")) as f:
            impact = f.read()
        reset = impact.replace("stop stop: x <= sigma  restitution r", "stop stop: x <= sigma  reset v = -r*v  no sticking")
        check(reset != impact, "the impact oscillator file has the stop line the reset version replaces")
        plain = trace_events(os.path.join(MODELS, "impact_oscillator.vibro"), tmp, 10, "impact_restitution")
        mapped = trace_events(write(os.path.join(tmp, "impact_reset.vibro"), reset), tmp, 10, "impact_reset")
        if plain and len(plain) == len(mapped):
            dt = max(abs(float(a[0]) - float(b[0])) for a, b in zip(plain, mapped))
            print("  impact oscillator: reset line vs restitution, %d impacts, time difference %.3g" % (len(plain), dt), flush=True)
            check(dt <= 1e-10, "a stop's reset line gives its restitution's impacts", "%g" % dt)
        else:
            check(False, "a stop's reset line has its restitution's impacts", "%d vs %d" % (len(mapped), len(plain)))

        # A start outside the bowl: the curved stop's gap at the start, checked as a stop's.
        ini = write(os.path.join(tmp, "outside.ini"), "model = %s\n[initial]\nx0 = 0.5\ny0 = -0.9\n[run]\nmax_periods = 100\n" % MODEL)
        r = vibro("run", ini, "--output.file=" + os.path.join(tmp, "outside.h5"))
        check(r.returncode == 2 and "ball_in_bowl.vibro:%d:3: the initial state lies beyond stop 'wall'" % line_of(text, "stop wall") in r.stderr,
              "a start outside the curved stop is refused naming it", r.stderr[-800:])

        # Mistakes, refused with FILE:LINE:COL before any case runs.
        wall_line = line_of(text, "stop wall")
        stop_text = "stop wall: x^2 + y^2 <= R^2  restitution e  no sticking"
        bad = {
            "a rest on a curved stop": (stop_text.replace("  no sticking", ""), "%d:3:" % wall_line,
                                        "a rest on such a stop is not supported"),
            "a friction impulse on a curved stop": (stop_text.replace("restitution e", "restitution e  friction 0.3 on u"), "%d:" % wall_line,
                                                    "has a friction impulse and its gap is not affine"),
            "a reset that is not differentiable": (stop_text.replace("restitution e", "reset v = -e*abs(v)"), "%d:" % wall_line,
                                                   "is not differentiable in the state at abs()"),
            "a reset of an unknown state": (stop_text.replace("restitution e", "reset vv = -e*v"), "%d:" % wall_line,
                                            "did you mean 'v'"),
            "a state reset twice": (stop_text.replace("restitution e", "reset v = -e*v  reset v = v"), "%d:" % wall_line,
                                    "resets v twice"),
            "reset lines beside a restitution": (stop_text.replace("no sticking", "reset v = -v  no sticking"), "%d:" % wall_line,
                                                 "has reset lines and a restitution"),
            "reset lines with a mass": (stop_text.replace("restitution e", "reset v = -e*v  mass x = 2"), "%d:" % wall_line,
                                        "'velocity' and 'mass' have nothing to act on"),
            "an unknown name in a reset": (stop_text.replace("restitution e", "reset v = -ee*v"), "%d:" % wall_line,
                                           "unknown name 'ee'; did you mean 'e'?"),
        }
        for label, (line, place, message) in bad.items():
            path = write(os.path.join(tmp, "bad.vibro"), text.replace(stop_text, line))
            r = vibro("describe", path)
            check(r.returncode == 2 and ("bad.vibro:" + place) in r.stderr and message in r.stderr,
                  "%s is refused with FILE:LINE:COL" % label, r.stderr[-800:])
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
