"""Model files from Python: vibro.describe reads one, vibro.sweep takes its path or its text as the
dict's "model" (and the same text twice in one process) or as model=... with the sweep's keys as
keyword overrides, with the built-in C++ model's results."""
import os

import numpy as np

import vibro


def impact_file(root):
    return os.path.join(root, "examples", "models", "impact_oscillator.vibro")


def test_describe_reads_a_model_file(root):
    d = vibro.describe(impact_file(root))
    assert d["name"] == "shaw_holmes_impact"
    assert [p["name"] for p in d["parameters"]][:4] == ["zeta", "omega", "sigma", "r"]


def test_sweep_of_a_model_file_text_equals_the_cpp_model(root):
    with open(impact_file(root)) as f:
        text = f.read()
    sweep = {"axes": {"sigma": [0.5, 1.0, 3.0]}, "run": {"max_periods": 150}, "output": {"floquet": True}}
    builtin = vibro.sweep(dict(sweep, model="impact_oscillator"))
    as_text = vibro.sweep(dict(sweep, model=text))
    again = vibro.sweep(dict(sweep, model=text))  # the same text from another temporary file: the same model
    as_path = vibro.sweep(dict(sweep, model=impact_file(root)))
    compared = 0
    for name, variable in builtin.data_vars.items():
        if name == "wall_seconds" or variable.dtype.kind not in "fiub":
            continue
        for other in (as_text, again, as_path):
            np.testing.assert_array_equal(other[name].values, variable.values, err_msg=name)
        compared += 1
    assert compared >= 5 and "max_x" in builtin.data_vars
    assert np.nanmax(builtin["max_x"].values) > 0


def test_sweep_takes_the_model_as_a_keyword(root):
    # vibro.sweep(model=FILE, section__key=...): the same sweep as the dict with the model in it.
    keywords = vibro.sweep(model=impact_file(root), axes__sigma=[0.5, 1.0, 3.0], run__max_periods=150)
    as_dict = vibro.sweep({"model": impact_file(root), "axes": {"sigma": [0.5, 1.0, 3.0]}, "run": {"max_periods": 150}})
    assert keywords["max_x"].shape == (3,)
    for name in ("max_x", "impacts_per_period"):
        np.testing.assert_array_equal(keywords[name].values, as_dict[name].values, err_msg=name)
