#!/usr/bin/env bash
# Tests the install tree: installs an existing build into a temporary prefix
# (cmake --install; nothing is rebuilt), puts the build tree and the source
# tree out of reach, and from the prefix alone
#   - builds the programs of test/Install against find_package(Offload)
#     (CMake) and offload-jit.pc (pkg-config) and runs them: an mlir-opt
#     that lowers examples/saxpy.mlir (run by mlir-runner on the installed
#     runtime), a C program on the runtime and the JIT, a C program on the
#     dialect's C API and MLIR's ExecutionEngine; each checks values;
#   - runs the installed tools (offload-run examples/saxpy.mlir, also with
#     --jit; offload-opt's ROCm toolkit; offload-device-info; offload-cache)
#     and the installed Python package.
# ctest runs it as install-tree (test/CMakeLists.txt).
#
#   scripts/test-install.sh [BUILD_DIR]              (default BUILD_DIR: build)
#   scripts/test-install.sh --subproject [BUILD_DIR]
#
# --subproject instead builds test/Install with offload itself as an
# add_subdirectory() (a full build of the libraries: minutes; not in ctest).
#
# "Out of reach": the rest runs in a private mount namespace (unshare) where
# empty file systems cover BUILD_DIR and the source tree, so anything that
# still refers to them fails. Without unshare it checks instead that no
# installed file names either directory. Either way no installed file may
# name them. Exit status: 0 passed, 1 failed, 77 skipped (a sanitized or
# fuzzing build, whose libraries need the sanitizer runtime).
#
# Environment: OFFLOAD_TEST_INSTALL_DIR (work directory, default
# $TMPDIR/offload-test-install-<hash of BUILD_DIR>; kept for inspection and
# so that ccache hits on the next run), OFFLOAD_TEST_INSTALL_JOBS (default 2),
# OFFLOAD_TEST_INSTALL_HIDE=0 (do not hide the trees, only check the files).
set -uo pipefail

mode=install
if [ "${1:-}" = "--subproject" ]; then
  mode=subproject
  shift
fi
if [ "${1:-}" = "--consumers" ]; then
  # Internal: the second half, run from the work directory's copy of this
  # script inside the mount namespace.
  mode=consumers
  shift
fi

