#!/usr/bin/env bash
# gpu-check.sh: the GPU check of the offload runtime, run ON a machine with an
# NVIDIA GPU from a copy of the tree and the bundle made by
# scripts/gpu-bundle.sh (no LLVM, MLIR or network needed there). It unpacks
# the bundle into /tmp and runs, each under a time limit and all within
# GPU_CHECK_BUDGET seconds (default 540), in this order:
#   1. offload-device-info (with OFFLOAD_TRACE=1: the plugins' status lines);
#   2. jit-kernels: offload-gpu-kernels-bench, the eight kernels of
#      bench/kernels through libOffloadJIT on the CUDA device, results checked
#      against the host device's on the same inputs, specialized/generic
#      kernel time (medians, same run) -> gpu-jit-kernels.json;
#   3. jit-cold: offload-gpu-jit-bench, cold specialization of a small kernel
#      to PTX and to cubin (nvJitLink) on the driver -> gpu-jit-cold.json;
#   4. mgpu: stock upstream gpu-to-llvm programs (the corpus, lowered by
#      gpu-lower-to-nvvm-pipeline) on libOffloadMGPU.so, cubin and PTX, each
#      checked with FileCheck against its .mlir;
#   5. the corpus programs lowered for CUDA by offload-lower-to-nvvm, each
#      checked with FileCheck against its .mlir;
#   6. offload-gpu-bench: launch latency and copy bandwidth against the CUDA
#      driver called directly -> gpu-bench.json;
#   7. the runtime conformance suite on the CUDA devices (tests parameterized
#      over devices, filtered to cuda*), the CUDA plugin's own tests on the
#      real driver (RealCUDA/*) and the tests that need no GPU
#      (FakeVendors/*, CUDAPluginTest.*, HIPPluginTest.*, on the bundle's fake
#      drivers), with
#      what is left of the budget (at most 300 s).
# Every step prints "<step>: PASS|FAIL|SKIPPED ..." lines in gpu-summary.txt.
# It writes gpu-summary.txt, gpu-check.log and the JSON files to $OUT, or to
# the current directory when OUT is unset.
#
# usage: scripts/gpu-check.sh [BUNDLE]   (default: .gpu-bundle/offload-gpu.tar.xz)
#
# Without an NVIDIA driver it says so in the summary and exits 0 (skipped).
# GPU_CHECK_FORCE=1 runs every step anyway (to try the script here with
# OFFLOAD_CUDA_LIBRARY naming the tests' fake driver, libfakecuda.so). A
# driver library whose name contains "fake" (or GPU_CHECK_FAKE=1; =0 checks
# results even there, which then fail) is a fake driver: it loads images but runs no kernel, so result checks cannot pass on
# it; they are then reported as "NOT CHECKED (fake driver)" and do not fail
# the check, while compiles, loads, launches and exit statuses still do.
# GPU_CHECK_STEPS="jit-kernels jit-cold mgpu corpus bench tests" (default:
# all) runs only the steps named.
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
steps=${GPU_CHECK_STEPS:-jit-kernels jit-cold mgpu corpus bench tests}
want() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
fake=0
case ${OFFLOAD_CUDA_LIBRARY:-} in *fake*) fake=1 ;; esac
fake=${GPU_CHECK_FAKE:-$fake}

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
[ "$fake" = 1 ] && say "driver: FAKE (${OFFLOAD_CUDA_LIBRARY:-?}): images load, kernels do not run; result checks are NOT CHECKED"
# The JIT's libdevice (kernels' math functions): the machine's CUDA toolkit,
# else the bundle's copy.
libdevice=
for c in "${CUDA_HOME:-}" "${CUDA_PATH:-}" "${CUDA_ROOT:-}" /usr/local/cuda; do
  [ -n "$c" ] && [ -f "$c/nvvm/libdevice/libdevice.10.bc" ] &&
    { libdevice=$c/nvvm/libdevice/libdevice.10.bc; break; }
done
if [ -z "$libdevice" ] && [ -f "$b/cuda/nvvm/libdevice/libdevice.10.bc" ]; then
  export CUDA_HOME=$b/cuda
  libdevice="$CUDA_HOME/nvvm/libdevice/libdevice.10.bc (bundle)"
fi
nvjitlink=
for c in "${CUDA_HOME:-}" "${CUDA_PATH:-}" "${CUDA_ROOT:-}" /usr/local/cuda; do
  [ -n "$c" ] || continue
  for v in 13 12; do
    [ -e "$c/lib64/libnvJitLink.so.$v" ] && { nvjitlink=$c/lib64/libnvJitLink.so.$v; break 2; }
  done
