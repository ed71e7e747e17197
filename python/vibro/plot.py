"""Plotting helpers behind the repository's figures, each taking a Dataset of vibro.open/vibro.sweep
and drawing on a matplotlib Axes (the current one by default); each returns that Axes.

    classes(ds, "a_hat", "mean_velocity")   one dot per case, coloured by its steady-state class (Fig. 6)
    bifurcation(ds, "a_hat", "h")           every case's stroboscopic points against an axis
    basin(ds, "z0", "v1", a_hat=50)         the attractor (or class) over two initial-condition axes
    drift_map(ds, "a_hat", "f")             a transport observable over two axes, centred on zero
    fractions(ds)                           stacked basin fractions along the continuation axis, by global id
    attractor_curves(ds, "mean_velocity")   each global id's property along the continuation axis, events marked
Every label, colour and legend follows vibro.style.
"""
import numpy as np

from . import style

OK = 0


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    return ax


def label(variable):
    """An axis label from a variable's name and its unit in brackets (vibro.style.variable_label)."""
    return style.variable_label(variable)


def _title(ax, dataset, point=None, pad=None):
    """The axes' title, unless it has one: the sweep's fixed parameters (and the values `point` picks)
    with their units."""
    if not ax.get_title() and not ax.get_title("left"):
        import textwrap

        picked = [style.quantity(k, v, style.variable_unit(dataset[k]) if k in dataset else "") for k, v in (point or {}).items()]
        text = ", ".join(t for t in [style.parameter_text(dataset)] + picked if t)
        ax.set_title(textwrap.fill(text, 60), fontsize="small", loc="left", pad=pad)  # from the axes' left edge: inside the canvas


def _legend_labels(dataset, codes, width=40):
    """code -> 'code: meaning' from the Dataset's class legend (/legend/classes)."""
    return style.class_labels(sorted(set(codes)), dataset.attrs.get("legend", {}).get("classes"), width=width)


def _flat(dataset, names):
    """The ok cases as flat arrays of the named variables (the axes broadcast to the grid)."""
    import xarray as xr

    status = dataset["status"]
    grids = xr.broadcast(*[dataset[name] for name in names], status)
    ok = status.values.reshape(-1) == OK
    return {name: g.transpose(*status.dims).values.reshape(-1)[ok] for name, g in zip(names, grids)}


def classes(dataset, x, y, ax=None, legend=True, s=8):
    """`y` (an observable) against the axis `x`, one dot per ok case, coloured by its class (past the
    palette's nine colours, by colour and marker); the legend beside the axes."""
    ax = _axes(ax)
    flat = _flat(dataset, [x, y, "class"])
    looks = style.class_styles(flat["class"])
    names = _legend_labels(dataset, looks)
    for code, look in looks.items():
        chosen = flat["class"] == code
        ax.scatter(flat[x][chosen], flat[y][chosen], s=s, color=look["color"], marker=look["marker"],
                   label="%s (%d)" % (names[code], chosen.sum()))
    ax.set_xlabel(label(dataset[x]))
    ax.set_ylabel(label(dataset[y]))
    style.tidy_limits(ax)
    _title(ax, dataset)
    if legend:
        style.legend_outside(ax, markerscale=1.5, title="class (cases)")
    return ax


def bifurcation(dataset, x, component=None, ax=None, s=1):
    """Every ok case's stroboscopic points (state `component`, default the first) at its value of the
    axis `x`: a period-k orbit shows k dots, an irregular one a band. Coloured by class (the legend
    beside the axes)."""
    ax = _axes(ax)
    component = component or str(dataset.component.values[0])
    flat = _flat(dataset, [x, "class", "strobe_start", "strobe_count"])
    values = dataset.strobe_values.sel(component=component).values
    looks = style.class_styles(flat["class"])
    names = _legend_labels(dataset, looks)
    for code, look in looks.items():
        chosen = flat["class"] == code
        rows = np.concatenate([np.arange(a, a + n) for a, n in zip(flat["strobe_start"][chosen], flat["strobe_count"][chosen])])
        xs = np.repeat(flat[x][chosen], flat["strobe_count"][chosen])
        ax.scatter(xs, values[rows], s=s, color=look["color"], marker=look["marker"], label=names[code])
    ax.set_xlabel(label(dataset[x]))
    units = dict(zip([str(c) for c in dataset.component.values], dataset.strobe_values.attrs.get("units", "").split(",")))
    ax.set_ylabel(style.label("%s (stroboscopic)" % component, units.get(component, "")))
    style.tidy_limits(ax)
    _title(ax, dataset)
    style.legend_outside(ax, markerscale=4, title="class")
    return ax


