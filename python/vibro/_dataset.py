"""vibro.open: a file `vibro run` (sweep), `vibro continue` (branch or two-parameter curve) or
`vibro trace` wrote, as an xarray.Dataset.

The layout of these files is docs/hdf5_schema.md. A sweep becomes one variable per per-case dataset
on the grid (one dimension per axis, in the file's grid order); a branch or a curve one variable per
dataset along the dimension `point` (a curve's two parameters are coordinates named after them). Every attribute a dataset carries is kept (bytes decoded), and `source` names the dataset; a `unit`
attribute is also given as `units` and a `description` as `long_name`, the names xarray and its
plots use. The file's root attributes (provenance, run settings) are the Dataset's attributes; the
unswept parameters (/parameters) are scalar coordinates, with the model's units where the model is
known to this process.
"""
import h5py
import numpy as np
import xarray as xr

from ._basins import with_basins
from ._checks import check_offsets, check_sweep_cases
from ._errors import FileError, InputError
from ._extension import _core

KNOWN_SCHEMA_VERSIONS = (2, 3, 4, 5, 6)
KNOWN_CURVE_SCHEMA_VERSIONS = (1,)  # curve files (vibro continue --curve) count their own versions


def _text(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.ndarray) and value.shape == ():
        return _text(value[()])
    if isinstance(value, np.generic):
        return value.item()
    return value


# Every object and attribute is opened by name through these, never through h5py's get(), items() or
# values(): those turn the KeyError of an object whose header fails its checksum into None, which
# drops the object without a word (or fails later, far from the cause).
def _member(group, key):
    """group[key]; a missing or damaged object is FileError naming the file and the object."""
    try:
        return group[key]
    except (KeyError, OSError, ValueError) as error:
        raise FileError("%s: damaged or missing %s/%s (%s)" % (group.file.filename, group.name.rstrip("/"), key, error)) from None


def _members(group):
    """(name, object) of every member of a group, each opened by _member."""
    return [(key, _member(group, key)) for key in group]


def _attribute(h5obj, name, default=KeyError):
    """The attribute `name` of an object; `default` where it has none (without a default: FileError).
    A damaged attribute is FileError naming the file, the object and the attribute."""
    if default is not KeyError and name not in h5obj.attrs:
        return default
    try:
        return h5obj.attrs[name]
    except (KeyError, OSError, ValueError) as error:
        raise FileError("%s: damaged or missing attribute %s of %s (%s)"
                        % (h5obj.file.filename, name, h5obj.name, error)) from None


def _attrs(h5obj):
    attrs = {key: _text(_attribute(h5obj, key)) for key in h5obj.attrs}
    if "unit" in attrs:
        attrs["units"] = attrs["unit"]
    if "description" in attrs:
        attrs["long_name"] = attrs["description"]
    return attrs


def _values(dataset):
    try:
        if dataset.dtype.kind == "S" or h5py.check_string_dtype(dataset.dtype) is not None:
            return np.asarray(dataset.asstr()[()], dtype=object)  # fixed-length (schema 3) and variable-length strings
        return dataset[()]
    except (OSError, ValueError) as error:  # a damaged chunk
        raise FileError("%s: damaged dataset %s (%s)" % (dataset.file.filename, dataset.name, error)) from None


def _flags(meaning):
    """CF flag attributes from a `meaning` such as "0 ok, 1 infeasible, 2 failed, 3 not run"."""
    values, names = [], []
    for item in meaning.split(","):
        number, _, name = item.strip().partition(" ")
        if not number.lstrip("-").isdigit():
            return {}
        values.append(int(number))
        names.append(name.strip().replace(" ", "_"))
    return {"flag_values": np.array(values, dtype=np.int8), "flag_meanings": " ".join(names)}


def _parameter_units(model):
    """name -> (unit, description) of the model's parameters, or {} if this process does not know it
    (a plugin's model that is not loaded, or no compiled part)."""
    if _core is None:
        return {}
    try:
        return {p["name"]: (p["unit"], p["description"]) for p in _core.describe(model)["parameters"]}
    except InputError:
        return {}


