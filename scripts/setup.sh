#!/usr/bin/env bash
# Installs everything the project needs on Debian 12 (bookworm) and builds it.
#
#   scripts/setup.sh [BUILD_DIR]     (default BUILD_DIR: build)
#
# Dependencies come from Debian's packages only: LLVM/MLIR 22, clang-22, lld,
# Ninja, ccache, CMake, GoogleTest and Google Benchmark. Runs apt-get through
# sudo when not root. Environment: OFFLOAD_BUILD_TYPE (default Release),
# OFFLOAD_CMAKE_ARGS (extra CMake arguments, e.g. -DOFFLOAD_SANITIZE=address).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-$root/build}
build_type=${OFFLOAD_BUILD_TYPE:-Release}

packages=(
  cmake ninja-build ccache
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libgtest-dev libbenchmark-dev rocm-device-libs
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
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

# shellcheck disable=SC2086
cmake -S "$root" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="$build_type" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DMLIR_LINK_MLIR_DYLIB=ON \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  ${OFFLOAD_CMAKE_ARGS:-}
cmake --build "$build_dir"
echo "setup: built into $build_dir"
