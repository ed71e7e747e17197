"""Plotting helpers behind the repository's figures, each taking a Dataset of vibro.open/vibro.sweep
and drawing on a matplotlib Axes (the current one by default); each returns that Axes.

    classes(ds, "a_hat", "mean_velocity")   one dot per case, coloured by its steady-state class (Fig. 6)
    bifurcation(ds, "a_hat", "h")           every case's stroboscopic points against an axis
    basin(ds, "z0", "v1", a_hat=50)         the attractor (or class) over two initial-condition axes
    drift_map(ds, "a_hat", "f")             a transport observable over two axes, centred on zero
    fractions(ds)                           stacked basin fractions along the continuation axis, by global id
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


def _class_colours(codes):
    return style.class_colours(codes)


def _legend_labels(dataset, codes):
    """code -> 'code: meaning' from the Dataset's class legend (/legend/classes)."""
    return style.class_labels(sorted(set(codes)), dataset.attrs.get("legend", {}).get("classes"), width=40)


def _flat(dataset, names):
    """The ok cases as flat arrays of the named variables (the axes broadcast to the grid)."""
    import xarray as xr

    status = dataset["status"]
    grids = xr.broadcast(*[dataset[name] for name in names], status)
    ok = status.values.reshape(-1) == OK
    return {name: g.transpose(*status.dims).values.reshape(-1)[ok] for name, g in zip(names, grids)}


def classes(dataset, x, y, ax=None, legend=True, s=8):
    """`y` (an observable) against the axis `x`, one dot per ok case, coloured by its class."""
    ax = _axes(ax)
    flat = _flat(dataset, [x, y, "class"])
    colours = _class_colours(flat["class"])
    names = _legend_labels(dataset, colours)
    for code, colour in colours.items():
        chosen = flat["class"] == code
        ax.scatter(flat[x][chosen], flat[y][chosen], s=s, color=colour, label="%s (%d)" % (names[code], chosen.sum()))
    ax.set_xlabel(label(dataset[x]))
    ax.set_ylabel(label(dataset[y]))
    if legend:
        ax.legend(fontsize="small", ncol=2, markerscale=1.5)
    return ax


def bifurcation(dataset, x, component=None, ax=None, s=1):
    """Every ok case's stroboscopic points (state `component`, default the first) at its value of the
    axis `x`: a period-k orbit shows k dots, an irregular one a band. Coloured by class."""
    ax = _axes(ax)
    component = component or str(dataset.component.values[0])
    flat = _flat(dataset, [x, "class", "strobe_start", "strobe_count"])
    values = dataset.strobe_values.sel(component=component).values
    colours = _class_colours(flat["class"])
    names = _legend_labels(dataset, colours)
    for code, colour in colours.items():
        chosen = flat["class"] == code
        rows = np.concatenate([np.arange(a, a + n) for a, n in zip(flat["strobe_start"][chosen], flat["strobe_count"][chosen])])
        xs = np.repeat(flat[x][chosen], flat["strobe_count"][chosen])
        ax.scatter(xs, values[rows], s=s, color=colour, label=names[code])
    ax.set_xlabel(label(dataset[x]))
    units = dict(zip([str(c) for c in dataset.component.values], dataset.strobe_values.attrs.get("units", "").split(",")))
    ax.set_ylabel(style.label("%s (stroboscopic)" % component, units.get(component, "")))
    ax.legend(fontsize="small", markerscale=6)
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
    colours = style.distinct_colours(len(names)) + ["black"]
    cmap, norm = style.categorical_cmap(colours)
    ax.pcolormesh(cut[x].values, cut[y].values, index, cmap=cmap, norm=norm, shading="nearest")
    handles = [Patch(color=colours[k], label="%s %s" % (variable, name)) for k, name in enumerate(names)]
    if not ok.all():
        handles.append(Patch(color="k", label="not ok (%d)" % (~ok).sum()))
    ax.legend(handles=handles, fontsize="small", loc="upper right")
    ax.set_xlabel(label(dataset[x]))
    ax.set_ylabel(label(dataset[y]))
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
    return ax


EVENT_MARKERS = {"birth": "^", "death": "v", "merger": "o", "split": "s"}


def fractions(dataset, ax=None, legend=True, **point):
    """The basin fractions of a global continuation (analysis.global_continuation) stacked against its
    axis, one colour per global id (legend: id and class), the share of initial conditions without a
    steady state in grey on top, and each event as a marker above the plot at the middle of its
    interval (birth ^, death v, merger o, split s) in the colour of its id. With further parameter
    axes, `point` picks their values (nearest), e.g. fractions(ds, c_r=0.6)."""
    import matplotlib

    axis = dataset.attrs.get("basins_continuation_axis", "none")
    if axis == "none":
        raise ValueError("fractions: the Dataset has no global continuation (a sweep with "
                         "analysis.global_continuation = AXIS and initial-condition axes)")
    line = dataset.sel(point, method="nearest") if point else dataset
    others = [d for d in line["basin_cases_run"].dims if d != axis]
    if others:
        raise ValueError("fractions: pick a value of %s, e.g. fractions(ds, %s=...)" % (", ".join(others), others[0]))
    ax = _axes(ax)
    x = line[axis].values
    share = line["basin_fraction"].transpose(axis, "attractor_id")
    found = share.values > 0
    ids = [int(i) for i, any_point in zip(share["attractor_id"].values, found.any(axis=0)) if any_point]
    # tab10's colours, then tab20's lighter shades: 20 ids that neighbours tell apart, then again
    cycle = matplotlib.colormaps["tab10"].colors + matplotlib.colormaps["tab20"].colors[1::2]
    colour = {gid: cycle[k % len(cycle)] for k, gid in enumerate(ids)}
    classes = line["attractor_class"].transpose(axis, "attractor_id").values
    none = 1.0 - line["basin_cases_settled"].values / np.maximum(line["basin_cases_run"].values, 1)
    lower = np.zeros(len(x))
    for gid in ids:  # each point as a step as wide as its grid cell: the data are per point
        values = share.sel(attractor_id=gid).values
        code = classes[:, gid][values > 0][0]
        ax.fill_between(x, lower, lower + values, step="mid", color=colour[gid], linewidth=0, label="%d %s" % (gid, code))
        lower = lower + values
    ax.fill_between(x, lower, lower + none, step="mid", color="0.8", linewidth=0, label="no steady state")
    if "event_kind" in line:
        on_line = np.ones(line.sizes["event"], dtype=bool)
        for name, value in point.items():
            if "event_" + name in line.coords:
                on_line &= line["event_" + name].values == line[name].values
        for k in np.flatnonzero(on_line):
            gid = int(line["event_global_id"].values[k])
            middle = 0.5 * (line["event_parameter_from"].values[k] + line["event_parameter_to"].values[k])
            ax.plot([middle], [1.03], marker=EVENT_MARKERS.get(str(line["event_kind"].values[k]), "x"),
                    color=colour.get(gid, "k"), markeredgecolor="k", markersize=7, clip_on=False, zorder=5)
    ax.set_xlim(x.min(), x.max())
    ax.set_ylim(0, 1)
    ax.set_xlabel(label(dataset[axis]))
    ax.set_ylabel("basin fraction")
    if legend:
        ax.legend(fontsize="small", ncol=2, loc="lower left", title="global id, class")
    return ax
