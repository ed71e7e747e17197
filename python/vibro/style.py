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
    style.tidy_limits(ax, atol=tol * scale)         # no axis blown up around rounding noise or a residue
    style.legend_outside(ax, handles)               # beside the axes, never on the data or off the canvas
    look = style.category_style(k)                  # colour, then marker / hatch past the nine colours
    ax.set_title(style.parameter_text(ds))          # "f = 50 Hz, c_r = 0.6": the sweep's fixed parameters
    style.save(fig, path)                           # one dpi, one layout; records what was drawn
    style.layout_problems(fig)                      # what a reader would see cut off or covered

Every axis label carries its unit in brackets ("[-]" declares a dimensionless quantity); titles name
the model and the parameters, never a file. `saved` lists a description of every figure written
(labels, titles, colour maps, layout problems), which the figure test checks.
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
# Tableau 10 without its grey (grey, black and white mark the cases that are not ok): nine colours that
# neighbours tell apart, colour-blind friendly. Past nine categories the colours come round again with
# the next marker (points) or hatch (areas), so no two categories of a figure look the same.
PALETTE = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink",
           "tab:olive", "tab:cyan")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
HATCHES = ("", "////", "\\\\\\\\", "xxxx", "....", "++++", "----", "||||", "oo", "**", "OO", "..//")
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


def suptitle(fig, dataset, what=""):
    """A figure's title: the model, what is drawn, and on a second line the sweep's fixed parameters
    with their units (parameter_text)."""
    head = str(dataset.attrs.get("model", "")) + (": " + what if what else "")
    parameters = parameter_text(dataset)
    return fig.suptitle(no_path(head + ("\n" + parameters if parameters else "")), fontsize=10)


def sweep_keys(sweep_text, section="parameters"):
    """The keys a sweep file's text sets in one of its sections, in order ([parameters]: what the sweep
    fixes; [axes]: what it sweeps)."""
    keys, current = [], ""
    override = re.compile(r"#\s*--%s\.(\w+)=" % re.escape(section))  # a command-line override, as recorded
    for raw in (sweep_text or "").splitlines():
        given = override.match(raw.strip())
        line = raw.split("#")[0].split(";")[0].strip()
        if given:
            keys.append(given.group(1))
        elif line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif "=" in line and current == section:
            keys.append(line.split("=", 1)[0].strip())
    return list(dict.fromkeys(keys))


def quantity(name, value, unit=""):
    """'f = 50 Hz', 'c_r = 0.6' (a dimensionless value needs no unit), 'law = restitution'."""
    if isinstance(value, (bytes, str)):
        return "%s = %s" % (name, value.decode() if isinstance(value, bytes) else value)
    unit = unit_text(unit)
    return "%s = %.4g%s" % (name, float(value), "" if unit == "-" else " " + unit)


def parameter_text(dataset, names=None, skip=()):
    """The fixed parameters of a Dataset (vibro.open) as a title's text, each with its unit:
    'c_r = 0.6, mu = 0.15, f = 50 Hz, phi = 12 deg'. names: default the keys of the sweep's
    [parameters] section (what the user set; the file stores every parameter), those the file holds."""
    if names is None:
        names = sweep_keys(dataset.attrs.get("sweep_text", ""))
    parts = []
    for name in names:
        if name in skip or name not in dataset.coords or dataset[name].ndim != 0:
            continue
        variable = dataset[name]
        value = variable.attrs.get("choice", variable.values[()])
        parts.append(quantity(name, value, variable_unit(variable)))
    return ", ".join(parts)


# ---- categorical colours for class codes -------------------------------------------------------

def category_style(k):
    """The look of the k-th category of a figure: colour, marker (points) and hatch (areas); unique for
    every k below len(PALETTE) * len(MARKERS) = 108."""
    turn = k // len(PALETTE)
    return {"color": PALETTE[k % len(PALETTE)], "marker": MARKERS[turn % len(MARKERS)],
            "hatch": HATCHES[turn % len(HATCHES)]}


