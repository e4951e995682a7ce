#!/bin/sh
# Runs offload-jit-auto-bench on the host device: automatic specialization
# (OFFLOAD_JIT_AUTO) of the benchmark kernels with their runtime constants
# stripped, against the annotated kernels' specialization and the generic
# kernels, in one run; writes the JSON results and prints the summary table
# (medians over the repetitions).
#
# usage: bench/run-auto-benchmarks.sh [-b BUILD_DIR] [-o RESULTS.json]
#                                     [-r REPETITIONS] [-t MIN_TIME_S] [-q]
#                                     [-- BENCHMARK_ARGS...]
#
#   -b  build directory holding bin/offload-jit-auto-bench (default: build,
#       or $OFFLOAD_BUILD_DIR)
#   -o  JSON results (default: BUILD_DIR/bench/results/auto.json)
#   -r  repetitions of every benchmark, interleaved at random (default 10)
#   -t  minimum time of one repetition (default 0.2 s)
#   -q  quick: one repetition, minimal times; every version's results are
#       still compared with the generic kernel's, the figures mean nothing
#       (ctest bench-quick-auto)
#   --  the rest goes to the binary (e.g. --benchmark_filter=stencil)
#
# Kernels run on the launching thread (OFFLOAD_HOST_THREADS=1 unless set):
# kernel times are that thread's CPU time.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$src/build}
out=""
reps=10
min_time=0.2
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -t) min_time=$2; shift 2 ;;
    -q) reps=1; min_time=0.001; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "run-auto-benchmarks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

bin=$build/bin/offload-jit-auto-bench
if [ ! -x "$bin" ]; then
  echo "run-auto-benchmarks.sh: $bin not found: build it (it needs Google" \
       "Benchmark, Debian package libbenchmark-dev)" >&2
  exit 1
fi
out=${out:-$build/bench/results/auto.json}
mkdir -p "$(dirname "$out")"

export OFFLOAD_HOST_THREADS="${OFFLOAD_HOST_THREADS:-1}"
"$bin" --kernel-dir="$src/bench/kernels" \
  --benchmark_repetitions="$reps" \
  --benchmark_min_time="$min_time" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out" --benchmark_out_format=json \
  --benchmark_color=false "$@" > "$out.console.txt" 2> "$out.stderr.txt" || {
  cat "$out.stderr.txt" >&2
  echo "run-auto-benchmarks.sh: offload-jit-auto-bench failed" >&2
  exit 1
}
# The binary's table (medians over the repetitions).
sed -n '/^kernel /,$p' "$out.stderr.txt"
grep -q '^geomean' "$out.stderr.txt" || {
  echo "run-auto-benchmarks.sh: no summary in $out.stderr.txt" >&2
  exit 1
}
echo
echo "results: $out"
