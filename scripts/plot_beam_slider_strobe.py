#!/usr/bin/python3
"""Stroboscopic time series and Poincare sections of the beam with a sliding mass (Krack et al. 2017, Figs. 9,
14, 15; results R11 of docs/models/beam_slider.md, R16-R17).

usage: plot_beam_slider_strobe.py IN.h5 OUT.png

For every case of IN.h5 (stored with output.strobe_points = window) draws x_C / l and q_B1 against
time at t = n T_ex over the stored window (left), and the Poincare section q_B1 against z_C (right).
Prints per case: the x_C range over the window and the frequency of the largest peak of the x_C
spectrum (the modulation frequency for an amplitude-modulated run, R16).
"""
import sys

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, __import__("os").path.dirname(__file__))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = vibro_results.load(sys.argv[1])
    samples = vibro_results.strobe(data)
    if samples is None:
        sys.exit("%s has no stroboscopic samples (run with output.strobe_points = window)" % sys.argv[1])
    values, offsets = samples["values"], samples["offsets"]
    periods_run = data["dataset"]["periods_run"].values.reshape(-1)
    unit = samples["units"]
    length = float(data["params"].get("l", 0.06))
    fs = vibro_results.case_param(data, "f", np.arange(data["n"]))
    fig, axes = plt.subplots(data["n"], 2, figsize=(11, 3.2 * data["n"]), squeeze=False)
    for i in range(data["n"]):
        v = values[offsets[i]:offsets[i + 1]]
        if len(v) < 2:
            continue
        T = 1.0 / fs[i]
        t = (periods_run[i] - len(v) + 1 + np.arange(len(v))) * T
        label = ", ".join("%s = %g" % (a, data["coords"][a][i]) for a in data["order"])
        x = v[:, 5] / length
        ax = axes[i][0]
        ax.plot(t, x, lw=0.6, color="C0")
        ax.set_ylabel(style.label("x_C / l", "-"), color="C0")
        ax.set_title(label, fontsize=8)
        ax.set_xlabel("t [s]")
        ax2 = ax.twinx()
        ax2.xaxis.set_visible(False)  # the twin shares the time axis of ax
        ax.set_zorder(ax2.get_zorder() + 1)  # x_C / l in front of the q_B1 band
        ax.patch.set_visible(False)
        ax2.plot(t, v[:, 0], lw=0.3, color="C1", alpha=0.6)
        ax2.set_ylabel(style.label(samples["columns"][0], unit[samples["columns"][0]]), color="C1")
        axes[i][1].plot(v[:, 6], v[:, 0], ".", ms=1)
        axes[i][1].set_xlabel(style.label(samples["columns"][6], unit[samples["columns"][6]]))
        axes[i][1].set_ylabel(style.label(samples["columns"][0], unit[samples["columns"][0]]))
        spectrum = np.abs(np.fft.rfft(x - x.mean()))
        freq = np.fft.rfftfreq(len(x), T)
        peak = freq[1 + np.argmax(spectrum[1:])]
        print("%s: x_C / l in [%.3f, %.3f] over %.1f s; largest x_C spectral peak at %.4f Hz" %
              (label or "case %d" % i, x.min(), x.max(), t[-1] - t[0], peak))
    style.save(fig, sys.argv[2])


if __name__ == "__main__":
    main()
