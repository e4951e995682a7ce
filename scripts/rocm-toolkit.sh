#!/bin/sh
# Makes a ROCm toolkit layout for MLIR's #rocdl.target out of the pieces a
# distribution ships, so that offload-lower-to-rocdl needs no /opt/rocm:
#
#   DIR/amdgcn/bitcode/*.bc   links to the AMD device libraries (ocml, ockl,
#                             ...; Debian: rocm-device-libs)
#   DIR/llvm/bin/ld.lld       link to LLVM's ld.lld (Debian: lld-22), which
#                             links the HSA code objects
#
# Usage: scripts/rocm-toolkit.sh [--quiet] DIR [--lld=PATH] [--bitcode=DIR]
#
# Without --bitcode, the device libraries are searched in $ROCM_DEVICE_LIBS,
# /usr/lib/<multiarch>/amdgcn/bitcode, /usr/lib{64,}/amdgcn/bitcode,
# /usr/share/amdgcn/bitcode and /opt/rocm/amdgcn/bitcode; without --lld,
# ld.lld is /usr/lib/llvm-22/bin/ld.lld, ld.lld-22 or ld.lld from PATH. What
# is not found is left out (a layout without device libraries still links
# kernels that call no math functions). The build runs this for
# build/share/offload/rocm-toolkit (installed as <prefix>/share/offload/
# rocm-toolkit); it is idempotent and cheap.
set -eu

quiet=0
dir=
lld=
bitcode=
for arg in "$@"; do
  case "$arg" in
    --quiet) quiet=1 ;;
    --lld=*) lld=${arg#--lld=} ;;
    --bitcode=*) bitcode=${arg#--bitcode=} ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "rocm-toolkit.sh: unknown option $arg" >&2; exit 2 ;;
    *) dir=$arg ;;
  esac
done
if [ -z "$dir" ]; then
  echo "usage: rocm-toolkit.sh [--quiet] DIR [--lld=PATH] [--bitcode=DIR]" >&2
  exit 2
fi

say() { [ "$quiet" = 1 ] || echo "rocm-toolkit.sh: $*"; }

if [ -z "$bitcode" ]; then
  multiarch=$( (dpkg-architecture -qDEB_HOST_MULTIARCH || gcc -print-multiarch) 2>/dev/null || true)
  for candidate in ${ROCM_DEVICE_LIBS:-} \
      ${multiarch:+/usr/lib/$multiarch/amdgcn/bitcode} \
      /usr/lib64/amdgcn/bitcode /usr/lib/amdgcn/bitcode \
      /usr/share/amdgcn/bitcode /opt/rocm/amdgcn/bitcode; do
    if [ -f "$candidate/ocml.bc" ]; then
      bitcode=$candidate
      break
    fi
  done
fi
if [ -z "$lld" ] || [ ! -x "$lld" ]; then
  lld=
  for candidate in /usr/lib/llvm-22/bin/ld.lld "$(command -v ld.lld-22 || true)" \
      "$(command -v ld.lld || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      lld=$candidate
      break
    fi
  done
fi

mkdir -p "$dir/amdgcn/bitcode" "$dir/llvm/bin"
# Drop links whose target went away (a package was removed).
for link in "$dir"/amdgcn/bitcode/*.bc "$dir/llvm/bin/ld.lld"; do
  if [ -L "$link" ] && [ ! -e "$link" ]; then
    rm -f "$link"
  fi
done
if [ -n "$bitcode" ]; then
  for file in "$bitcode"/*.bc; do
    [ -f "$file" ] || continue
    ln -sfn "$file" "$dir/amdgcn/bitcode/$(basename "$file")"
  done
  say "device libraries from $bitcode"
else
  say "no AMD device libraries found (Debian: apt-get install rocm-device-libs)"
fi
if [ -n "$lld" ]; then
  ln -sfn "$lld" "$dir/llvm/bin/ld.lld"
  say "ld.lld is $lld"
else
  say "no ld.lld found (Debian: apt-get install lld-22)"
fi
