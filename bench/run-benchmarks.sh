#!/bin/sh
# Runs offload-jit-bench on the host device, writes its JSON results and
# prints the summary table (medians over the repetitions).
#
# usage: bench/run-benchmarks.sh [-b BUILD_DIR] [-o RESULTS.json] [-r REPETITIONS]
#                                [-t MIN_TIME_S] [-- BENCHMARK_ARGS...]
#
#   -b  build directory holding bin/offload-jit-bench (default: build, or
#       $OFFLOAD_BUILD_DIR)
#   -o  JSON results (default: BUILD_DIR/bench/results/host.json)
#   -r  repetitions of every benchmark, interleaved at random (default 10)
#   -t  minimum time of one repetition of a kernel benchmark (default 0.2 s)
#   -q  quick: one repetition, minimal times, one iteration of each cold
#       compile; every benchmark runs and every kernel's generic and
#       specialized results are compared, but the figures mean nothing (CI
#       runs this: ctest bench-quick-jit)
#   --  the rest goes to the binary (e.g. --benchmark_filter=stencil)
#
# Kernels run on the launching thread (OFFLOAD_HOST_THREADS=1 unless set),
# so kernel and launch times are that thread's CPU time: other processes on a
# shared machine do not inflate them. Set OFFLOAD_HOST_THREADS to another
# value to time multi-threaded launches in real time instead.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$src/build}
out=""
reps=10
min_time=0.2
quick=no
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -t) min_time=$2; shift 2 ;;
    -q) quick=yes; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "run-benchmarks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

bin=$build/bin/offload-jit-bench
if [ ! -x "$bin" ]; then
  echo "run-benchmarks.sh: $bin not found: build it (it needs Google" \
       "Benchmark, Debian package libbenchmark-dev)" >&2
  exit 1
fi
out=${out:-$build/bench/results/host.json}
mkdir -p "$(dirname "$out")"
if [ "$quick" = yes ]; then
  reps=1
  min_time=0.001
  set -- --quick "$@"
fi
# The summary needs only the standard library; the project's venv when set up.
python=$src/.venv/bin/python
[ -x "$python" ] || python=python3

export OFFLOAD_HOST_THREADS="${OFFLOAD_HOST_THREADS:-1}"
# The binary's own summary goes to stderr; keep the console output quiet.
"$bin" --kernel-dir="$src/bench/kernels" \
  --benchmark_repetitions="$reps" \
  --benchmark_min_time="$min_time" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out" --benchmark_out_format=json \
  --benchmark_color=false "$@" > "$out.console.txt" 2> "$out.stderr.txt" || {
  cat "$out.stderr.txt" >&2
  echo "run-benchmarks.sh: offload-jit-bench failed" >&2
  exit 1
}

"$python" - "$out" <<'EOF'
import json, math, re, sys

with open(sys.argv[1]) as f:
    data = json.load(f)
context = data.get("context", {})
kernel_time = context.get("kernel_time", "real_time")

def base(name):
    # BM_x/generic/real_time, BM_ColdCompile/axpy/iterations:10/manual_time
    parts = [p for p in name.split("/")
             if not re.match(r"(real_time|manual_time|iterations:\d+|repeats:\d+)$", p)]
    return "/".join(parts)

scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
runs = {}    # base name -> list of iteration runs
medians = {} # base name -> median aggregate
for b in data["benchmarks"]:
    name = base(b.get("run_name", b["name"]))
    if b.get("run_type") == "aggregate":
        if b.get("aggregate_name") == "median":
            medians[name] = b
    else:
        runs.setdefault(name, []).append(b)

