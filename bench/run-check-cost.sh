#!/usr/bin/env bash
# run-check-cost.sh: the slowdown of each checking tool (OFFLOAD_CHECK,
# docs/HostTarget.md) on the host benchmark kernels (offload-host-bench):
# one process per tool, all in this run, each kernel's time with the tool
# over its time without any (the baseline of the same run).
#
# usage: bench/run-check-cost.sh [-s SCALE] [-c COOPERATIVE_SCALE]
#                                [-t TOOLS] [-r REPETITIONS] [RESULTS_DIR]
#   -s   --host_bench_scale (default 0.05)
#   -c   --host_bench_cooperative_scale (default: the scale)
#   -t   the tools, space-separated (default "race sync init leak memcheck")
#   -r   repetitions (default 3; medians are compared)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scale=0.05 coop="" tools="race sync init leak memcheck" reps=3
while getopts "s:c:t:r:" opt; do
  case $opt in
    s) scale=$OPTARG ;; c) coop=$OPTARG ;; t) tools=$OPTARG ;;
    r) reps=$OPTARG ;; *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
out=${1:-$root/build/bench/results/check-cost}
mkdir -p "$out"
bin=$root/build/bin/offload-host-bench
args=(--host_threads=1 --host_bench_scale="$scale"
      --benchmark_filter=/ours/ --benchmark_repetitions="$reps"
      --benchmark_min_time=0.05 --benchmark_format=json)
[ -n "$coop" ] && args+=(--host_bench_cooperative_scale="$coop")
# The buffers are managed allocations of the runtime (every run, the
# baseline too), so that initcheck tracks them as an application's.
export OFFLOAD_HOST_BENCH_MEMORY=managed
for tool in off $tools; do
  echo "== OFFLOAD_CHECK=${tool/off/}" >&2
  if [ "$tool" = off ]; then
    env -u OFFLOAD_CHECK OFFLOAD_CACHE_DIR= "$bin" "${args[@]}" > "$out/$tool.json" 2> "$out/$tool.log"
  else
    OFFLOAD_CHECK=$tool OFFLOAD_CACHE_DIR= "$bin" "${args[@]}" > "$out/$tool.json" 2> "$out/$tool.log"
  fi
done
"$root/.venv/bin/python" - "$out" off $tools <<'PY'
import json, statistics, sys
out, tools = sys.argv[1], sys.argv[2:]
def medians(tool):
    # The runtime's "========= ERROR SUMMARY" line follows the JSON.
    text = "".join(line for line in open(f"{out}/{tool}.json")
                   if not line.startswith("========="))
    data = json.loads(text)
    times = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        kernel = b["name"].split("/")[1]
        times.setdefault(kernel, []).append(b["real_time"])
    return {k: statistics.median(v) for k, v in times.items()}
base = medians("off")
runs = {t: medians(t) for t in tools[1:]}
print("kernel        |   off ms | " + " | ".join(f"{t:>9}" for t in tools[1:]))
print("--------------|----------|" + "|".join("-" * 11 for _ in tools[1:]))
for kernel, ms in base.items():
    cells = [f"{runs[t][kernel] / ms:8.1f}x" for t in tools[1:]]
    print(f"{kernel:13s} | {ms:8.3f} | " + " | ".join(cells))
for t in tools[1:]:
    ratios = [runs[t][k] / base[k] for k in base]
    print(f"geomean {t}: {statistics.geometric_mean(ratios):.1f}x")
PY
