"""Sweeps the model-file tests run on a model given by name or file: the impact oscillator across its
grazing and period doubling with Floquet multipliers, the friction oscillator through slip, stick-slip
and sticking. Each is a sweep file's text with a `model = {model}` line to fill in."""

IMPACT = """model = {model}
[parameters]
zeta = 0.1
omega = 0.8
r = 0.8
[axes]
sigma = linspace(0.0, 3.5, 24)
[run]
max_periods = 300
window_periods = 16
[output]
floquet = true
"""

FRICTION = """model = {model}
[axes]
mu = linspace(0.05, 0.9, 6)
omega = linspace(0.3, 1.5, 5)
[run]
max_periods = 200
"""
