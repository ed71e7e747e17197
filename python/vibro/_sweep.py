"""vibro.sweep: a sweep run in this process by the code of `vibro run`, returned as an xarray.Dataset."""
import os
import signal
import tempfile

import numpy as np

from ._dataset import open as open_file
from ._errors import InputError
from ._extension import core

# What messages call a sweep given as text or a dict: the file it is written to for the run is
# temporary and gone by the time anyone reads the message.
TEXT_SOURCE = "(sweep given as text)"


def _ini_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, np.ndarray)):  # an axis' values
        return ", ".join(_ini_value(v) for v in np.asarray(value).tolist())
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same double
    return str(value)


def sweep_text(spec):
    """A sweep file's text from a dict: plain keys (`model`) first, then one [section] per dict value,
    e.g. {"model": "conveyor", "parameters": {"c_r": 0.6}, "axes": {"a_hat": "linspace(30, 80, 51)"}}.
    An axis may also be a list or array of values."""
    lines = ["%s = %s" % (key, _ini_value(value)) for key, value in spec.items() if not isinstance(value, dict)]
    for section, keys in spec.items():
        if isinstance(keys, dict):
            lines.append("\n[%s]" % section)
            lines.extend("%s = %s" % (key, _ini_value(value)) for key, value in keys.items())
    return "\n".join(lines) + "\n"


def _with_model_file(spec, folder):
    """A dict's model as the sweep file in `folder` needs it: a model file's text (a string with a line
    break) written to folder/model.vibro, a relative model file path made absolute (from the current
    folder, not the temporary one)."""
    model = spec.get("model")
    if not isinstance(model, (str, os.PathLike)):
        return spec
    model = os.fspath(model)
    if "\n" in model:
        path = os.path.join(folder, "model.vibro")
        with open(path, "w") as out:
            out.write(model)
        return dict(spec, model=path)
    if model.endswith(".vibro"):
        return dict(spec, model=os.path.abspath(model))
    return spec


def sweep_file(spec, folder):
    """The path of a sweep file for `spec`: its own path, or, for its text or a dict, sweep.ini written
    into `folder`."""
    if isinstance(spec, (str, os.PathLike)) and "\n" not in os.fspath(spec):
        return os.fspath(spec)
    if isinstance(spec, dict):
        spec = _with_model_file(spec, folder)
    path = os.path.join(folder, "sweep.ini")
    with open(path, "w") as out:
        out.write(sweep_text(spec) if isinstance(spec, dict) else spec)
    return path


def sweep(spec=None, threads=None, example=None, output=None, overwrite=False, **overrides):
    """Runs a sweep in this process, as `vibro run` does (same code, same results bit for bit), and
    returns its xarray.Dataset (as vibro.open returns it).

    spec      a sweep file's path, its text (anything with a line break), or a dict (see sweep_text);
              a dict's "model" may be a model file's path (NAME.vibro) or its text (docs/model_files.md);
              without spec and example, model=NAME (a model's name, a model file's path or text) and
              the overrides make the sweep: vibro.sweep(model="rocking.vibro", axes__w=[2, 3, 5]);
    example   instead of spec: a shipped example's name (vibro.examples()), as `vibro run --example`;
    threads   OpenMP threads (run.threads; default: the sweep's setting, 0 = all);
    output    keep the HDF5 file there (default: a temporary file, deleted after reading);
    overwrite replace an existing `output`;
    overrides other command-line overrides, section__key=value: run__max_periods=200.

    Bad input raises vibro.InputError (a ValueError) with the message `vibro run` prints, before any
    case runs; for a sweep given as text or a dict the message names it "(sweep given as text)" with
    the line of the text. Ctrl-C stops handing out cases; the cases in progress finish, then
    KeyboardInterrupt is raised (a second Ctrl-C ends the process, as for `vibro run`). With output=PATH
    the cases done are kept beside PATH and the same call resumes from them; without it they are lost.
    """
    if spec is None and example is None and "model" in overrides:
        spec = {"model": overrides.pop("model")}  # the rest are the sweep's keys, as overrides
    if (spec is None) == (example is None):
        raise TypeError("vibro.sweep takes a sweep (file path, text or dict) or example=NAME, one of them")
    with tempfile.TemporaryDirectory(prefix="vibro-sweep-") as folder:
        if example is not None:
            args = ["--example", str(example)]
        else:
            args = [sweep_file(spec, folder)]
        temporary = args[0] if args[0].startswith(folder) else None
        target = os.fspath(output) if output is not None else os.path.join(folder, "sweep.h5")
        args.append("--output.file=" + target)
        if output is None or overwrite:
            args.append("--output.overwrite=true")
        if threads is not None:
            args.append("--run.threads=%d" % threads)
        args.extend("--%s=%s" % (key.replace("__", "."), _ini_value(value)) for key, value in overrides.items())
        try:
            code, _summary = core().run(args)
        except InputError as error:
            if temporary is None:
                raise
            raise InputError(str(error).replace(temporary, TEXT_SOURCE)) from None
        if code == 128 + signal.SIGINT:
            if output is not None:
                raise KeyboardInterrupt("vibro.sweep interrupted: no Dataset; the cases done so far are in %s.ckpt.*: "
                                        "the same call resumes from them" % target)
            raise KeyboardInterrupt("vibro.sweep interrupted: no Dataset, and the cases done so far are lost (they "
                                    "were kept in a temporary folder, now deleted); give output=PATH to keep them "
                                    "and resume by repeating the call")
        if code != 0:
            raise RuntimeError("vibro.sweep: the sweep ended with exit code %d" % code)
        dataset = open_file(target)
        dataset.load()  # read before the temporary file goes
        return dataset
