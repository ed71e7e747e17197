#!/usr/bin/env python3
"""The plugin loader's refusals through the real binary: a file that is not a shared library, a
shared library that is not a vibro plugin, one built against another vibro (a real plugin compiled
with another ABI stamp), one whose entry point returns nothing, one that registers no model, one whose
model's constructor throws while it registers, one that takes a built-in model's name, two that
register the same name, and a model whose two modes declare switch guards of one name (refused when
a sweep picks it, on `vibro run`, `vibro trace` and `vibro continue`). Each is exit 2 with one message naming the file, before any case starts
(no output file). Also: a good plugin is listed with its file, and loading one file twice (command
line and VIBRO_PLUGIN_PATH) is not a conflict.

usage: test_bad_plugins.py VIBRO PLUGIN_DIR"""
import os
import subprocess
import sys
import tempfile

VIBRO, PLUGINS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def vibro(*args, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.pop("VIBRO_PLUGIN_PATH", None)
    full_env.update(env or {})
    return subprocess.run([VIBRO, *args], capture_output=True, text=True, env=full_env, cwd=cwd, timeout=60)


def check(label, condition, detail=""):
    if not condition:
        failures.append(f"{label}: {detail}")


def refused(label, result, *needles):
    check(label, result.returncode == 2, f"exit {result.returncode}, stderr {result.stderr!r}")
    check(label, "vibro: failed" not in result.stderr, result.stderr)
    for needle in needles:
        check(label, needle in result.stderr, f"{needle!r} not in {result.stderr!r}")


def plugin(name):
    return os.path.join(PLUGINS, name + ".so")


with tempfile.TemporaryDirectory() as tmp:
    text_file = os.path.join(tmp, "notes.so")
    with open(text_file, "w") as f:
        f.write("not a shared library\n")

    cases = [
        ("text file", text_file, ["cannot be loaded as a shared library"]),
        ("no entry point", plugin("no_entry"), ["is not a vibro plugin", "vibro_plugin_entry"]),
        ("other vibro", plugin("other_version"), ["built against another vibro", "0.0.1+0123456789abcdef", "this vibro is"]),
        ("null record", plugin("null_record"), ["registers no model"]),
        ("no registration", plugin("registers_nothing"), ["registers no model", "RegisterModel"]),
        ("throws on registration", plugin("throws_on_registration"),
         ["registering its models failed", "model throws_when_built: 3 state components declared for 2"]),
        ("built-in name", plugin("takes_built_in_name"), ["'conveyor' is already registered as a built-in model"]),
        ("missing file", os.path.join(tmp, "absent.so"), ["does not exist"]),
    ]
    for label, path, needles in cases:
        for command in (["models"], ["describe", "conveyor"]):
            refused(f"{label} ({command[0]})", vibro(*command, "--plugin", path), f"plugin '{path}'", *needles)

    # The same refusals stop a sweep before its first case: no output file is written.
    sweep = os.path.join(tmp, "sweep.ini")
    with open(sweep, "w") as f:
        f.write("model = conveyor\n[run]\nmax_periods = 3\nwindow_periods = 2\n")
    output = os.path.join(tmp, "sweep.h5")
    for label, path, needles in cases:
        result = vibro("run", sweep, "--plugin", path, f"--output.file={output}")
        refused(f"{label} (run)", result, f"plugin '{path}'", *needles)
        check(f"{label} (run): no output", not os.path.exists(output), "an output file was written")
    # ... and named in the sweep file, relative to the sweep file's folder.
    with open(os.path.join(tmp, "keyed.ini"), "w") as f:
        f.write("model = conveyor\nplugin = notes.so\n[run]\nmax_periods = 3\nwindow_periods = 2\n")
    refused("sweep-file key", vibro("run", os.path.join(tmp, "keyed.ini"), f"--output.file={output}", cwd="/"),
            f"plugin '{text_file}'", "cannot be loaded as a shared library")
    check("sweep-file key: no output", not os.path.exists(output), "an output file was written")

    # A model whose two switch guards share a name: `vibro describe`, a sweep, a trace and a continuation
    # of it are refused before any case runs (no output file), naming the model and the guard.
    refused("duplicate guard (describe)", vibro("describe", "duplicate_guard", "--plugin", plugin("duplicate_guard")),
            "model duplicate_guard: guard 'flip' is declared twice")
    with open(os.path.join(tmp, "flips.ini"), "w") as f:
        f.write("model = duplicate_guard\n[run]\nmax_periods = 20\nwindow_periods = 5\n")
    flips = os.path.join(tmp, "flips.ini")
    for command in (["run", flips, f"--output.file={output}"], ["trace", flips, "--case", "0", "--out", output],
                    ["continue", flips, "--parameter", "omega", "--to", "1.0", f"--output.file={output}"]):
        result = vibro(*command, "--plugin", plugin("duplicate_guard"))
        refused(f"duplicate guard ({command[0]})", result, "model duplicate_guard: guard 'flip' is declared twice")
        check(f"duplicate guard ({command[0]}): no output", not os.path.exists(output), "an output file was written")

    # Two files that register the same name: the second is refused, naming both.
    result = vibro("models", "--plugin", plugin("twin_a"), "--plugin", plugin("twin_b"))
    refused("same name twice", result, f"plugin '{plugin('twin_b')}'", f"by plugin '{plugin('twin_a')}'", "'plugin_twin'")

    # A folder on VIBRO_PLUGIN_PATH that does not exist is named.
    refused("plugin path", vibro("models", env={"VIBRO_PLUGIN_PATH": os.path.join(tmp, "nowhere")}),
            os.path.join(tmp, "nowhere"), "VIBRO_PLUGIN_PATH")

    # A good plugin: listed with its file; the same file through a link on the search path and on the
    # command line is loaded once.
    shelf = os.path.join(tmp, "shelf")
    os.mkdir(shelf)
    os.symlink(plugin("twin_a"), os.path.join(shelf, "twin_a.so"))
    result = vibro("models", "--plugin", plugin("twin_a"), env={"VIBRO_PLUGIN_PATH": shelf})
    check("good plugin", result.returncode == 0, result.stderr)
    listed = [line for line in result.stdout.splitlines() if line.startswith("plugin_twin")]
    check("good plugin listed", len(listed) == 1 and f"[plugin {plugin('twin_a')}]" in listed[0], result.stdout)
    check("built-ins listed without a plugin", any(l.startswith("conveyor") and "[plugin" not in l
                                                   for l in result.stdout.splitlines()), result.stdout)
    result = vibro("describe", "plugin_twin", "--plugin", plugin("twin_a"))
    check("describe names the file", result.returncode == 0 and f"from plugin {plugin('twin_a')}" in result.stdout,
          result.stdout + result.stderr)
    result = vibro("describe", "plugin_twin")
    refused("no plugin, no model", result, "unknown model 'plugin_twin'", "--plugin FILE")

for failure in failures:
    print("FAIL", failure)
print(f"{'FAILED' if failures else 'passed'}: bad plugins ({len(failures)} failures)")
sys.exit(1 if failures else 0)