done
[ -z "$nvjitlink" ] && nvjitlink=$(ldconfig -p 2>/dev/null | grep -o '/[^ ]*libnvJitLink\.so\.1[23]' | head -1)
say "cuda toolkit: libdevice ${libdevice:-none}, nvJitLink ${nvjitlink:-none}"

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

# 2. The benchmark kernels through the JIT on the CUDA device.
if want jit-kernels; then
  if [ ! -x "$b/bin/offload-gpu-kernels-bench" ]; then
    say "jit-kernels: SKIPPED (not in the bundle: made with --no-jit)"
  else
    args="--kernel-dir=$b/kernels"
    [ "$fake" = 1 ] && args="$args --no-check"
    logcmd offload-gpu-kernels-bench $args
    t0=$(date +%s)
    # shellcheck disable=SC2086
    timeout "$(limit 180)" "$b/bin/offload-gpu-kernels-bench" $args \
      > "$out_dir/gpu-jit-kernels.json" 2> "$dir/jit-kernels.err"
    rc=$?
    cat "$dir/jit-kernels.err" >> "$log"
    echo "--- gpu-jit-kernels.json" >> "$log"; cat "$out_dir/gpu-jit-kernels.json" >> "$log"
    t=$(( $(date +%s) - t0 ))
    sed -n 's/^\([a-z0-9-]*\) *generic .*/\1/p; s/^\([a-z0-9-]*\) *ERROR.*/\1/p' "$dir/jit-kernels.err" > "$dir/jit-kernels.names"
    if [ "$rc" = 124 ]; then
      say "jit-kernels: FAIL (timeout after $t s; last: $(tail -1 "$dir/jit-kernels.err" | cut -c1-160))"
      status=1
    elif [ ! -s "$dir/jit-kernels.names" ]; then
      say "jit-kernels: FAIL (exit $rc, no kernel ran: $(tail -3 "$dir/jit-kernels.err" | tr '\n' ' ' | cut -c1-300))"
      status=1
    else
      # One line per kernel: PASS, FAIL (error or mismatch), or, on a fake
      # driver, RAN with results NOT CHECKED.
      while IFS= read -r line; do
        k=${line%% *}
        case $line in
          *ERROR*) say "jit-kernels $k: FAIL (${line#*ERROR })" ;;
          *"not checked"*) say "jit-kernels $k: RAN, results NOT CHECKED (fake driver); $(echo "$line" | sed 's/  results:.*//; s/^[a-z0-9-]* *//; s/  */ /g')" ;;
          *mismatches*) say "jit-kernels $k: FAIL (results differ from the host's: $(echo "$line" | sed 's/.*results: //'))" ;;
          *"generic match, specialized match"*) say "jit-kernels $k: PASS (results match the host's); $(echo "$line" | sed 's/  results:.*//; s/^[a-z0-9-]* *//; s/  */ /g')" ;;
          *) say "jit-kernels $k: FAIL (unexpected report: $line)" ;;
        esac
      done < <(grep -E '^[a-z0-9-]+ +(generic|ERROR)' "$dir/jit-kernels.err")
      geo=$(grep '^geomean speedup' "$dir/jit-kernels.err")
      n=$(wc -l < "$dir/jit-kernels.names")
      if [ "$rc" = 0 ] && [ "$n" = 8 ]; then
        if [ "$fake" = 1 ]; then
          say "jit-kernels: PASS (8 kernels compiled, loaded and launched; results NOT CHECKED: fake driver; $geo; $t s)"
        else
          say "jit-kernels: PASS (8 kernels match the host; $geo; $t s)"
        fi
      else
        say "jit-kernels: FAIL (exit $rc, $n of 8 kernels reported; $geo; $t s)"
        status=1
      fi
    fi
  fi
fi