# ---------------------------------------------------------------------------
# The second half: everything here uses the prefix and the copies in $work.
# ---------------------------------------------------------------------------
if [ "$mode" = consumers ]; then
  work=$1
  # shellcheck disable=SC1091
  . "$work/env.sh"
  prefix=$work/prefix
  src=$work/src
  failed=0
  pass() { echo "test-install: PASS: $*"; }
  fail() { echo "test-install: FAIL: $*"; failed=1; }
  cd "$work" || exit 1

  # Nothing installed names the build or source tree (binaries and archives
  # without their debug information, whose file names are for debuggers).
  leaks=
  while IFS= read -r -d '' file; do
    scan=$file
    magic=$(head -c 7 "$file" | od -An -c | tr -d ' ')
    case "$magic" in 177ELF*|"!<arch>") binary=1 ;; *) binary=0 ;; esac
    if [ "$binary" = 1 ] && objcopy --strip-debug "$file" "$work/stripped" 2> /dev/null; then
      scan=$work/stripped
    fi
    if grep -qF -e "$build_dir" -e "$source_dir" "$scan"; then
      leaks="$leaks ${file#"$prefix"/}"
    fi
  done < <(find "$prefix" -type f -print0)
  rm -f "$work/stripped"
  if [ -n "$leaks" ]; then
    fail "installed files name the build or source tree:$leaks"
  else
    pass "no installed file names $build_dir or $source_dir"
  fi

  # The consumers, with CMake.
  rm -rf "$work/consumers"
  if cmake -S "$src/Install" -B "$work/consumers" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER="$c_compiler" -DCMAKE_CXX_COMPILER="$cxx_compiler" \
      ${launcher:+-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} \
      -DCMAKE_PREFIX_PATH="$prefix" -DMLIR_DIR="$mlir_dir" \
      > "$work/consumers-configure.log" 2>&1 &&
    cmake --build "$work/consumers" -j "$jobs" > "$work/consumers-build.log" 2>&1; then
    pass "find_package(Offload): offload-embed-opt, jit-saxpy, capi-saxpy, jit-module built"
  else
    fail "configuring or building test/Install against the prefix:"
    tail -n 30 "$work/consumers-configure.log" "$work/consumers-build.log"
  fi
  bin=$work/consumers

  # (a) An mlir-opt of its own lowers saxpy; mlir-runner runs it on the
  # installed runtime.
  if [ -x "$bin/offload-embed-opt" ]; then
    specialized=$("$bin/offload-embed-opt" "$src/saxpy.mlir" -offload-specialize 2>&1 | grep -c "gpu.func @saxpy_spec_")
    if [ "$specialized" = 1 ]; then
      pass "offload-embed-opt -offload-specialize: one specialized clone of saxpy"
    else
      fail "offload-embed-opt -offload-specialize: $specialized clones of saxpy, expected 1"
    fi
    if "$bin/offload-embed-opt" "$src/saxpy.mlir" -embed-specialize-and-lower \
        -o "$work/saxpy-lowered.mlir" 2> "$work/embed-opt.log" &&
      "$llvm_root/bin/mlir-runner" "$work/saxpy-lowered.mlir" -e main \
        --entry-point-result=void \
        --shared-libs="$prefix/lib/libOffloadRuntime.so,$llvm_root/lib/libmlir_runner_utils.so,$llvm_root/lib/libmlir_c_runner_utils.so" \
        > "$work/embed-run.out" 2>&1 &&
      grep -qF "[1,  3,  5,  7,  9,  11,  13,  15]" "$work/embed-run.out" &&
      grep -qx "checksum: 1e+08" "$work/embed-run.out"; then
      pass "offload-embed-opt -embed-specialize-and-lower | mlir-runner: saxpy's values and checksum"
    else
      fail "offload-embed-opt | mlir-runner on saxpy.mlir:"
      cat "$work/embed-opt.log" "$work/embed-run.out" 2>/dev/null | tail -20
    fi
  fi

  # (b) The runtime and the JIT from C, with CMake and with pkg-config.
  rm -rf "$work/cache"
  if [ -x "$bin/jit-saxpy" ]; then
    if out=$(OFFLOAD_CACHE_DIR=$work/cache "$bin/jit-saxpy" 2>&1); then
      pass "$out"
    else
      fail "jit-saxpy (CMake): $out"
    fi
  fi
  if command -v pkg-config > /dev/null; then
    export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
    if flags=$(pkg-config --cflags --libs offload-jit) &&
      libdir=$(pkg-config --variable=libdir offload-runtime) &&
      # shellcheck disable=SC2086
      "$c_compiler" -std=c99 -Wall -Werror "$src/Install/jit-saxpy.c" $flags \
        -Wl,-rpath,"$libdir" -o "$work/jit-saxpy-pc" > "$work/pkg-config.log" 2>&1 &&
      out=$(OFFLOAD_CACHE_DIR=$work/cache "$work/jit-saxpy-pc" 2>&1); then
      pass "pkg-config offload-jit ($(pkg-config --modversion offload-jit)): $out"
    else
      fail "jit-saxpy (pkg-config): ${out:-}"
      cat "$work/pkg-config.log"
    fi
  else
    echo "test-install: SKIP: pkg-config not found (Debian: pkgconf)"
  fi

  # (b') The JIT from C++, on an mlir::ModuleOp the program holds.
  if [ -x "$bin/jit-module" ]; then
    if out=$(OFFLOAD_CACHE_DIR=$work/cache "$bin/jit-module" 2>&1); then
      pass "$out"
    else
      fail "jit-module: $out"
    fi
  else
    fail "jit-module was not built"
  fi

  # (c) The dialect through MLIR's C API.
  if [ -x "$bin/capi-saxpy" ]; then
    if out=$(OFFLOAD_CACHE_DIR=$work/cache "$bin/capi-saxpy" 2>&1); then
      pass "$out"
    else
      fail "capi-saxpy: $out"
    fi
  fi

  # The installed tools.
  if "$prefix/bin/offload-run" "$src/saxpy.mlir" > "$work/run.out" 2>&1 &&
    grep -qF "[1,  3,  5,  7,  9,  11,  13,  15]" "$work/run.out" &&
    grep -qx "checksum: 1e+08" "$work/run.out"; then
    pass "installed offload-run examples/saxpy.mlir: values and checksum"
  else
    fail "installed offload-run examples/saxpy.mlir:"
    cat "$work/run.out"
  fi
  if OFFLOAD_CACHE_DIR=$work/cache "$prefix/bin/offload-run" --jit "$src/saxpy.mlir" > "$work/run-jit.out" 2>&1 &&
    grep -qx "checksum: 1e+08" "$work/run-jit.out"; then
    pass "installed offload-run --jit examples/saxpy.mlir: checksum"
  else
    fail "installed offload-run --jit examples/saxpy.mlir:"
    cat "$work/run-jit.out"
  fi
  if entries=$(OFFLOAD_CACHE_DIR=$work/cache "$prefix/bin/offload-cache" stats 2>&1) &&
    echo "$entries" | grep -qiE "entries[^0-9]*[1-9]"; then
    pass "installed offload-cache stats: $(echo "$entries" | grep -iE "entries" | head -1)"
  else
    fail "installed offload-cache stats: $entries"
  fi
  if "$prefix/bin/offload-device-info" 2>&1 | grep -q "^Num Devices: [1-9]"; then
    pass "installed offload-device-info lists the host device"
  else
    fail "installed offload-device-info"
  fi
  toolkit=$prefix/share/offload/rocm-toolkit
  if [ -x "$toolkit/llvm/bin/ld.lld" ]; then
    remark=$("$prefix/bin/offload-opt" "$src/saxpy.mlir" -offload-lower-to-rocdl -o /dev/null 2>&1 | grep -o "toolkit [^ ]*" | head -1)
    if [ "$remark" = "toolkit $(cd "$toolkit" && pwd -P)" ]; then
      pass "installed offload-opt -offload-lower-to-rocdl uses $remark"
    else
      fail "installed offload-opt -offload-lower-to-rocdl: '$remark', expected toolkit $toolkit"
    fi
  fi

  # The installed Python package.
  if [ -n "$python" ] && [ -d "$prefix/$python_dir/offload" ]; then
    if out=$(PYTHONPATH=$prefix/$python_dir OFFLOAD_CACHE_DIR=$work/cache "$python" - "$prefix" 2>&1 <<'EOF'
import os, sys
import numpy as np
import offload
prefix = os.path.realpath(sys.argv[1])
assert os.path.realpath(offload.__file__).startswith(prefix + os.sep), offload.__file__
mod = offload.compile("""
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %k = offload.runtime_constant %s : f32
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %k : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}""", device=offload.host_device())
x = offload.asarray(np.arange(64, dtype=np.float32), device=offload.host_device())
mod.kernel("scale")(x, 3.0, grid=1, block=64)
assert np.array_equal(x.numpy(), 3.0 * np.arange(64, dtype=np.float32)), x.numpy()
# Typed (PEP 561); the extension's stub is made in unsanitized builds.
assert os.path.isfile(os.path.join(os.path.dirname(offload.__file__), "py.typed"))
print("python: offload from", os.path.dirname(offload.__file__), "scaled 64 values")
EOF
    ); then
      pass "$out"
    else
      fail "installed Python package: $out"
    fi
  fi
  exit "$failed"
