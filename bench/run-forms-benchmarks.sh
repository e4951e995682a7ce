#!/bin/sh
# Runs the forms family of offload-host-bench (--host_bench_forms: every
# kernel of bench/host/kernels that has equivalent forms, each form from
# bench/host/kernels/forms/<kernel>/<form>.mlir, see bench/README.md) in
# both configurations, one thread and all processors, keeps the Google
# Benchmark JSON of each and prints the table
#   kernel | form | threads | ours ms | native ms | ratio | to best
# (medians over the repetitions, wall-clock time; ratio: ours / native of
# the same run; to best: the form's time over the fastest form of the same
# kernel and configuration), then per kernel and configuration the slowest
# form against the best. Every form's results are checked equal to the
# native baseline's before timing; a form that differs fails the run. Builds
# nothing.
#
# usage: bench/run-forms-benchmarks.sh [-b BUILD_DIR] [-r REPETITIONS]
#            [-t MIN_TIME_S] [-s SCALE] [-k KERNEL,...] [-j THREADS_CONFIGS]
#            [-q] [RESULTS_DIR] [-- BENCHMARK_ARGS...]
#
#   -b  build directory holding bin/offload-host-bench (default: build, or
#       $OFFLOAD_BUILD_DIR)
#   -r  repetitions of every benchmark (default 5)
#   -t  minimum time of one repetition (default 0.2 s)
#   -s  work of every kernel times SCALE (default 1: the sizes of
#       offload-host-bench, bench/README.md)
#   -k  only these kernels (comma-separated names)
#   -j  the configurations, space-separated (default "1 all")
#   -q  quick: one repetition, minimal times, problems at 1/64 of their size
#       (unless -s says otherwise), one JIT cache shared by the
#       configurations; every form is still checked against native before
#       timing, but the figures mean nothing (CI runs this: ctest
#       bench-quick-forms)
#   RESULTS_DIR  where the JSON (forms-threads-<config>.json), the console
#       output and the binary's messages go (default:
#       BUILD_DIR/bench/results/host-forms)
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
kernels=""
configs="1 all"
quick=no
scale_set=no
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -t) min_time=$2; shift 2 ;;
    -s) scale=$2; scale_set=yes; shift 2 ;;
    -k) kernels=$2; shift 2 ;;
    -j) configs=$2; shift 2 ;;
    -q) quick=yes; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    -*) echo "run-forms-benchmarks.sh: unknown option $1 (see --help)" >&2
        exit 2 ;;
    *) [ -z "$out" ] || { echo "run-forms-benchmarks.sh: one results" \
         "directory only" >&2; exit 2; }
       out=$1; shift ;;
  esac
done

bin=$build/bin/offload-host-bench
if [ ! -x "$bin" ]; then
  echo "run-forms-benchmarks.sh: $bin not found: build it (it needs Google" \
       "Benchmark and OpenMP, Debian packages libbenchmark-dev and" \
       "libomp-22-dev)" >&2
  exit 1
fi
python=$src/.venv/bin/python
if [ ! -x "$python" ]; then
  echo "run-forms-benchmarks.sh: $python not found: run scripts/setup.sh" >&2
  exit 1
fi
out=${out:-$build/bench/results/host-forms}
mkdir -p "$out"
cache=""
if [ "$quick" = yes ]; then
  reps=1
  min_time=0.001
  [ "$scale_set" = yes ] || scale=0.015625
  # One JIT cache for both configurations: the second compiles nothing.
  if [ -z "${OFFLOAD_CACHE_DIR:-}" ]; then
    cache=$(mktemp -d "${TMPDIR:-/tmp}/offload-forms-quick.XXXXXX")
    trap 'rm -rf "$cache"' EXIT
    export OFFLOAD_CACHE_DIR="$cache"
  fi
fi

set -- --host_bench_forms --host_bench_scale="$scale" \
  ${kernels:+--host_bench_kernels="$kernels"} "$@"
files=""
for config in $configs; do
  json=$out/forms-threads-$config.json
  echo "run-forms-benchmarks.sh: --host_threads=$config -> $json" >&2
  "$bin" --kernel-dir="$src/bench/host/kernels" --host_threads="$config" \
    --benchmark_repetitions="$reps" \
    --benchmark_min_time="$min_time" \
    --benchmark_out="$json" --benchmark_out_format=json \
    --benchmark_color=false "$@" \
    > "$out/forms-threads-$config.console.txt" \
    2> "$out/forms-threads-$config.stderr.txt" || {
    cat "$out/forms-threads-$config.stderr.txt" >&2
    echo "run-forms-benchmarks.sh: offload-host-bench --host_threads=$config" \
         "failed" >&2
    exit 1
  }
  files="$files $json"
done

# shellcheck disable=SC2086
"$python" - "$src/bench" $files <<'PY'
import re, sys
sys.path.insert(0, sys.argv.pop(1))
from gbench import load, median, print_results, repetitions

loaded = load(sys.argv[1:])
rows = []  # (kernel, form, threads, ours ms, native ms)
for path, data in loaded:
    ours, native, order = {}, {}, {}
    for name, ms, _ in repetitions(data):
        m = re.match(r"BM_Form/([^/]+)/([^/]+)/ours/threads:(\d+)", name)
        if m:
            key = (m.group(1), m.group(2), int(m.group(3)))
            ours.setdefault(key, []).append(ms)
            order.setdefault(key, len(order))
            continue
        m = re.match(r"BM_Form/([^/]+)/native/threads:(\d+)", name)
        if m:
            native.setdefault((m.group(1), int(m.group(2))), []).append(ms)
    for key in sorted(ours, key=order.get):
        kernel, form, threads = key
        base = native.get((kernel, threads))
        rows.append((kernel, form, threads, median(ours[key]),
                     median(base) if base else float("nan")))

if not rows:
    sys.exit("run-forms-benchmarks.sh: no BM_Form results")
best = {}
for kernel, form, threads, ms, _ in rows:
    best[(kernel, threads)] = min(best.get((kernel, threads), ms), ms)
context = loaded[0][1].get("context", {})
print("offload-host-bench --host_bench_forms on %s (%s): median wall-clock "
      "time per launch over the repetitions, scale %s" % (
          context.get("host_name", "?"), context.get("date", "?"),
          context.get("host_bench_scale", "?")))
print()
print("%-13s | %-16s | %7s | %10s | %10s | %7s | %7s" % (
    "kernel", "form", "threads", "ours ms", "native ms", "ratio", "to best"))
print("-" * 14 + "|" + "-" * 18 + "|" + "-" * 9 + "|" + "-" * 12 + "|" +
      "-" * 12 + "|" + "-" * 9 + "|" + "-" * 8)
first = {}
for r in rows:
    first.setdefault(r[0], len(first))
    first.setdefault((r[0], r[1]), len(first))
for kernel, form, threads, ms, nat in sorted(
        rows, key=lambda r: (first[r[0]], first[(r[0], r[1])], r[2])):
    print("%-13s | %-16s | %7d | %10.4f | %10.4f | %7.2f | %7.2f" % (
        kernel, form, threads, ms, nat, ms / nat if nat > 0 else float("nan"),
        ms / best[(kernel, threads)]))
print()
print("slowest form of each kernel against its best form:")
for (kernel, threads), fastest in best.items():
    mine = [r for r in rows if r[0] == kernel and r[2] == threads]
    slow = max(mine, key=lambda r: r[3])
    good = min(mine, key=lambda r: r[3])
    print("  %-13s threads %3d: %-16s %6.2fx of %s" % (
        kernel, threads, slow[1], slow[3] / fastest, good[1]))
print()
print_results(loaded)
PY