def basin(dataset, x, y, variable=None, ax=None, **point):
    """A categorical map over the axes x and y at one parameter point (`point`: the other axes' values,
    nearest): the attractor label (default; else `variable`, e.g. "class"). Cases that are not ok are
    drawn black."""
    from matplotlib.patches import Patch

    ax = _axes(ax)
    variable = variable or ("attractor" if "attractor" in dataset else "class")
    cut = dataset.sel(point, method="nearest") if point else dataset
    values = cut[variable].transpose(y, x).values
    ok = cut["status"].transpose(y, x).values == OK
    names = sorted(set(values[ok].tolist()))
    index = np.full(values.shape, len(names))
    for k, name in enumerate(names):
        index[ok & (values == name)] = k
    looks = [style.category_style(k) for k in range(len(names))] + [{"color": "black", "hatch": ""}]
    style.category_mesh(ax, cut[x].values, cut[y].values, index, looks)
    handles = [style.category_handle(looks[k], "%s %s (%d)" % (variable, name, (ok & (values == name)).sum()))
               for k, name in enumerate(names)]
    if not ok.all():
        handles.append(Patch(color="k", label="not ok (%d)" % (~ok).sum()))
    style.legend_outside(ax, handles)
    ax.set_xlabel(label(dataset[x]))
    ax.set_ylabel(label(dataset[y]))
    _title(ax, dataset, point)
    return ax


def drift_map(dataset, x, y, variable=None, ax=None):
    """A transport observable (default: the first whose name has velocity, drift or speed) over the
    axes x and y, averaged over every other axis (ok cases only), in colours centred on zero (sequential
    colours when no value is negative)."""
    ax = _axes(ax)
    if variable is None:
        variable = next(n for n in dataset.data_vars if any(k in n for k in ("velocity", "drift", "speed")))
    values = dataset[variable].where(dataset["status"] == OK)
    others = [d for d in values.dims if d not in (x, y)]
    mean = values.mean(others).transpose(y, x)
    finite = mean.values[np.isfinite(mean.values)]
    if finite.size and finite.min() >= 0:  # nothing to tell apart by sign (a speed, a count): sequential
        mesh = ax.pcolormesh(dataset[x].values, dataset[y].values, mean.values, cmap="viridis", vmin=0,
                             shading="nearest")
    else:
        extent = float(np.abs(finite).max()) if finite.size else 1.0
        mesh = ax.pcolormesh(dataset[x].values, dataset[y].values, mean.values, cmap="RdBu_r", vmin=-extent,
                             vmax=extent, shading="nearest")
    ax.figure.colorbar(mesh, ax=ax, label=label(dataset[variable]))
    ax.set_xlabel(label(dataset[x]))
    ax.set_ylabel(label(dataset[y]))
    _title(ax, dataset)
    return ax


# One marker per event kind of /basins/events (docs/hdf5_schema.md); "D" is kept for attractors found only by a seed.
EVENT_MARKERS = {"birth": "^", "death": "v", "merger": "o", "split": "s", "period_doubling": "P",
                 "period_halving": "*", "period_change": "X", "extent_change": "p", "vanished": "<", "return": ">"}


LEGEND_IDS = 14  # ids named in the fractions' legend (the longest-lived first); "+ k more" after them


