#!/usr/bin/python3
"""Print the z0 axis of the Fig. 16 sweep (the conveyor paper): the union of linspace(0, z0max, 21) over
the maximum initial heights z0max (mm), in metres, as an explicit comma list for the [axes] section.

usage: make_fig16_axis.py [Z0MAX_MM ...]      (default: 0.5 1 2 3 5 7.5 10)

Values closer than 1e-12 m are merged; each value is printed with 9 significant digits, which reproduces
the linspace values to within 1e-18 m (plot_critical_amplitude.py matches them with a 1e-12 tolerance).
"""
import sys

import numpy as np


def union(z0max_mm, n=21, tol=1e-12):
    vals = sorted(v for zm in z0max_mm for v in np.linspace(0.0, zm * 1e-3, n))
    out = []
    for v in vals:
        if not out or abs(v - out[-1]) > tol:
            out.append(float(v))
    return out


def main():
    z0max = [float(x) for x in sys.argv[1:]] or [0.5, 1, 2, 3, 5, 7.5, 10]
    vals = union(z0max)
    text = ", ".join("%.9g" % v for v in vals)
    # check the round trip
    back = [float(x) for x in text.split(",")]
    for zm in z0max:
        for v in np.linspace(0.0, zm * 1e-3, 21):
            assert min(abs(v - b) for b in back) <= 1e-12, (zm, v)
    print("# z0 axis: union of linspace(0, z0max, 21) for z0max = %s mm: %d values"
          % (", ".join("%g" % z for z in z0max), len(vals)))
    print("z0 = " + text)


if __name__ == "__main__":
    main()