def _parameter_coords(h5, model, skip=()):
    """From schema 5 on /parameters holds one scalar dataset per parameter, with its unit and
    description; before, one attribute each (units then come from the model, where it is known)."""
    stored = _member(h5, "parameters")
    if len(stored):
        coords = {}
        for name, dataset in _members(stored):
            if name not in skip:
                coords[name] = xr.Variable((), _text(_values(dataset)), _attrs(dataset))
        return coords
    units = _parameter_units(model)
    coords = {}
    for name in stored.attrs:
        if name in skip:
            continue
        value = _attribute(stored, name)
        attrs = {}
        if name in units:
            attrs = {"units": units[name][0], "unit": units[name][0], "long_name": units[name][1]}
        coords[name] = xr.Variable((), _text(value), attrs)
    return coords


def _legend(h5):
    """The file's /legend (schema 5): the class codes and the state, mode names' meanings, as
    {"classes": {code: meaning}, "states": {...}, "modes": {...}}; {} for older files."""
    if "legend" not in h5:
        return {}
    # Indexed one by one, never through h5py's items()/get(): those return None for an object whose
    # header fails its checksum, which would drop a damaged part of the legend without a word. The
    # writer always makes these three groups (jobs/output/legend_writer.cpp).
    legend = _member(h5, "legend")
    parts = {}
    for key in ("classes", "states", "modes"):
        group = _member(legend, key)
        if not isinstance(group, h5py.Group):
            raise FileError("%s: damaged /legend (no group %s)" % (h5.filename, key))
        parts[key] = {name: _text(_attribute(group, name)) for name in group.attrs}
    return parts


def _columns(dataset, dim):
    """The coordinate of a table's second dimension from its `columns` attribute, if it has one."""
    columns = _attribute(dataset, "columns", None)
    if columns is None:
        return {}
    return {dim: [c for c in _text(columns).split(",")]}


def _column_dims(dataset, name, values):
    """The dimensions of a table's columns: `component` where they are the state's components (attribute
    `columns`), else NAME_column."""
    if values.ndim < 2:
        return ()
    first = "component" if "columns" in dataset.attrs else "multiplier" if name.endswith("multipliers") else "%s_column" % name
    return (first,) + tuple(
        "%s_column%d" % (name, k) for k in range(2, values.ndim))


def _sweep(h5, path):
    axes = _member(h5, "axes")
    order = [a for a in _text(_attribute(axes, "order")).split(",") if a]
    coords = {name: xr.Variable((name,), _values(_member(axes, name)), _attrs(_member(axes, name))) for name in order}
    shape = tuple(coords[name].size for name in order)
    n = int(np.prod(shape)) if shape else 1
    cases = _member(h5, "cases")
    variables = {}

    def add(name, dataset):
        values = _values(dataset)
        if values.shape[:1] != (n,):
            raise FileError("%s: /cases/%s has %d rows, expected one per case (%d)"
                            % (path, dataset.name, values.shape[0] if values.ndim else 0, n))
        attrs = _attrs(dataset)
        attrs["source"] = dataset.name  # where it is in the file (docs/hdf5_schema.md)
        if "meaning" in attrs and name in ("status", "periodicity"):
            attrs.update(_flags(attrs["meaning"]))
        extra = _column_dims(dataset, name, values)
        if extra:
            coords.update(_columns(dataset, extra[0]))
        variables[name] = xr.Variable(tuple(order) + extra, values.reshape(shape + values.shape[1:]), attrs)

    def walk(group, prefix):
        for key, item in _members(group):
            if isinstance(item, h5py.Group):
                if key != "strobe":  # ragged, below
                    walk(item, "" if key == "observables" and not prefix else prefix + key + "_")
            else:
                add(prefix + key, item)

    walk(cases, "")
    for required in ("status", "class"):  # what every reader needs: a file without them is damaged
        if required not in variables:
            raise FileError("%s: damaged or not a vibro file (no /cases/%s)" % (path, required))
    if "strobe" in cases:  # every case's window samples, as one table with each case's first row and count
        group = _member(cases, "strobe")
        strobe = dict(_members(group))
        for key in ("offsets", "values", "drift_position", "mode"):
            if key not in strobe:
                raise FileError("%s: damaged or not a vibro file (no /cases/strobe/%s)" % (path, key))
        offsets = check_offsets(_values(strobe["offsets"]), n + 1, (strobe["values"].shape or (0,))[0], path,
                                strobe["offsets"].name)
        variables["strobe_start"] = xr.Variable(tuple(order), offsets[:-1].reshape(shape),
                                                {"long_name": "the case's first row of the strobe_ tables"})
        variables["strobe_count"] = xr.Variable(tuple(order), np.diff(offsets).reshape(shape),
                                                {"long_name": "the case's number of strobe samples",
                                                 # output.strobe_points: each case's window, or one orbit
                                                 "points": _text(_attribute(group, "points", "window"))})
        coords.update(_columns(strobe["values"], "component"))
        variables["strobe_values"] = xr.Variable(("strobe_row", "component"), _values(strobe["values"]),
                                                 _attrs(strobe["values"]))
        for key in ("drift_position", "mode"):
            variables["strobe_" + key] = xr.Variable(("strobe_row",), _values(strobe[key]), _attrs(strobe[key]))
    model = _text(_attribute(h5, "model", ""))
    coords.update(_parameter_coords(h5, model))
    legend = _legend(h5)
    if "class" in variables and legend.get("classes"):  # code -> meaning, as "code: meaning" lines
        variables["class"].attrs["legend"] = "\n".join("%s: %s" % item for item in legend["classes"].items())
    dataset = xr.Dataset(variables, coords=coords, attrs=_attrs(h5))
    dataset.attrs["legend"] = legend
    return with_basins(check_sweep_cases(dataset, path), h5, path)  # /basins, when the sweep has one


