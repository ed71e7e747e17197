"""The compiled part, vibro._core, when it is built: reading files needs only the pure-Python part, so
the package imports from the source tree (python/) too, and only what runs C++ asks for the extension."""
try:
    from . import _core
except ImportError as error:  # not built here (no pybind11 at build time), or built for another Python
    _core = None
    _why = error


def core():
    """The extension module; ImportError saying how to get it when it is not there."""
    if _core is None:
        raise ImportError("vibro's compiled part (vibro._core) is not importable (%s): `pip install .` in the "
                          "repository builds it for this Python (docs/python_install.md), or build the project with "
                          "pybind11-dev and python3-dev installed (bash scripts/quickstart.sh) and import vibro "
                          "from build/python; reading files (vibro.open) works without it" % _why)
    return _core
