"""vibro.style, the one look of every figure: units in brackets, class legends from the file's own
meanings, categorical / sequential / two-colour maps, readable symlog ticks, no rounding-noise axes."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from vibro import style  # noqa: E402

CONVEYOR = {"H<k>[~]": "period-k hopping with one impact per orbit; ~: converged slowly", "X": "no steady state: chaotic"}
IMPACT = {"(1,1)[~]": "the fundamental impacting orbit: one impact per period",
          "(<k>,<n>)[~]": "a period-k orbit with n impacts per orbit; ~: it converged slowly",
          "P<k>[~]": "a period-k orbit without impacts"}


def test_labels_carry_the_unit_in_brackets():
    assert style.label("x1", "m") == "x1 [m]"
    assert style.label("c_r", "-") == style.label("c_r", "") == style.label("c_r", "1") == "c_r [-]"


def test_titles_lose_file_names_but_keep_units():
    assert style.no_path("fig: results/conveyor_fig6.h5, a = 3 m/s^2") == "fig: conveyor_fig6, a = 3 m/s^2"
    assert style.no_path("/tmp/x/sweep.ini") == "sweep"


def test_class_meanings_from_the_legend_patterns():
    assert style.class_meaning("H12~", CONVEYOR) == "period-k hopping with one impact per orbit"
    assert style.class_meaning("X", CONVEYOR) == "no steady state"
    assert style.class_meaning("(1,1)", IMPACT) == "the fundamental impacting orbit"  # the specific key wins
    assert style.class_meaning("(2,1)~", IMPACT) == "a period-k orbit with n impacts per orbit"
    assert style.class_meaning("Z3", CONVEYOR) == ""
    labels = style.class_labels(["(2,1)", "(3,2)", "P1", "(2,1)"], IMPACT)
    assert labels == {"(2,1)": "(2,1): a period-k orbit with n impacts per orbit", "(3,2)": "(3,2)",
                      "P1": "P1: a period-k orbit without impacts"}  # a generic meaning said once


def test_class_colours_distinct_and_categorical():
    colours = style.class_colours(["S", "H1", "M1", "H1", ""])
    assert list(colours) == ["H1", "M1", "S"] and len(set(colours.values())) == 3
    cmap, norm = style.categorical_cmap(list(colours.values()))
    assert cmap.name == "categorical" and cmap.N == 3 and list(norm.boundaries) == [-0.5, 0.5, 1.5, 2.5]


def test_count_map_sequential_binary_map_two_colours():
    fig, (a, b) = plt.subplots(1, 2)
    edges = np.arange(4.0)
    mesh = style.count_mesh(a, edges, edges, np.array([[0, 1, 2], [3, 4, 30], [5, 6, 7]]), "impacts")
    assert mesh.cmap.name == "viridis" and mesh.norm.vmin >= -0.5  # from zero up, no diverging map
    flags = style.binary_mesh(b, edges, edges, np.array([[0, 1, 1], [0, 0, 1], [np.nan, 1, 0]]), ("drifting", "locked"))
    assert flags.cmap.N == 2 and [t.get_text() for t in b.get_legend().get_texts()] == ["drifting", "locked"]
    assert len(fig.axes) == 3  # one colour bar, for the count; the yes/no map has a legend instead
    plt.close(fig)


def test_symlog_ticks_do_not_crowd_zero():
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2, 3], [3e-4, 1e-6, -2e-6, -0.08])
    style.symlog(ax, "y", 1e-5)
    ticks = ax.get_yticks()
    assert 0 in ticks and all(t == 0 or abs(t) >= 1e-4 for t in ticks)
    fig.canvas.draw()
    assert all(t.get_text() for t in ax.get_yticklabels())  # 0, 10^-4, -10^-4, ...: every tick labelled
    plt.close(fig)


def test_rounding_noise_neither_drawn_nor_blowing_up_the_axis():
    fig, ax = plt.subplots()
    ax.plot(np.arange(5), 0.5 + 1e-12 * np.array([1, -1.5, 0.3, 1.7, -0.2]))
    style.tidy_limits(ax)
    lo, hi = ax.get_ylim()
    assert lo < 0.5 < hi and hi - lo > 0.01  # the value +- 5 %, not a range of 1e-12
    assert list(style.snap_zero([1e-13, 0.2, -3e-12], 1.0)) == [0.0, 0.2, 0.0]
    plt.close(fig)


def test_save_records_what_was_drawn(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    ax.set_xlabel(style.label("f", "Hz"))
    ax.set_title("results/a.h5")
    style.save(fig, tmp_path / "a.png")
    saved = style.saved[-1]
    assert (tmp_path / "a.png").stat().st_size > 0 and saved["axes"][0]["xlabel"] == "f [Hz]"
    assert saved["axes"][0]["xticks_shown"] and saved["axes"][0]["title"] == "results/a.h5"  # recorded as drawn


def test_layout_problems_catch_legends_on_the_data_and_off_the_canvas():
    fig, ax = plt.subplots()
    for k in range(6):
        ax.plot(np.arange(10), np.arange(10) * k, label="a long legend entry number %d" % k)
    ax.legend(loc="upper left")  # inside: over the lines
    problems = style.layout_problems(fig)
    assert any("covers the data area" in p for p in problems), problems
    ax.legend(loc="upper right", bbox_to_anchor=(-0.05, 1.0))  # left of the axes, past the figure's edge
    problems = style.layout_problems(fig)
    assert any("past the canvas" in p for p in problems) and any("covers the y label" in p or "past" in p
                                                                  for p in problems), problems
    plt.close(fig)


def test_legend_outside_is_clear_of_data_and_canvas_edges():
    fig, ax = plt.subplots()  # no layout engine: legend_outside sets constrained layout
    for k in range(30):
        ax.plot(np.arange(10), np.arange(10) * k, label="entry %d" % k)
    ax.set_xlabel(style.label("f", "Hz"))
    ax.set_title("a title")
    style.legend_outside(ax)
    assert style.layout_problems(fig) == [] and ax.get_legend()._ncols == 2  # 30 entries: 2 columns of <= 18
    plt.close(fig)


def test_overlapping_texts_are_reported_and_event_labels_merge():
    fig, ax = plt.subplots()
    ax.plot([0, 10], [0, 1])
    ax.text(5, 0.5, "fold")
    ax.text(5.05, 0.5, "flip")
    assert any("overlap" in p for p in style.layout_problems(fig))
    fig, ax = plt.subplots()
    ax.plot([0, 10], [0, 1])
    labels = style.event_labels(ax, [2.0, 2.1, 2.15, 7.0], ["fold", "flip", "flip", "grazing"])
    assert [t.get_text() for t in labels] == ["fold, flip x2", "grazing"]
    assert style.layout_problems(fig) == []
    plt.close("all")


def test_category_styles_never_repeat_within_a_figure():
    looks = [style.category_style(k) for k in range(len(style.PALETTE) * len(style.MARKERS))]
    assert len({(l["color"], l["marker"]) for l in looks}) == len(looks)
    assert len({(l["color"], l["hatch"]) for l in looks[:len(style.PALETTE) * len(style.HATCHES)]}) == \
        len(style.PALETTE) * len(style.HATCHES)
    assert "darkorange" not in style.PALETTE and len(set(style.PALETTE)) == len(style.PALETTE)
    assert list(style.category_styles([7, 3, 7, 1])) == [7, 3, 1]  # in order of appearance, each once


def test_a_residue_below_the_tolerance_is_drawn_flat():
    fig, ax = plt.subplots()
    ax.plot(np.arange(50), 0.0123 + 1e-8 * np.sin(np.arange(50)))  # a converged orbit's residue
    assert style.tidy_limits(ax, atol=1e-4 * 0.0123) == ["y"]
    lo, hi = ax.get_ylim()
    assert np.isclose(hi - lo, 0.1 * 0.0123)
    fig, ax = plt.subplots()
    ax.plot(np.arange(50), 1e-13 * np.cos(np.arange(50)))  # a symmetric mode beside motions of 1e-3 m
    style.tidy_limits(ax, atol=1e-9 * 1e-3, scale=1e-3)
    assert np.allclose(ax.get_ylim(), (-5e-5, 5e-5))
    fig, ax = plt.subplots()
    ax.plot(np.arange(50), 1e-3 * np.cos(np.arange(50)))  # a real motion is left alone
    assert style.tidy_limits(ax, atol=1e-9 * 1e-3, scale=1e-3) == []
    plt.close("all")


def test_parameter_text_from_the_sweep_with_units():
    import xarray as xr

    text = "model = conveyor\n# --parameters.mu=0.2\n[parameters]\nf = 50\nc_r = 0.6 # restitution\n[axes]\na_hat = 1, 2\n"
    assert style.sweep_keys(text) == ["mu", "f", "c_r"] and style.sweep_keys(text, "axes") == ["a_hat"]
    ds = xr.Dataset(coords={"f": xr.Variable((), 50.0, {"units": "Hz"}), "c_r": xr.Variable((), 0.6, {"units": "-"}),
                            "mu": xr.Variable((), 0.2, {"units": ""}), "phi": xr.Variable((), 12.0, {"units": "deg"})},
                    attrs={"sweep_text": text})
    assert style.parameter_text(ds) == "mu = 0.2, f = 50 Hz, c_r = 0.6"  # what the sweep sets, units where they exist


def test_save_records_layout_problems(tmp_path):
    fig, ax = plt.subplots()
    for k in range(8):
        ax.plot(np.arange(10), np.arange(10) * k, label="entry %d" % k)
    ax.legend(loc="center")
    style.save(fig, tmp_path / "inside.png")
    assert any("covers the data area" in p for p in style.saved[-1]["layout"])
    fig, ax = plt.subplots()
    for k in range(8):
        ax.plot(np.arange(10), np.arange(10) * k, label="entry %d" % k)
    style.legend_outside(ax)
    style.save(fig, tmp_path / "outside.png")
    assert style.saved[-1]["layout"] == []
