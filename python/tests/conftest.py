"""pytest setup of the offload Python package tests.

The JIT's persistent cache goes to a fresh temporary directory so that the
counters the tests check (compiles, memory and disk hits) depend on this run
only. The package is imported from PYTHONPATH (ctest sets it to
build/python), else from an installed `offload`, else from ../../build/python.
"""

import os
import pathlib
import shutil
import sys
import tempfile

import pytest

_CACHE_DIR = tempfile.mkdtemp(prefix="offload-pytest-cache-")
os.environ["OFFLOAD_CACHE_DIR"] = _CACHE_DIR
for _name in ("OFFLOAD_JIT", "OFFLOAD_JIT_ASYNC", "OFFLOAD_JIT_FOLD_GRID",
              "OFFLOAD_JIT_STATS", "OFFLOAD_JIT_DUMP", "OFFLOAD_JIT_AUTO",
              "OFFLOAD_JIT_AUTO_THRESHOLD", "OFFLOAD_JIT_AUTO_MAX_VARIANTS",
              "OFFLOAD_JIT_MEASURE", "OFFLOAD_JIT_MEASURE_LAUNCHES",
              "OFFLOAD_JIT_MEASURE_SCALE",
              "OFFLOAD_TRACE", "OFFLOAD_DISABLE_VALIDATION"):
    os.environ.pop(_name, None)

REPO = pathlib.Path(__file__).resolve().parents[2]

try:
    import offload  # noqa: F401
except ImportError:
    build = pathlib.Path(os.environ.get("OFFLOAD_BUILD_DIR", REPO / "build"))
    sys.path.insert(0, str(build / "python"))
    import offload  # noqa: F401


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_CACHE_DIR, ignore_errors=True)


@pytest.fixture(scope="session")
def host():
    return offload.host_device()


@pytest.fixture(scope="session")
def cache_dir():
    return _CACHE_DIR
