#!/usr/bin/env python3
"""Den Hartog's dry-friction oscillator x'' + x + mu sgn(x') = F cos(w t) near the change from the orbit that
stops once inside each half period to the one that sticks at each reversal (mu = 0.3, F = 1, omega about
0.48072), solved independently of vibro: the motion in closed form piece by piece (slipping: a linear
oscillator under a constant friction force; sticking: x constant while |F cos(w t) - x| <= mu), stops and
releases located by scanning and bisection on the closed forms. Every orbit that sticks passes a release,
whose state is fixed by its time alone: the orbits are the cycles of the map h from a forward release's
time to the next release's (a backward release at t taken as a forward one at t - T/2, by the symmetry
(x, v, t) -> (-x, -v, t + T/2)). Prints, per omega, the symmetric orbit (a fixed point of h), its route
per half period (s: stick, r: reversal without stopping; release last), its stick, 1 + h' (the
multipliers are 0 and h'^2) and whether h(h(.)) has a 2-cycle (an asymmetric orbit) within 0.13 of it.
docs/validation.md quotes its output. Pure Python, no packages; under a second per omega.

    python3 bench/dry_friction_window.py 0.4807 0.48072 0.48073
"""
import math
import sys

MU, FF = 0.3, 1.0

def bisect(f, a, b, fa=None, tol=1e-15):
    fa = f(a) if fa is None else fa
    for _ in range(200):
        m = 0.5 * (a + b)
        fm = f(m)
        if (fm > 0) == (fa > 0): a, fa = m, fm
        else: b = m
        if b - a < tol: break
    return 0.5 * (a + b)

class Osc:
    def __init__(s, w, mu=MU, F=FF):
        s.w, s.mu, s.F = w, mu, F
        s.T = 2 * math.pi / w
        s.B = F / (1 - w * w)
    def slip(s, sg, t0, x0, v0, t):
        B, w = s.B, s.w
        C1 = x0 - (B * math.cos(w * t0) - sg * s.mu)
        C2 = v0 + B * w * math.sin(w * t0)
        c, sn = math.cos(t - t0), math.sin(t - t0)
        return (B * math.cos(w * t) - sg * s.mu + C1 * c + C2 * sn, -B * w * math.sin(w * t) - C1 * sn + C2 * c)
    def halt(s, sg, t0, x0, v0, t_end, n=2000):
        """first time in (t0, t_end] where sg*v reaches 0 from above, or None"""
        dt = s.T / n
        vf = lambda t: sg * s.slip(sg, t0, x0, v0, t)[1]
        # a slip that starts at rest may end again very soon (near a stick at the reversal): look at
        # geometrically growing times first
        t = t0
        if abs(v0) < 1e-12:
            seen = False
            for k in range(60, 0, -1):
                tk = t0 + dt * 2.0 ** (-k)
                vk = vf(tk)
                if vk > 1e-13: seen, t = True, tk   # above the closed form's rounding
                elif seen and vk <= 0: return bisect(vf, t, tk)
            if not seen: t = t0 + dt * 2.0 ** (-1)
        while t < t_end:
            tn = min(t + dt, t_end)
            if vf(tn) <= 0:
                return bisect(vf, t, tn)
            t = tn
        return None
    def release(s, th, xh):
        """first release after th from rest at xh: (time, direction) or (None, 0)"""
        F, w, mu = s.F, s.w, s.mu
        best = (None, 0)
        for a, d in (((xh + mu) / F, +1), ((xh - mu) / F, -1)):
            if abs(a) > 1: continue
            ph = math.acos(a)
            base = -ph if d > 0 else ph  # forwards: cos rising through a (sin < 0); backwards: falling (sin > 0)
            k = math.ceil((w * th - base) / (2 * math.pi) - 1e-12)
            t = (base + 2 * math.pi * k) / w
            if t <= th + 1e-13: t += s.T
            if best[0] is None or t < best[0]: best = (t, d)
        return best
    def force(s, t, x):
        return s.F * math.cos(s.w * t) - x
    def run(s, t0, x0, v0, mode, t_end, log=None, stop_at_release=False):
        """mode: +1/-1 slipping, 0 stuck. Returns (t, x, v, mode) at t_end (or at the first release)."""
        t, x, v = t0, x0, v0
        while True:
            if mode == 0:
                tr, d = s.release(t, x)
                if tr is None or tr > t_end:
                    return (t_end, x, 0.0, 0)
                t, v, mode = tr, 0.0, d
                if log is not None: log.append(('release', t, x, d))
                if stop_at_release: return (t, x, 0.0, d)
                continue
            th = s.halt(mode, t, x, v, t_end)
            if th is None:
                xe, ve = s.slip(mode, t, x, v, t_end)
                return (t_end, xe, ve, mode)
            xh, _ = s.slip(mode, t, x, v, th)
            f = s.force(th, xh)
            t, x, v = th, xh, 0.0
            if abs(f) <= s.mu:
                mode = 0
                if log is not None: log.append(('stick', t, x, None))
            else:
                mode = -mode
                if log is not None: log.append(('reverse', t, x, mode))
    def settle_mode(s, t, x, v):
        if v > 0: return 1
        if v < 0: return -1
        f = s.force(t, x)
        return 0 if abs(f) <= s.mu else (1 if f > s.mu else -1)
    def period_map(s, x, v, mode=None, log=None):
        if mode is None: mode = s.settle_mode(0.0, x, v)
        t, x, v, m = s.run(0.0, x, v, mode, s.T, log)
        return x, v, m
    # release map with the symmetry (x, v, t) -> (-x, -v, t + T/2): a backward release at psi is a forward one at psi - T/2
    def h(s, phi, max_periods=6):
        x0 = s.F * math.cos(s.w * phi) - s.mu
        out = s.run(phi, x0, 0.0, 1, phi + max_periods * s.T, stop_at_release=True)
        if out[0] >= phi + max_periods * s.T - 1e-12 and out[3] != 0: return None, 0, out[0] - phi
        return (out[0] if out[3] > 0 else out[0] - s.T / 2), out[3], out[0] - phi

