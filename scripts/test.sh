#!/usr/bin/env bash
# Runs every test: the lit suite (check-offload: dialect, conversions, target,
# examples, and the shared MLIR GPU corpus when ../shared is present) and,
# through ctest, the GoogleTest suites and the Python package's pytest suite
# (python-tests, when the package is built). Fails if either fails.
#
#   scripts/test.sh [BUILD_DIR]      (default BUILD_DIR: build)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-$root/build}
[ -f "$build_dir/build.ninja" ] || { echo "test: no build in $build_dir; run scripts/setup.sh first" >&2; exit 2; }

# A sanitized build (OFFLOAD_SANITIZE) names the sanitizers' run-time options
# its tests need (see CMakeLists.txt).
if [ -f "$build_dir/sanitizer-env.sh" ]; then
  # shellcheck disable=SC1091
  . "$build_dir/sanitizer-env.sh"
  echo "test: sanitized build: ASAN_OPTIONS=${ASAN_OPTIONS:-} UBSAN_OPTIONS=${UBSAN_OPTIONS:-}"
fi

status=0
echo "== lit (check-offload)"
cmake --build "$build_dir" --target check-offload || status=1
echo "== GoogleTest and pytest (ctest)"
ctest --test-dir "$build_dir" --output-on-failure -j2 || status=1
if [ "$status" -ne 0 ]; then
  echo "test: FAILED"
else
  echo "test: all passed"
fi
exit "$status"
