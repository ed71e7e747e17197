#!/usr/bin/env python3
"""Ueda's Duffing oscillator x'' + k x' + x^3 = B cos t (k = 0.1), solved independently of vibro: where its
symmetric period-1 orbit loses its symmetry as B grows from 2. The equations are unchanged by
(x, v, t) -> (-x, -v, t + pi), so a symmetric orbit is a fixed point of G(x) = -P_pi(x), the flow over half
the period mirrored; the full-period map is G o G. The symmetry breaks (a pitchfork of the full-period map,
whose multiplier goes through +1) where a multiplier of G goes through -1: the root of det(I + G') in B.
Classical Runge-Kutta (4th order) with the variational equations, 1500 steps a half period (3000 gives
the same root to 1e-10), Newton on G(x) - x, the root bisected to 1e-10. Prints B*, the orbit's state at
t = 0 there, and G's multipliers along the way. tests/engine/test_half_period_symmetry.cpp and
docs/validation.md quote it. Pure Python, no packages; about a minute.

    python3 bench/duffing_symmetry_breaking.py [steps per half period]
"""
import cmath
import math
import sys

K, STEPS = 0.1, int(sys.argv[1]) if len(sys.argv) > 1 else 1500


def rhs(t, y, b):
    x, v, p11, p12, p21, p22 = y
    stiffness = 3 * x * x
    return [v, b * math.cos(t) - K * v - x ** 3, p21, p22, -stiffness * p11 - K * p21, -stiffness * p12 - K * p22]


def mirrored_half_period(x, v, b):
    """G(x, v) and its Jacobian."""
    h, t, y = math.pi / STEPS, 0.0, [x, v, 1.0, 0.0, 0.0, 1.0]
    for _ in range(STEPS):
        k1 = rhs(t, y, b)
        k2 = rhs(t + h / 2, [y[i] + h / 2 * k1[i] for i in range(6)], b)
        k3 = rhs(t + h / 2, [y[i] + h / 2 * k2[i] for i in range(6)], b)
        k4 = rhs(t + h, [y[i] + h * k3[i] for i in range(6)], b)
        y = [y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(6)]
        t += h
    return -y[0], -y[1], [[-y[2], -y[3]], [-y[4], -y[5]]]


def symmetric_orbit(x, v, b):
    for _ in range(30):
        gx, gv, j = mirrored_half_period(x, v, b)
        a11, a12, a21, a22 = j[0][0] - 1, j[0][1], j[1][0], j[1][1] - 1
        det = a11 * a22 - a12 * a21
        dx, dv = (-(gx - x) * a22 + (gv - v) * a12) / det, (-a11 * (gv - v) + a21 * (gx - x)) / det
        x, v = x + dx, v + dv
        if abs(dx) + abs(dv) < 1e-12:
            break
    return x, v, mirrored_half_period(x, v, b)[2]


def multipliers(j):
    trace, det = j[0][0] + j[1][1], j[0][0] * j[1][1] - j[0][1] * j[1][0]
    root = cmath.sqrt(trace * trace / 4 - det)
    return trace / 2 + root, trace / 2 - root


def main():
    x, v = 1.820413, 0.332797  # the symmetric orbit at B = 2
    for b in (2.0, 2.1, 2.2, 2.25, 2.3):
        x, v, j = symmetric_orbit(x, v, b)
        print("B = %.2f: x = %.9f, v = %.9f, multipliers of G %s" % (b, x, v, multipliers(j)))
    state = [1.881235, 0.328345]

    def f(b):
        state[0], state[1], j = symmetric_orbit(state[0], state[1], b)
        return 1 + j[0][0] + j[1][1] + (j[0][0] * j[1][1] - j[0][1] * j[1][0])  # det(I + G')

    lo, hi = 2.25, 2.3
    f_lo = f(lo)
    while hi - lo > 1e-10:
        mid = 0.5 * (lo + hi)
        f_mid = f(mid)
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    print("symmetry breaking at B* = %.10f (x, v) = (%.9f, %.9f)" % (0.5 * (lo + hi), state[0], state[1]))


if __name__ == "__main__":
    main()
