"""The datasets of a vibro result file that two runs of one sweep must share: every dataset under
axes/, cases/ and parameters/ (the wall times aside), by name. Imported by the end-to-end tests that
compare back ends or model files with each other."""
import h5py


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
