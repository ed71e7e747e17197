#!/usr/bin/env python3
"""Checks a grazing curve of Model A (gap_oscillator) in (lambda, omega) or (omega, lambda) against the
closed form of the impact-free response: the orbit grazes where lambda * |X1 - X2| = D, with
X = (K - omega^2 M + i omega C)^-1 F0 per unit lambda (models/two_body/linear_response).

usage: check_gap_oscillator_grazing_curve.py CURVE.h5
Prints the number of points, the largest |lambda - lambda*(omega)| and the ends of the curve.
"""
import sys

import h5py
import numpy as np


def grazing_lambda(p, omega):
    w1, w2, xi1, xi2 = p["omega1"], p["omega2"], p["xi1"], p["xi2"]
    m1 = p["m1"]
    m2 = p["m2"]
    k1, k2 = m1 * w1 ** 2, m2 * w2 ** 2
    c1, c2 = 2 * m1 * w1 * xi1, 2 * m2 * w2 * xi2
    Z = np.array([[k1 + k2 - omega ** 2 * m1 + 1j * omega * (c1 + c2), -k2 - 1j * omega * c2],
                  [-k2 - 1j * omega * c2, k2 - omega ** 2 * m2 + 1j * omega * c2]])
    X = np.linalg.solve(Z, np.array([p["F0"], 0.0]))
    return p["D"] / abs(X[0] - X[1])


def main():
    with h5py.File(sys.argv[1], "r") as f:
        p = {k: float(f["parameters"][k][()]) for k in f["parameters"] if f["parameters"][k].dtype.kind == "f"}
        names = [f["curve/parameter_1"].attrs["name"], f["curve/parameter_2"].attrs["name"]]
        names = [n.decode() if isinstance(n, bytes) else n for n in names]
        values = {names[0]: f["curve/parameter_1"][...], names[1]: f["curve/parameter_2"][...]}
        end = f.attrs["end"]
        end = end.decode() if isinstance(end, bytes) else end
    lam, om = values["lambda"], values["omega"]
    error = max(abs(l - grazing_lambda(p, w)) for l, w in zip(lam, om))
    print(f"{len(lam)} points, from (omega, lambda) = ({om[0]:.10g}, {lam[0]:.10g}) to ({om[-1]:.10g}, {lam[-1]:.10g});"
          f" largest |lambda - lambda*(omega)| = {error:.3g}; end: {end}")

if __name__ == "__main__":
    main()
