"""One look for every figure of the repository (scripts/plot_*.py and vibro.plot).

    from vibro import style
    style.setup()                                   # scripts: Agg backend and the shared rcParams
    ax.set_xlabel(style.label("a_hat", "m/s^2"))    # "a_hat [m/s^2]"; dimensionless: "c_r [-]"
    ax.set_ylabel(style.variable_label(ds.mean_velocity))   # from the file's own unit attribute
    colours = style.class_colours(codes)            # categorical: one distinct colour per class code
    style.class_legend(ax, colours, ds.attrs["legend"]["classes"])   # "H1: period-1 hopping ..."
    style.count_mesh(ax, xe, ye, counts, "impacts")  # sequential colours, integer ticks
    style.binary_mesh(ax, xe, ye, locked, ("drifting", "locked"))   # two colours and a legend
    style.symlog(ax, "y", linthresh)                # readable ticks: 0 and whole decades, none crowded
    style.tidy_limits(ax)                           # no axis blown up around rounding noise
    style.save(fig, path)                           # one dpi, one layout; records what was drawn

Every axis label carries its unit in brackets ("[-]" declares a dimensionless quantity); titles name
the model and the parameters, never a file. `saved` lists a description of every figure written
(labels, titles, colour maps), which the figure test checks.
"""
import re

import numpy as np

RCPARAMS = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "figure.constrained_layout.use": True,  # panels and colour bars aligned, nothing clipped
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 7.5,
    "legend.framealpha": 0.85,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.formatter.useoffset": False,  # "0.5" rather than "1e-12 + 0.5"
    "axes.formatter.limits": (-4, 5),
    "image.cmap": "viridis",
    "lines.markersize": 3,
    "axes.grid": False,
}
DIMENSIONLESS = ("", "-", "1")
NOT_OK_COLOURS = {"infeasible": "0.6", "failed": "black", "not run": "white"}
# Tableau 10 then its light shades: distinct colours for up to 20 classes, then repeated.
_QUALITATIVE = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink",
                "tab:olive", "tab:cyan", "gold", "navy", "lime", "teal", "maroon", "magenta",
                "darkorange", "slateblue", "yellowgreen", "crimson", "sienna")
FILE_NAME = re.compile(r"(?:[\w.~-]*/)*([\w-][\w.-]*?)\.(?:h5|ini|png)\b")  # a result, sweep or image file
INSET = "inset"  # the label of an inset that zooms on its panel: same quantities, so no axis labels of its own
saved = []  # one description per figure written by save() (what the figure test checks)


