"""The /basins group of a sweep file (docs/hdf5_schema.md) as variables of its Dataset.

/basins holds, per parameter point (a combination of the axes that are not initial conditions), the
attractors found there with their basin fractions, and with `analysis.global_continuation = AXIS` the
global id of each and the events between neighbouring points. In the Dataset:

- per point, dimensions the parameter axes: basin_cases_run, basin_cases_settled, attractor_count,
  basin_entropy, boundary_basin_entropy, basin_entropy_boxes, basin_boundary_boxes, and (in files
  that count them) basin_cases_unsettled, unsettled_fraction, unsettled_fraction_error: the cases
  without a steady state within their budget, which belong to no attractor;
- per point and attractor, dimensions the parameter axes and `attractor_id` (the global ids, with
  global continuation) or `attractor_label` (the labels within a point, /cases/attractor, without):
  basin_fraction, basin_fraction_error, basin_stability, basin_cases, attractor_class,
  attractor_period (and attractor_label with global continuation), and (in files that have it)
  attractor_multiplier_estimate (NaN where absent or not estimated) and attractor_floquet_multiplier
  (NaN where absent, not periodic, complex or the model has no Jacobians) and attractor_beside_window (1
  for an irregular attractor holding a periodic window of its own point, 0 otherwise or where absent). The file's ragged table (one row
  per attractor found at a point) becomes a dense array: where an attractor is not found at a point,
  its cases, fraction, error and stability are 0, its class "" and its period and label -1 (an
  attractor found there only by a seed, analysis.seed_from_previous, has its class and label with
  cases and fraction 0);
- the events, dimension `event`: event_kind (birth, death, merger, split, period_doubling,
  period_halving, period_change, extent_change, vanished, return), event_global_id,
  event_partner, event_parameter_from and event_parameter_to (the interval where it happens),
  event_point (the point's index), and one coordinate event_AXIS per parameter axis (the value of
  that axis at the point);
- the group's attributes as Dataset attributes basins_NAME.

Every variable keeps the file's `meaning` (also as `description`), names its dataset in `source`, and
has a short `long_name` and, where it has one, `units`.
"""
import numpy as np
import xarray as xr

from . import _dataset as file_format  # its readers of datasets and attributes (_member, _attribute: by
#                                         name, never h5py's get()/items(), which turn a damaged object into None)
from ._checks import require_kind
from ._errors import FileError

# dataset of /basins -> (variable name, long name, units); units "1": a dimensionless share.
POINT_COLUMNS = {
    "cases_run": ("basin_cases_run", "initial conditions run", ""),
    "cases_settled": ("basin_cases_settled", "initial conditions that reached an attractor", ""),
    "attractor_count": ("attractor_count", "attractors found", ""),
    "basin_entropy": ("basin_entropy", "basin entropy S_b", "nat"),
    "boundary_basin_entropy": ("boundary_basin_entropy", "boundary basin entropy S_bb", "nat"),
    "entropy_boxes": ("basin_entropy_boxes", "boxes of the basin entropy", ""),
    "boundary_boxes": ("basin_boundary_boxes", "boxes with more than one outcome", ""),
}
# Written since unsettled cases are counted apart; read when present (older files lack them).
OPTIONAL_POINT_COLUMNS = {
    "cases_unsettled": ("basin_cases_unsettled", "initial conditions without a steady state within the budget", ""),
    "unsettled_fraction": ("unsettled_fraction", "share of the initial conditions left unsettled", "1"),
    "unsettled_fraction_error": ("unsettled_fraction_error", "standard error of the unsettled share", "1"),
}
# dataset of /basins/attractors -> (variable name, long name, units, value where the attractor is absent)
ATTRACTOR_COLUMNS = {
    "fraction": ("basin_fraction", "basin fraction", "1", 0.0),
    "fraction_error": ("basin_fraction_error", "standard error of the basin fraction", "1", 0.0),
    "basin_stability": ("basin_stability", "basin stability", "1", 0.0),
    "cases": ("basin_cases", "initial conditions that reached the attractor", "", 0),
    "class": ("attractor_class", "class of the attractor", "", ""),
    "period": ("attractor_period", "period of the attractor", "forcing periods", -1),
    "label": ("attractor_label", "label of the attractor within its point", "", -1),
}
OPTIONAL_ATTRACTOR_COLUMNS = {  # read when present (older files lack them)
    "multiplier_estimate": ("attractor_multiplier_estimate", "multiplier estimated near a flip", "", np.nan),
    "floquet_multiplier": ("attractor_floquet_multiplier", "Floquet multiplier of largest modulus", "", np.nan),
    "beside_window": ("attractor_beside_window", "irregular attractor holding a periodic window of its point", "", 0),
}
# dataset of /basins/events -> (variable name, long name)
EVENT_COLUMNS = {
    "kind": ("event_kind", "kind of event"),
    "global_id": ("event_global_id", "attractor that appears or ends"),
    "partner": ("event_partner", "attractor it merged into or split from"),
    "parameter_from": ("event_parameter_from", "last point before the event"),
    "parameter_to": ("event_parameter_to", "first point after the event"),
    "point": ("event_point", "parameter point where the event is first seen"),
}


# Columns that index rows, points or attractors: integers (a float would be truncated without a word).
INDEX_COLUMNS = ("offsets", "label", "global_id", "point", "partner")


def _attrs(dataset, long_name, units):
    attrs = file_format._attrs(dataset)
    attrs["source"] = dataset.name
    if "meaning" in attrs:
        attrs["description"] = attrs["meaning"]
    attrs["long_name"] = long_name
    if units:
        attrs["units"] = attrs["unit"] = units
    return attrs


