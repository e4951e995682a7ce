"""Packages the `offload` extension built by the project's CMake.

The extension is not compiled here: CMake builds it with the rest of the
project (python/CMakeLists.txt) into BUILD/python/offload. This script copies
it, and the two libraries it links (BUILD/lib/libOffloadRuntime.so,
libOffloadJIT.so; the extension finds them through its $ORIGIN RUNPATH),
into the wheel next to the Python sources. BUILD is $OFFLOAD_BUILD_DIR, else
the checkout's build/ directory.
"""

import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def build_dir():
    return os.path.abspath(
        os.environ.get("OFFLOAD_BUILD_DIR", os.path.join(HERE, "..", "build")))


class BuildPyWithExtension(build_py):
    def run(self):
        super().run()
        build = build_dir()
        extensions = glob.glob(os.path.join(build, "python", "offload",
                                            "_offload*.so"))
        if not extensions:
            raise SystemExit(
                f"offload: no extension in {build}/python/offload: build the "
                "project first (scripts/setup.sh, with the Python package "
                "enabled) or set OFFLOAD_BUILD_DIR")
        libraries = [os.path.join(build, "lib", name)
                     for name in ("libOffloadRuntime.so", "libOffloadJIT.so")]
        # The extension's type stub (nanobind stubgen), where it was made.
        libraries += glob.glob(os.path.join(build, "python", "offload",
                                            "_offload.pyi"))
        target = os.path.join(self.build_lib, "offload")
        os.makedirs(target, exist_ok=True)
        for path in extensions + libraries:
            shutil.copy2(path, target)


class BinaryDistribution(Distribution):
    """A platform wheel: it holds a compiled extension."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithExtension},
      distclass=BinaryDistribution)
