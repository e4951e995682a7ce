#!/usr/bin/env bash
# gpu-bundle.sh: builds here, on a machine with LLVM/MLIR, everything the GPU
# check needs on a machine without them (and without a network), and packs
# it with every shared library it needs into one compressed file:
#
#   offload-gpu/bin/   offload-device-info, OffloadRuntimeTests,
#                      offload-gpu-bench, FileCheck
#   offload-gpu/lib/   libOffloadRuntime.so, libmlir_runner_utils, and
#                      what `ldd` says they need (libLLVM, ...), but glibc;
#                      lib/test/ the tests' fake CUDA driver and HIP runtime;
#                      lib/compat/ holds libstdc++ and libgcc_s, used only
#                      where the machine's own are too old
#   offload-gpu/corpus/ the shared MLIR GPU corpus (CUDA files) lowered here
#                      with `offload-opt --offload-lower-to-nvvm` (cubin by
#                      ptxas when a CUDA toolkit is installed, else PTX),
#                      mlir-translate and llc, linked with the runtime into
#                      executables; each with its .mlir (CHECK lines) and a
#                      MANIFEST line saying what was built or why not
#
# Result: OUT_DIR/offload-gpu.tar.xz and OUT_DIR/MANIFEST.txt. OUT_DIR
# (default .gpu-bundle in the repository) is added to .git/info/exclude; name
# it in the device tool's `carry` and run scripts/gpu-check.sh there.
#
# usage: scripts/gpu-bundle.sh [--build DIR] [--out DIR] [--chip sm_XX]
#                              [--corpus DIR] [--no-build] [--no-corpus]
#
#   --build DIR   CMake build directory (default: $OFFLOAD_BUILD_DIR, else
#                 build); configured already (scripts/setup.sh)
#   --out DIR     where the bundle goes (default: .gpu-bundle)
#   --chip C      GPU architecture of the corpus kernels (default: sm_90,
#                 the H200)
#   --corpus DIR  MLIR files to lower (default: ../shared/corpus/mlir-gpu)
#   --no-build    use the build directory as it is
#   --no-corpus   skip the corpus
#
# Exit status: 0 when the bundle is written and under the size limit
# (GPU_BUNDLE_LIMIT_MIB, default 60), 1 otherwise, 2 on a usage error.
set -euo pipefail

prog=${0##*/}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OFFLOAD_BUILD_DIR:-$root/build}
out=$root/.gpu-bundle
chip=sm_90
corpus=
do_build=1
do_corpus=1
limit_mib=${GPU_BUNDLE_LIMIT_MIB:-60}

die() { echo "$prog: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --out) mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --chip) chip=$2; shift 2 ;;
    --corpus) corpus=$(cd "$2" && pwd); shift 2 ;;
    --no-build) do_build=0; shift ;;
    --no-corpus) do_corpus=0; shift ;;
    -h|--help) sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (try --help)" ;;
  esac
done
[ -f "$build/build.ninja" ] || [ -f "$build/Makefile" ] ||
  die "no configured build in $build (run scripts/setup.sh, or pass --build)"

if [ -z "$corpus" ]; then
  for c in "$root/../shared/corpus/mlir-gpu" "$root/shared/corpus/mlir-gpu"; do
    [ -d "$c" ] && { corpus=$(cd "$c" && pwd); break; }
  done
fi

llvm_bin=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
llvm_lib=$(llvm-config-22 --libdir 2>/dev/null || echo /usr/lib/llvm-22/lib)
cc=$(command -v clang-22 || command -v clang || command -v cc)
for tool in "$llvm_bin/FileCheck" "$llvm_bin/mlir-translate" "$llvm_bin/llc" \
            "$llvm_bin/llvm-objcopy"; do
  [ -x "$tool" ] || die "missing $tool (llvm-22-tools, mlir-22-tools)"
done

step() { echo "== $*"; }

# 1. Build.
targets="OffloadRuntime OffloadRuntimeTests offload-device-info offload-gpu-bench"
[ "$do_corpus" = 1 ] && targets="$targets offload-opt"
if [ "$do_build" = 1 ]; then
  step "building $targets in $build"
  # shellcheck disable=SC2086
  cmake --build "$build" --target $targets -- -j"${GPU_BUNDLE_JOBS:-2}"
