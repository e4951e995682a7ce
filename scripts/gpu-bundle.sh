#!/usr/bin/env bash
# gpu-bundle.sh: builds here, on a machine with LLVM/MLIR, everything the GPU
# check needs on a machine without them (and without a network), and packs
# it with every shared library it needs into one compressed file:
#
#   offload-gpu/bin/   offload-device-info, OffloadRuntimeTests,
#                      offload-gpu-bench, offload-gpu-kernels-bench and
#                      offload-gpu-jit-bench (run-time specialization on the
#                      GPU), FileCheck
#   offload-gpu/lib/   libOffloadRuntime.so, libOffloadJIT.so, libOffloadMGPU.so,
#                      libmlir_runner_utils, libmlir_async_runtime, and what
#                      `ldd` says they need (libMLIR, libLLVM, ...), but glibc;
#                      lib/test/ the tests' fake CUDA driver and HIP runtime;
#                      lib/compat/ holds libstdc++ and libgcc_s, used only
#                      where the machine's own are too old
#   offload-gpu/corpus/ the shared MLIR GPU corpus (CUDA files) lowered here
#                      with `offload-opt --offload-lower-to-nvvm` (cubin by
#                      ptxas when a CUDA toolkit is installed, else PTX),
#                      mlir-translate, opt and llc, linked with the runtime (and
#                      libmlir_async_runtime) into
#                      executables; each with its .mlir (CHECK lines) and a
#                      MANIFEST line saying what was built or why not
#   offload-gpu/mgpu/  the same corpus (and test/MGPU/vecadd.mlir) lowered by
#                      upstream's own gpu-lower-to-nvvm-pipeline (async.mlir:
#                      its RUN line's passes) and gpu-to-llvm, linked with
#                      libOffloadMGPU.so (the mgpu* ABI), once with cubins
#                      (`.cubin`, when ptxas is here) and once with PTX
#                      (`.ptx`); with MANIFEST
#   offload-gpu/kernels/ bench/kernels/*.mlir, for the JIT benchmarks
#   offload-gpu/cuda/  nvvm/libdevice/libdevice.10.bc from the CUDA toolkit
#                      here (if there is one), for the JIT where the GPU
#                      machine's toolkit has none
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
#   --no-corpus   skip the corpus (and the MGPU programs)
#   --no-jit      leave out the JIT (libOffloadJIT, libMLIR) and its
#                 benchmarks
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
do_jit=1
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
    --no-jit) do_jit=0; shift ;;
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
for tool in "$llvm_bin/FileCheck" "$llvm_bin/mlir-translate" "$llvm_bin/opt" \
            "$llvm_bin/llc" "$llvm_bin/llvm-objcopy"; do
  [ -x "$tool" ] || die "missing $tool (llvm-22-tools, mlir-22-tools)"
done

step() { echo "== $*"; }

# 1. Build.
targets="OffloadRuntime OffloadRuntimeTests offload-device-info offload-gpu-bench"
targets="$targets OffloadFakeCUDA OffloadFakeCUDA122 OffloadFakeHIP OffloadFakeHIP52"
[ "$do_corpus" = 1 ] && targets="$targets offload-opt OffloadMGPU"
[ "$do_jit" = 1 ] && targets="$targets OffloadJIT offload-gpu-kernels-bench offload-gpu-jit-bench"
if [ "$do_build" = 1 ]; then
  step "building $targets in $build"
  # shellcheck disable=SC2086
  cmake --build "$build" --target $targets -- -j"${GPU_BUNDLE_JOBS:-2}"
fi
for f in bin/OffloadRuntimeTests bin/offload-device-info bin/offload-gpu-bench \
         lib/libOffloadRuntime.so lib/libfakecuda.so lib/libfakehip.so; do
  [ -e "$build/$f" ] || die "missing $build/$f (build it, or drop --no-build)"
done
jit_files="bin/offload-gpu-kernels-bench bin/offload-gpu-jit-bench lib/libOffloadJIT.so"
if [ "$do_jit" = 1 ]; then
  for f in $jit_files; do
    [ -e "$build/$f" ] || die "missing $build/$f (build it, drop --no-build, or --no-jit)"
  done
