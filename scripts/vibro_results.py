"""Read a `vibro run` sweep file (HDF5) into numpy arrays, through the package's one reader.

The file's layout is described in docs/hdf5_schema.md (schema versions 2 to 5 are read). Every
dataset is read by vibro.open (python/vibro/_dataset.py), which this module wraps as numpy arrays
for the plotting scripts (open_dataset gives the Dataset itself, /basins included); it knows
nothing of any model's physics. A file it cannot use (not HDF5,
damaged -- the checksums of schema 3 catch a flipped bit --, another schema version, a missing or
misshapen dataset) ends the script with one clear message on stderr and exit code 2 (FileError),
never a traceback. Used by the plotting scripts next to it, which import it by
putting their own directory on sys.path:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import vibro_results

    data = vibro_results.load("results/conveyor_fig6.h5")
    v = data["observables"]["mean_velocity"]           # (N,), one entry per case
    a = data["coords"]["a_hat"]                          # (N,), the case's a_hat
    grid = vibro_results.grid(data, v)                   # shape data["shape"], axes in data["order"]
"""
import sys
from collections import OrderedDict

import os

import numpy as np

# The package's pure-Python reader, from the source tree next to this folder (no build needed).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import vibro  # noqa: E402
from vibro import style  # noqa: E402

class FileError(SystemExit):
    """A file that cannot be used; uncaught, it ends the script with exit code 2 (its message is on stderr)."""

    def __init__(self, message):
        super().__init__(2)
        self.message = message


def fail(path, what):
    message = "%s: %s" % (path, what)
    sys.stderr.write(message + "\n")
    raise FileError(message)


def _str(x):
    """An HDF5 string (attribute or dataset element; bytes, str or a 0-d array of either) as str."""
    if isinstance(x, bytes):
        return x.decode()
    if isinstance(x, np.ndarray) and x.shape == ():
        return _str(x[()])
    return str(x) if not isinstance(x, str) else x


def fixed_parameters(ds):
    """The unswept parameters of a Dataset of vibro.open (its scalar coordinates, from /parameters):
    numbers as float, choices as str."""
    params = {}
    for name, coord in ds.coords.items():
        if coord.dims == ():
            value = coord.values[()]
            params[name] = str(value) if isinstance(value, (bytes, str)) else float(value)
    return params


def open_dataset(path):
    """vibro.open(path): the sweep or branch file as an xarray.Dataset; a file it cannot use ends the
    script with FileError (exit code 2) naming the file, never a traceback."""
    try:
        return vibro.open(path)
    except vibro.FileError as error:
        fail(path, str(error)[len(path) + 2:] if str(error).startswith(path + ": ") else str(error))
    except Exception as error:  # reading a damaged or malformed file
        fail(path, "damaged or not a vibro file (%s: %s)" % (type(error).__name__, error))