# 3. Cold specialization of a small kernel to PTX and to cubin.
if want jit-cold; then
  if [ ! -x "$b/bin/offload-gpu-jit-bench" ]; then
    say "jit-cold: SKIPPED (not in the bundle: made with --no-jit)"
  else
    logcmd offload-gpu-jit-bench --kernel-dir="$b/kernels"
    # Its default driver is the build tree's fake: name the real one. No HIP.
    OFFLOAD_CUDA_LIBRARY=${OFFLOAD_CUDA_LIBRARY:-libcuda.so.1} \
    OFFLOAD_HIP_LIBRARY=/nonexistent/libamdhip64.so \
      timeout "$(limit 90)" "$b/bin/offload-gpu-jit-bench" --kernel-dir="$b/kernels" \
      > "$out_dir/gpu-jit-cold.json" 2> "$dir/jit-cold.err"
    rc=$?
    { cat "$dir/jit-cold.err"; echo "--- gpu-jit-cold.json"; cat "$out_dir/gpu-jit-cold.json"; } >> "$log"
    if [ "$rc" != 0 ]; then
      say "jit-cold: FAIL (exit $rc: $(tail -2 "$dir/jit-cold.err" | tr '\n' ' ' | cut -c1-200))"
      status=1
    else
      for t in ptx cubin; do
        line=$(grep "\"cold_specialization/$t\"" "$out_dir/gpu-jit-cold.json")
        chip=$(echo "$line" | sed -n 's/.*"chip": "\([^"]*\)".*/\1/p')
        if echo "$line" | grep -q '"median_ms"'; then
          ms=$(echo "$line" | sed 's/.*"median_ms": \([0-9.]*\).*"min_ms": \([0-9.]*\).*"max_ms": \([0-9.]*\).*"compile_median_ms": \([0-9.]*\).*/median \1 ms (min \2, max \3; compile \4 ms)/')
          say "jit-cold $t: PASS ($chip: $ms)"
        else
          why=$(echo "$line" | sed -n 's/.*"skipped": "\(.*\)"}.*/\1/p')
          case $t:$why in
            cubin:"no libnvJitLink"*|cubin:OFFLOAD_JIT_NVJITLINK=0) say "jit-cold $t: SKIPPED ($why)" ;;
            *) say "jit-cold $t: FAIL (${why:-no result})"; status=1 ;;
          esac
        fi
      done
    fi
  fi
fi

# Runs a lowered program and checks its output with FileCheck against its
# .mlir: "<label> <name>: PASS|FAIL|SKIPPED|RAN ...". Counts in run_pass,
# run_fail, run_other.
run_checked() {
  local label=$1 exe=$2 checks=$3 name
  name=$(basename "$exe")
  logcmd "$label/$name"
  local t0 rc why
  t0=$(date +%s)
  timeout "$(limit 60)" "$exe" < /dev/null > "$dir/$label-$name.out" 2> "$dir/$label-$name.err"
  rc=$?
  { echo "exit $rc"; echo "--- stdout"; cat "$dir/$label-$name.out"; echo "--- stderr"; cat "$dir/$label-$name.err"; } >> "$log"
  if [ "$rc" = 0 ] && "$b/bin/FileCheck" --dump-input=fail "$checks" \
       < "$dir/$label-$name.out" >> "$log" 2>&1; then
    say "$label $name: PASS ($(( $(date +%s) - t0 )) s)"
    run_pass=$((run_pass + 1))
  elif [ "$rc" = 0 ] && [ "$fake" = 1 ]; then
    say "$label $name: RAN (exit 0), output NOT CHECKED: FileCheck mismatch, as expected on the fake driver"
    run_other=$((run_other + 1))
  else
    why="exit $rc"; [ "$rc" = 0 ] && why="FileCheck mismatch"; [ "$rc" = 124 ] && why=timeout
    say "$label $name: FAIL ($why; $(head -c 160 "$dir/$label-$name.err" | tr '\n' ' '))"
    run_fail=$((run_fail + 1))
  fi
}

# 4. MGPU: stock upstream programs on libOffloadMGPU.so.
if want mgpu; then
  run_pass=0; run_fail=0; run_other=0
  if [ -s "$b/mgpu/MANIFEST" ]; then
    while read -r name state rest; do
      if [ "$state" != BUILT ]; then
        say "mgpu $name: FAIL (not built: $state $rest)"
        run_fail=$((run_fail + 1))
        continue
      fi
      if [ "$fake" = 1 ] && [ "${name##*.}" = cubin ]; then
        # The fake reads no parameter layout from cubins, which
        # libOffloadMGPU needs to pack the arguments.
        say "mgpu $name: SKIPPED (the fake driver has no parameter layout for cubins)"
        run_other=$((run_other + 1))
        continue
      fi
      OFFLOAD_MGPU_DEVICE=cuda run_checked mgpu "$b/mgpu/$name" "$b/mgpu/${name%.*}.mlir"
    done < "$b/mgpu/MANIFEST"
    say "mgpu: $([ "$run_fail" = 0 ] && echo PASS || echo FAIL): $run_pass passed, $run_fail failed, $run_other not checked or skipped"
    [ "$run_fail" = 0 ] || status=1
  else
    say "mgpu: SKIPPED (no MGPU programs in the bundle)"
  fi