fi
for f in bin/OffloadRuntimeTests bin/offload-device-info bin/offload-gpu-bench \
         lib/libOffloadRuntime.so lib/libfakecuda.so lib/libfakehip.so; do
  [ -e "$build/$f" ] || die "missing $build/$f (build it, or drop --no-build)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/offload-gpu
mkdir -p "$stage/bin" "$stage/lib/compat" "$stage/corpus"

# 2. Programs and the runtime.
step "staging programs"
for f in OffloadRuntimeTests offload-device-info offload-gpu-bench; do
  cp "$build/bin/$f" "$stage/bin/"
done
cp "$llvm_bin/FileCheck" "$stage/bin/"
# The tests' fake drivers (for the plugin tests that need no GPU).
mkdir -p "$stage/lib/test"
for f in libfakecuda.so libfakecuda122.so libfakehip.so libfakehip52.so; do
  [ -e "$build/lib/$f" ] && cp "$build/lib/$f" "$stage/lib/test/"
done
cp -L "$build/lib/libOffloadRuntime.so" "$stage/lib/"
# The runner utilities (printMemref*) under their soname. Not
# libmlir_c_runner_utils: it needs libMLIR (100 MiB); the few vector printers
# of it that the corpus calls are in corpus-main.c below.
soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
runner_utils=$(soname "$llvm_lib/libmlir_runner_utils.so")
cp -L "$llvm_lib/libmlir_runner_utils.so" "$stage/lib/$runner_utils"
strip --strip-unneeded "$stage/bin/"* "$stage/lib/libOffloadRuntime.so" 2>/dev/null || true

# 3. The corpus, lowered here.
manifest=$stage/corpus/MANIFEST
: > "$manifest"
if [ "$do_corpus" = 1 ] && [ -n "$corpus" ]; then
  step "lowering the corpus in $corpus for $chip"
  cat > "$work/corpus-main.c" <<'EOF'