def setup():
    """For scripts: the Agg backend (no display needed) and the shared rcParams."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update(RCPARAMS)


def unit_text(unit):
    """The unit as shown between brackets: '-' for a dimensionless quantity ('', '-' or '1')."""
    unit = (unit or "").strip()
    return "-" if unit in DIMENSIONLESS else unit


def label(name, unit):
    """An axis label: the name and its unit in brackets, 'x1 [m]'; '[-]' for a dimensionless one."""
    return "%s [%s]" % (name, unit_text(unit))


def variable_unit(variable):
    """The unit of a Dataset variable from the file's own attributes; a counter (a `meaning` and no unit)
    is a number of events, dimensionless."""
    return variable.attrs.get("units", variable.attrs.get("unit", ""))


def variable_label(variable, name=None):
    """label() of a vibro.open variable, with its unit from the file."""
    return label(name or variable.name, variable_unit(variable))


def no_path(text):
    """A title without file names: 'results/fig6.h5' becomes 'fig6' (the figure says what, not where;
    units such as m/s are left alone)."""
    return FILE_NAME.sub(lambda m: m.group(1), text)


def title(ax, text, **kwargs):
    ax.set_title(no_path(text), **kwargs)


# ---- categorical colours for class codes -------------------------------------------------------

def distinct_colours(n):
    """n qualitative colours, distinct up to 20 (then repeated)."""
    return [_QUALITATIVE[k % len(_QUALITATIVE)] for k in range(n)]


def class_colours(codes):
    """code -> colour, one distinct qualitative colour per class code (sorted, so the same set of codes
    always gets the same colours); '' (a case that is not ok) is not coloured here."""
    codes = sorted(c for c in set(codes) if c)
    return dict(zip(codes, distinct_colours(len(codes))))


def _pattern(key):
    """A /legend/classes key as a regular expression: '<k>' (any placeholder) stands for a number and
    '[~]' for an optional '~', so 'H<k>[~]' matches 'H1' and 'H12~', '(<k>,<n>)[~]' matches '(2,1)'."""
    text = ""
    for token in re.split(r"(<\w+>|\[~\])", key):
        text += r"\d+" if re.fullmatch(r"<\w+>", token) else "~?" if token == "[~]" else re.escape(token)
    return re.compile(text + "$")


def class_meaning(code, classes, short=True, width=60):
    """The meaning of a class code from the file's legend (/legend/classes, code pattern -> meaning);
    '' if the legend has none. The most specific key wins ('(1,1)[~]' before '(<k>,<n>)[~]'). short:
    up to the first ':' or ';', at most `width` characters (what a legend has room for)."""
    keys = [key for key in (classes or {}) if key == code or _pattern(key).match(code)]
    if not keys:
        return ""
    meaning = classes[max(keys, key=lambda k: len(re.sub(r"<\w+>|\[~\]", "", k)))]
    if not short:
        return meaning
    meaning = re.split(r"[:;]", meaning)[0].strip()
    return meaning if len(meaning) <= width else meaning[:width].rsplit(" ", 1)[0] + " ..."


def class_labels(codes, classes, width=60):
    """code -> legend label 'H1: period-k hopping ...': the meaning given once per legend key, at the
    first code it covers (the next codes of a generic pattern such as (<n>,<k>) just show the code)."""
    labels, explained = {}, set()
    for code in codes:
        if code in labels:
            continue
        keys = [key for key in (classes or {}) if key == code or _pattern(key).match(code)]
        key = max(keys, key=lambda k: len(re.sub(r"<\w+>|\[~\]", "", k))) if keys else None
        meaning = class_meaning(code, classes, width=width) if key not in explained else ""
        if key is not None:
            explained.add(key)
        labels[code] = code + (": " + meaning if meaning else "")
    return labels


def class_legend(ax, colours, classes=None, counts=None, not_ok=None, **kwargs):
    """A legend naming each class code and its meaning (from /legend/classes): 'H1  period-1 hopping ...
    (175)' with the number of cases when `counts` is given; `not_ok` adds the grey/black/white entries
    of the cases that are not ok (name -> count)."""
    from matplotlib.patches import Patch

    handles = []
    labels = class_labels(list(colours), classes)
    for code, colour in colours.items():
        text = labels[code]
        if counts is not None:
            text += " (%d)" % counts.get(code, 0)
        handles.append(Patch(facecolor=colour, edgecolor="0.3", linewidth=0.5, label=text))
    for name, n in (not_ok or {}).items():
        if n:
            handles.append(Patch(facecolor=NOT_OK_COLOURS[name], edgecolor="0.3", linewidth=0.5,
                                 label="%s (%d)" % (name, n)))
    kwargs.setdefault("fontsize", "x-small")
    return ax.legend(handles=handles, **kwargs)


def categorical_cmap(colours):
    """A ListedColormap and BoundaryNorm drawing the integers 0..n-1 in the n given colours."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    cmap = ListedColormap(list(colours), name="categorical")
    return cmap, BoundaryNorm(np.arange(len(colours) + 1) - 0.5, cmap.N)


# ---- maps of counts and of yes/no ---------------------------------------------------------------

