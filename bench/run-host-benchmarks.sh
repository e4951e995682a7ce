#!/bin/sh
# Runs offload-host-bench (gpu-dialect kernels on the host device against
# native C++) in both configurations, one thread and all processors, keeps
# the Google Benchmark JSON of each and prints the table
#   kernel | threads | ours ms | native ms | ratio (ours/native) | problem
# (medians over the repetitions, wall-clock time) and the geometric mean of
# the ratios of the cooperative kernels (4-9) and of the barrier-free ones
# (1-3) per configuration; then, unless -R or -k, runs
# bench/run-host-runtime-bench.sh (launch overhead, fiber barriers, copies
# against OpenMP and memcpy) into the same directory. Builds nothing.
#
# usage: bench/run-host-benchmarks.sh [-b BUILD_DIR] [-r REPETITIONS]
#            [-t MIN_TIME_S] [-s SCALE] [-c COOPERATIVE_SCALE]
#            [-k KERNEL,...] [-j THREADS_CONFIGS] [-R] [RESULTS_DIR]
#            [-- BENCHMARK_ARGS...]
#
#   -b  build directory holding bin/offload-host-bench (default: build, or
#       $OFFLOAD_BUILD_DIR)
#   -r  repetitions of every benchmark (default 5)
#   -t  minimum time of one repetition (default 0.2 s; a launch that takes
#       longer is timed once per repetition)
#   -s  work of every kernel times SCALE (default 1: the full sizes of
#       bench/README.md)
#   -c  work of the cooperative kernels (4-9) times COOPERATIVE_SCALE
#       (default: SCALE)
#   -k  only these kernels (comma-separated names)
#   -j  the configurations, space-separated (default "1 all")
#   -R  do not run the host runtime benchmark afterwards
#   -q  quick: one repetition, minimal times, problems at 1/64 of their size
#       (unless -s/-c say otherwise), and the runtime benchmark quick too;
#       every kernel's results are still checked against native before
#       timing, but the figures mean nothing (CI runs this: ctest
#       bench-quick-host)
#   RESULTS_DIR  where the JSON (host-threads-<config>.json), the console
#       output and the binary's messages go (default:
#       BUILD_DIR/bench/results/host-kernels)
#   --  the rest goes to the binary (e.g. --benchmark_filter=matmul)
#
# The table is computed by the project's virtual environment's Python
# (.venv/bin/python, made by scripts/setup.sh).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$src/build}
reps=5
min_time=0.2
scale=1
coop_scale=""
kernels=""
configs="1 all"
runtime=yes
quick=no
scale_set=no
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -t) min_time=$2; shift 2 ;;
    -s) scale=$2; scale_set=yes; shift 2 ;;
    -c) coop_scale=$2; shift 2 ;;
    -k) kernels=$2; shift 2 ;;
    -j) configs=$2; shift 2 ;;
    -R) runtime=no; shift ;;
    -q) quick=yes; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,41p' "$0"; exit 0 ;;
    -*) echo "run-host-benchmarks.sh: unknown option $1 (see --help)" >&2
        exit 2 ;;
    *) [ -z "$out" ] || { echo "run-host-benchmarks.sh: one results" \
         "directory only" >&2; exit 2; }
       out=$1; shift ;;
  esac
done

bin=$build/bin/offload-host-bench
if [ ! -x "$bin" ]; then
  echo "run-host-benchmarks.sh: $bin not found: build it (it needs Google" \
       "Benchmark and OpenMP, Debian packages libbenchmark-dev and" \
       "libomp-22-dev)" >&2
  exit 1
fi
python=$src/.venv/bin/python
if [ ! -x "$python" ]; then
  echo "run-host-benchmarks.sh: $python not found: run scripts/setup.sh" >&2
  exit 1
fi
out=${out:-$build/bench/results/host-kernels}
mkdir -p "$out"
if [ "$quick" = yes ]; then
  reps=1
  min_time=0.001
  [ "$scale_set" = yes ] || scale=0.015625
fi

set -- --host_bench_scale="$scale" ${coop_scale:+--host_bench_cooperative_scale="$coop_scale"} \
  ${kernels:+--host_bench_kernels="$kernels"} "$@"
files=""
for config in $configs; do
  json=$out/host-threads-$config.json
  echo "run-host-benchmarks.sh: --host_threads=$config -> $json" >&2
  "$bin" --kernel-dir="$src/bench/host/kernels" --host_threads="$config" \
    --benchmark_repetitions="$reps" \
    --benchmark_min_time="$min_time" \
    --benchmark_out="$json" --benchmark_out_format=json \
    --benchmark_color=false "$@" \
    > "$out/host-threads-$config.console.txt" \
    2> "$out/host-threads-$config.stderr.txt" || {
    cat "$out/host-threads-$config.stderr.txt" >&2
    echo "run-host-benchmarks.sh: offload-host-bench --host_threads=$config" \
         "failed" >&2
    exit 1
  }
  files="$files $json"
done

# shellcheck disable=SC2086
"$python" - "$src/bench" $files <<'EOF'
import sys
sys.path.insert(0, sys.argv.pop(1))
from gbench import geomean, load, paired_rows, print_results

loaded = load(sys.argv[1:])
rows = [(kernel, threads, ours, native, context.get("problem:" + kernel, "?"),
         context.get("group:" + kernel, "?"))
        for kernel, threads, ours, native, context in
        paired_rows(loaded, "host", "native")]
if not rows:
    sys.exit("run-host-benchmarks.sh: no pairs of ours/native results")
context = loaded[0][1].get("context", {})
print("offload-host-bench on %s (%s): median wall-clock time per launch "
      "over the repetitions" % (context.get("host_name", "?"),
                                context.get("date", "?")))
print("scale: %s, cooperative kernels %s" % (
    context.get("host_bench_scale", "?"),
    context.get("host_bench_cooperative_scale", "?")))
print()
header = ("kernel", "threads", "ours ms", "native ms", "ratio", "problem")
print("%-13s | %7s | %12s | %10s | %10s | %s" % header)
print("-" * 14 + "|" + "-" * 9 + "|" + "-" * 14 + "|" + "-" * 12 + "|" +
      "-" * 12 + "|" + "-" * 30)
for kernel, threads, ours, native, problem, group in rows:
    ratio = ours / native if native > 0 else float("inf")
    print("%-13s | %7d | %12.4f | %10.4f | %10.2f | %s" % (
        kernel, threads, ours, native, ratio, problem))
print()
for threads in sorted({r[1] for r in rows}):
    for group, label in (("cooperative", "cooperative (4-9)"),
                         ("barrier-free", "barrier-free (1-3)"),
                         ("subgroup-mma", "subgroup mma (10)")):
        ratios = [r[2] / r[3] for r in rows
                  if r[1] == threads and r[5] == group and r[3] > 0]
        if ratios:
            print("geomean ratio, %-18s threads %3d: %10.2f  (%d kernels)" % (
                label, threads, geomean(ratios), len(ratios)))
print()
print_results(loaded)
EOF

if [ "$runtime" = yes ] && [ -z "$kernels" ]; then
  echo
  quick_flag=""
  [ "$quick" = yes ] && quick_flag=-q
  "$src/bench/run-host-runtime-bench.sh" -b "$build" -r "$reps" $quick_flag \
    -o "$out/host-runtime.json"
fi
