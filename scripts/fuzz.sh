#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (a build configured with
# -DOFFLOAD_FUZZERS=ON; docs/Fuzzing.md).
#
#   scripts/fuzz.sh [options] [FUZZER...]
#
# FUZZER: host-image, disk-cache, mlir-pipeline, runtime-calls (default:
# all, one after the other). Options:
#   --build DIR     the build (default: build-fuzz, else build-asan)
#   --time SECONDS  how long each fuzzer runs (default 600)
#   --jobs N        parallel fuzzing processes per fuzzer (default 1)
#   --corpus DIR    corpus root; each fuzzer uses and grows DIR/FUZZER,
#                   seeded by offload-fuzz-seeds when empty (default:
#                   BUILD/fuzz/corpus)
#   --artifacts DIR where crashing inputs go (default: BUILD/fuzz/artifacts)
#   --seeds-only    (re)write the seeds, run nothing
#   --help          this text
#   -- ARGS         passed to every fuzzer (libFuzzer flags, e.g. -runs=N)
# Exits 1 if any fuzzer finds a crash, leak, sanitizer report or timeout,
# naming the fuzzer and the artifact to reproduce it with:
#   BUILD/bin/offload-fuzz-FUZZER ARTIFACT
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
all=(host-image disk-cache mlir-pipeline runtime-calls)
build= time=600 jobs=1 corpus= artifacts= seeds_only=0 fuzzers=() extra=()

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --time) time=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --artifacts) artifacts=$2; shift 2 ;;
    --seeds-only) seeds_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "fuzz: unknown option $1 (see --help)" >&2; exit 2 ;;
    *)
      case " ${all[*]} " in
        *" $1 "*) fuzzers+=("$1") ;;
        *) echo "fuzz: unknown fuzzer '$1' (one of: ${all[*]})" >&2; exit 2 ;;
      esac
      shift ;;
  esac
done
# Builds without OFFLOAD_FUZZERS have the targets too, as replayers of saved
# inputs (fuzz/ReplayMain.cpp): they can write seeds, not fuzz.
is_fuzzer_build() { grep -q '^OFFLOAD_FUZZERS:BOOL=ON$' "$1/CMakeCache.txt" 2>/dev/null; }
if [ -z "$build" ]; then
  for b in "$root/build-fuzz" "$root/build-asan"; do
    [ -x "$b/bin/offload-fuzz-seeds" ] && is_fuzzer_build "$b" && { build=$b; break; }
  done
fi
if [ -z "$build" ] || [ ! -x "$build/bin/offload-fuzz-seeds" ]; then
  echo "fuzz: no fuzzers built${build:+ in $build}; configure with" \
       "-DOFFLOAD_FUZZERS=ON and build the offload-fuzzers target" >&2
  exit 2
fi
if [ "$seeds_only" = 0 ] && ! is_fuzzer_build "$build"; then
  echo "fuzz: $build is not a fuzzer build (OFFLOAD_FUZZERS=OFF): its" \
       "offload-fuzz-* only replay inputs ($build/bin/offload-fuzz-TARGET" \
       "PATH...; ctest -L fuzz-replay)" >&2
  exit 2
fi
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=("${all[@]}")
build=$(cd "$build" && pwd)
corpus=${corpus:-$build/fuzz/corpus}
artifacts=${artifacts:-$build/fuzz/artifacts}
mkdir -p "$corpus" "$artifacts"
corpus=$(cd "$corpus" && pwd)
artifacts=$(cd "$artifacts" && pwd)

# The sanitizers' run-time options of the build (CMakeLists.txt explains
# them: false reports across the uninstrumented libLLVM.so / libMLIR.so are
# off, UBSan reports abort so that libFuzzer records them).
if [ -f "$build/sanitizer-env.sh" ]; then
  # shellcheck disable=SC1091
  . "$build/sanitizer-env.sh"
fi

if [ "$seeds_only" = 1 ] || [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
  "$build/bin/offload-fuzz-seeds" "$root" "$corpus" || exit 1
fi
[ "$seeds_only" = 1 ] && exit 0

status=0
for f in "${fuzzers[@]}"; do
  bin=$build/bin/offload-fuzz-$f
  [ -x "$bin" ] || { echo "fuzz: $bin is not built" >&2; status=1; continue; }
  mkdir -p "$corpus/$f"
  args=(-max_total_time="$time" -timeout=60 -rss_limit_mb=6144 -print_funcs=0
        -print_final_stats=1 -artifact_prefix="$artifacts/$f-")
  if [ "$jobs" -gt 1 ]; then
    args+=(-jobs="$jobs" -workers="$jobs")
  fi
  echo "== fuzz $f: ${time}s, $jobs job(s), corpus $corpus/$f"
  start=$(date +%s)
  (cd "$artifacts" && "$bin" "${args[@]}" "${extra[@]}" "$corpus/$f")
  rc=$?
  echo "== fuzz $f: exit $rc after $(( $(date +%s) - start ))s," \
       "$(ls "$corpus/$f" | wc -l) corpus entries"
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $f FAILED; reproduce with: $bin $(ls -t "$artifacts"/"$f"-* 2>/dev/null | head -1)" >&2
    status=1
  fi
done
exit "$status"
