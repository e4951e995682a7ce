#!/bin/sh
# Times the whole process of `offload-run examples/saxpy.mlir` (parse, the
# offload pipeline with the host kernel's object, the host code's JIT, the
# run) against upstream MLIR on the same saxpy for the CPU:
# `mlir-opt bench/process/saxpy-cpu.mlir | mlir-runner -O3` (the same host
# code and data, the kernel as an scf.parallel loop, upstream passes only).
# Both print the first eight results and a checksum; the script fails when
# they differ. Runs alternate; CPU time (user + system, of every process of
# the run) and wall time are reported as medians, and their ratios.
#
# usage: bench/run-process-bench.sh [-b BUILD_DIR] [-r RUNS] [-q]
#
#   -b  build directory holding bin/offload-run (default: build, or
#       $OFFLOAD_BUILD_DIR)
#   -r  runs of each (default 10)
#   -q  quick: one run of each, outputs checked (for CI; the figures mean
#       nothing)
#
# The offload run uses a private, empty OFFLOAD_CACHE_DIR; offload-run does
# not use the JIT, so every run compiles its kernel. LLVM tools come from
# /usr/lib/llvm-22/bin (LLVM_TOOLS_DIR to change).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$src/build}
runs=10
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -r) runs=$2; shift 2 ;;
    -q) runs=1; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "run-process-bench.sh: unknown option $1 (see --help)" >&2
       exit 2 ;;
  esac
done

tools=${LLVM_TOOLS_DIR:-/usr/lib/llvm-22/bin}
libs=$(cd "$tools/../lib" && pwd)
run=$build/bin/offload-run
for f in "$run" "$tools/mlir-opt" "$tools/mlir-runner"; do
  [ -x "$f" ] || { echo "run-process-bench.sh: $f not found" >&2; exit 1; }
done
for f in "$libs/libmlir_runner_utils.so" "$libs/libmlir_c_runner_utils.so"; do
  [ -f "$f" ] || { echo "run-process-bench.sh: $f not found" >&2; exit 1; }
done
# CPU time of a run and its children in microseconds (getrusage), and wall
# time: GNU time's 10 ms resolution is too coarse here.
python=$src/.venv/bin/python
[ -x "$python" ] || python=python3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OFFLOAD_CACHE_DIR="$work/cache"

cat > "$work/offload.sh" <<SCRIPT
#!/bin/sh
exec "$run" "$src/examples/saxpy.mlir"
SCRIPT
cat > "$work/upstream.sh" <<SCRIPT
#!/bin/sh
"$tools/mlir-opt" "$src/bench/process/saxpy-cpu.mlir" -convert-scf-to-cf \
  -expand-strided-metadata -convert-to-llvm -reconcile-unrealized-casts \
| "$tools/mlir-runner" -O3 -e main --entry-point-result=void \
    --shared-libs=$libs/libmlir_runner_utils.so,$libs/libmlir_c_runner_utils.so
SCRIPT
chmod +x "$work/offload.sh" "$work/upstream.sh"

# The printed values, without the buffer address of printMemrefF32's header.
values() { grep -v '^Unranked Memref' "$1"; }

i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1))
  for which in offload upstream; do
    if ! "$python" -c '
import resource, subprocess, sys, time
start = time.monotonic()
with open(sys.argv[2], "w") as out, open(sys.argv[3], "w") as err:
    rc = subprocess.call([sys.argv[1]], stdout=out, stderr=err)
wall = time.monotonic() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %.2f" % ((ru.ru_utime + ru.ru_stime) * 1e3, wall * 1e3))
sys.exit(rc)' "$work/$which.sh" "$work/$which.out" "$work/$which.err" \
        >> "$work/$which.ms"; then
      echo "run-process-bench.sh: the $which run failed:" >&2
      cat "$work/$which.err" >&2
      exit 1
    fi
  done
  values "$work/offload.out" > "$work/offload.values"
  values "$work/upstream.out" > "$work/upstream.values"
  if ! cmp -s "$work/offload.values" "$work/upstream.values" ||
     ! grep -q '^checksum:' "$work/offload.values"; then
    echo "run-process-bench.sh: the outputs differ:" >&2
    diff "$work/offload.values" "$work/upstream.values" >&2 || true
    exit 1
  fi
done

median() { # column $2 of file $1
  sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
    END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
oc=$(median "$work/offload.ms" 1); ow=$(median "$work/offload.ms" 2)
uc=$(median "$work/upstream.ms" 1); uw=$(median "$work/upstream.ms" 2)
echo "outputs agree ($(tail -1 "$work/offload.values"))"
printf '%-44s %10s %10s\n' "process (medians of $runs runs)" "CPU ms" "wall ms"
printf '%-44s %10s %10s\n' "offload-run examples/saxpy.mlir" "$oc" "$ow"
printf '%-44s %10s %10s\n' "mlir-opt saxpy-cpu.mlir | mlir-runner -O3" "$uc" "$uw"
awk -v oc="$oc" -v uc="$uc" -v ow="$ow" -v uw="$uw" 'BEGIN {
  printf "%-44s %9.2fx %9.2fx\n", "ratio offload-run / upstream", oc / uc, ow / uw }'
