"""The datasets of a vibro result file that two runs of one sweep must share: every dataset under
axes/, cases/ and parameters/ (the wall times aside), by name. Imported by the end-to-end tests that
compare back ends or model files with each other."""
import h5py
import numpy as np


def datasets(path):
    out = {}
    with h5py.File(path, "r") as h5:
        for group in ("axes", "cases", "parameters"):
            if group in h5:
                h5[group].visititems(
                    lambda name, obj, g=group: out.__setitem__(g + "/" + name, obj[...])
                    if isinstance(obj, h5py.Dataset) else None)
    out.pop("cases/wall_seconds", None)
    return out


def largest_difference(a, b):
    """The largest |a - b| over every numeric dataset (NaN equal to NaN), and the keys that differ
    in presence, shape or non-numeric content."""
    if a.keys() != b.keys():
        return np.inf, ["datasets: %s" % sorted(set(a) ^ set(b))]
    worst, bad = 0.0, []
    for key in sorted(a):
        x, y = a[key], b[key]
        if x.shape != y.shape:
            bad.append(key)
        elif x.dtype.kind in "fiu":
            x, y = x.astype(float), y.astype(float)
            same_nan = np.isnan(x) == np.isnan(y)
            if not same_nan.all():
                bad.append(key)
                continue
            d = np.abs(x - y)[~np.isnan(x)]
            d = d[np.isfinite(d)] if d.size else d
            if d.size:
                worst = max(worst, float(d.max()))
            if (np.isinf(x) != np.isinf(y)).any() or (x[np.isinf(x)] != y[np.isinf(y)]).any():
                bad.append(key)
        elif x.tobytes() != y.tobytes():
            bad.append(key)
    return worst, bad