def distinct_colours(n):
    """The colours of n categories (category_style): distinct up to len(PALETTE), then told apart by
    their markers or hatches."""
    return [category_style(k)["color"] for k in range(n)]


def category_styles(keys):
    """key -> category_style, in the order given (so a figure's categories keep their looks in every
    panel when the same keys are passed)."""
    return {key: category_style(k) for k, key in enumerate(dict.fromkeys(keys))}


def class_colours(codes):
    """code -> colour, one distinct qualitative colour per class code (sorted, so the same set of codes
    always gets the same colours); '' (a case that is not ok) is not coloured here."""
    return {code: look["color"] for code, look in class_styles(codes).items()}


def class_styles(codes):
    """code -> category_style for the sorted class codes ('' left out): the colour and marker of each."""
    return category_styles(sorted(c for c in set(codes) if c))


def category_handle(look, label, kind="patch"):
    """A legend entry for a category_style: a patch (with the hatch) for areas, a marker for points."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if kind == "patch":
        return Patch(facecolor=look["color"], hatch=look["hatch"] or None, edgecolor="0.3", linewidth=0.5, label=label)
    return Line2D([], [], linestyle="none", marker=look["marker"], color=look["color"], markersize=5, label=label)


def category_mesh(ax, x, y, index, looks, shading="nearest"):
    """A categorical map: index[j, i] = k draws cell (x[i], y[j]) in looks[k]'s colour and, past the
    palette, its hatch (so categories sharing a colour stay apart); negative or masked: not drawn."""
    cmap, norm = categorical_cmap([look["color"] for look in looks])
    index = np.ma.masked_less(np.ma.masked_invalid(np.asarray(index, dtype=float)), 0)
    mesh = ax.pcolormesh(x, y, index, cmap=cmap, norm=norm, shading=shading)
    for k, look in enumerate(looks):
        if look["hatch"] and np.any(index == k):
            ax.pcolor(x, y, np.ma.masked_where(index != k, np.ones(index.shape)), shading=shading,
                      hatch=look["hatch"], facecolor="none", edgecolor="white", linewidth=0)
    return mesh


def legend_outside(ax, handles=None, rows=18, **kwargs):
    """A legend beside the axes, right of its data (never over it), in as many columns as needed for
    at most `rows` rows; the figure gets constrained layout if it has no layout engine, so the legend
    is inside the canvas (saving with bbox_inches="tight" also holds it)."""
    fig = ax.figure
    if fig.get_layout_engine() is None:
        fig.set_layout_engine("constrained")
    count = len(handles) if handles is not None else len(ax.get_legend_handles_labels()[0])
    kwargs.setdefault("ncol", max(1, -(-count // rows)))
    kwargs.setdefault("loc", "upper left")
    kwargs.setdefault("bbox_to_anchor", (1.02, 1.0))
    kwargs.setdefault("borderaxespad", 0.0)
    kwargs.setdefault("fontsize", "x-small")
    return ax.legend(**({"handles": handles} if handles is not None else {}), **kwargs)


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
    for k, (code, colour) in enumerate(colours.items()):
        text = labels[code]
        if counts is not None:
            text += " (%d)" % counts.get(code, 0)
        hatch = category_style(k)["hatch"]  # colours from class_colours: the k-th class's hatch
        handles.append(Patch(facecolor=colour, hatch=hatch or None, edgecolor="0.3", linewidth=0.5, label=text))
    for name, n in (not_ok or {}).items():
        if n:
            handles.append(Patch(facecolor=NOT_OK_COLOURS[name], edgecolor="0.3", linewidth=0.5,
                                 label="%s (%d)" % (name, n)))
    return legend_outside(ax, handles, **kwargs)


def categorical_cmap(colours):
    """A ListedColormap and BoundaryNorm drawing the integers 0..n-1 in the n given colours."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    cmap = ListedColormap(list(colours), name="categorical")
    return cmap, BoundaryNorm(np.arange(len(colours) + 1) - 0.5, cmap.N)


