#!/usr/bin/env bash
# gpu-check.sh: the GPU check of the offload runtime, run ON a machine with an
# NVIDIA GPU from a copy of the tree and the bundle made by
# scripts/gpu-bundle.sh (no LLVM, MLIR or network needed there). It unpacks
# the bundle into /tmp and runs, each under a time limit and all within
# GPU_CHECK_BUDGET seconds (default 540):
#   1. offload-device-info (with OFFLOAD_TRACE=1: the plugins' status lines);
#   2. the runtime conformance suite on the CUDA devices (tests parameterized
#      over devices, filtered to cuda*), the CUDA plugin's own tests on the
#      real driver (RealCUDA/*) and the tests that need no GPU
#      (CUDAPluginTest.*, HIPPluginTest.*, on the bundle's fake drivers);
#   3. the corpus programs lowered for CUDA, each checked with FileCheck
#      against its .mlir;
#   4. offload-gpu-bench: launch latency and copy bandwidth against the CUDA
#      driver called directly.
# It writes gpu-summary.txt (and gpu-check.log, gpu-bench.json) to $OUT, or to
# the current directory when OUT is unset.
#
# usage: scripts/gpu-check.sh [BUNDLE]   (default: .gpu-bundle/offload-gpu.tar.xz)
#
# Without an NVIDIA driver it says so in the summary and exits 0 (skipped).
# GPU_CHECK_FORCE=1 runs every step anyway (to try the script here with
# OFFLOAD_CUDA_LIBRARY naming the tests' fake driver, libfakecuda.so).
# Exit status: 0 when every step that ran passed (or everything was skipped),
# 1 when a step failed, 2 when the bundle is missing.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bundle=${1:-$root/.gpu-bundle/offload-gpu.tar.xz}
out_dir=${OUT:-$PWD}
mkdir -p "$out_dir"
summary=$out_dir/gpu-summary.txt
log=$out_dir/gpu-check.log
budget=${GPU_CHECK_BUDGET:-540}
start=$(date +%s)
status=0

: > "$log"
say() { echo "$*" | tee -a "$summary"; }
logcmd() { echo "\$ $*" >> "$log"; }
elapsed() { echo $(( $(date +%s) - start )); }
# Seconds a step may take: its own limit, within what is left of the budget.
limit() {
  local left=$(( budget - $(elapsed) ))
  [ "$left" -lt 5 ] && left=5
  [ "$1" -lt "$left" ] && echo "$1" || echo "$left"
}

{
  echo "offload GPU check, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "bundle: $bundle"
} > "$summary"

# 0. Is there an NVIDIA driver and GPU?
gpu=
if command -v nvidia-smi >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -4)
fi
have_driver=${GPU_CHECK_FORCE:-0}
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  have_driver=1
else
  for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
    [ -e "$d/libcuda.so.1" ] && { have_driver=1; break; }
  done
fi

if [ ! -f "$bundle" ]; then
  say "bundle: MISSING ($bundle); make it with scripts/gpu-bundle.sh and carry .gpu-bundle"
  exit 2
fi

# 1. Unpack.
dir=$(mktemp -d /tmp/offload-gpu-check.XXXXXX)
trap 'rm -rf "$dir"' EXIT
if ! tar -C "$dir" -xJf "$bundle" 2>>"$log"; then
  # No xz on the machine: Python's lzma module.
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
    "$bundle" "$dir" 2>>"$log" || { say "unpack: FAILED (see gpu-check.log)"; exit 1; }
fi
b=$dir/offload-gpu
export LD_LIBRARY_PATH=$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Where NVIDIA's container images mount the driver, if the loader's cache
# does not name it.
[ -e /usr/local/nvidia/lib64/libcuda.so.1 ] &&
  export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/nvidia/lib64
# The bundle's libstdc++ only where the machine's is too old for it.
if ! "$b/bin/offload-device-info" --help >/dev/null 2>&1; then
  export LD_LIBRARY_PATH=$b/lib/compat:$LD_LIBRARY_PATH
fi
say "unpacked in $(elapsed) s into $b"
[ -n "$gpu" ] && say "nvidia-smi: $gpu"

# 2. Devices.
logcmd offload-device-info
info=$(OFFLOAD_TRACE=1 timeout "$(limit 60)" "$b/bin/offload-device-info" 2>&1)
echo "$info" >> "$log"
echo "$info" | grep '^offload: \(CUDA\|HIP\):' | sed 's/^offload: /plugin: /' | tee -a "$summary"
ncuda=$(echo "$info" | grep -c '^Platform Name: cuda')
say "cuda devices: $ncuda"
if [ "$have_driver" = 0 ] || [ "$ncuda" = 0 ]; then
  if [ "$have_driver" = 0 ]; then
    say "result: SKIPPED: no NVIDIA driver (libcuda.so.1) on this machine"
    exit 0
  fi
  say "result: FAILED: the NVIDIA driver is there but the CUDA plugin found no device"
  exit 1
fi

