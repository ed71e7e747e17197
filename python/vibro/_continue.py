"""vibro.continue_: a periodic orbit followed in one parameter by the code of `vibro continue`,
returned as the branch's xarray.Dataset (as vibro.open reads a branch file)."""
import os
import tempfile

from ._dataset import open as open_file
from ._errors import InputError
from ._extension import core
from ._sweep import TEXT_SOURCE, _ini_value, sweep_file


def continue_(spec, parameter, to, method=None, step=None, max_step=None, periods=None, switch=None,
              cascade=None, curve=None, parameters=None, curve_to=None, **overrides):
    """Follows the periodic orbit that the sweep's single case settles on, from its value of
    `parameter` to `to`, as `vibro continue` does (same code, same branch), and returns the branch.

    spec      a sweep file's path, its text or a dict (as vibro.sweep), defining one case (no axes);
    method    "natural" (default) or "arclength"; step, max_step, periods: as --step, --max-step, --periods;
    switch    "PD1", ...: also follow the branch of twice the period born at that period doubling,
              returned as (branch, doubled branch); "G1", ...: the branch with more impacts born at
              that grazing;
    cascade   K, with switch "PDn": K doublings in all, each next at the new branch's first; every
              branch of the cascade is returned, (branch, period 2k, period 4k, ...), fewer where
              the cascade stopped (a branch without a doubling);
    curve     "grazing", "period_doubling" or "fold" (with the event's number: "grazing2"; default the
              first): also trace that event's curve in two parameters, `parameters` = (parameter, P2) or
              "parameter,P2", from the sweep's value of P2 to `curve_to`; the curve (dimension `point`,
              coordinates named after the two parameters) comes last in the returned tuple;
    overrides other command-line overrides, section__key=value: parameters__zeta=0.1.

    Events (period doublings, folds, Neimark-Sacker points, grazings) are the Dataset's `event`
    dimension; why the branch ended is its attribute `end`. Bad input raises vibro.InputError.
    """
    options = {"--parameter": parameter, "--to": to, "--method": method, "--step": step, "--max-step": max_step,
               "--periods": periods, "--switch": switch, "--cascade": cascade, "--curve": curve,
               "--parameters": ",".join(parameters) if isinstance(parameters, (list, tuple)) else parameters,
               "--curve-to": curve_to}
    with tempfile.TemporaryDirectory(prefix="vibro-continue-") as folder:
        path = sweep_file(spec, folder)
        args = [path, "--output.file=" + os.path.join(folder, "orbit.h5")]
        args += ["%s=%s" % (name, _ini_value(value)) for name, value in options.items() if value is not None]
        args += ["--%s=%s" % (key.replace("__", "."), _ini_value(value)) for key, value in overrides.items()]
        try:
            code, _printed = core().continue_(args)
        except InputError as error:
            raise InputError(str(error).replace(path, TEXT_SOURCE) if path.startswith(folder) else str(error)) from None
        if code != 0:
            raise RuntimeError("vibro.continue_: the continuation ended with exit code %d" % code)
        branches = [open_file(os.path.join(folder, "orbit.branch.h5"))]
        if switch is not None:
            stem = os.path.join(folder, "orbit.%s" % str(switch).lower())
            for _ in range(int(cascade) if cascade is not None else 1):
                if not os.path.exists(stem + ".branch.h5"):
                    break  # the cascade stopped
                branches.append(open_file(stem + ".branch.h5"))
                stem += ".pd1"
        if curve is not None:
            name = str(curve) if str(curve)[-1:].isdigit() else str(curve) + "1"
            branches.append(open_file(os.path.join(folder, "orbit.%s.curve.h5" % name)))
        for branch in branches:
            branch.load()  # read before the temporary files go
        return tuple(branches) if len(branches) > 1 else branches[0]