def event_labels(ax, positions, texts, min_gap=0.03, **kwargs):
    """Vertical labels of events along the x axis (a fold, a flip, a grazing), at the top of the axes:
    events closer than `min_gap` of the axis range share one label ("flip, fold"; "fold x3"), so no
    two labels overlap. Returns the Text artists."""
    from collections import Counter

    order = np.argsort(np.asarray(positions, dtype=float))
    lo, hi = ax.get_xlim()
    gap = min_gap * abs(hi - lo)
    groups = []
    for k in order:
        if groups and abs(positions[k] - positions[groups[-1][-1]]) <= gap:
            groups[-1].append(k)
        else:
            groups.append([k])
    kwargs.setdefault("fontsize", 7)
    kwargs.setdefault("color", "C3")
    out = []
    for group in groups:
        counts = Counter(texts[k] for k in group)
        text = ", ".join(name if n == 1 else "%s x%d" % (name, n) for name, n in counts.items())
        at = float(np.mean([positions[k] for k in group]))
        out.append(ax.text(at, 0.98, text, rotation=90, va="top", ha="right",
                           transform=ax.get_xaxis_transform(), **kwargs))
    return out


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
    legend_outside(ax, handles, **legend)
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


def tidy_limits(ax, rtol=1e-9, atol=0.0, scale=None, axes=("x", "y")):
    """Axis limits that rounding noise or a converged residue cannot blow up: where the data on an axis
    span less than rtol of their size (a constant up to rounding, e.g. 0.5 +- 1e-12) or less than atol
    (a tolerance: a converged orbit's 1e-8 residue, a mode at 1e-13 m next to motions of 1e-3 m), the
    axis shows the value +- 5 % (+- 5 % of `scale`, the quantity's natural size, or +- 1 around zero)
    and plain ticks, so the residue is drawn flat. Returns the axes it flattened."""
    flattened = []
    for axis in axes:
        data = _data_range(ax, axis)
        if data is None:
            continue
        dlo, dhi = data
        size = max(abs(dlo), abs(dhi))
        if dhi - dlo <= rtol * size or size <= 1e-300 or (dhi - dlo) <= 1e-12 * max(size, 1.0) or dhi - dlo <= atol:
            centre = 0.5 * (dlo + dhi)
            near_zero = abs(centre) <= max(1e-9, atol)
            if near_zero:
                centre = 0.0
            half = 0.05 * abs(scale) if near_zero and scale else 0.05 * abs(centre) if not near_zero else 1.0
            if getattr(ax, "get_%sscale" % axis)() == "log":
                getattr(ax, "set_%slim" % axis)(centre / 2, centre * 2)
            else:
                getattr(ax, "set_%slim" % axis)(centre - half, centre + half)
                getattr(ax, "%saxis" % axis).get_major_formatter().set_useOffset(False)
            flattened.append(axis)
    return flattened


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


# ---- layout: nothing off the canvas, no legend on the data ---------------------------------------

def _overlap(a, b):
    """The area (pixels^2) two display boxes share."""
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(width, 0.0) * max(height, 0.0)


def _outside(box, canvas, slack=1.0):
    """How far (pixels) a display box reaches beyond the canvas; 0 when inside."""
    return max(canvas.x0 - box.x0, box.x1 - canvas.x1, canvas.y0 - box.y0, box.y1 - canvas.y1, 0.0) \
        if box.width > 0 and box.height > 0 and (box.x0 < canvas.x0 - slack or box.x1 > canvas.x1 + slack
                                                  or box.y0 < canvas.y0 - slack or box.y1 > canvas.y1 + slack) else 0.0


def _data_axes(fig):
    """The axes that draw data (not colour bars, not hidden ones)."""
    return [ax for ax in fig.axes if ax.get_visible() and ax.axison
            and not (hasattr(ax, "_colorbar") or ax.get_label() == "<colorbar>")]


def _texts(fig):
    """(name, Text) of every title and axis label of a figure."""
    out = []
    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        text = getattr(fig, name, None)
        if text is not None and text.get_text():
            out.append((name.strip("_"), text))
    for k, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        for name, text in (("title", ax.title), ("left title", ax._left_title), ("right title", ax._right_title),
                           ("x label", ax.xaxis.label), ("y label", ax.yaxis.label)):
            if text.get_text() and text.get_visible():
                out.append(("axes %d %s %r" % (k, name, text.get_text()[:40]), text))
    return out