fi
if [ "$do_corpus" = 1 ]; then
  for f in bin/offload-opt lib/libOffloadMGPU.so; do
    [ -e "$build/$f" ] || die "missing $build/$f (build it, drop --no-build, or --no-corpus)"
  done
fi

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
if [ "$do_jit" = 1 ]; then
  # The JIT and its benchmarks; ldd below adds libMLIR and libLLVM.
  cp "$build/bin/offload-gpu-kernels-bench" "$build/bin/offload-gpu-jit-bench" "$stage/bin/"
  cp -L "$build/lib/libOffloadJIT.so" "$stage/lib/"
  mkdir -p "$stage/kernels"
  cp "$root"/bench/kernels/*.mlir "$stage/kernels/"
  # libdevice, for the kernels' math functions, in case the GPU machine's
  # CUDA has no nvvm/ (found like the JIT finds it).
  for c in "${CUDA_HOME:-}" "${CUDA_PATH:-}" "${CUDA_ROOT:-}" /usr/local/cuda; do
    if [ -n "$c" ] && [ -f "$c/nvvm/libdevice/libdevice.10.bc" ]; then
      mkdir -p "$stage/cuda/nvvm/libdevice"
      cp "$c/nvvm/libdevice/libdevice.10.bc" "$stage/cuda/nvvm/libdevice/"
      break
    fi
  done
fi
if [ "$do_corpus" = 1 ]; then
  cp -L "$build/lib/libOffloadMGPU.so" "$stage/lib/"
fi
# The runner utilities (printMemref*) under their soname. Not
# libmlir_c_runner_utils: it needs libMLIR (100 MiB); the few vector printers
# of it that the corpus calls are in corpus-main.c below.
soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
runner_utils=$(soname "$llvm_lib/libmlir_runner_utils.so")
cp -L "$llvm_lib/libmlir_runner_utils.so" "$stage/lib/$runner_utils"
strip --strip-unneeded "$stage/bin/"* "$stage/lib/"libOffload*.so 2>/dev/null || true

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
/* Helpers that mlir-runner's ROCm wrappers provide (as offload-run does;
   libOffloadMGPU has its own). */