def _read(dataset, rows, path):
    leaf = dataset.name.rsplit("/", 1)[-1]
    kind = "text" if leaf in ("class", "kind") else "integer" if leaf in INDEX_COLUMNS else "number"
    values = require_kind(file_format._values(dataset), kind, path, dataset.name)
    if values.shape != (rows,):
        raise FileError("%s: %s has shape %s, expected (%d,)" % (path, dataset.name, values.shape, rows))
    return values


def _names(text):
    return [name for name in str(text).split(",") if name and name != "none"]


def _point_variables(group, dims, shape, points, path):
    wanted = dict(POINT_COLUMNS, **{key: v for key, v in OPTIONAL_POINT_COLUMNS.items() if key in group})
    columns = {key: file_format._member(group, key) for key in wanted}
    return {name: xr.Variable(dims, _read(columns[key], points, path).reshape(shape), _attrs(columns[key], long, units))
            for key, (name, long, units) in wanted.items()}


def _attractor_variables(table, dims, shape, points, continued, path):
    """The ragged table (rows of point p: offsets[p] .. offsets[p+1]-1) as dense (point, attractor) arrays."""
    columns = dict(ATTRACTOR_COLUMNS, **{key: v for key, v in OPTIONAL_ATTRACTOR_COLUMNS.items() if key in table})
    keys = ["offsets", *columns] + (["global_id"] if continued else [])
    table = {key: file_format._member(table, key) for key in keys}
    offsets = _read(table["offsets"], points + 1, path)
    rows = int(offsets[-1]) if points else 0
    if offsets[0] != 0 or np.any(np.diff(offsets) < 0):
        raise FileError("%s: %s is not a nondecreasing list from 0" % (path, table["offsets"].name))
    point_of_row = np.repeat(np.arange(points), np.diff(offsets))
    key = "global_id" if continued else "label"
    column = _read(table[key], rows, path).astype(np.int64)
    width = int(column.max()) + 1 if rows else 0
    if rows and (column.min() < 0 or len(set(zip(point_of_row.tolist(), column.tolist()))) != rows):
        raise FileError("%s: %s holds a negative or repeated %s within a point" % (path, table[key].name, key))
    dim = "attractor_id" if continued else "attractor_label"
    variables = {}
    for name, (variable, long, units, absent) in columns.items():
        if name == "label" and not continued:
            continue  # the dimension itself
        values = _read(table[name], rows, path)
        dense = np.full((points, width), absent, dtype=object if values.dtype.kind == "O" else values.dtype)
        dense[point_of_row, column] = values
        attrs = _attrs(table[name], long, units)
        attrs["absent"] = absent  # the value where the attractor is not found at the point
        variables[variable] = xr.Variable(dims + (dim,), dense.reshape(shape + (width,)), attrs)
    long = "global id along the continuation axis" if continued else "label of the attractor within its point"
    coords = {dim: xr.Variable((dim,), np.arange(width, dtype=np.int32), {"long_name": long, "source": table[key].name})}
    return variables, coords


def _event_variables(group, axes, shape, axis_values, path):
    group = {key: file_format._member(group, key) for key in EVENT_COLUMNS}
    count = group["kind"].shape[0]
    variables = {}
    for key, (name, long) in EVENT_COLUMNS.items():
        variables[name] = xr.Variable(("event",), _read(group[key], count, path), _attrs(group[key], long, ""))
    points = variables["event_point"].values
    if count and (points.min() < 0 or points.max() >= int(np.prod(shape))):
        raise FileError("%s: %s names a point outside the grid" % (path, group["point"].name))
    where = np.unravel_index(points, shape) if count else [np.zeros(0, dtype=int)] * len(axes)
    coords = {}
    for axis, index in zip(axes, where):
        values = axis_values[axis]
        coords["event_" + axis] = xr.Variable(("event",), values.values[index],
                                              dict(values.attrs, long_name="%s at the event's point" % axis))
    return variables, coords


def with_basins(dataset, h5, path):
    """`dataset` (a sweep's, as vibro.open reads it from the open file h5) with its /basins added;
    unchanged for a file without /basins."""
    if "basins" not in h5:
        return dataset
    group = file_format._member(h5, "basins")
    attrs = {key: file_format._text(file_format._attribute(group, key)) for key in group.attrs}
    axes = _names(file_format._text(file_format._attribute(group, "parameter_axes")))  # required
    missing = [a for a in axes if a not in dataset.coords]
    if missing:
        raise FileError("%s: /basins names parameter axes %s that /axes lacks" % (path, ", ".join(missing)))
    dims = tuple(axes)
    shape = tuple(dataset.sizes[a] for a in axes)
    points = int(np.prod(shape)) if shape else 1
    continued = str(attrs.get("continuation_axis", "none")) != "none"
    variables = _point_variables(group, dims, shape, points, path)
    table, coords = _attractor_variables(file_format._member(group, "attractors"), dims, shape, points, continued, path)
    variables.update(table)
    if continued:  # the writer always makes /basins/events with global continuation
        events, event_coords = _event_variables(file_format._member(group, "events"), axes, shape, dataset.coords, path)
        for side in ("event_parameter_from", "event_parameter_to"):  # values of the continuation axis
            axis = dataset.coords[attrs["continuation_axis"]]
            for unit in ("unit", "units"):
                if unit in axis.attrs:
                    events[side].attrs[unit] = axis.attrs[unit]
        variables.update(events)
        coords.update(event_coords)
    clashes = sorted(set(variables) & set(dataset.variables))
    if clashes:
        raise FileError("%s: /basins variables %s clash with variables of /cases" % (path, ", ".join(clashes)))
    merged = dataset.assign(variables).assign_coords(coords)
    merged.attrs.update({"basins_" + key: value for key, value in attrs.items()})
    return merged
