"""vibro.simulate: one case's time history (dense state, events, stroboscopic samples) as numpy arrays."""
from ._extension import core
from ._sweep import sweep_text


class Trajectory:
    """One case run for a number of forcing periods (vibro.simulate). Arrays:

    time (n,), state (n, d), mode (n,)      the dense output on samples_per_period points per period;
                                            columns `components` (units `units`), modes `mode_names`
    event_time (e,), event_kind (e,)        every event (impact, lift-off, stick, ...), in time order,
    event_before (e, d), event_after (e, d) with the state just before and just after it
    strobe_time (k,), strobe_period (k,)    the stroboscopic samples t = k T: state (k, m) in the
    strobe_state (k, m), strobe_mode (k,),  columns `strobe_components` (the file's strobe columns),
    strobe_drift_position (k,)              the drift coordinate and the mode
    period                                  the forcing period T, s
    """

    def __init__(self, model, parameters, raw):
        self.model = model
        self.parameters = dict(parameters)
        for key, value in raw.items():
            setattr(self, key, value)

    def events(self, kind):
        """The times of the events of one kind, e.g. traj.events("impact")."""
        return self.event_time[[k == kind for k in self.event_kind]]

    def __repr__(self):
        kinds = sorted(set(self.event_kind))
        return "<vibro.Trajectory %s: %d samples over %.6g s, %d events (%s), %d strobe samples>" % (
            self.model, len(self.time), self.time[-1] - self.time[0] if len(self.time) else 0.0, len(self.event_time),
            ", ".join("%s %d" % (k, list(self.event_kind).count(k)) for k in kinds), len(self.strobe_time))


def simulate(model, periods=10, samples_per_period=200, **parameters):
    """Runs one case of `model` (every other parameter at its default) for `periods` forcing periods and
    returns its Trajectory. Parameters go by their keys (`vibro describe MODEL`), numbers or choice
    names: vibro.simulate("conveyor", periods=20, a_hat=50, z0=0.002). Bad input raises InputError
    with the message `vibro run` would print for the same keys in a sweep file."""
    described = core().describe(model)  # InputError for an unknown model
    section = {p["name"]: p["section"] for p in described["parameters"]}
    spec = {"model": model}
    for key, value in parameters.items():  # an unknown key goes to [parameters], where it is refused
        spec.setdefault(section.get(key, "parameters"), {})[key] = value
    return Trajectory(model, parameters, core().trace(sweep_text(spec), int(periods), int(samples_per_period)))
