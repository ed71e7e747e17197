"""What the readers take from a file, checked before it is used: a dataset of the wrong type, a code
outside its meaning or an index outside its table is a FileError naming the file and the dataset
(docs/hdf5_schema.md gives each one's type), never a traceback later nor a figure of nonsense."""
import numpy as np

from ._errors import FileError

# numpy dtype kinds each kind of dataset may have (HDF5 integers of any width, floats, strings).
_KINDS = {"integer": "iub", "number": "iufb", "text": "OSU"}
_WHAT = {"i": "integers", "u": "integers", "b": "booleans", "f": "floating-point numbers", "c": "complex numbers",
         "O": "strings", "S": "strings", "U": "strings", "V": "compound records"}
_CASE_TEXT = ("/cases/class", "/cases/reason")
_CASE_INTEGER = ("/cases/status", "/cases/periodicity", "/cases/period", "/cases/periods_run",
                 "/cases/window_periods", "/cases/jumps", "/cases/stopped_early")


def require_kind(values, kind, path, name):
    """`values` (a dataset's array) when its type is `kind` (integer, number or text); else FileError."""
    values = np.asarray(values)
    if values.dtype.kind not in _KINDS[kind]:
        raise FileError("%s: %s holds %s, expected %s" % (path, name, _WHAT.get(values.dtype.kind, values.dtype),
                                                          "strings" if kind == "text" else kind + "s"))
    return values


def check_offsets(offsets, entries, rows, path, name):
    """A ragged table's offsets (`entries` integers, N + 1: case i's rows are offsets[i]:offsets[i + 1])
    as int64, when they start at 0, never decrease and end at the table's `rows`; else FileError."""
    offsets = require_kind(offsets, "integer", path, name).astype(np.int64)
    if offsets.shape != (entries,):
        raise FileError("%s: %s has shape %s, expected (%d,): one entry per case and one more"
                        % (path, name, offsets.shape, entries))
    if offsets[0] != 0 or np.any(np.diff(offsets) < 0) or offsets[-1] != rows:
        bad = int(np.argmax(np.diff(offsets) < 0)) + 1 if np.any(np.diff(offsets) < 0) else None
        raise FileError("%s: %s points outside its table of %d rows (it must rise from 0 to %d%s)"
                        % (path, name, rows, rows, "" if bad is None else "; entry %d falls to %d" % (bad, offsets[bad])))
    return offsets


def check_sweep_cases(dataset, path):
    """Every /cases variable of a sweep Dataset (attribute `source`) has its dataset's type, and the
    status codes are those the file's meaning lists (0 ok, 1 infeasible, 2 failed, 3 not run)."""
    for name, variable in dataset.data_vars.items():
        source = variable.attrs.get("source", "")
        if not source.startswith("/cases/"):
            continue
        kind = "text" if source in _CASE_TEXT else "integer" if source in _CASE_INTEGER else "number"
        require_kind(variable.values, kind, path, source)
    status = dataset["status"]
    for axis in status.dims:
        require_kind(dataset[axis].values, "number", path, "/axes/" + axis)
    if "strobe_values" in dataset:
        require_kind(dataset["strobe_values"].values, "number", path, "/cases/strobe/values")
        require_kind(dataset["strobe_drift_position"].values, "number", path, "/cases/strobe/drift_position")
        require_kind(dataset["strobe_mode"].values, "integer", path, "/cases/strobe/mode")
    codes = status.attrs.get("flag_values", np.arange(4))
    outside = ~np.isin(status.values, codes)
    if np.any(outside):
        raise FileError("%s: /cases/status holds %s, which is no status code (%s)"
                        % (path, status.values.reshape(-1)[outside.reshape(-1)][0],
                           status.attrs.get("meaning", "0 ok, 1 infeasible, 2 failed, 3 not run")))
    return dataset