/* The entry point of a lowered corpus program: MLIR's @main returns void. */
#include <stdint.h>
void offload_corpus_main(void);
int main(void) {
  offload_corpus_main();
  return 0;
}
/* The vector printers of MLIR's CRunnerUtils.cpp, same output. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
void printI64(int64_t i) { fprintf(stdout, "%" PRId64, i); }
void printU64(uint64_t u) { fprintf(stdout, "%" PRIu64, u); }
void printF32(float f) {
  if (isnan(f) && signbit(f))
    fprintf(stdout, "-nan");
  else
    fprintf(stdout, "%g", f);
}
void printF64(double d) {
  if (isnan(d) && signbit(d))
    fprintf(stdout, "-nan");
  else
    fprintf(stdout, "%lg", d);
}
void printString(char const *s) { fputs(s, stdout); }
void printOpen(void) { fputs("( ", stdout); }
void printClose(void) { fputs(" )", stdout); }
void printComma(void) { fputs(", ", stdout); }
void printNewline(void) { fputc('\n', stdout); }
/* Helpers that mlir-runner's ROCm wrappers provide (as offload-run does). */
typedef struct {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} MemRef1D;
MemRef1D mgpuMemGetDeviceMemRef1dFloat(float *a, float *b, int64_t o,
                                       int64_t s, int64_t t) {
  MemRef1D m = {a, b, o, s, t};
  return m;
}
MemRef1D mgpuMemGetDeviceMemRef1dInt32(int32_t *a, int32_t *b, int64_t o,
                                       int64_t s, int64_t t) {
  MemRef1D m = {a, b, o, s, t};
  return m;
}
EOF
  "$cc" -c -O2 -fPIC "$work/corpus-main.c" -o "$work/corpus-main.o"
  for mlir in "$corpus"/*.mlir; do
    name=$(basename "$mlir" .mlir)
    case $name in rocm-*) echo "$name SKIP ROCm file" >> "$manifest"; continue ;; esac
    d=$work/c/$name; mkdir -p "$d"
    if ! "$build/bin/offload-opt" "--offload-lower-to-nvvm=chip=$chip" "$mlir" \
          -o "$d/low.mlir" 2> "$d/opt.err"; then
      echo "$name LOWER-FAIL $(grep -m1 error "$d/opt.err" | cut -c1-200)" >> "$manifest"
      continue
    fi
    if ! "$llvm_bin/mlir-translate" --mlir-to-llvmir "$d/low.mlir" -o "$d/low.ll" 2> "$d/err" ||
       ! "$llvm_bin/llc" -O2 -filetype=obj -relocation-model=pic "$d/low.ll" -o "$d/low.o" 2> "$d/err" ||
       ! "$llvm_bin/llvm-objcopy" --redefine-sym main=offload_corpus_main "$d/low.o" 2> "$d/err" ||
       ! "$cc" -o "$stage/corpus/$name" "$d/low.o" "$work/corpus-main.o" \
          -L"$stage/lib" -lOffloadRuntime "$stage/lib/$runner_utils" \
          -Wl,-rpath,'$ORIGIN/../lib' -Wl,--allow-shlib-undefined 2> "$d/err"; then
      echo "$name BUILD-FAIL $(head -c 200 "$d/err" | tr '\n' ' ')" >> "$manifest"
      continue
    fi
    format=PTX
    grep -q 'format=bin' "$d/opt.err" 2>/dev/null && format=cubin
    cp "$mlir" "$stage/corpus/$name.mlir"
    echo "$name BUILT $chip $format" >> "$manifest"
  done
  sed 's/^/   /' "$manifest"
fi

# 4. Shared libraries: the closure of what ldd reports, glibc and the CUDA
# driver excepted (the GPU machine has its own).
step "collecting shared libraries"
is_system() {
  case $1 in
    linux-vdso*|ld-linux*|libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|\
    libresolv.so*|libutil.so*|libcuda.so*|libnvidia*) return 0 ;;
  esac
  return 1
}
changed=1
while [ "$changed" = 1 ]; do
  changed=0
  for f in "$stage"/bin/* "$stage"/corpus/* "$stage"/lib/*.so*; do
    [ -f "$f" ] && file -b "$f" | grep -q ELF || continue
    while read -r lib arrow path _; do
      [ "$arrow" = "=>" ] || continue
      is_system "$lib" && continue
      case $lib in libstdc++.so*|libgcc_s.so*) dest=$stage/lib/compat ;; *) dest=$stage/lib ;; esac
      [ -e "$dest/$lib" ] && continue
      if [ "$path" = "not" ]; then echo "$prog: $f needs $lib, not found" >&2; exit 1; fi
      cp -L "$path" "$dest/$lib"
      changed=1
    done < <(LD_LIBRARY_PATH="$stage/lib:$stage/lib/compat:$llvm_lib" ldd "$f" 2>/dev/null)
  done
done

# 5. Pack.
step "packing"
mkdir -p "$out"
{
  echo "offload GPU bundle"
  echo "made: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "corpus chip: $chip"
  echo "files (uncompressed bytes):"
  (cd "$work" && find offload-gpu -type f -printf '%s %p\n' | sort -k2)
} > "$out/MANIFEST.txt"
tar -C "$work" -cf - offload-gpu | xz -T"${GPU_BUNDLE_JOBS:-2}" -9 > "$out/offload-gpu.tar.xz.tmp"
mv "$out/offload-gpu.tar.xz.tmp" "$out/offload-gpu.tar.xz"
raw=$(du -sb "$stage" | cut -f1)
packed=$(stat -c %s "$out/offload-gpu.tar.xz")
echo "bundle: $out/offload-gpu.tar.xz: $((packed / 1048576)) MiB ($((raw / 1048576)) MiB unpacked)" |
  tee -a "$out/MANIFEST.txt"

# The bundle must not be committed, and must travel only when carried.
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  exclude=$(git -C "$root" rev-parse --git-path info/exclude)
  rel=/${out#"$root"/}/
  if [ "${out#"$root"/}" != "$out" ] && ! grep -qxF "$rel" "$exclude" 2>/dev/null; then
    mkdir -p "$(dirname "$exclude")"
    echo "$rel" >> "$exclude"
    echo "added $rel to $exclude"
  fi
fi

if [ "$packed" -gt $((limit_mib * 1048576)) ]; then
  echo "$prog: the bundle is over $limit_mib MiB; the largest files:" >&2
  (cd "$work" && find offload-gpu -type f -printf '%s %p\n' | sort -rn | head -8) >&2
  exit 1
fi
echo "carry: ${out#"$root"/}  then run: bash scripts/gpu-check.sh"
