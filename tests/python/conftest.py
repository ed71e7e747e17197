"""Shared fixtures of the vibro package's tests: the `vibro` binary (VIBRO_BIN) to compare against,
and the source tree (VIBRO_SOURCE_DIR). ctest sets both and PYTHONPATH=build/python."""
import os
import subprocess

import pytest

ROOT = os.environ.get("VIBRO_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BINARY = os.environ.get("VIBRO_BIN", os.path.join(ROOT, "build", "jobs", "vibro"))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    """Runs `vibro ARGS...`: (exit code, stdout, stderr)."""
    def run(*args, cwd=None):
        done = subprocess.run([BINARY, *args], capture_output=True, text=True, cwd=cwd, timeout=120)
        return done.returncode, done.stdout, done.stderr
    return run
