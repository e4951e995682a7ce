#!/usr/bin/env bash
# Runs upstream MLIR's GPU integration tests through offload-run on the host
# device and checks each file's stdout against its own CHECK lines (the
# shared conformance runner, run-mlir-gpu-corpus), to measure how much of
# upstream's GPU test suite runs unmodified on the CPU.
#
#   scripts/upstream-gpu-tests.sh [--bin DIR] [--runner PATH] [--out DIR]
#                                 [--rev REV] [--timeout S] LLVM_PROJECT_DIR
#
#   LLVM_PROJECT_DIR  an llvm-project checkout, or its git directory (bare
#                     clones too): then the tests are taken at --rev
#   --rev REV         default: the first of origin/release/22.x,
#                     release/22.x, the newest llvmorg-22.* tag, HEAD
#                     (MLIR 22 may not parse tests newer than its release)
#   --bin DIR         offload-run's directory (default: build/bin)
#   --runner PATH     run-mlir-gpu-corpus (default: shared/conformance/ next
#                     to the checkout of this project)
#   --out DIR         where the tests are copied (default: a new temporary
#                     directory); never inside this repository: upstream's
#                     tests are data, not part of the project
#   --timeout S       seconds per file (default: 120)
#
# Copied: mlir/test/Integration/GPU/** and
# mlir/test/Integration/Dialect/Vector/GPU/**, one directory per upstream
# directory (CUDA/TensorCore/sm80 becomes GPU-CUDA-TensorCore-sm80). The
# runner ignores the RUN lines: offload-run's defaults stand for them
# (--entry-point-result=void, the runner utilities, the input's own transform
# script). Prints the runner's lines, then PASS/total per directory. Not run
# by CI (it needs an llvm-project checkout); see docs/HostTarget.md.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin
runner=$(dirname "$root")/shared/conformance/run-mlir-gpu-corpus
out=
rev=
timeout_s=120
src=

usage() { sed -n '7,22p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "upstream-gpu-tests: $*" >&2; exit 2; }

while [ "$#" -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --bin) bin=$2; shift 2 ;;
    --runner) runner=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --rev) rev=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    -*) die "unknown option: $1 (try --help)" ;;
    *) [ -z "$src" ] || die "one LLVM_PROJECT_DIR only"; src=$1; shift ;;
  esac
done
[ -n "$src" ] || { usage >&2; exit 2; }
[ -d "$src" ] || die "not a directory: $src"
[ -x "$runner" ] || die "conformance runner not found: $runner (pass --runner)"
[ -x "$bin/offload-run" ] || die "offload-run not found in $bin (pass --bin)"

if [ -z "$out" ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/upstream-gpu.XXXXXX")
fi
mkdir -p "$out"
case $(cd "$out" && pwd -P)/ in
  "$(cd "$root" && pwd -P)"/*) die "--out must be outside this repository" ;;
esac

dirs=(mlir/test/Integration/GPU mlir/test/Integration/Dialect/Vector/GPU)
staging=$(mktemp -d "${TMPDIR:-/tmp}/upstream-gpu-src.XXXXXX")
trap 'rm -rf "$staging"' EXIT

if [ -d "$src/mlir/test" ]; then
  for d in "${dirs[@]}"; do
    [ -d "$src/$d" ] && mkdir -p "$staging/$(dirname "$d")" &&
      cp -R "$src/$d" "$staging/$d"
  done
  echo "upstream-gpu-tests: tests of the checkout $src"
elif git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1; then
  g=(git --git-dir="$src")
  if [ -z "$rev" ]; then
    for r in origin/release/22.x release/22.x \
      "$("${g[@]}" tag --list 'llvmorg-22.*' --sort=-v:refname | head -n 1)" HEAD; do
      if [ -n "$r" ] && "${g[@]}" rev-parse --verify -q "$r^{commit}" >/dev/null; then
        rev=$r
        break
      fi
    done
  fi
  present=()
  for d in "${dirs[@]}"; do
    "${g[@]}" cat-file -e "$rev:$d" 2>/dev/null && present+=("$d")
  done
  [ "${#present[@]}" -gt 0 ] || die "no GPU integration tests at $rev"
  "${g[@]}" archive "$rev" "${present[@]}" | tar -x -C "$staging"
  echo "upstream-gpu-tests: tests at $rev ($("${g[@]}" rev-parse --short "$rev"))"
else
  die "neither an llvm-project checkout nor a git directory: $src"
fi

# One directory of .mlir files per upstream directory.
run_dirs=()
while IFS= read -r d; do
  rel=${d#"$staging"/mlir/test/Integration/}
  name=${rel//\//-}
  mkdir -p "$out/$name"
  cp "$d"/*.mlir "$out/$name/"
  run_dirs+=("$out/$name")
done < <(find "$staging" -type f -name '*.mlir' -printf '%h\n' | sort -u)
[ "${#run_dirs[@]}" -gt 0 ] || die "no .mlir files found"
echo "upstream-gpu-tests: $(find "$out" -name '*.mlir' | wc -l) files in $out"

status=0
"$runner" --bin "$bin" --timeout "$timeout_s" "${run_dirs[@]}" |
  tee "$out/results.txt" || status=$?

echo "upstream-gpu-tests: per directory (passed/total):"
for d in "${run_dirs[@]}"; do
  total=$(grep -c " $d/" "$out/results.txt" || true)
  passed=$(grep -c "^PASS $d/" "$out/results.txt" || true)
  printf '  %-45s %s/%s\n' "${d##*/}" "$passed" "$total"
done
exit "$status"