fi

# 5. Corpus (offload-lower-to-nvvm).
if want corpus; then
  run_pass=0; run_fail=0; run_other=0
  if [ -s "$b/corpus/MANIFEST" ]; then
    while read -r name state rest; do
      if [ "$state" != BUILT ]; then
        say "corpus $name: SKIPPED ($state $rest)"
        continue
      fi
      run_checked corpus "$b/corpus/$name" "$b/corpus/$name.mlir"
    done < "$b/corpus/MANIFEST"
    say "corpus: $([ "$run_fail" = 0 ] && echo PASS || echo FAIL): $run_pass passed, $run_fail failed, $run_other not checked"
    [ "$run_fail" = 0 ] || status=1
  else
    say "corpus: SKIPPED (none in the bundle)"
  fi
fi

# 6. Benchmark.
if want bench; then
logcmd offload-gpu-bench
timeout "$(limit 120)" "$b/bin/offload-gpu-bench" > "$dir/bench.log" 2>&1
rc=$?
cat "$dir/bench.log" >> "$log"
grep '^{' "$dir/bench.log" > "$out_dir/gpu-bench.json" 2>/dev/null
if [ "$rc" = 0 ]; then
  say "bench: PASS (offload vs cuda, same process)"
  grep -v '^{' "$dir/bench.log" | sed 's/^/  /' | tee -a "$summary" > /dev/null
  grep -v '^{' "$dir/bench.log" | sed 's/^/  /'
else
  say "bench: FAIL (exit $rc): $(tail -2 "$dir/bench.log" | tr '\n' ' ')"
  status=1
fi
fi

# 7. Conformance suite and plugin tests on the CUDA devices. Tests that copy
# host to host memory on a device's queue are host-only for now (see
# unittests/Runtime/Plugins/CMakeLists.txt).
excluded='*/offloadCreateEventTest.SuccessManyEvents/*:*/offloadDestroyQueueTest.SuccessWaitsForWork/*:*/offloadGetQueueInfoTest.SuccessEmpty/*:*/offloadLaunchHostFunctionTest.SuccessIsAsynchronous/*:*/offloadMemcpyTest.SuccessHostToHostOnQueue/*:*/offloadSyncEventTest.SuccessWaitsForRecordedPoint/*'
filter="*/cuda*:RealCUDA/*:FakeVendors/*:CUDAPluginTest.*:HIPPluginTest.*:CUDAHeaderTest.*:-$excluded"
# The plugin tests that need no GPU use the bundle's fake drivers.
export OFFLOAD_TEST_FAKE_CUDA_LIBRARY=$b/lib/test/libfakecuda.so
export OFFLOAD_TEST_FAKE_CUDA122_LIBRARY=$b/lib/test/libfakecuda122.so
export OFFLOAD_TEST_FAKE_HIP_LIBRARY=$b/lib/test/libfakehip.so
export OFFLOAD_TEST_FAKE_HIP52_LIBRARY=$b/lib/test/libfakehip52.so
if want tests && [ $(( budget - $(elapsed) )) -lt 30 ]; then
  say "tests: FAIL (not run: $(( budget - $(elapsed) )) s of the budget left; raise GPU_CHECK_BUDGET or run GPU_CHECK_STEPS=tests)"
  status=1
elif want tests; then
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
  say "tests: FAIL (timeout) after $(( $(date +%s) - t0 )) s; last: $(grep '^\[ RUN' "$dir/tests.log" | tail -1)"
  status=1
elif [ "$rc" != 0 ]; then
  say "tests: FAIL (exit $rc): ${passed:-0} passed, ${failed:-?} failed, ${skipped:-0} skipped, $(( $(date +%s) - t0 )) s"
  grep '^\[  FAILED  \] .*/\|^\[  FAILED  \] [A-Za-z]*\.' "$dir/tests.log" | sort -u | head -30 | sed 's/^/  /' | tee -a "$summary"
  status=1
else
  say "tests: PASS: ${passed:-0} passed, ${skipped:-0} skipped, $(( $(date +%s) - t0 )) s"
fi
fi

note=; [ "$fake" = 1 ] && note=" (fake driver: kernel results NOT CHECKED)"
say "result: $([ "$status" = 0 ] && echo PASSED || echo FAILED)$note in $(elapsed) s"
exit "$status"
