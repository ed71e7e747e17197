"""vibro from Python: the models, sweeps run in this process, and result files as xarray Datasets.

    import vibro
    vibro.models()                                  # name -> summary
    vibro.describe("conveyor")                      # parameters (unit, default, range), observables, layout
    ds = vibro.sweep(example="conveyor_fig6")       # or a sweep file's path, its text, or a dict
    ds = vibro.open("results/conveyor_fig6.h5")     # what `vibro run` or `vibro continue` wrote
    branch = vibro.continue_("one_case.ini", "omega", 2.3)  # as `vibro continue`: the branch, its events
    ds.mean_velocity.sel(z0=0).plot()
    traj = vibro.simulate("conveyor", periods=20, a_hat=50, z0=0.002)   # one case: a Dataset over time, events

Import it from build/python after a build (PYTHONPATH=build/python); vibro.open and vibro.plot also
work from the source tree (python/) without the compiled part.
"""
from ._dataset import case_strobe, open  # noqa: A004 -- vibro.open reads a vibro file
from ._errors import FileError, InputError
from ._extension import core as _compiled
from ._simulate import simulate, state
from ._continue import continue_
from ._sweep import sweep, sweep_text


def models():
    """The registered models: name -> one-line summary (as `vibro models`)."""
    return _compiled().models()


def describe(model):
    """A model's parameters (section, unit, default, accepted range, meaning), observables and state
    layout, as `vibro describe MODEL` prints them. Unknown model: InputError."""
    return _compiled().describe(model)


def examples():
    """The shipped example sweeps (as `vibro examples`); vibro.sweep(example=NAME) runs one."""
    return _compiled().example_names()


def load_plugin(file):
    """Loads a model plugin (a shared library built with vibro_add_model), as --plugin FILE does."""
    _compiled().load_plugin(file)


__all__ = ["InputError", "FileError", "models", "describe", "examples", "load_plugin", "open", "case_strobe",
           "sweep", "sweep_text", "simulate", "state", "continue_"]