def fractions(dataset, ax=None, legend=True, looks=None, **point):
    """The basin fractions of a global continuation (analysis.global_continuation) stacked against its
    axis (each point a step as wide as its grid cell), one colour per global id (past the palette's nine
    colours, hatched), the share of initial conditions without a steady state in grey on top, and an
    attractor found only by a seed (fraction 0) as a diamond on the axis in its colour.
    Each event is a marker above the plot at the middle of its interval (birth ^, death v, merger o,
    split s, period doubling P, period halving *, period change X, vanished <, return >) in its id's colour: for an id
    found on 3 points or more (and a tenth of the line, or 2 reaching an end of the line) a large marker
    labelled with the id, stacked when closer than 4 % of the axis, with a dashed line through the plot;
    for short-lived ids a small marker on one row below them. The legend beside the axes names each id's
    class and the range where it is found, the longest-lived first.
    With further parameter axes, `point` picks their values (nearest), e.g. fractions(ds, c_r=0.6);
    `looks` (id -> category_style) draws the ids as another figure of the same ids does."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    axis, line, ids, own = _continuation(dataset, "fractions", point, found_by_seed=True)
    looks = looks or own
    ax = _axes(ax)
    x = line[axis].values
    share = line["basin_fraction"].transpose(axis, "attractor_id")
    labels = line["attractor_label"].transpose(axis, "attractor_id")
    present = labels.values != labels.attrs["absent"]  # found at the point, by a seed too (fraction 0)
    classes = line["attractor_class"].transpose(axis, "attractor_id").values
    none = 1.0 - line["basin_cases_settled"].values / np.maximum(line["basin_cases_run"].values, 1)
    lower = np.zeros(len(x))
    for gid in ids:
        values = share.sel(attractor_id=gid).values
        ax.fill_between(x, lower, lower + values, step="mid", facecolor=looks[gid]["color"],
                        hatch=looks[gid]["hatch"] or None, edgecolor="white", linewidth=0)
        lower = lower + values
    ax.fill_between(x, lower, lower + none, step="mid", color="0.8", linewidth=0)
    column = {gid: k for k, gid in enumerate(share["attractor_id"].values.tolist())}
    for gid in ids:
        seeded = present[:, column[gid]] & (share.values[:, column[gid]] == 0)
        if seeded.any():
            ax.plot(x[seeded], np.zeros(seeded.sum()), linestyle="none", marker="D", color=looks[gid]["color"],
                    markeredgecolor="k", markersize=6, clip_on=False, zorder=6)
    # points where each id is found; one at the line's first or last point may live on beyond the grid
    found = {gid: present[:, column[gid]] for gid in ids}
    span = {gid: int(f.sum()) + (len(x) if f.sum() > 1 and (f[0] or f[-1]) else 0) for gid, f in found.items()}
    kinds, rows = _draw_events(ax, line, point, x, looks, span)
    ax.set_xlim(x.min(), x.max())
    ax.set_ylim(0, 1)
    ax.set_xlabel(label(dataset[axis]))
    ax.set_ylabel(style.label("basin fraction", "-"))
    _title(ax, dataset, point, pad=14 + 18 * rows)  # above the rows of event markers
    if legend:
        unit = style.variable_unit(dataset[axis])
        unit = "" if unit in style.DIMENSIONLESS else " " + unit
        handles = []
        for gid in sorted(ids, key=lambda g: (-int(found[g].sum()), g))[:LEGEND_IDS]:
            code = next(str(c) for c in classes[found[gid], column[gid]] if str(c))
            where = x[found[gid]]
            handles.append(style.category_handle(looks[gid], "%d %s, %s %g..%g%s" % (gid, code, axis, where.min(),
                                                                                      where.max(), unit)))
        if len(ids) > LEGEND_IDS:
            handles.append(Patch(facecolor="none", edgecolor="none", label="+ %d more ids" % (len(ids) - LEGEND_IDS)))
        handles.append(Patch(facecolor="0.8", label="no steady state"))
        if any((found[g] & (share.values[:, column[g]] == 0)).any() for g in ids):
            handles.append(Line2D([], [], linestyle="none", marker="D", color="0.5", markeredgecolor="k",
                                  label="found only by a seed"))
        style.legend_outside(ax, handles + _event_handles(kinds), title="global id, class, range; events")
    return ax


def _draw_events(ax, line, point, x, looks, span):
    """The events of the line above the axes (fractions()); returns (the kinds drawn, rows of large markers)."""
    long_lived = max(3, len(x) // 10)
    gap = 0.04 * float(x.max() - x.min() or 1.0)  # a label and its marker: ~4 % of the axis wide
    placed, kinds = [], set()  # (middle, row) of the large markers: a row holds labels `gap` apart
    for gid, kind, middle, _, _ in _events(line, point):
        look = dict(marker=EVENT_MARKERS.get(kind, "X"), color=looks[gid]["color"] if gid in looks else "k",
                    markeredgecolor="k", clip_on=False, zorder=5, linestyle="none")
        kinds.add(kind)
        if span.get(gid, 0) < long_lived:
            ax.plot([middle], [1.03], markersize=4, **look)
            continue
        row = next(r for r in range(len(placed) + 1) if all(abs(m - middle) >= gap for m, q in placed if q == r))
        placed.append((middle, row))
        y = 1.09 + 0.06 * row
        ax.plot([middle], [y], markersize=8, **look)
        ax.annotate("%d" % gid, (middle, y), xytext=(5, -3), textcoords="offset points", fontsize=7,
                    annotation_clip=False)
        ax.axvline(middle, color=look["color"], linewidth=1.2, linestyle="--", zorder=4)
    return kinds, 1 + max(q for _, q in placed) if placed else 0


def _continuation(dataset, caller, point, found_by_seed=False):
    """(axis, the Dataset along it, the global ids found (with found_by_seed, those found only by a seed
    too), id -> category_style) of a global continuation; the ids in order, so fractions() and
    attractor_curves() draw each id alike."""
    axis = dataset.attrs.get("basins_continuation_axis", "none")
    if axis == "none":
        raise ValueError("%s: the Dataset has no global continuation (a sweep with "
                         "analysis.global_continuation = AXIS and initial-condition axes)" % caller)
    line = dataset.sel(point, method="nearest") if point else dataset
    others = [d for d in line["basin_cases_run"].dims if d != axis]
    if others:
        raise ValueError("%s: pick a value of %s, e.g. %s(ds, %s=...)" % (caller, ", ".join(others), caller, others[0]))
    share = line["basin_fraction"].transpose(axis, "attractor_id")
    found = (share.values > 0).any(axis=0)
    if found_by_seed:
        labels = line["attractor_label"].transpose(axis, "attractor_id")
        found = (labels.values != labels.attrs["absent"]).any(axis=0)
    ids = [int(i) for i, any_point in zip(share["attractor_id"].values, found) if any_point]
    return axis, line, ids, style.category_styles(ids)  # never two ids alike in one figure


def _events(line, point):
    """(global id, kind, middle of its interval, parameter before, parameter after) of each event on the
    line `point` picks."""
    if "event_kind" not in line:
        return []
    on_line = np.ones(line.sizes["event"], dtype=bool)
    for name in point:
        if "event_" + name in line.coords:
            on_line &= line["event_" + name].values == line[name].values
    out = []
    for k in np.flatnonzero(on_line):
        before, after = float(line["event_parameter_from"].values[k]), float(line["event_parameter_to"].values[k])
        out.append((int(line["event_global_id"].values[k]), str(line["event_kind"].values[k]),
                    0.5 * (before + after), before, after))
    return out


def _event_handles(kinds):
    from matplotlib.lines import Line2D

    return [Line2D([], [], linestyle="none", marker=EVENT_MARKERS.get(kind, "X"), color="0.6", markeredgecolor="k",
                   markersize=7, label=kind) for kind in sorted(kinds)]


def attractor_curves(dataset, variable=None, ax=None, legend=True, looks=None, **point):
    """The second view of a global continuation (Attractors.jl's attractor curves): a property of each
    attractor against the continuation axis, one colour (and marker) per global id as in fractions().
    The property is the median of `variable` (an observable per case; default the first whose name has
    velocity, drift or speed, else the first) over the cases that reached the attractor at a point,
    with their range as a bar; each event (markers as in fractions(), any other kind X) is marked on
    its id's curve at the side of its interval where the id exists.
    `point` picks the values of further parameter axes, as in fractions(); `looks` (id -> category_style)
    draws the ids as another figure of the same ids does."""
    axis, line, ids, own = _continuation(dataset, "attractor_curves", point)
    looks = looks or own
    import xarray as xr

    if variable is None:
        floats = [n for n in line.data_vars if line[n].dims == line["global_attractor"].dims and line[n].dtype.kind == "f"]
        variable = next((n for n in floats if any(k in n for k in ("velocity", "drift", "speed"))), floats[0])
    ax = _axes(ax)
    values, gids, xs = (v.transpose(*line["global_attractor"].dims).values.reshape(-1) for v in
                        xr.broadcast(line[variable], line["global_attractor"], line[axis]))
    curves = {}
    for gid in ids:
        mine = gids == gid
        at = np.unique(xs[mine])
        rows = [values[mine & (xs == v)] for v in at]
        median = np.array([np.nanmedian(r) for r in rows])
        low = median - np.array([np.nanmin(r) for r in rows])
        high = np.array([np.nanmax(r) for r in rows]) - median
        look = looks[gid]
        code = line["attractor_class"].transpose(axis, "attractor_id").sel(attractor_id=gid).values
        code = next((str(c) for c in code if str(c)), "")
        ax.errorbar(at, median, yerr=[low, high], color=look["color"], marker=look["marker"], markersize=4,
                    linewidth=1, elinewidth=0.6, capsize=0, label="%d %s" % (gid, code))
        curves[gid] = dict(zip(at.tolist(), median.tolist()))
    kinds = set()
    for gid, kind, _, before, after in _events(line, point):
        curve = curves.get(gid, {})
        at = after if after in curve else before if before in curve else None
        if at is None:
            continue
        ax.plot([at], [curve[at]], marker=EVENT_MARKERS.get(kind, "X"), markersize=9, color=looks[gid]["color"],
                markeredgecolor="k", linestyle="none", zorder=5)
        kinds.add(kind)
    ax.set_xlabel(label(dataset[axis]))
    ax.set_ylabel(style.label("%s (median of its cases)" % variable, style.variable_unit(dataset[variable])))
    style.tidy_limits(ax)
    _title(ax, dataset, point)
    if legend:
        handles, _ = ax.get_legend_handles_labels()
        style.legend_outside(ax, handles + _event_handles(kinds), title="global id, class; events")
    return ax


def _cell_classes(dataset, x, y):
    """cells[j, i, :]: the class codes of the cases in the cell (x[i], y[j]) over every other axis, ''
    for a case that is not ok."""
    codes = dataset["class"].where(dataset["status"] == OK, "")
    others = [d for d in codes.dims if d not in (x, y)]
    return codes.transpose(y, x, *others).values.reshape(dataset.sizes[y], dataset.sizes[x], -1)


def _dominant_class(dataset, x, y):
    """(codes, index[j, i]) over the axes x and y: the class most of a cell's ok cases reached (over
    every other axis, e.g. the initial conditions; a slowly converging 'H1~' counts as its 'H1'; a tie
    goes to the code first in sorted order), -1 where no case is ok; only the codes that win a cell."""
    cells = _cell_classes(dataset, x, y)
    winner = np.full(cells.shape[:2], "", dtype=object)
    for j in range(cells.shape[0]):
        for i in range(cells.shape[1]):
            ok = sorted(str(c).rstrip("~") for c in cells[j, i] if c)
            if ok:
                winner[j, i] = max(dict.fromkeys(ok), key=ok.count)  # the first of the most common
    found = sorted(set(winner[winner != ""].tolist()))
    index = np.full(cells.shape[:2], -1)
    for k, code in enumerate(found):
        index[winner == code] = k
    return found, index


def _present(dataset, x, y, code):
    """index[j, i] over the axes x and y: 1 where an ok case of the cell reached the class `code` (or its
    slowly converging `code~`), 0 where none did, -1 where no case is ok."""
    cells = _cell_classes(dataset, x, y)
    reached = np.vectorize(lambda c: str(c).rstrip("~") == code)(cells).any(axis=2)
    ok = (cells != "").any(axis=2)
    return np.where(ok, reached.astype(int), -1)


def regime_map(dataset, x, y, ax=None, legend=True, overlay=(), present=None):
    """A regime map over two swept parameters x and y: each cell coloured by the class most of its ok
    cases reached (over the other axes, e.g. initial conditions; past the palette, by hatch), or, with
    `present` a class code (e.g. "H1"), by whether any of its cases reached that class (a coexisting
    attractor that few initial conditions reach still shows); cells without an ok case are blank.
    `overlay`: two-parameter curves drawn over it (curves()), cut at the map's edges. The legend
    (beside the axes) counts the cells of each category and names the curves."""
    ax = _axes(ax)
    if present:
        index = _present(dataset, x, y, present)
        found = ["no case reached %s" % present, "a case reached %s" % present]
        looks = {found[0]: {"color": "0.85", "hatch": ""}, found[1]: {"color": "tab:blue", "hatch": ""}}
        names = {c: c for c in found}
    else:
        found, index = _dominant_class(dataset, x, y)
        looks = style.class_styles(found)
        names = _legend_labels(dataset, found, width=28)
    style.category_mesh(ax, dataset[x].values, dataset[y].values, index, [looks[c] for c in found])
    ax.set_xlabel(label(dataset[x]))
    ax.set_ylabel(label(dataset[y]))
    _title(ax, dataset)
    if overlay:
        limits = ax.get_xlim(), ax.get_ylim()
        curves(overlay, x, y, ax=ax)
        ax.set_xlim(*limits[0])  # the map's extent: a curve reaching beyond it is cut at its edge
        ax.set_ylim(*limits[1])
    if legend:
        handles = [style.category_handle(looks[c], "%s (%d)" % (names[c], (index == k).sum())) for k, c in enumerate(found)]
        lines, _ = ax.get_legend_handles_labels()
        style.legend_outside(ax, handles + lines, rows=40, title="cells; curves" if lines else "cells")
    return ax


CURVE_LOOKS = {"grazing": {"color": "black", "linestyle": "-"},
               "period_doubling": {"color": "tab:red", "linestyle": "--"},
               "fold": {"color": "tab:blue", "linestyle": ":"}}


def curves(curve_datasets, x, y, ax=None, labels=None):
    """Two-parameter curves (vibro.open of `vibro continue --curve` files) drawn over the axes x and y,
    e.g. over a regime_map of a sweep of the same two parameters: each a line styled by its kind
    (grazing solid black, period doubling dashed red, fold dotted blue), labelled with its kind (or
    `labels`). A curve whose parameters are not x and y is refused, naming both."""
    ax = _axes(ax)
    for k, curve in enumerate(curve_datasets):
        names = [n for n in curve.coords if curve[n].dims == ("point",)]
        if x not in curve.coords or y not in curve.coords:
            raise ValueError("curves: a curve of %s cannot be drawn over %s and %s"
                             % (" and ".join(names) or "no parameters", x, y))
        kind = str(curve.attrs.get("kind", "curve"))
        look = CURVE_LOOKS.get(kind, {"color": "tab:green", "linestyle": "-."})
        text = labels[k] if labels else kind.replace("_", " ")
        ax.plot(curve[x].values, curve[y].values, linewidth=1.6, label=text, **look)
    return ax