fi

# ---------------------------------------------------------------------------
# The first half, in the build: install, copy what the second half needs.
# ---------------------------------------------------------------------------
root=$(cd "$(dirname "$0")/.." && pwd -P)
build_dir=$(cd "${1:-$root/build}" 2>/dev/null && pwd -P) || {
  echo "test-install: no build directory ${1:-$root/build}" >&2
  exit 2
}
cache=$build_dir/CMakeCache.txt
[ -f "$cache" ] || { echo "test-install: $build_dir is not a CMake build" >&2; exit 2; }
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -1; }

if [ -n "$(cache_value OFFLOAD_SANITIZE)" ] || [ "$(cache_value OFFLOAD_FUZZERS)" = ON ]; then
  echo "test-install: SKIP: a sanitized or fuzzing build (its libraries need the sanitizer runtime)"
  exit 77
fi

jobs=${OFFLOAD_TEST_INSTALL_JOBS:-2}
work=${OFFLOAD_TEST_INSTALL_DIR:-${TMPDIR:-/tmp}/offload-test-install-$(echo "$build_dir" | cksum | cut -d' ' -f1)}
case "$work/" in
  "$build_dir"/*|"$root"/*)
    echo "test-install: the work directory $work must lie outside $build_dir and $root" >&2
    exit 2 ;;
esac
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd -P)
exec 9> "$work/.lock"
if ! flock -n 9; then
  echo "test-install: another run uses $work" >&2
  exit 2
fi

c_compiler=$(cache_value CMAKE_C_COMPILER)
cxx_compiler=$(cache_value CMAKE_CXX_COMPILER)
launcher=$(cache_value CCACHE_PROGRAM)
case "$launcher" in *NOTFOUND) launcher= ;; esac
mlir_dir=$(cache_value MLIR_DIR)
llvm_root=$(cd "$mlir_dir/../../.." && pwd -P)

if [ "$mode" = subproject ]; then
  rm -rf "$work/subproject"
  echo "test-install: building test/Install with offload as add_subdirectory() in $work/subproject"
  cmake -S "$root/test/Install" -B "$work/subproject" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$c_compiler" -DCMAKE_CXX_COMPILER="$cxx_compiler" \
    ${launcher:+-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} \
    -DMLIR_DIR="$mlir_dir" -DOFFLOAD_CONSUMER_SUBPROJECT="$root" \
    > "$work/subproject-configure.log" 2>&1 || {
    tail -30 "$work/subproject-configure.log"
    echo "test-install: FAIL: configuring the add_subdirectory() build"
    exit 1
  }
  cmake --build "$work/subproject" -j "$jobs" > "$work/subproject-build.log" 2>&1 || {
    tail -30 "$work/subproject-build.log"
    echo "test-install: FAIL: building the add_subdirectory() build"
    exit 1
  }
  status=0
  out=$(OFFLOAD_CACHE_DIR=$work/cache-subproject "$work/subproject/jit-saxpy" 2>&1) || status=1
  echo "$out"
  out=$("$work/subproject/capi-saxpy" 2>&1) || status=1
  echo "$out"
  out=$(OFFLOAD_CACHE_DIR=$work/cache-subproject "$work/subproject/jit-module" 2>&1) || status=1
  echo "$out"
  "$work/subproject/offload-embed-opt" "$root/examples/saxpy.mlir" -embed-specialize-and-lower -o /dev/null || status=1
  [ "$status" = 0 ] && echo "test-install: subproject: all passed" || echo "test-install: subproject: FAILED"
  exit "$status"
fi

start=$(date +%s)
rm -rf "$work/prefix" "$work/src"
if ! cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log" 2>&1; then
  tail -20 "$work/install.log"
  echo "test-install: FAIL: cmake --install $build_dir"
  exit 1
fi
echo "test-install: installed $build_dir into $work/prefix ($(du -sh "$work/prefix" | cut -f1))"
mkdir -p "$work/src/Install"
cp "$root"/test/Install/*.c "$root"/test/Install/*.cpp "$root"/test/Install/CMakeLists.txt "$work/src/Install/"
cp "$root/examples/saxpy.mlir" "$work/src/"
cp "$0" "$work/test-install.sh"

python=$(cache_value Python3_EXECUTABLE)
[ -n "$python" ] || python=$(cache_value _Python_EXECUTABLE)
python_dir=$(cache_value OFFLOAD_INSTALL_PYTHON_DIR)
if [ -n "$python" ] && [ ! -x "$python" ]; then
  python=
fi
# The interpreter (a virtual environment in the source tree, with NumPy) is
# reached through a bind mount at $work/venv when the tree is hidden.
venv=
case "$python" in
  "$root"/*/bin/python*)
    venv=${python%/bin/python*}
    ;;