#ifndef OFFLOAD_MGPU
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
#endif
EOF
  "$cc" -c -O2 -fPIC "$work/corpus-main.c" -o "$work/corpus-main.o"
  # The async dialect's runtime (mlirAsyncRuntime*), for async.mlir.
  async_runtime=$(soname "$llvm_lib/libmlir_async_runtime.so")
  cp -L "$llvm_lib/libmlir_async_runtime.so" "$stage/lib/$async_runtime"
  "$cc" -c -O2 -fPIC -DOFFLOAD_MGPU "$work/corpus-main.c" -o "$work/mgpu-main.o"
  for mlir in "$corpus"/*.mlir; do
    name=$(basename "$mlir" .mlir)
    case $name in rocm-*) echo "$name SKIP ROCm file" >> "$manifest"; continue ;; esac
    d=$work/c/$name; mkdir -p "$d"
    if ! "$build/bin/offload-opt" "--offload-lower-to-nvvm=chip=$chip" "$mlir" \
          -o "$d/low.mlir" 2> "$d/opt.err"; then
      echo "$name LOWER-FAIL $(grep -m1 error "$d/opt.err" | cut -c1-200)" >> "$manifest"
      continue
    fi
    # opt -O2 first: it lowers the async dialect's coroutines (llc cannot).
    if ! "$llvm_bin/mlir-translate" --mlir-to-llvmir "$d/low.mlir" -o "$d/low.ll" 2> "$d/err" ||
       ! "$llvm_bin/opt" -O2 "$d/low.ll" -o "$d/low.bc" 2> "$d/err" ||
       ! "$llvm_bin/llc" -O2 -filetype=obj -relocation-model=pic "$d/low.bc" -o "$d/low.o" 2> "$d/err" ||
       ! "$llvm_bin/llvm-objcopy" --redefine-sym main=offload_corpus_main "$d/low.o" 2> "$d/err" ||
       ! "$cc" -o "$stage/corpus/$name" "$d/low.o" "$work/corpus-main.o" \
          -L"$stage/lib" -lOffloadRuntime "$stage/lib/$runner_utils" "$stage/lib/$async_runtime" \
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

# 3b. MGPU: stock upstream lowering (gpu-lower-to-nvvm-pipeline, gpu-to-llvm)
# of the same corpus and of test/MGPU/vecadd.mlir, linked with
# libOffloadMGPU.so, in two image formats: cubin (ptxas here) and PTX (the
# driver compiles it).
mgpu_manifest=$stage/mgpu/MANIFEST
mkdir -p "$stage/mgpu"
: > "$mgpu_manifest"
if [ "$do_corpus" = 1 ] && [ -n "$corpus" ]; then
  step "lowering the MGPU programs for $chip (upstream pipeline)"
  formats=isa
  "$build/bin/offload-opt" --offload-lower-to-nvvm="chip=$chip" "$corpus/gpu-to-cubin.mlir" \
    -o /dev/null 2>&1 | grep -q 'format=bin' && formats="bin isa"
  for mlir in "$corpus"/*.mlir "$root/test/MGPU/vecadd.mlir"; do
    name=$(basename "$mlir" .mlir)
    case $name in rocm-*) continue ;; esac
    for format in $formats; do
      suffix=ptx; [ "$format" = bin ] && suffix=cubin
      exe=$name.$suffix
      d=$work/m/$exe; mkdir -p "$d"
      libs=
      if [ "$name" = async ]; then
        # async.mlir's own RUN line, with the chip and format.
        lower() {
          "$build/bin/offload-opt" "$mlir" -gpu-kernel-outlining |
          "$build/bin/offload-opt" -pass-pipeline="builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm),nvvm-attach-target{chip=$chip features=+ptx80})" |
          "$build/bin/offload-opt" -gpu-async-region -gpu-to-llvm "-gpu-module-to-binary=format=$format" |
          "$build/bin/offload-opt" -async-to-async-runtime -async-runtime-ref-counting |
          "$build/bin/offload-opt" -convert-async-to-llvm -convert-to-llvm -reconcile-unrealized-casts
        }
        libs=$stage/lib/$async_runtime
      else
        lower() {
          "$build/bin/offload-opt" "$mlir" \
            "-gpu-lower-to-nvvm-pipeline=cubin-chip=$chip cubin-features=+ptx80 cubin-format=$format"
        }
      fi
      if ! lower > "$d/low.mlir" 2> "$d/opt.err"; then
        echo "$exe LOWER-FAIL $(grep -m1 error "$d/opt.err" | cut -c1-200)" >> "$mgpu_manifest"
        continue
      fi
      # shellcheck disable=SC2086
      if ! "$llvm_bin/mlir-translate" --mlir-to-llvmir "$d/low.mlir" -o "$d/low.ll" 2> "$d/err" ||
         ! "$llvm_bin/opt" -O2 "$d/low.ll" -o "$d/low.bc" 2> "$d/err" ||
         ! "$llvm_bin/llc" -O2 -filetype=obj -relocation-model=pic "$d/low.bc" -o "$d/low.o" 2> "$d/err" ||
         ! "$llvm_bin/llvm-objcopy" --redefine-sym main=offload_corpus_main "$d/low.o" 2> "$d/err" ||
         ! "$cc" -o "$stage/mgpu/$exe" "$d/low.o" "$work/mgpu-main.o" \
            -L"$stage/lib" -lOffloadMGPU -lOffloadRuntime "$stage/lib/$runner_utils" $libs \
            -Wl,-rpath,'$ORIGIN/../lib' -Wl,--allow-shlib-undefined 2> "$d/err"; then
        echo "$exe BUILD-FAIL $(head -c 200 "$d/err" | tr '\n' ' ')" >> "$mgpu_manifest"
        continue
      fi
      cp "$mlir" "$stage/mgpu/$name.mlir"
      echo "$exe BUILT $chip $suffix" >> "$mgpu_manifest"
    done
  done
  sed 's/^/   /' "$mgpu_manifest"
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
# Libraries that libLLVM needs but the runtime, the JIT and the tools never
# call into: the Z3 solver (the static analyzer's) and libxml2 (Windows
# manifests), which also pulls ICU (libicuuc, 31 MiB of libicudata). Each is
# replaced by a stub of the same soname and exported symbols (and symbol
# versions) whose functions abort with a message, about 16 MiB less in the
# bundle. GPU_BUNDLE_STUB_LIBS="" bundles the real ones.
stub_libs=${GPU_BUNDLE_STUB_LIBS-libz3.so libxml2.so}
make_stub() { # SONAME REAL_PATH
  local so=$1 real=$2 d=$work/stub/$1
  mkdir -p "$d"
  nm -D --defined-only --with-symbol-versions -S "$real" 2>/dev/null |
  awk -v so="$so" -v c="$d/stub.c" -v map="$d/map" '
      BEGIN {
      print "#include <stdio.h>\n#include <stdlib.h>" > c
      print "static void offload_stub(const char *s) {" > c
      print "  fprintf(stderr, \"offload GPU bundle: \" \"" so "\" \" is a stub, \"" > c
      print "          \"%s called (bundle made without it, GPU_BUNDLE_STUB_LIBS)\\n\", s);" > c
      print "  abort();\n}" > c
    }
    {
      if (NF == 4) { size = $2; type = $3; name = $4 } else { size = ""; type = $2; name = $3 }
      ver = ""
      if (index(name, "@@")) { ver = substr(name, index(name, "@@") + 2); name = substr(name, 1, index(name, "@@") - 1) }
      else if (index(name, "@")) next
      if (name !~ /^[A-Za-z_][A-Za-z0-9_]*$/ || seen[name]++) next
      if (type ~ /^[TtWwi]$/) print "void " name "(void) { offload_stub(\"" name "\"); }" > c
      else if (type ~ /^[DdBbRrVGgSsu]$/) {
        n = 0; for (k = 1; k <= length(size); ++k) n = n * 16 + index("0123456789abcdef", tolower(substr(size, k, 1))) - 1
        if (size == "") n = 8; if (n < 1) n = 1
        print "char " name "[" n "] __attribute__((aligned(16)));" > c
      } else next
      if (ver != "") { if (!(ver in nodes)) { order[++nv] = ver; nodes[ver] = "" } nodes[ver] = nodes[ver] " " name ";" }
    }
    END {
      for (i = 1; i <= nv; ++i)
        print order[i] " {" (nodes[order[i]] != "" ? " global:" nodes[order[i]] : "") (i == 1 ? " local: *;" : "") " };" > map
    }'
  local vs=
  [ -s "$d/map" ] && vs="-Wl,--version-script=$d/map"
  # shellcheck disable=SC2086
  "$cc" -shared -fPIC -O1 -o "$stage/lib/$so" "$d/stub.c" -Wl,-soname,"$so" $vs 2> "$d/err" || {
    echo "$prog: cannot make the stub of $so: $(head -c 300 "$d/err")" >&2; exit 1; }
  echo "   $so: stub ($(grep -c '^void\|^char' "$d/stub.c") symbols of $real)"
  echo "$so" >> "$work/stubs"
}
: > "$work/stubs"
if [ -n "$stub_libs" ]; then
  for f in "$llvm_lib"/libLLVM.so; do
    while read -r lib arrow path _; do
      [ "$arrow" = "=>" ] && [ -e "$path" ] || continue
      for s in $stub_libs; do
        case $lib in "$s"*) make_stub "$lib" "$(readlink -f "$path")" ;; esac
      done
    done < <(readelf -d "$(readlink -f "$f")" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
             while read -r n; do ldd "$f" | grep "^[[:space:]]*$n "; done)
  done
fi
changed=1
while [ "$changed" = 1 ]; do
  changed=0
  for f in "$stage"/bin/* "$stage"/corpus/* "$stage"/mgpu/* "$stage"/lib/*.so*; do
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
  [ -s "$work/stubs" ] && echo "stub libraries (abort if called): $(tr '\n' ' ' < "$work/stubs")"
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
