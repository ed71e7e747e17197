"""Closed-form results of the conveyor paper (paper Eqs. 23-40, 64-65) used by the plotting scripts' reference lines.

The C++ counterparts are in models/conveyor/conveyor_analytic.hpp. Angles phi in degrees; c_r the
coefficient of restitution, f the forcing frequency (Hz), g gravity (m/s^2), n the number of forcing
periods per flight of the period-1 hopping orbit (n = 1 for H1).
"""
import math


def v_t_star(c_r, phi, f, g, n=1):
    """Eq. 28: feeding velocity v_T* of one-periodic hopping with n-period flights, m/s."""
    omega = 2 * math.pi * f
    return (math.pi * g * n / omega) * (1 - c_r) / (1 + c_r) / math.tan(math.radians(phi))


def a_star(c_r, phi, g, n=1):
    """Eq. 64: critical amplitude a*, the lowest a_hat at which n-period hopping exists, m/s^2."""
    return (math.pi * g * n / math.sin(math.radians(phi))) * (1 - c_r) / (1 + c_r)


def a_up(c_r, phi, g, n=1):
    """Eq. 40 via Eq. 63: upper stability limit a_up (flip) of n-period hopping, m/s^2."""
    q = (1 + c_r ** 2)
    return (g / math.sin(math.radians(phi))) * q / (1 + c_r) ** 2 * math.sqrt(
        4 + (n * math.pi * (1 - c_r ** 2) / q) ** 2)


def a_gamma1(phi, g):
    """a_hat at which Gamma = a_hat sin(phi) / g = 1 (the plate's normal acceleration equals g), m/s^2."""
    return g / math.sin(math.radians(phi))


def b_omega(a_hat, phi, f):
    """The plate's peak tangential velocity B omega = a_hat cos(phi) / omega, m/s (a_hat may be an array)."""
    omega = 2 * math.pi * f
    return a_hat * math.cos(math.radians(phi)) / omega