esac
{
  printf 'build_dir=%q\nsource_dir=%q\n' "$build_dir" "$root"
  printf 'c_compiler=%q\ncxx_compiler=%q\nlauncher=%q\n' "$c_compiler" "$cxx_compiler" "$launcher"
  printf 'mlir_dir=%q\nllvm_root=%q\njobs=%q\n' "$mlir_dir" "$llvm_root" "$jobs"
  printf 'python_dir=%q\n' "$python_dir"
} > "$work/env.sh"

status=0
mkdir -p "$work/probe"
if [ "${OFFLOAD_TEST_INSTALL_HIDE:-1}" != 0 ] &&
  unshare -m --map-root-user sh -c 'mount -t tmpfs -o size=1m offload-probe "$1"' probe "$work/probe" 2> /dev/null; then
  echo "test-install: hiding $build_dir and $root (private mount namespace)"
  if [ -n "$venv" ]; then
    mkdir -p "$work/venv"
    printf 'python=%q\n' "$work/venv/${python#"$venv"/}" >> "$work/env.sh"
  else
    printf 'python=%q\n' "$python" >> "$work/env.sh"
  fi
  # shellcheck disable=SC2016
  unshare -m --map-root-user bash -c '
    set -e
    work=$1 build_dir=$2 root=$3 venv=$4
    if [ -n "$venv" ]; then mount --bind "$venv" "$work/venv"; fi
    mount -t tmpfs -o size=1m offload-hidden "$build_dir"
    mount -t tmpfs -o size=1m offload-hidden "$root"
    exec bash "$work/test-install.sh" --consumers "$work"
  ' test-install "$work" "$build_dir" "$root" "$venv" || status=1
else
  echo "test-install: no private mount namespace (unshare -m --map-root-user): the build and source trees stay in place (the installed files are checked not to name them)"
  printf 'python=%q\n' "$python" >> "$work/env.sh"
  bash "$work/test-install.sh" --consumers "$work" || status=1
fi
echo "test-install: $(( $(date +%s) - start )) s"
if [ "$status" -ne 0 ]; then
  echo "test-install: FAILED (logs in $work)"
else
  echo "test-install: all passed"
fi
exit "$status"