def median(values):
    values = sorted(values)
    n = len(values)
    return 0.0 if n == 0 else (values[n // 2] if n % 2 else
                               (values[n // 2 - 1] + values[n // 2]) / 2)

def stat(name, key):
    """Median over the repetitions of a time (ns) or counter."""
    values = []
    for r in runs.get(name, []):
        if key in ("real_time", "cpu_time"):
            values.append(r[key] * scale[r.get("time_unit", "ns")])
        elif key in r:
            values.append(r[key])
    if values:
        return median(values)
    m = medians.get(name)
    if m is None:
        return None
    if key in ("real_time", "cpu_time"):
        return m[key] * scale[m.get("time_unit", "ns")]
    return m.get(key)

# Kernels in registration order (the runs are interleaved at random).
order = {}
for name, rs in runs.items():
    m = re.match(r"BM_(.+)/generic$", name)
    if m and m.group(1) not in ("ColdCompile", "DiskCacheHit", "LaunchOverhead"):
        order[m.group(1)] = rs[0].get("family_index", 0)
kernels = sorted(order, key=order.get)

reps = max((len(v) for v in runs.values()), default=0)
print("offload-jit-bench on the host device (%s, %d repetitions; kernel time "
      "= %s, median)" % (context.get("host_name", "?"), reps,
                         "thread CPU time" if kernel_time == "cpu_time"
                         else "real time"))
print()
# ours: the JIT's specialized/generic; native: the C++ versions' (the values
# as compile-time constants / read at run time); captured: ln(ours) /
# ln(native), the share of the native headroom (log scale) the JIT reaches,
# shown where native gains at least 5%.
print("%-12s %12s %12s %8s %12s %12s %8s %9s %11s" % (
    "kernel", "generic ns", "special. ns", "ours", "native gen",
    "native spec", "native", "captured", "compile ms"))
logs, native_logs = [], []
for k in kernels:
    g = stat("BM_%s/generic" % k, kernel_time)
    s = stat("BM_%s/specialized" % k, kernel_time)
    ng = stat("BM_%s/native_generic" % k, kernel_time)
    ns = stat("BM_%s/native_specialized" % k, kernel_time)
    c = stat("BM_ColdCompile/%s" % k, "cpu_ms")
    if not g or not s:
        continue
    logs.append(math.log(g / s))
    native = captured = "-"
    ng_text = ns_text = "-"
    if ng and ns:
        native_logs.append(math.log(ng / ns))
        native = "%.2fx" % (ng / ns)
        ng_text, ns_text = "%.0f" % ng, "%.0f" % ns
        if abs(math.log(ng / ns)) >= math.log(1.05):
            captured = "%.0f%%" % (100 * math.log(g / s) / math.log(ng / ns))
    print("%-12s %12.0f %12.0f %7.2fx %12s %12s %8s %9s %11s" % (
        k, g, s, g / s, ng_text, ns_text, native, captured,
        "%.1f" % c if c is not None else "-"))
if logs:
    print("%-12s %12s %12s %7.2fx %12s %12s %8s" % (
        "geomean", "", "", math.exp(sum(logs) / len(logs)), "", "",
        "%.2fx" % math.exp(sum(native_logs) / len(native_logs))
        if native_logs else "-"))
print("(compile ms: one cold specialization of the kernel, thread CPU time)")
print()

c_wall = stat("BM_ColdCompile/axpy", "real_time")
c_cpu = stat("BM_ColdCompile/axpy", "cpu_ms")
c_jit = stat("BM_ColdCompile/axpy", "compile_ms")
if c_wall is not None:
    print("cold specialization of a small kernel (axpy, first launch, empty "
          "caches): %.2f ms thread CPU, %.2f ms wall (JIT compile counter "
          "%.2f ms)" % (c_cpu or 0, c_wall / 1e6, c_jit or 0))
d = stat("BM_DiskCacheHit/axpy", "real_time")
if d is not None:
    print("first launch from the disk cache (axpy): %.3f ms wall" % (d / 1e6))
over = stat("BM_LaunchOverhead/difference", "overhead_ns")
if over is not None:
    print("cache-hit overhead per launch: %.0f ns (offloadJITLaunchKernel %.0f "
          "ns, offloadLaunchKernel of the specialized kernel %.0f ns)" % (
              over, stat("BM_LaunchOverhead/difference", "jit_ns"),
              stat("BM_LaunchOverhead/difference", "aot_ns")))
r = stat("BM_LaunchOverhead/resolve_only", "cpu_time")
if r is not None:
    print("JIT lookup alone (offloadJITGetSpecializedKernel, cache hit): "
          "%.0f ns" % r)
print()
print("results: %s" % sys.argv[1])
EOF
