"""vibro.simulate: one case's time history (dense state, events, stroboscopic samples) as an xarray.Dataset."""
import numpy as np
import xarray as xr

from ._extension import core
from ._sweep import sweep_text


def _flags(names):
    """CF flag attributes for a mode index (0, 1, ... name the model's modes)."""
    return {"flag_values": np.arange(len(names), dtype=np.int32), "flag_meanings": " ".join(n.replace(" ", "_") for n in names)}


def _trajectory(model, parameters, raw):
    """The Dataset of vibro.simulate from the extension's arrays (python/src/bind_trace.cpp)."""
    components, units = list(raw["components"]), list(raw["units"])
    strobe_components, strobe_units = list(raw["strobe_components"]), list(raw["strobe_units"])
    variables = {}

    def add(name, dims, values, attrs):
        variables[name if name not in variables and name not in ("time", "period") else "state_" + name] = xr.Variable(
            dims, values, attrs)

    for c, (name, unit) in enumerate(zip(components, units)):
        add(name, ("time",), raw["state"][:, c], {"units": unit, "long_name": "state component %s" % name})
    add("mode", ("time",), np.asarray(raw["mode"], dtype=np.int32),
        dict(_flags(raw["mode_names"]), long_name="the model's discrete mode"))
    add("event_time", ("event",), raw["event_time"], {"units": "s", "long_name": "time of the event"})
    add("event_kind", ("event",), np.asarray(raw["event_kind"], dtype=object),
        {"long_name": "the event's kind (impact, lift-off, stick, ...)"})
    for c, (name, unit) in enumerate(zip(components, units)):
        add(name + "_before", ("event",), raw["event_before"][:, c], {"units": unit, "long_name": "%s just before the event" % name})
        add(name + "_after", ("event",), raw["event_after"][:, c], {"units": unit, "long_name": "%s just after the event" % name})
    add("strobe_time", ("strobe",), raw["strobe_time"], {"units": "s", "long_name": "stroboscopic sample time t = k T"})
    add("strobe_period", ("strobe",), raw["strobe_period"], {"units": "forcing periods", "long_name": "k of t = k T"})
    for c, (name, unit) in enumerate(zip(strobe_components, strobe_units)):
        add("strobe_" + name, ("strobe",), raw["strobe_state"][:, c], {"units": unit, "long_name": "%s at t = k T" % name})
    add("strobe_drift_position", ("strobe",), raw["strobe_drift_position"],
        {"units": raw["drift_unit"], "long_name": "the drift coordinate at t = k T"})
    add("strobe_mode", ("strobe",), np.asarray(raw["strobe_mode"], dtype=np.int32),
        dict(_flags(raw["mode_names"]), long_name="the mode at t = k T"))
    units_of = {p["name"]: (p["unit"], p["description"]) for p in core().describe(model)["parameters"]}
    coords = {"time": xr.Variable(("time",), raw["time"], {"units": "s", "long_name": "time"})}
    for key, value in parameters.items():  # the parameters given; the others are the model's defaults
        unit, description = units_of.get(key, ("-", ""))
        coords[key] = xr.Variable((), value, {"units": unit, "long_name": description})
    variables["period"] = xr.Variable((), raw["period"], {"units": "s", "long_name": "forcing period T"})
    return xr.Dataset(variables, coords=coords, attrs={
        "model": model, "components": ",".join(components), "strobe_components": ",".join(strobe_components)})


def state(trajectory, prefix="", suffix=""):
    """The Dataset's components (attribute `components`, or `strobe_components` with prefix "strobe_")
    as one (n, d) array, columns in the model's order: state(traj), state(traj, suffix="_before"),
    state(traj, prefix="strobe_")."""
    names = trajectory.attrs["strobe_components" if prefix == "strobe_" else "components"].split(",")
    return np.column_stack([trajectory[prefix + name + suffix].values for name in names])


def simulate(model, periods=10, samples_per_period=200, **parameters):
    """Runs one case of `model` (every other parameter at its default) for `periods` forcing periods and
    returns its time history as an xarray.Dataset: vibro.simulate("conveyor", periods=20, a_hat=50,
    z0=0.002). Parameters go by their keys (`vibro describe MODEL`), numbers or choice names.

    dims time, event, strobe; every variable with `units` and `long_name`:
      one variable per state component over `time` (conveyor: h, u, vT), and `mode`;
      event_time, event_kind, and <component>_before, <component>_after over `event`;
      strobe_time, strobe_period, strobe_<component>, strobe_drift_position, strobe_mode over `strobe`
      (the samples t = k T, with the sweep file's strobe columns);
      period (the forcing period T, s); the parameters given as scalar coordinates.
    Attributes: model, components, strobe_components (comma-separated, in the model's order).
    The impacts: ds.event_time[ds.event_kind == "impact"]; all components as one array: vibro.state(ds).

    Bad input raises InputError with the message `vibro run` would print for the same keys in a sweep
    file."""
    described = core().describe(model)  # InputError for an unknown model
    section = {p["name"]: p["section"] for p in described["parameters"]}
    spec = {"model": model}
    for key, value in parameters.items():  # an unknown key goes to [parameters], where it is refused
        spec.setdefault(section.get(key, "parameters"), {})[key] = value
    return _trajectory(model, parameters, core().trace(sweep_text(spec), int(periods), int(samples_per_period)))