def _complex_pairs(group, prefix, dim):
    """The group's (n,) / (n, m) datasets along `dim`; a pair X_real, X_imag as one complex X."""
    variables, coords = {}, {}
    names = list(group.keys())
    for key in names:
        dataset = _member(group, key)
        if key.endswith("_imag") and key[:-5] + "_real" in names:
            continue
        values, name = _values(dataset), prefix + key
        if key.endswith("_real") and key[:-5] + "_imag" in names:
            values = values + 1j * _values(_member(group, key[:-5] + "_imag"))
            name = prefix + key[:-5]
        extra = _column_dims(dataset, name, values)
        if extra:
            coords.update(_columns(dataset, extra[0]))
        variables[name] = xr.Variable((dim,) + extra, values, _attrs(dataset))
    return variables, coords


def _branch(h5, path):
    branch = _member(h5, "branch")
    parameter = _text(_attribute(_member(branch, "parameter"), "name", "parameter"))
    variables, coords = _complex_pairs(branch, "", "point")
    coords[parameter] = variables.pop("parameter")  # the continuation parameter, along the branch
    if "parameters" in h5 and parameter in _member(h5, "parameters"):  # its unit and description, as /parameters gives them
        stored = _member(_member(h5, "parameters"), parameter)
        coords[parameter].attrs.update({k: v for k, v in _attrs(stored).items() if k != "name"})
    if "events" in h5:
        events, event_coords = _complex_pairs(_member(h5, "events"), "event_", "event")
        variables.update(events)
        coords.update(event_coords)
    coords.update(_parameter_coords(h5, _text(_attribute(h5, "model", "")), skip=(parameter,)))
    return xr.Dataset(variables, coords=coords, attrs=_attrs(h5))


def _curve(h5, path):
    """A curve file (`vibro continue --curve`): a codimension-one point (its kind the attribute `kind`)
    followed in two parameters; /curve/parameter_1 and parameter_2 become coordinates along `point`
    named after the parameters, the rest variables along `point`."""
    curve = _member(h5, "curve")
    variables, coords = _complex_pairs(curve, "", "point")
    names = []
    for key in ("parameter_1", "parameter_2"):
        variable = variables.pop(key)
        name = _text(variable.attrs.get("name", key))
        if name in coords or name in names:
            raise FileError("%s: /curve/%s names the parameter %r twice" % (path, key, name))
        coords[name] = variable
        names.append(name)
    coords.update(_parameter_coords(h5, _text(_attribute(h5, "model", "")), skip=tuple(names)))
    return xr.Dataset(variables, coords=coords, attrs=_attrs(h5))


