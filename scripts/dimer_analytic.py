"""Closed-form drift estimate of the dimer (Liu, Zhao and Brogliato 2008), for the plot scripts.

The same formulas as models/dimer/dimer_drift_formula.cpp (tested there against the reference tables);
kappa = <x> f^2 / g * 100 per cycle, a function of A_r, Gamma, the contact slip coefficient mu and the
impact phase alpha (rad) before the plate's highest point.
"""
import math


def _coefficients(aspect_ratio, mu):
    B = 2.0 * (aspect_ratio - 1.0)  # B_r = l / r
    return mu * (2.8 + 0.5 * B * B), B, 0.8 + B * B, mu * B


def kappa_forward(aspect_ratio, gamma, mu, alpha):
    """Forward drift (A_r < 5), re-derived with the 1/2 of Eqs. 133 and 136."""
    a, b, c, d = _coefficients(aspect_ratio, mu)
    q = a * c - b * d
    return 50.0 / (math.pi ** 2 * (c * c - d * d)) * (
        (1 + math.cos(alpha)) * q * gamma + 0.5 * (math.pi ** 2 + alpha ** 2) * q + math.pi * alpha * (b * c - a * d))


def kappa_backward(aspect_ratio, gamma, mu, alpha):
    """Backward drift (A_r > 5), Eq. 141."""
    a, b, c, d = _coefficients(aspect_ratio, mu)
    return 25.0 * (a - b) / (math.pi ** 2 * (c - d)) * ((1 + math.cos(alpha)) * gamma + 0.5 * (math.pi - alpha) ** 2)