def count_mesh(ax, xedges, yedges, counts, name, unit="-", cmap="viridis"):
    """A map of a count (a number of impacts, a period, a number of attractors): sequential colours from
    0 (or the smallest count) up, one colour band per integer when there are few, a colour bar with
    whole-number ticks. Never a diverging map: a count has no sign."""
    from matplotlib.colors import BoundaryNorm
    from matplotlib.ticker import MaxNLocator

    values = np.ma.masked_invalid(np.asarray(counts, dtype=float))
    lo = float(values.min()) if values.count() else 0.0
    hi = float(values.max()) if values.count() else 1.0
    lo, hi = min(lo, 0.0) if lo >= 0 else lo, max(hi, lo + 1)
    import matplotlib

    colormap = matplotlib.colormaps[cmap]
    norm = BoundaryNorm(np.arange(np.floor(lo), np.ceil(hi) + 2) - 0.5, colormap.N) if hi - lo <= 24 else None
    mesh = ax.pcolormesh(xedges, yedges, values, cmap=colormap, norm=norm, vmin=None if norm else lo,
                         vmax=None if norm else hi, shading="flat")
    bar = ax.figure.colorbar(mesh, ax=ax, label=label(name, unit))
    bar.locator = MaxNLocator(integer=True)
    bar.update_ticks()
    return mesh


def binary_mesh(ax, xedges, yedges, flags, names, colours=("tab:orange", "tab:blue"), **legend):
    """A yes/no map (flags 0/1, NaN where unknown) in two colours with a legend naming both classes
    (names[0] for 0, names[1] for 1), not a continuous colour bar."""
    from matplotlib.patches import Patch

    cmap, norm = categorical_cmap(colours)
    values = np.ma.masked_invalid(np.asarray(flags, dtype=float))
    mesh = ax.pcolormesh(xedges, yedges, values, cmap=cmap, norm=norm, shading="flat")
    handles = [Patch(facecolor=c, edgecolor="0.3", linewidth=0.5, label=n) for c, n in zip(colours, names)]
    legend.setdefault("fontsize", "x-small")
    ax.legend(handles=handles, **legend)
    return mesh


# ---- axes: symlog ticks and rounding noise ------------------------------------------------------