def layout_problems(fig, tight=False, min_overlap=4.0, drawn=False):
    """What a reader would see cut off or covered, measured with matplotlib's bounding boxes after a
    draw: a legend, title, axis label or tick label reaching past the canvas (the canvas is the figure,
    or everything drawn when saved with bbox_inches="tight"), a legend overlapping an axes' data area,
    a title or label, and two texts drawn on an axes (event labels, annotations) overlapping each other.
    Overlaps smaller than `min_overlap` pixels^2 (touching edges) do not count. drawn: the figure was
    just saved (its layout and ticks are the saved ones), so it is not drawn again."""
    if not drawn:
        fig.canvas.draw()  # runs the layout engine, so the boxes are the ones saved
    renderer = fig.canvas.get_renderer()
    canvas = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans) if tight else fig.bbox
    problems = []
    legends = [("figure legend %d" % k, legend) for k, legend in enumerate(fig.legends)]
    legends += [("legend of axes %d" % k, ax.get_legend()) for k, ax in enumerate(fig.axes)
                if ax.get_legend() is not None and ax.get_visible()]
    texts = _texts(fig)
    for name, artist in legends + texts:
        far = _outside(artist.get_window_extent(renderer), canvas)
        if far:
            problems.append("%s reaches %.0f px past the canvas" % (name, far))
    for k, ax in enumerate(_data_axes(fig)):
        for axis in (ax.xaxis, ax.yaxis):
            if not axis.get_visible():
                continue
            lo, hi = sorted(axis.get_view_interval())
            slack = 1e-9 * max(abs(lo), abs(hi), 1e-300)
            for tick in axis.get_major_ticks():  # those drawn: inside the view interval
                if not lo - slack <= tick.get_loc() <= hi + slack:
                    continue
                for text in (tick.label1, tick.label2):
                    if text.get_visible() and text.get_text():
                        far = _outside(text.get_window_extent(renderer), canvas)
                        if far:
                            problems.append("axes %d tick label %r reaches %.0f px past the canvas"
                                            % (fig.axes.index(ax), text.get_text(), far))
    for name, legend in legends:
        box = legend.get_window_extent(renderer)
        for ax in _data_axes(fig):
            if _overlap(box, ax.bbox) > min_overlap:
                problems.append("%s covers the data area of axes %d" % (name, fig.axes.index(ax)))
        for other, text in texts:
            if _overlap(box, text.get_window_extent(renderer)) > min_overlap:
                problems.append("%s covers the %s" % (name, other))
        for other, second in legends:
            if second is not legend and other > name and _overlap(box, second.get_window_extent(renderer)) > min_overlap:
                problems.append("%s overlaps %s" % (name, other))
    for i in range(len(texts)):  # titles and labels on one another (a title set over a helper's title)
        for j in range(i + 1, len(texts)):
            if _overlap(texts[i][1].get_window_extent(renderer), texts[j][1].get_window_extent(renderer)) > min_overlap:
                problems.append("%s and %s overlap" % (texts[i][0], texts[j][0]))
    for k, ax in enumerate(fig.axes):
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts if t.get_visible() and t.get_text()]
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                if _overlap(boxes[i][1], boxes[j][1]) > min_overlap:
                    problems.append("axes %d: texts %r and %r overlap" % (k, boxes[i][0][:30], boxes[j][0][:30]))
    return problems


def save(fig, path):
    """Writes the figure (PNG at the shared dpi, the canvas grown to hold every legend and label) and
    closes it; records what was drawn and any layout problem (layout_problems) in `saved`."""
    import matplotlib.pyplot as plt

    fig.savefig(path, bbox_inches="tight")  # draws the figure: describe() reads the tick labels that drawing made
    description = describe(fig)
    description["layout"] = layout_problems(fig, tight=True, drawn=True)
    description["path"] = str(path)
    saved.append(description)
    plt.close(fig)
