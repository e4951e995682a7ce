#!/bin/sh
# Runs offload-rodinia-bench (Rodinia 3.1 programs, gpu-dialect kernels on
# the host device against their OpenMP versions) in both configurations, one
# thread and all processors, keeps the Google Benchmark JSON of each and
# prints the table
#   program | threads | ours ms | OpenMP ms | ratio (ours/OpenMP) | problem
# (medians over the repetitions, wall-clock time of the whole program) and
# the geometric mean of the ratios per configuration. Builds nothing.
#
# usage: bench/run-rodinia-benchmarks.sh [-b BUILD_DIR] [-r REPETITIONS]
#            [-t MIN_TIME_S] [-p PROGRAM,...] [-j THREADS_CONFIGS] [-q]
#            [RESULTS_DIR] [-- BENCHMARK_ARGS...]
#
#   -b  build directory holding bin/offload-rodinia-bench (default: build, or
#       $OFFLOAD_BUILD_DIR)
#   -r  repetitions of every benchmark, interleaved at random (default 5)
#   -t  minimum time of one repetition (default 0.5 s)
#   -p  only these programs (comma-separated names)
#   -j  the configurations, space-separated (default "1 all")
#   -q  quick: small inputs, one repetition, minimal times; the results are
#       still checked against the OpenMP versions before timing, but the
#       figures mean nothing (CI runs this: ctest bench-quick-rodinia)
#   RESULTS_DIR  where the JSON (rodinia-threads-<config>.json), the console
#       output and the binary's messages go (default:
#       BUILD_DIR/bench/results/rodinia)
#   --  the rest goes to the binary (e.g. --benchmark_filter=hotspot)
#
# The table is computed by the project's virtual environment's Python
# (.venv/bin/python, made by scripts/setup.sh).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$src/build}
reps=5
min_time=0.5
programs=""
configs="1 all"
quick=no
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -t) min_time=$2; shift 2 ;;
    -p) programs=$2; shift 2 ;;
    -j) configs=$2; shift 2 ;;
    -q) quick=yes; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    -*) echo "run-rodinia-benchmarks.sh: unknown option $1 (see --help)" >&2
        exit 2 ;;
    *) [ -z "$out" ] || { echo "run-rodinia-benchmarks.sh: one results" \
         "directory only" >&2; exit 2; }
       out=$1; shift ;;
  esac
done

bin=$build/bin/offload-rodinia-bench
if [ ! -x "$bin" ]; then
  echo "run-rodinia-benchmarks.sh: $bin not found: build it (it needs Google" \
       "Benchmark and OpenMP, Debian packages libbenchmark-dev and" \
       "libomp-22-dev)" >&2
  exit 1
fi
python=$src/.venv/bin/python
if [ ! -x "$python" ]; then
  echo "run-rodinia-benchmarks.sh: $python not found: run scripts/setup.sh" >&2
  exit 1
fi
out=${out:-$build/bench/results/rodinia}
mkdir -p "$out"
quick_flag=""
if [ "$quick" = yes ]; then
  reps=1
  min_time=0.001
  quick_flag=--rodinia_quick
fi

# One JIT cache for both configurations, private to this run: the kernels
# compile once, with the compiler being measured (the binary's own default is
# a private cache per process).
own_cache=""
if [ -z "${OFFLOAD_CACHE_DIR:-}" ]; then
  own_cache=$(mktemp -d "${TMPDIR:-/tmp}/offload-rodinia-cache-XXXXXX")
  export OFFLOAD_CACHE_DIR="$own_cache"
  trap 'rm -rf "$own_cache"' EXIT
fi

set -- ${quick_flag} ${programs:+--rodinia_programs="$programs"} "$@"
files=""
for config in $configs; do
  json=$out/rodinia-threads-$config.json
  echo "run-rodinia-benchmarks.sh: --host_threads=$config -> $json" >&2
  "$bin" --kernel-dir="$src/bench/rodinia/kernels" --host_threads="$config" \
    --benchmark_repetitions="$reps" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_min_time="$min_time" \
    --benchmark_out="$json" --benchmark_out_format=json \
    --benchmark_color=false "$@" \
    > "$out/rodinia-threads-$config.console.txt" \
    2> "$out/rodinia-threads-$config.stderr.txt" || {
    cat "$out/rodinia-threads-$config.stderr.txt" >&2
    echo "run-rodinia-benchmarks.sh: offload-rodinia-bench" \
         "--host_threads=$config failed" >&2
    exit 1
  }
  files="$files $json"
done

# shellcheck disable=SC2086
"$python" - "$src/bench" $files <<'PYEOF'
import sys
sys.path.insert(0, sys.argv.pop(1))
from gbench import geomean, load, paired_rows, print_results

loaded = load(sys.argv[1:])
rows = [(program, threads, ours, openmp, context.get("problem:" + program,
                                                     "?"))
        for program, threads, ours, openmp, context in
        paired_rows(loaded, "rodinia", "openmp")]
if not rows:
    sys.exit("run-rodinia-benchmarks.sh: no pairs of ours/openmp results")
context = loaded[0][1].get("context", {})
print("offload-rodinia-bench on %s (%s): median wall-clock time of the whole "
      "program over the repetitions%s" % (
          context.get("host_name", "?"), context.get("date", "?"),
          " (quick: small inputs, figures meaningless)"
          if context.get("rodinia_quick") == "true" else ""))
print()
header = ("program", "threads", "ours ms", "OpenMP ms", "ratio", "problem")
print("%-10s | %7s | %10s | %10s | %6s | %s" % header)
print("-" * 11 + "|" + "-" * 9 + "|" + "-" * 12 + "|" + "-" * 12 + "|" +
      "-" * 8 + "|" + "-" * 40)
for program, threads, ours, openmp, problem in rows:
    ratio = ours / openmp if openmp > 0 else float("inf")
    print("%-10s | %7d | %10.3f | %10.3f | %6.2f | %s" % (
        program, threads, ours, openmp, ratio, problem))
print()
for threads in sorted({r[1] for r in rows}):
    ratios = [r[2] / r[3] for r in rows if r[1] == threads and r[3] > 0]
    if ratios:
        print("geomean ratio (ours/OpenMP), threads %3d: %6.2f  (%d programs)"
              % (threads, geomean(ratios), len(ratios)))
print()
print_results(loaded)
PYEOF