def symlog(ax, axis, linthresh, per_side=4):
    """A symmetric log scale with ticks at 0 and whole decades beyond the linear band (at most
    `per_side` per sign, every other decade if more), labelled 0, 10^k, -10^k: no tick crowds 0."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    getattr(ax, "set_%sscale" % axis)("symlog", linthresh=linthresh)
    lo, hi = getattr(ax, "get_%slim" % axis)()
    top = max(abs(lo), abs(hi), linthresh * 10)
    first, last = int(np.ceil(np.log10(linthresh))) + 1, int(np.floor(np.log10(top)))
    decades = list(range(first, last + 1)) or [first]
    stride = int(np.ceil(len(decades) / per_side))
    decades = decades[::-1][::stride][::-1]
    ticks = [0.0]
    for k in decades:
        if hi >= 10.0 ** k:
            ticks.append(10.0 ** k)
        if lo <= -(10.0 ** k):
            ticks.append(-(10.0 ** k))
    axis_object = getattr(ax, "%saxis" % axis)
    axis_object.set_major_locator(FixedLocator(sorted(ticks)))
    axis_object.set_minor_locator(NullLocator())
    axis_object.set_major_formatter(FuncFormatter(
        lambda v, _: "0" if v == 0 else "%s$10^{%d}$" % ("-" if v < 0 else "", round(np.log10(abs(v))))))


def snap_zero(values, scale, rtol=1e-9):
    """Values that are zero up to rounding (|v| <= rtol * scale, scale being the quantity's natural size)
    as exact zeros, so that a figure draws them as zero."""
    values = np.array(values, dtype=float)
    values[np.abs(values) <= rtol * abs(scale)] = 0.0
    return values


def tidy_limits(ax, rtol=1e-9):
    """Axis limits that rounding noise cannot blow up: where the data on an axis span less than rtol of
    their size (a constant up to rounding, e.g. 0.5 +- 1e-12), the axis shows the value +- 5 % (+- 1
    around zero) instead of a range of 1e-12."""
    for axis in ("x", "y"):
        lo, hi = getattr(ax, "get_%slim" % axis)()
        data = _data_range(ax, axis)
        if data is None:
            continue
        dlo, dhi = data
        size = max(abs(dlo), abs(dhi))
        if dhi - dlo <= rtol * size or size <= 1e-300 or (dhi - dlo) <= 1e-12 * max(size, 1.0):
            centre = 0.5 * (dlo + dhi)
            half = 0.05 * abs(centre) if abs(centre) > 1e-9 else 1.0
            if getattr(ax, "get_%sscale" % axis)() == "log":
                getattr(ax, "set_%slim" % axis)(centre / 2, centre * 2)
            else:
                getattr(ax, "set_%slim" % axis)(centre - half, centre + half)


def _data_range(ax, axis):
    """The finite data range along an axis of the lines and scatter collections drawn on ax."""
    column = 0 if axis == "x" else 1
    parts = []
    for line in ax.get_lines():
        values = np.asarray(line.get_xdata() if axis == "x" else line.get_ydata(), dtype=float)
        if values.size > 1 or not line.get_label().startswith("_"):  # skip axhline-style guides
            transform_is_data = line.get_transform().contains_branch(ax.transData)
            if transform_is_data and values.size > 1:
                parts.append(values)
    for collection in ax.collections:
        offsets = np.asarray(collection.get_offsets(), dtype=float)
        if offsets.ndim == 2 and len(offsets) and not np.ma.isMaskedArray(collection.get_offsets()):
            parts.append(offsets[:, column])
    if not parts:
        return None
    values = np.concatenate(parts)
    values = values[np.isfinite(values)]
    return (float(values.min()), float(values.max())) if values.size else None


# ---- writing ------------------------------------------------------------------------------------

def _numbers_shown(ticks):
    """Whether an axis shows numbers (a quantity, which needs a unit) rather than names (categories)."""
    texts = [t.get_text().replace("\\mathdefault", "").replace("$", "") for t in ticks if t.get_visible() and t.get_text()]
    return bool(texts) and all(NUMBER.fullmatch(t) and re.search("[0-9]", t) for t in texts)


NUMBER = re.compile(r"[\s\u2212+\-0-9.,eE^{}()\\times]*")  # 0.5, -1e-3, 10^{-4}, 2\times10^{-3}


def describe(fig):
    """What a figure shows, for checks: per axes its labels, title, scales and the colour maps used
    ('categorical' for class maps), plus the figure's suptitle."""
    axes = []
    for ax in fig.axes:
        maps, norms = [], []
        for artist in list(ax.collections) + list(ax.images):
            cmap = getattr(artist, "cmap", None)
            if cmap is not None and getattr(artist, "get_array", lambda: None)() is not None:
                maps.append(cmap.name)
                norms.append((cmap.name, float(artist.norm.vmin), float(artist.norm.vmax)))
        is_colorbar = hasattr(ax, "_colorbar") or ax.get_label() == "<colorbar>"
        axes.append({
            "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(), "title": ax.get_title(),
            "xticks_shown": ax.xaxis.get_visible() and _numbers_shown(ax.get_xticklabels()),
            "yticks_shown": ax.yaxis.get_visible() and _numbers_shown(ax.get_yticklabels()),
            "xscale": ax.get_xscale(), "yscale": ax.get_yscale(), "colour_maps": maps, "norms": norms, "colorbar": is_colorbar,
            "visible": ax.get_visible() and ax.axison, "inset": ax.get_label() == INSET,
        })
    suptitle = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) is not None else ""
    return {"axes": axes, "suptitle": suptitle}


def save(fig, path):
    """Writes the figure (PNG at the shared dpi) and closes it."""
    import matplotlib.pyplot as plt

    fig.savefig(path)  # draws the figure: describe() reads the tick labels that drawing made
    description = describe(fig)
    description["path"] = str(path)
    saved.append(description)
    plt.close(fig)