def load(path):
    """The sweep in `path` as a dict of numpy arrays, read through the package's reader (vibro.open,
    python/vibro/_dataset.py: the one reader of vibro files).

    Keys:
      path, model   the file name as given; the root attribute `model` ('' when absent)
      order         the axis names in grid order, first axis slowest (/axes attribute `order`)
      axes          OrderedDict name -> float array of the axis' values, in grid order
      shape         tuple of the axis lengths (the grid's shape; () for a sweep without axes)
      n             number of cases N (the product of the axis lengths; 1 without axes)
      coords        OrderedDict axis name -> float array (N,): each case's value of that axis
      params        dict of the unswept parameters (/parameters: scalar datasets from schema 5 on,
                    attributes before): numbers as float, choices as str
      cls           object array (N,) of str: /cases/class ('' for a case that is not ok)
      status        int array (N,): /cases/status (0 ok, 1 infeasible, 2 failed, 3 not run)
      observables   OrderedDict name -> float array (N,): every /cases/observables/<name>
      units         dict name -> unit of every axis, observable and parameter ('' when the file has none)
      descriptions  dict observable name -> its description ('' when the file has none)
      attrs         the file's root attributes (continuation, direction, provenance; docs/hdf5_schema.md)
      legend        the file's /legend: {"classes": {code pattern: meaning}, "states": ..., "modes": ...}
      dataset       the xarray.Dataset of vibro.open, for anything else (strobe tables, counters)

    Per-case arrays are flat, in the file's order (C order over `order`); see grid().
    """
    ds = open_dataset(path)
    if ds.attrs.get("format") != "vibro-sweep":
        fail(path, "a %s file, not a sweep file of vibro run" % ds.attrs.get("format"))
    observable_names = [name for name in ds.data_vars if ds[name].attrs.get("source", "").startswith("/cases/observables/")]
    order = list(ds["status"].dims)
    axes = OrderedDict((name, np.asarray(ds[name].values, dtype=float)) for name in order)
    shape = tuple(len(v) for v in axes.values())
    ncase = int(np.prod(shape)) if shape else 1
    params = fixed_parameters(ds)
    cls = np.array([_str(c) for c in ds["class"].values.reshape(-1)], dtype=object)
    status = np.asarray(ds["status"].values.reshape(-1), dtype=int)
    observables = OrderedDict((name, np.asarray(ds[name].values.reshape(-1), dtype=float)) for name in observable_names)
    # per-case coordinate of every axis (C order, first axis slowest)
    grids = np.meshgrid(*axes.values(), indexing="ij") if axes else []
    coords = OrderedDict((name, g.reshape(-1)) for name, g in zip(axes.keys(), grids))
    units = {name: ds[name].attrs.get("unit", "") for name in order + observable_names + list(params)}
    descriptions = {name: ds[name].attrs.get("description", "") for name in observable_names}
    return dict(path=path, model=_str(ds.attrs.get("model", "")), order=order, axes=axes, shape=shape, n=ncase,
                coords=coords, params=params, cls=cls, status=status, observables=observables, units=units,
                descriptions=descriptions, attrs=dict(ds.attrs), legend=ds.attrs.get("legend", {}), dataset=ds)


def label(data, name, shown=None):
    """The axis label of an axis, observable or parameter of a load()ed file, with the file's unit:
    "a_hat [m/s^2]" (vibro.style.label); `shown` replaces the name."""
    return style.label(shown or name, data["units"][name])


def strobe(data):
    """The stroboscopic samples of a load()ed sweep (/cases/strobe): dict with `values` (rows x state
    components), `offsets` (N + 1: case i's rows are offsets[i]:offsets[i + 1]), `columns` (the
    components' names) and `units` (name -> unit); None when the file has none (output.strobe_points)."""
    ds = data["dataset"]
    if "strobe_values" not in ds:
        return None
    starts = np.asarray(ds["strobe_start"].values, dtype=np.int64).reshape(-1)
    counts = np.asarray(ds["strobe_count"].values, dtype=np.int64).reshape(-1)
    offsets = np.append(starts, starts[-1] + counts[-1]) if len(starts) else np.zeros(1, dtype=np.int64)
    columns = [str(c) for c in ds["component"].values]
    units = ds["strobe_values"].attrs.get("units", "").split(",")
    return dict(values=np.asarray(ds["strobe_values"].values), offsets=offsets, columns=columns,
                units=dict(zip(columns, units + [""] * (len(columns) - len(units)))))


def grid(data, values):
    """A per-case (N,) array viewed as the grid: shape data["shape"], one dimension per axis in order."""
    return np.asarray(values).reshape(data["shape"])


def param_values(data, key):
    """The values parameter `key` takes in the sweep: the axis if swept, else [the /parameters value]."""
    if key in data["axes"]:
        return list(data["axes"][key])
    return [float(data["params"][key])]


def case_param(data, key, idx):
    """Value of parameter `key` for the cases idx: from the axis if swept, else from /parameters."""
    if key in data["coords"]:
        return data["coords"][key][idx]
    return np.full(len(idx), float(data["params"][key]))


def cell_edges(values):
    """Cell edges around an axis' grid values (for pcolormesh): midpoints, extended at both ends."""
    v = np.asarray(values, dtype=float)
    if len(v) == 1:
        d = abs(v[0]) * 0.05 or 0.5
        return np.array([v[0] - d, v[0] + d])
    mid = 0.5 * (v[1:] + v[:-1])
    return np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])
