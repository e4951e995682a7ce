#!/usr/bin/env bash
# Runs every test: the lit suite (check-offload: dialect, conversions, target,
# examples, and the shared MLIR GPU corpus when ../shared, or
# $OFFLOAD_SHARED_DIR, is present) and, through ctest, the GoogleTest suites,
# the Python package's pytest suite (python-tests, when the package is built)
# and the install tree (install-tree, scripts/test-install.sh). Fails if
# either fails. The summary says how many of the lit tests that need the
# shared corpus ran and how many were skipped.
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
# lit's results as xUnit XML, for the summary of the shared-corpus tests.
lit_results=$(cd "$build_dir" && pwd)/test/lit-results.xml
rm -f "$lit_results"
LIT_OPTS="${LIT_OPTS:+$LIT_OPTS }--xunit-xml-output=$lit_results" \
  cmake --build "$build_dir" --target check-offload || status=1
# The tests that REQUIRE shared-corpus: how many ran, how many lit skipped
# (UNSUPPORTED: no corpus).
corpus_summary=$(python3 - "$root/test" "$lit_results" <<'EOF'
import os, re, sys
import xml.etree.ElementTree as ET
test_dir, results = sys.argv[1], sys.argv[2]
wanted = set()
for dirpath, _, files in os.walk(test_dir):
    for name in files:
        path = os.path.join(dirpath, name)
        try:
            with open(path, errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if re.search(r"REQUIRES:.*\bshared-corpus\b", text):
            wanted.add(os.path.relpath(path, test_dir))
ran = skipped = 0
if os.path.exists(results):
    for case in ET.parse(results).iter("testcase"):
        # classname "OFFLOAD.MGPU/corpus", name "async.test"
        suite_dir = case.get("classname", "").partition(".")[2]
        path = os.path.join(suite_dir, case.get("name", ""))
        if path not in wanted:
            continue
        if case.find("skipped") is not None:
            skipped += 1
        else:
            ran += 1
missing = len(wanted) - ran - skipped
line = f"{ran} of {len(wanted)} ran, {skipped} skipped"
if missing:
    line += f", {missing} without a result"
if skipped:
    line += " (no shared corpus: ../shared next to the checkout, or set OFFLOAD_SHARED_DIR)"
print(f"shared-corpus tests: {line}")
EOF
)
echo "== GoogleTest and pytest (ctest)"
ctest --test-dir "$build_dir" --output-on-failure -j2 || status=1
echo "test: ${corpus_summary:-shared-corpus tests: unknown (no lit results)}"
if [ "$status" -ne 0 ]; then
  echo "test: FAILED"
else
  echo "test: all passed"
fi
exit "$status"
