#!/bin/sh
# Runs offload-host-runtime-bench, writes its JSON results and prints what the
# host device's runtime costs next to the native baselines (medians over the
# repetitions).
#
# usage: bench/run-host-runtime-bench.sh [-b BUILD_DIR] [-o RESULTS.json]
#                                        [-r REPETITIONS] [-- BENCHMARK_ARGS...]
#
#   -b  build directory holding bin/offload-host-runtime-bench (default:
#       build, or $OFFLOAD_BUILD_DIR)
#   -o  JSON results (default: BUILD_DIR/bench/results/host-runtime.json)
#   -r  repetitions of every benchmark, interleaved at random (default 5)
#   -q  quick: one repetition at minimal times (a check that every benchmark
#       runs and its results agree, for CI; the figures mean nothing)
#   --  the rest goes to the binary (e.g. --benchmark_filter=Launch)
#
# Times are real time: launches use the host device's thread pool (all
# hardware threads unless OFFLOAD_HOST_THREADS says otherwise), and the
# OpenMP baseline as many threads (OMP_NUM_THREADS).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$src/build}
out=""
reps=5
min_time=""
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -q) reps=1; min_time=--benchmark_min_time=0.001; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "run-host-runtime-bench.sh: unknown option $1 (see --help)" >&2
       exit 2 ;;
  esac
done

bin=$build/bin/offload-host-runtime-bench
if [ ! -x "$bin" ]; then
  echo "run-host-runtime-bench.sh: $bin not found: build it (it needs" \
       "Google Benchmark and OpenMP, Debian packages libbenchmark-dev and" \
       "libomp-22-dev)" >&2
  exit 1
fi
out=${out:-$build/bench/results/host-runtime.json}
mkdir -p "$(dirname "$out")"

"$bin" --benchmark_repetitions="$reps" ${min_time:+"$min_time"} \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out" --benchmark_out_format=json \
  --benchmark_color=false "$@" > "$out.console.txt" 2> "$out.stderr.txt" || {
  cat "$out.stderr.txt" >&2
  echo "run-host-runtime-bench.sh: offload-host-runtime-bench failed" >&2
  exit 1
}

# The summary needs only the standard library; the project's venv when set up.
python=$src/.venv/bin/python
[ -x "$python" ] || python=python3
"$python" - "$out" <<'PY'
import json, re, sys

with open(sys.argv[1]) as f:
    data = json.load(f)

def base(name):
    parts = [p for p in name.split("/")
             if not re.match(r"(real_time|manual_time|iterations:\d+|"
                             r"repeats:\d+)$", p)]
    return "/".join(parts)

runs = {}
for b in data["benchmarks"]:
    if b.get("run_type") == "aggregate":
        continue
    runs.setdefault(base(b.get("run_name", b["name"])), []).append(b)

def median(values):
    values = sorted(values)
    n = len(values)
    if n == 0:
        return None
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2

def stat(name, key="ns"):
    return median([r[key] for r in runs.get(name, []) if key in r])

def fmt(v):
    return "-" if v is None else ("%.1f" % v if v < 100 else "%.0f" % v)

print("offload-host-runtime-bench (%s, %d hardware threads; medians)" % (
    data.get("context", {}).get("host_name", "?"),
    data.get("context", {}).get("num_cpus", 0)))
print()
print("fiber barrier (1 block, %s):" % "256 barriers per thread")
for t in (32, 256, 1024):
    v = stat("BM_FiberBarrier/threads:%d" % t, "ns_per_thread_barrier")
    c = stat("BM_FiberBarrier/threads:%d" % t, "cpu_ns_per_thread_barrier")
    if v is not None:
        print("  %5d threads: %6s ns per thread per barrier (CPU time %s ns)"
              % (t, fmt(v), fmt(c)))
print()
print("%-34s %12s %12s %8s" % ("", "ours ns", "native ns", "ratio"))
rows = [
    ("launch 1x1, synchronous", "BM_Launch/sync_1x1", None),
    ("launch 1x1, queued + sync", "BM_Launch/queued_1x1", None),
    ("  the same after 2 ms idle", "BM_Launch/queued_1x1_after_idle",
     "BM_Launch/sync_1x1_after_idle"),
    ("  the same after 150 ms idle", "BM_Launch/queued_1x1_after_long_idle",
     "BM_Launch/sync_1x1_after_idle"),
    ("enqueue to kernel start, asleep", "BM_LaunchStart/asleep",
     "BM_LaunchStart/awake"),
    ("launch 64x256, synchronous", "BM_Launch/sync_64x256",
     "BM_Native/omp_parallel_for_64"),
    ("launch 64x256, queued + sync", "BM_Launch/queued_64x256",
     "BM_Native/omp_parallel_for_64"),
    ("memcpy 1 KiB, allocations", "BM_Memcpy1KiB/offload",
     "BM_Memcpy1KiB/memcpy"),
    ("memcpy 1 KiB, unknown memory", "BM_Memcpy1KiB/offload_unknown",
     "BM_Memcpy1KiB/memcpy_unknown"),
]
for label, ours, native in rows:
    o = stat(ours)
    n = stat(native) if native else None
    if o is None:
        continue
    ratio = "%.2fx" % (o / n) if n else "-"
    print("%-34s %12s %12s %8s" % (label, fmt(o), fmt(n), ratio))
print("(native: OpenMP parallel for of 64 empty iterations; memcpy(); for "
      "the kernel start: the same on an awake queue; after idle: a "
      "synchronous 1x1 launch after 2 ms idle)")
print()
print("results: %s" % sys.argv[1])
PY