def _trace(h5, path):
    """A trace file of `vibro trace` (one case's time history): /trace along `time`, /events along
    `event` (event_*), /strobe along `sample` (strobe_*); tables whose columns are the state's
    components (attribute `components`) get the dimension `component`, each component its unit."""
    variables, coords = {}, {}
    for group, dim, prefix in (("trace", "time", ""), ("events", "event", "event_"), ("strobe", "sample", "strobe_")):
        for key, dataset in _members(_member(h5, group)):
            values, attrs = _values(dataset), _attrs(dataset)
            names = attrs.get("components") or attrs.get("names")
            if values.ndim == 2 and attrs.get("components"):  # the strobe's state may lack the drift position
                column = "strobe_component" if group == "strobe" else "component"
                dims = (dim, column)
                coords[column] = names.split(",")
            else:
                dims = (dim,) + tuple("%s%s_column%d" % (prefix, key, k) for k in range(1, values.ndim))
            variables[prefix + key] = xr.Variable(dims, values, attrs)
    trace = _member(h5, "trace")
    units = dict(zip(_text(_attribute(trace, "components")).split(","), _text(_attribute(trace, "units")).split(",")))
    for name, unit in units.items():  # each component's unit on its own variable, as in a sweep
        if name in variables and "unit" not in variables[name].attrs:
            variables[name].attrs.update(unit=unit, units=unit)
    coords["time"] = variables.pop("time")
    stored = _members(_member(h5, "parameters")) if "parameters" in h5 else []
    for name, dataset in stored:  # one row per parameter in a trace file
        coords[name] = xr.Variable((), _text(np.asarray(_values(dataset)).reshape(-1)[0]), _attrs(dataset))
    return xr.Dataset(variables, coords=coords, attrs=_attrs(h5))


READERS = {"vibro-sweep": _sweep, "vibro-branch": _branch, "vibro-curve": _curve, "vibro-trace": _trace}


def open(path):  # noqa: A001 -- vibro.open, as xarray.open_dataset
    """The sweep file of `vibro run` (or vibro.sweep), the branch or curve file of `vibro continue` or
    the trace file of `vibro trace`, as an xarray.Dataset (see the module's doc). Raises FileError for
    a file that is not one of those."""
    try:
        h5 = h5py.File(path, "r")
    except OSError as error:
        raise FileError("%s: not a readable HDF5 file (%s)" % (path, error)) from None
    with h5:
        kind = _text(_attribute(h5, "format", ""))
        version = _text(_attribute(h5, "schema_version", None))
        known = KNOWN_CURVE_SCHEMA_VERSIONS if kind == "vibro-curve" else KNOWN_SCHEMA_VERSIONS
        if kind not in READERS or version not in known:
            raise FileError("%s: not a vibro sweep, branch, curve or trace file of schema version %s (format %r, "
                            "schema_version %r)" % (path, " or ".join(map(str, known)), kind, version))
        try:
            reader = READERS[kind]
            dataset = reader(h5, path)
        except (KeyError, OSError, ValueError) as error:
            if isinstance(error, FileError):
                raise
            raise FileError("%s: damaged or not a vibro file (%s: %s)" % (path, type(error).__name__, error)) from None
    return dataset


def case_strobe(dataset, **point):
    """One case's stroboscopic samples of a sweep Dataset: a Dataset along `strobe_row` with the
    state (columns `component`), drift position and mode. `point` selects the case by its axis values
    (nearest), e.g. case_strobe(ds, a_hat=50, z0=0.002)."""
    case = dataset[["strobe_start", "strobe_count"]].sel(point, method="nearest") if point else dataset
    start, count = int(case["strobe_start"]), int(case["strobe_count"])
    rows = slice(start, start + count)
    return dataset[["strobe_values", "strobe_drift_position", "strobe_mode"]].isel(strobe_row=rows)
