#!/usr/bin/env python3
"""One rule for option values in every subcommand: an option that takes a value never takes the next
option as its value (refused with exit 2 naming the option, before any file is written); an option or
a sweep key given twice, and a key given twice in the sweep file, are refused naming both places;
`vibro run SWEEP.ini --resume OUT` starts the sweep when nothing was saved yet, and says so.

usage: test_option_values.py VIBRO_BINARY REPO_ROOT

A few seconds: refusals, and one sweep of 2 cases.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import Vibro, check, new_dir, run_all, show, write  # noqa: E402

SWEEP = """model = conveyor
[axes]
a_hat = 40, 60
[run]
max_periods = 40
window_periods = 10
[output]
file = conv.h5
"""


def refused(rc, err, option, taken):
    """Exit 2, the option named, the word it would have taken quoted as an option."""
    return rc == 2 and f"{option} needs a value; got the option '{taken}'" in err


def test_next_option_is_no_value(vibro, tmp):
    d = new_dir(tmp, "values")
    ini = write(d, "conv.ini", SWEEP)
    cases = [
        (["run", ini, "--output.file", "--run.threads=1"], "--output.file", "--run.threads=1"),
        (["run", "--resume", "--output.overwrite=true"], "--resume", "--output.overwrite=true"),
        (["run", "--example", "--run.threads=1"], "--example", "--run.threads=1"),
        (["trace", ini, "--out", "--csv"], "--out", "--csv"),
        (["trace", ini, "--case", "--periods", "3"], "--case", "--periods"),
        (["continue", ini, "--parameter", "--to", "70"], "--parameter", "--to"),
        (["plot", os.path.join(d, "conv.h5"), "--kind", "--out", "x.png"], "--kind", "--out"),
        (["--plugin", "--run.threads=1", "models"], "--plugin", "--run.threads=1"),
        (["submit", ini, "--partition", "--dry-run"], "--partition", "--dry-run"),
    ]
    for args, option, taken in cases:
        rc, out, err = vibro(*args, cwd=d)
        check(refused(rc, err, option, taken), f"vibro {' '.join(args[:1])}: {option} {taken} is refused naming {option}",
              show(rc, out, err))
        check("=VALUE" in err, f"the refusal of {option} {taken} says how to give a value that starts with --", err)
    # Nothing was written under an option's name, and no sweep ran.
    check(sorted(os.listdir(d)) == ["conv.ini"], "no file was written by a refused command line", str(os.listdir(d)))
    # The '=' form still takes any value, and a negative number is a value.
    rc, out, err = vibro("trace", ini, "--case=-1", cwd=d)
    check(rc == 2 and "--case = '-1'" in err, "--case=-1 reaches the range check (a value, not an option)",
          show(rc, out, err))


def test_given_twice(vibro, tmp):
    d = new_dir(tmp, "twice")
    ini = write(d, "conv.ini", SWEEP)
    rc, out, err = vibro("run", ini, "--output.file=a.h5", "--output.file=b.h5", cwd=d)
    check(rc == 2 and "--output.file=a.h5 and --output.file=b.h5" in err and "given twice" in err
          and "malformed" not in err, "a repeated override is named with both values, not 'malformed sweep file'",
          show(rc, out, err))
    rc, out, err = vibro("run", ini, "--output.file", "a.h5", "--output.file=b.h5", cwd=d)
    check(rc == 2 and "--output.file=a.h5 and --output.file=b.h5" in err,
          "a repeated override is refused whichever form each takes", show(rc, out, err))
    twice = write(d, "twice.ini", SWEEP + "[run]\nmax_periods = 50\n")
    rc, out, err = vibro("run", twice, cwd=d)
    check(rc == 2 and f"{twice}:5 and {twice}:10: run.max_periods is given twice" in err and "malformed" not in err,
          "a key given twice in the sweep file is named with both lines", show(rc, out, err))
    # The file's value and an override of it are no repetition.
    rc, out, err = vibro("trace", ini, "--run.max_periods=30", "--case", "1", "--case", "0", cwd=d)
    check(rc == 2 and "--case is given twice ('1' and '0')" in err, "an own option given twice is refused",
          show(rc, out, err))
    check(not any(n.endswith(".h5") for n in os.listdir(d)), "nothing written", str(os.listdir(d)))


def test_resume_with_nothing_saved(vibro, tmp):
    d = new_dir(tmp, "resume")
    ini = write(d, "conv.ini", SWEEP)
    out_file = os.path.join(d, "fresh.h5")
    rc, out, err = vibro("run", "--resume", out_file, cwd=d)
    check(rc == 2 and "nothing to resume" in err and "SWEEP.ini --resume" in err,
          "--resume OUT alone with no checkpoint says how to start the sweep", show(rc, out, err))
    rc, out, err = vibro("run", ini, "--resume", out_file, cwd=d)
    check(rc == 0 and "nothing saved yet" in err and "starting the sweep" in err and os.path.exists(out_file),
          "SWEEP.ini --resume OUT with nothing saved starts the sweep into OUT and says so", show(rc, out, err))
    other = write(d, "other.ini", SWEEP.replace("40, 60", "40, 50"))
    write(d, "fresh2.h5.ckpt.0", "")  # an empty log: nothing saved
    rc, out, err = vibro("run", other, "--resume", os.path.join(d, "fresh2.h5"), cwd=d)
    check(rc == 0 and "nothing saved yet" in err, "an empty checkpoint log: the sweep starts, saying so",
          show(rc, out, err))


def main():
    vibro = Vibro(sys.argv[1])
    return run_all(vibro, [test_next_option_is_no_value, test_given_twice, test_resume_with_nothing_saved])


if __name__ == "__main__":
    sys.exit(main())
