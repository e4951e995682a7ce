#!/usr/bin/env bash
# Installs everything the project needs on Debian 12 (bookworm) and builds it.
#
#   scripts/setup.sh [BUILD_DIR]     (default BUILD_DIR: build)
#
# Dependencies come from Debian's packages (LLVM/MLIR 22, clang-22 with its
# sanitizer and libFuzzer runtimes (libclang-rt-22-dev), lld,
# Ninja, ccache, CMake, clang-format-22 (scripts/check-format.sh), GoogleTest, Google Benchmark, Boost.Context for the
# host device's fibers, LLVM's OpenMP runtime for a benchmark baseline,
# ROCm's device libraries and HIP 5.2 runtime (libamdhip64-5: the HIP plugin's
# tests load it; without an AMD GPU it finds no device), Python 3 headers and
# venv, pkgconf for the install test, Open MPI for the JIT's MPI cache test:
# the JIT loads libmpi.so.40 at run time and nothing links it) and, for the
# Python package, PyPI
# (nanobind, numpy, pytest, into the virtual environment .venv at the
# checkout's root). Runs apt-get through sudo when not root.
#
# Not every Debian 12 apt source carries LLVM 22: the llvm-22, mlir-22,
# clang-22 and lld-22 packages come from an apt source that provides LLVM 22
# for bookworm (README.md, "Dependencies"). When no configured source
# provides a package, this names the missing packages and stops before
# apt-get install.
#
# Environment: OFFLOAD_BUILD_TYPE (default Release), OFFLOAD_CMAKE_ARGS
# (extra CMake arguments, e.g. -DOFFLOAD_SANITIZE=address or
# -DOFFLOAD_ENABLE_PYTHON=OFF), OFFLOAD_PYTHON (the interpreter the venv is
# made from, default python3).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-$root/build}
build_type=${OFFLOAD_BUILD_TYPE:-Release}

packages=(
  cmake ninja-build ccache clang-format-22
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libclang-rt-22-dev
  libgtest-dev libbenchmark-dev libboost-context-dev libomp-22-dev
  liboffload-22-dev
  rocm-device-libs libamdhip64-5
  python3-dev python3-venv
  pkgconf
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install packages" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq || {
    echo "setup: apt-get update failed (see above); the packages to install are: ${missing[*]}" >&2
    exit 1
  }
  # Packages no configured apt source provides: name them instead of letting
  # apt-get install fail on the first one.
  unavailable=()
  for p in "${missing[@]}"; do
    candidate=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
      unavailable+=("$p")
    fi
  done
  if [ "${#unavailable[@]}" -gt 0 ]; then
    echo "setup: no configured apt source provides: ${unavailable[*]}" >&2
    case " ${unavailable[*]}" in
      *-22*)
        echo "setup: LLVM/MLIR 22 (llvm-22-dev, libmlir-22-dev, mlir-22-tools, clang-22, lld-22, ...)" \
          "come from an apt source that provides LLVM 22 for bookworm: add one," \
          "such as LLVM's own apt repository (its llvm-toolchain-bookworm-22 suite), then rerun" \
          "(README.md, \"Dependencies\")" >&2 ;;
    esac
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" || {
    echo "setup: apt-get install failed (see above) for: ${missing[*]}" >&2
    exit 1
  }
fi

# The Python package's build and test dependencies, in the project's venv.
venv=$root/.venv
if [ ! -x "$venv/bin/python" ]; then
  "${OFFLOAD_PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  nanobind numpy pytest setuptools wheel

# shellcheck disable=SC2086
cmake -S "$root" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="$build_type" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DMLIR_LINK_MLIR_DYLIB=ON \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  -DPython3_EXECUTABLE="$venv/bin/python" \
  ${OFFLOAD_CMAKE_ARGS:-}
cmake --build "$build_dir"
# Absolute: pip builds the package from python/, not from here.
build_dir=$(cd "$build_dir" && pwd)
# Install the `offload` package (the extension just built) into the venv.
if ls "$build_dir"/python/offload/_offload*.so >/dev/null 2>&1; then
  OFFLOAD_BUILD_DIR=$build_dir "$venv/bin/python" -m pip install -q \
    --disable-pip-version-check --no-build-isolation --force-reinstall \
    --no-deps "$root/python"
fi
echo "setup: built into $build_dir"
