#!/usr/bin/env python3
"""The command line as a newcomer meets it: --help on every subcommand, `vibro run` without a file,
the shipped examples, both forms of an option (--key value, --key=value), unknown options of every
subcommand, "did you mean" for commands, models, keys and values, and errors that say whether the
bad key came from the sweep file (file:line) or the command line.

usage: test_cli_usage.py VIBRO_BINARY REPO_ROOT

Every run happens in a fresh temporary folder; the sweeps that run are one or two cases (seconds).
Prints every failed check and exits 1 if there was one.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import GOOD, Vibro, check, new_dir, run_all, show, write  # noqa: E402

import h5py  # noqa: E402

SUBCOMMANDS = {  # a subcommand -> texts its --help must show
    "run": ["vibro run SWEEP.ini", "--example", "--resume", "--section.key"],
    "continue": ["vibro continue SWEEP.ini", "--parameter", "--to", "--method"],
    "trace": ["vibro trace SWEEP.ini", "--case", "--periods", "--samples-per-period", "--csv"],
    "plot": ["vibro plot FILE.h5", "--kind", "--out"],
    "submit": ["vibro submit SWEEP.ini", "--nodes", "--time", "--dry-run"],
    "describe": ["vibro describe MODEL"],
    "models": ["vibro models"],
    "examples": ["vibro examples", "--example"],
    "new-model": ["vibro new-model NAME"],
}

TWO_CASES = GOOD  # conveyor, c_r = 0.6, a_hat = 40, 50 (two cases), 20 periods


def test_help(vibro, tmp):
    for command, texts in SUBCOMMANDS.items():
        for flag in ("--help", "-h"):
            rc, out, err = vibro(command, flag, cwd=tmp)
            check(rc == 0 and err == "", f"vibro {command} {flag} exits 0 quietly", show(rc, out, err))
            for text in texts:
                check(text in out, f"vibro {command} {flag} shows {text!r}", show(rc, out, err))
        # --help wins wherever it stands, and the rest is not acted on.
        rc, out, err = vibro(command, "nosuch.ini", "--help", cwd=tmp)
        check(rc == 0 and texts[0] in out, f"vibro {command} FILE --help prints the usage", show(rc, out, err))
    rc, out, err = vibro("help", "submit", cwd=tmp)
    check(rc == 0 and "--nodes" in out, "vibro help submit prints submit's usage", show(rc, out, err))
    check(not os.listdir(tmp), "no help request writes a file", str(os.listdir(tmp)))


def test_run_without_file_and_examples(vibro, tmp):
    work = new_dir(tmp, "no_file")
    rc, out, err = vibro("run", cwd=work)
    check(rc == 2 and "vibro run SWEEP.ini" in err and "--example conveyor_fig6" in err,
          "vibro run without a file prints its usage (exit 2)", show(rc, out, err))
    check(not os.listdir(work), "vibro run without a file runs nothing and writes nothing", str(os.listdir(work)))

    rc, out, err = vibro("examples", cwd=work)
    names = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ") and "vibro run" not in line]
    check(rc == 0 and "conveyor_fig6" in names, "vibro examples lists the built-in conveyor_fig6", show(rc, out, err))
    check("gap_oscillator_fig4" in names, "vibro examples lists the repository's examples", show(rc, out, err))

    rc, out, err = vibro("run", "--example", "conveyor_fig", cwd=work)
    check(rc == 2 and "did you mean 'conveyor_fig6'" in err, "a mistyped example gets a suggestion", show(rc, out, err))
    # The built-in example, cut to one case (a_hat = 50, z0 = 0) through overrides in both forms.
    rc, out, err = vibro("run", "--example", "conveyor_fig6", "--axes.a_hat", "50", "--axes.z0=0",
                         "--run.max_periods", "20", "--run.window_periods=10", "--output.file", "ex.h5", cwd=work)
    check(rc == 0 and os.path.exists(os.path.join(work, "ex.h5")), "vibro run --example conveyor_fig6 runs",
          show(rc, out, err))
    if rc == 0:
        with h5py.File(os.path.join(work, "ex.h5"), "r") as h5:
            check(h5["cases/class"].shape == (1,), "the example's overrides (space and = forms) made one case",
                  str(h5["cases/class"].shape))


def test_argument_forms(vibro, tmp):
    work = new_dir(tmp, "forms")
    sweep = write(work, "two.ini", TWO_CASES)
    results = {}
    for form, args in (("space", ["--parameters.c_r", "0.5", "--output.file", "space.h5"]),
                       ("equals", ["--parameters.c_r=0.5", "--output.file=equals.h5"])):
        rc, out, err = vibro("run", sweep, *args, cwd=work)
        path = os.path.join(work, form + ".h5")
        check(rc == 0 and os.path.exists(path), f"run with --key {form} value writes its output file", show(rc, out, err))
        if os.path.exists(path):
            with h5py.File(path, "r") as h5:
                results[form] = float(h5["parameters/c_r"][()])
    check(results.get("space") == 0.5 and results.get("equals") == 0.5,
          "both forms set parameters.c_r = 0.5 (the file says 0.6)", str(results))
    # A missing value is named, not taken for a file.
    rc, out, err = vibro("run", sweep, "--run.max_periods", cwd=work)
    check(rc == 2 and "--run.max_periods needs a value" in err, "an override without its value is refused",
          show(rc, out, err))


def test_unknown_options(vibro, tmp):
    work = new_dir(tmp, "unknown")
    write(work, "two.ini", TWO_CASES)
    cases = (  # command line, the unknown option, an accepted option the message must list
        (("run", "two.ini", "--resum", "x.h5"), "--resum", "--resume"),
        (("run", "two.ini", "-v"), "-v", "--example"),
        (("continue", "two.ini", "--parameter", "a_hat", "--to", "60", "--stepp=0.1"), "--stepp=0.1", "--step"),
        (("submit", "two.ini", "--dry-run", "--time", "10", "--node=2"), "--node=2", "--nodes"),
        (("describe", "conveyor", "--verbose"), "--verbose", "--help"),
        (("models", "--all"), "--all", "--help"),
        (("examples", "--list"), "--list", "--help"),
    )
    for args, flag, accepted in cases:
        rc, out, err = vibro(*args, cwd=work)
        check(rc == 2 and f"unknown option '{flag}'" in err and accepted in err,
              f"vibro {' '.join(args)}: the unknown option is named with the accepted ones", show(rc, out, err))
    for args, suggestion in ((("run", "two.ini", "--resum", "x.h5"), "--resume"),
                             (("submit", "two.ini", "--dry-run", "--time", "10", "--node=2"), "--nodes")):
        rc, out, err = vibro(*args, cwd=work)
        check(f"did you mean '{suggestion}'" in err, f"vibro {' '.join(args)} suggests {suggestion}", show(rc, out, err))
    # continue and submit take only known sweep keys as overrides.
    for args in (("continue", "two.ini", "--parameter", "a_hat", "--to", "60", "--run.max_perods=30"),
                 ("submit", "two.ini", "--dry-run", "--time", "10", "--run.max_perods", "30")):
        rc, out, err = vibro(*args, cwd=work)
        check(rc == 2 and "unknown key 'run.max_perods'" in err and "did you mean 'run.max_periods'" in err
              and "command-line override --run.max_perods=30" in err,
              f"vibro {args[0]}: an unknown override key is refused with a suggestion", show(rc, out, err))
    check(sorted(os.listdir(work)) == ["two.ini"], "no refused command writes a file", str(os.listdir(work)))


def test_suggestions(vibro, tmp):
    for args, suggestion in ((("rnu", "x.ini"), "run"), (("desribe", "conveyor"), "describe"),
                             (("describe", "convyor"), "conveyor"), (("describe", "gap_osc1llator"), "gap_oscillator")):
        rc, out, err = vibro(*args, cwd=tmp)
        check(rc == 2 and f"did you mean '{suggestion}'" in err, f"vibro {' '.join(args)} suggests {suggestion}",
              show(rc, out, err))
    rc, out, err = vibro("frobnicate", cwd=tmp)
    check(rc == 2 and "did you mean" not in err, "a word far from every command gets no suggestion", show(rc, out, err))
    work = new_dir(tmp, "suggest")
    sweep = write(work, "two.ini", TWO_CASES)
    for override, suggestion in (("--run.progress=alwys", "always"), ("--initial.start=dorp", "drop"),
                                 ("--parameters.c_rr=0.5", "parameters.c_r"), ("--model=conveyer", "conveyor")):
        rc, out, err = vibro("run", sweep, override, cwd=work)
        check(rc == 2 and f"did you mean '{suggestion}'" in err, f"run {override} suggests {suggestion}", show(rc, out, err))


def test_error_attribution(vibro, tmp):
    work = new_dir(tmp, "attribution")
    # Line 10 holds the bad value; line 8 the unknown key.
    bad_value = write(work, "bad_value.ini", TWO_CASES.replace("max_periods = 20", "max_periods = lots"))
    rc, out, err = vibro("run", bad_value, cwd=work)
    check(rc == 2 and "bad_value.ini:10: run.max_periods = 'lots'" in err, "a bad value in the file is blamed on file:line",
          show(rc, out, err))
    # The command line overrides the file: its own bad value is blamed on the command line.
    rc, out, err = vibro("run", bad_value, "--run.max_periods=many", cwd=work)
    check(rc == 2 and "command-line override --run.max_periods=many: run.max_periods = 'many'" in err,
          "a bad override is blamed on the command line, not the file", show(rc, out, err))
    good = write(work, "good.ini", TWO_CASES)
    rc, out, err = vibro("run", good, "--run.tol", "-1", cwd=work)
    check(rc == 2 and "command-line override --run.tol=-1" in err and "good.ini" not in err.split("run.tol")[0],
          "a bad override of a key the file lacks names the command line", show(rc, out, err))
    unknown = write(work, "unknown.ini", TWO_CASES.replace("a_hat = 40, 50", "a_hat = 40, 50\nahat = 3"))
    rc, out, err = vibro("run", unknown, cwd=work)
    check(rc == 2 and "unknown.ini:8: unknown key 'axes.ahat'" in err and "did you mean 'axes.a_hat'" in err,
          "an unknown key in the file is blamed on file:line with a suggestion", show(rc, out, err))
    rc, out, err = vibro("run", good, "--axes.ahat=3", cwd=work)
    check(rc == 2 and "command-line override --axes.ahat=3: unknown key 'axes.ahat'" in err,
          "an unknown key on the command line is blamed on the command line", show(rc, out, err))
    check(sorted(os.listdir(work)) == ["bad_value.ini", "good.ini", "unknown.ini"], "no refused run writes a file",
          str(os.listdir(work)))


def test_describe_layout(vibro, tmp):
    rc, out, err = vibro("describe", "conveyor", cwd=tmp)

    def block(title):
        """The indented entries under the heading that starts with `title`, as (first word, rest) pairs."""
        section = out.split("\n" + title, 1)[-1].split("\n\n", 1)[0] if "\n" + title in out else ""
        return [tuple(line.strip().split(None, 1) + [""])[:2] for line in section.splitlines()[1:] if line.startswith("  ")]

    states = block("state components")
    check(rc == 0 and states == [("h", "[m]"), ("u", "[m/s]"), ("vT", "[m/s]")],
          "describe conveyor lists its state components with units", out[-900:])
    modes = block("modes")
    check([m[0] for m in modes] == ["0", "1"] and "flight" in modes[0][1] and "coupled" in modes[1][1],
          "describe conveyor lists its modes by index, name and meaning", repr(modes))
    counters = dict(block("event counters"))
    check("impacts" in counters and "impact" in counters["impacts"], "describe conveyor lists its event counters "
          "with their meanings", repr(counters))
    classes = dict(block("class codes"))
    check({"S[~]", "M<k>[~]", "H<k>[~]", "P<k>[~]", "Q", "X"} <= set(classes) and all(classes.values()),
          "describe conveyor lists its class codes with their meanings", repr(classes))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tests = [test_help, test_run_without_file_and_examples, test_argument_forms, test_unknown_options, test_suggestions,
             test_error_attribution, test_describe_layout]
    return run_all(Vibro(args[0]), tests)


if __name__ == "__main__":
    sys.exit(main())
