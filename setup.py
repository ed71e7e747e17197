"""Builds vibro._core through the project's CMake build, for the interpreter that runs this (pip's),
so a virtual environment's Python gets an extension of its own. pyproject.toml holds the package's
metadata; this file only adds the CMake step.

Environment: VIBRO_CMAKE_BUILD_DIR  the CMake build folder (default: setuptools' build_temp/cmake);
             VIBRO_CMAKE_ARGS       more arguments for CMake's configure step, e.g. "-G Ninja";
             CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default: all cores).
ccache is used when it is on PATH.
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.path.abspath(os.environ.get("VIBRO_CMAKE_BUILD_DIR") or os.path.join(self.build_temp, "cmake"))
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                     "-DVIBRO_BUILD_TESTS=OFF", "-DVIBRO_BUILD_BENCH=OFF",
                     "-DPython3_EXECUTABLE=" + sys.executable]  # this interpreter, a venv's too
        if shutil.which("ninja") and not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        configure += shlex.split(os.environ.get("VIBRO_CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "vibro_python_core", "--parallel", jobs])
        expected = os.path.join(build_dir, "python", "vibro", self.get_ext_filename("_core"))  # _core.cpython-311-...so
        if not os.path.exists(expected):
            raise RuntimeError("CMake built %s, not %s (the extension for %s)"
                               % (glob.glob(os.path.join(build_dir, "python", "vibro", "_core*")), expected, sys.executable))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(expected, target)


setup(ext_modules=[CMakeExtension("vibro._core")], cmdclass={"build_ext": CMakeBuild})