def wrap(d, T):
    return (d + T / 2) % T - T / 2


def symmetric_orbit(o, guess):
    """the fixed point of h near guess (bisection on h(phi) - phi)"""
    f = lambda p: wrap(o.h(p)[0] - p, o.T)
    return bisect(f, guess - 0.01, guess + 0.01, tol=1e-15)


def half_period(o, p):
    """the events from a forward release at p to the next release"""
    log = []
    o.run(p, o.F * math.cos(o.w * p) - o.mu, 0.0, 1, p + o.T, log, stop_at_release=True)
    return log


def main(omegas):
    for w in omegas:
        o = Osc(w)
        p = symmetric_orbit(o, 6.6613 + (0.48072 - w) * 77.5)
        log = half_period(o, p)
        route = ''.join(e[0][0] for e in log)
        stick = [e for e in log if e[0] == 'stick'][0]
        stuck_for = log[-1][1] - stick[1]
        back = (stick[1] - log[0][1]) if log[0][0] == 'reverse' else 0.0
        e = 1e-6
        one_plus = (o.h(p + e)[0] - o.h(p - e)[0]) / (2 * e) + 1
        r2 = lambda q: wrap(o.h(o.h(q)[0])[0] - q, o.T)
        ds = [s * 10 ** (k / 8.0) for s in (-1, 1) for k in range(-48, -7)]
        against = sum(1 for d in ds if (r2(p + d) > 0) == (d > 0))
        print('omega=%.8f release phi*=%.10f route %s, slips back %.3e, sticks %.6f at |x| = %.9f; '
              '1 + h\' = %.3e; h(h(phi* + d)) - phi* - d has the sign of d at %d of %d |d| in [1e-6, 0.13]'
              % (w, p, route, back, stuck_for, abs(stick[2]), one_plus, against, len(ds)), flush=True)


if __name__ == '__main__':
    main([float(a) for a in sys.argv[1:]] or [0.4807, 0.48072, 0.48073])