# 3. Conformance suite and plugin tests on the CUDA devices. Tests that copy
# host to host memory on a device's queue are host-only for now (see
# unittests/Runtime/Plugins/CMakeLists.txt).
excluded='*/offloadCreateEventTest.SuccessManyEvents/*:*/offloadDestroyQueueTest.SuccessWaitsForWork/*:*/offloadGetQueueInfoTest.SuccessEmpty/*:*/offloadLaunchHostFunctionTest.SuccessIsAsynchronous/*:*/offloadMemcpyTest.SuccessHostToHostOnQueue/*:*/offloadSyncEventTest.SuccessWaitsForRecordedPoint/*'
filter="*/cuda*:RealCUDA/*:CUDAPluginTest.*:HIPPluginTest.*:CUDAHeaderTest.*:-$excluded"
# The plugin tests that need no GPU use the bundle's fake drivers.
export OFFLOAD_TEST_FAKE_CUDA_LIBRARY=$b/lib/test/libfakecuda.so
export OFFLOAD_TEST_FAKE_CUDA122_LIBRARY=$b/lib/test/libfakecuda122.so
export OFFLOAD_TEST_FAKE_HIP_LIBRARY=$b/lib/test/libfakehip.so
export OFFLOAD_TEST_FAKE_HIP52_LIBRARY=$b/lib/test/libfakehip52.so
logcmd OffloadRuntimeTests --gtest_filter="$filter"
t0=$(date +%s)
timeout "$(limit 300)" "$b/bin/OffloadRuntimeTests" --gtest_filter="$filter" \
  --gtest_color=no > "$dir/tests.log" 2>&1
rc=$?
cat "$dir/tests.log" >> "$log"
passed=$(grep -o '^\[  PASSED  \] [0-9]*' "$dir/tests.log" | grep -o '[0-9]*$')
failed=$(grep -o '^\[  FAILED  \] [0-9]* test' "$dir/tests.log" | grep -o '[0-9]*' | head -1)
skipped=$(grep -o '^\[  SKIPPED \] [0-9]* test' "$dir/tests.log" | grep -o '[0-9]*' | head -1)
if [ "$rc" = 124 ]; then
  say "tests: TIMEOUT after $(( $(date +%s) - t0 )) s; last: $(grep '^\[ RUN' "$dir/tests.log" | tail -1)"
  status=1
elif [ "$rc" != 0 ]; then
  say "tests: FAILED (exit $rc): ${passed:-0} passed, ${failed:-?} failed, ${skipped:-0} skipped, $(( $(date +%s) - t0 )) s"
  grep '^\[  FAILED  \] .*/\|^\[  FAILED  \] [A-Za-z]*\.' "$dir/tests.log" | sort -u | head -30 | sed 's/^/  /' | tee -a "$summary"
  status=1
else
  say "tests: PASSED: ${passed:-0} passed, ${skipped:-0} skipped, $(( $(date +%s) - t0 )) s"
fi

# 4. Corpus.
npass=0; nfail=0
if [ -s "$b/corpus/MANIFEST" ]; then
  while read -r name state rest; do
    if [ "$state" != BUILT ]; then
      say "corpus $name: $state $rest"
      continue
    fi
    logcmd "corpus/$name"
    t0=$(date +%s)
    timeout "$(limit 60)" "$b/corpus/$name" < /dev/null > "$dir/$name.out" 2> "$dir/$name.err"
    rc=$?
    { echo "exit $rc"; echo "--- stdout"; cat "$dir/$name.out"; echo "--- stderr"; cat "$dir/$name.err"; } >> "$log"
    if [ "$rc" = 0 ] && "$b/bin/FileCheck" --dump-input=fail "$b/corpus/$name.mlir" \
         < "$dir/$name.out" >> "$log" 2>&1; then
      say "corpus $name: PASS ($(( $(date +%s) - t0 )) s)"
      npass=$((npass + 1))
    else
      why="exit $rc"; [ "$rc" = 0 ] && why="FileCheck mismatch"; [ "$rc" = 124 ] && why=timeout
      say "corpus $name: FAIL ($why; $(head -c 160 "$dir/$name.err" | tr '\n' ' '))"
      nfail=$((nfail + 1))
    fi
  done < "$b/corpus/MANIFEST"
  say "corpus: $npass passed, $nfail failed"
  [ "$nfail" = 0 ] || status=1
else
  say "corpus: none in the bundle"
fi

# 5. Benchmark.
logcmd offload-gpu-bench
timeout "$(limit 150)" "$b/bin/offload-gpu-bench" > "$dir/bench.log" 2>&1
rc=$?
cat "$dir/bench.log" >> "$log"
grep '^{' "$dir/bench.log" > "$out_dir/gpu-bench.json" 2>/dev/null
if [ "$rc" = 0 ]; then
  say "bench: (offload vs cuda, same process)"
  grep -v '^{' "$dir/bench.log" | sed 's/^/  /' | tee -a "$summary" > /dev/null
  grep -v '^{' "$dir/bench.log" | sed 's/^/  /'
else
  say "bench: FAILED (exit $rc): $(tail -2 "$dir/bench.log" | tr '\n' ' ')"
  status=1
fi

say "result: $([ "$status" = 0 ] && echo PASSED || echo FAILED) in $(elapsed) s"
exit "$status"
