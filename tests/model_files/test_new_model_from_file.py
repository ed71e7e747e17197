#!/usr/bin/python3
"""`vibro new-model NAME --from FILE.vibro`: the impact oscillator's, the dry-friction oscillator's and
the cubic two-sided stop's model files (examples/models/) become C++ plugin projects, which build
against vibro installed from the build tree into a temporary prefix (as a user builds them), built
side by side, and a sweep with each plugin gives the model file's results: every dataset under axes/,
cases/ and parameters/ but the wall times, equal (Floquet multipliers of the impact and cubic sweeps
included; the largest difference is printed). Also: the projects hold the model file and no test of
another model; a bad --from is refused naming the file.

usage: test_new_model_from_file.py VIBRO_BINARY VIBRO_BUILD_DIR REPO_ROOT
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from model_file_sweeps import FRICTION, IMPACT  # noqa: E402
from result_datasets import datasets, largest_difference  # noqa: E402

VIBRO, BUILD, REPO = (os.path.abspath(a) for a in sys.argv[1:4])
FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail), flush=True)
    else:
        print("ok: %s" % what, flush=True)


def run(command, cwd=None, timeout=600):
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)


# The sweeps: the impact oscillator across the grazing and its period doubling with Floquet
# multipliers; the friction oscillator through slip, stick-slip and sticking.
SWEEPS = {
    "impact_oscillator": IMPACT.split("\n", 1)[1],  # the sweeps without their model line
    "dry_friction_oscillator": FRICTION.split("\n", 1)[1],
    # x^3 in the field: the exponent read at run time in the jets, as the file's program does (a
    # compiler folding pow(x, 2.0) into x * x changed the Floquet multipliers by 1e-13).
    "two_sided_stop_cubic": """[axes]
omega = linspace(0.6, 2.0, 12)
[run]
max_periods = 200
[output]
floquet = true
""",
}


def main():
    with tempfile.TemporaryDirectory(prefix="vibro from file ") as tmp:
        prefix = os.path.join(tmp, "prefix")
        r = run(["cmake", "--install", BUILD, "--prefix", prefix])
        check(r.returncode == 0, "vibro installs into a temporary prefix", r.stderr[-2000:])

        r = run([VIBRO, "new-model", "bad_from", os.path.join(tmp, "bad"), "--from", os.path.join(tmp, "missing.vibro")])
        check(r.returncode == 2 and "missing.vibro" in r.stderr, "a missing --from file is refused naming it", r.stderr)
        broken = os.path.join(tmp, "broken.vibro")
        with open(broken, "w") as f:
            f.write("model broken: a typo\nparam zeta = 0.1\nstate x = 0\nstate v = 0\nperiod 2*pi\nmode free\n"
                    "  x' = v\n  v' = -2*zta*v - x\n")
        r = run([VIBRO, "new-model", "from_broken", os.path.join(tmp, "broken"), "--from", broken])
        check(r.returncode == 2 and "broken.vibro:8:" in r.stderr and "zeta" in r.stderr,
              "a bad model file is refused with FILE:LINE:COL", r.stderr)
        check(not os.path.exists(os.path.join(tmp, "broken")), "nothing is written for a bad model file")

        # Write and configure every project, then build them side by side (one compile each).
        projects = {}
        for stem in SWEEPS:
            name = "from_" + stem
            source = os.path.join(REPO, "examples", "models", stem + ".vibro")
            project = os.path.join(tmp, name)
            r = run([VIBRO, "new-model", name, project, "--from", source])
            check(r.returncode == 0, "%s: new-model --from writes the project" % stem, r.stderr)
            files = sorted(os.listdir(project)) if r.returncode == 0 else []
            check(files == sorted(["CMakeLists.txt", "README.md", name + ".ini", name + "_model.cpp", stem + ".vibro"]),
                  "%s: the project holds CMakeLists.txt, the model, a sweep file, a README and the model file" % stem, files)
            r = run(["cmake", "-S", project, "-B", os.path.join(project, "build"), "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + prefix])
            check(r.returncode == 0, "%s: the project configures" % stem, r.stdout[-2000:] + r.stderr[-2000:])
            if r.returncode == 0:
                projects[stem] = (name, source, project)
        started = time.time()
        builds = {stem: subprocess.Popen(["cmake", "--build", os.path.join(project, "build")], stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True)
                  for stem, (name, source, project) in projects.items()}
        built = []
        for stem, process in builds.items():
            output = process.communicate(timeout=800)[0]
            check(process.returncode == 0, "%s: the plugin builds" % stem, output[-4000:])
            if process.returncode == 0:
                built.append(stem)
        print("  %d plugins built side by side in %.0f s" % (len(builds), time.time() - started), flush=True)

        for stem in built:
            name, source, project = projects[stem]
            plugin = os.path.join(project, "build", name + ".so")
            r = run([VIBRO, "run", os.path.join(project, name + ".ini"), "--run.progress=never"], cwd=project)
            check(r.returncode == 0, "%s: the project's own sweep file runs" % stem, r.stderr[-2000:])
            results = {}
            for which, model, extra in (("file", source, []), ("plugin", name, ["--plugin", plugin])):
                ini = os.path.join(tmp, "%s_%s.ini" % (stem, which))
                with open(ini, "w") as f:
                    f.write("model = %s\n%s" % (model, SWEEPS[stem]))
                h5 = os.path.join(tmp, "%s_%s.h5" % (stem, which))
                r = run([VIBRO, "run", ini, "--output.file=" + h5, "--run.progress=never"] + extra)
                check(r.returncode == 0, "%s: the %s sweep runs" % (stem, which), r.stderr[-2000:])
                if r.returncode == 0:
                    results[which] = datasets(h5)
            if len(results) != 2:
                continue
            worst, bad = largest_difference(results["file"], results["plugin"])
            print("  %s: largest difference plugin - model file: %.3g" % (stem, worst), flush=True)
            check(not bad and worst == 0, "%s: the plugin gives the model file's results bit for bit" % stem,
                  "%s, largest difference %g" % (bad, worst))
            status = results["file"]["cases/status"]
            check((status == 0).all(), "%s: every case ran" % stem, str(status))
    if FAILURES:
        print("%d failure(s): %s" % (len(FAILURES), FAILURES))
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
