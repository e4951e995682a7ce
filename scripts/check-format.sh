#!/usr/bin/env bash
# Checks C and C++ formatting (LLVM style, the checkout's .clang-format) with
# clang-format-22, which scripts/setup.sh installs.
#
#   scripts/check-format.sh            every tracked C/C++ file (CI runs this)
#   scripts/check-format.sh BASE       only the lines changed since commit BASE
#                                      (git clang-format), e.g. main or HEAD~1
#   scripts/check-format.sh --fix [BASE]   rewrite instead of checking
#
# Exit status 1, with the diff that would fix it, when something is not
# formatted. Generated files kept in the tree (the runtime's public header)
# are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format-22}
command -v "$clang_format" >/dev/null || {
  echo "check-format: $clang_format not found (scripts/setup.sh installs clang-format-22)" >&2
  exit 2
}
fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
base=${1:-}
generated='^include/(OffloadRuntime/OffloadAPI|OffloadJIT/OffloadJIT)\.h$'
if [ -n "$base" ]; then
  git_clang_format=${GIT_CLANG_FORMAT:-git-clang-format-22}
  if [ $fix = 1 ]; then
    "$git_clang_format" --force --binary "$clang_format" "$base"
    exit 0
  fi
  out=$("$git_clang_format" --binary "$clang_format" --diff "$base" -- \
        $(git diff --name-only "$base" -- '*.c' '*.cpp' '*.h' | grep -Ev "$generated" || true) || true)
  if [ -z "$out" ] || [ "$out" = "no modified files to format" ] ||
     [ "$out" = "clang-format did not modify any files" ]; then
    echo "check-format: lines changed since $base are formatted"
    exit 0
  fi
  echo "$out"
  echo "check-format: lines changed since $base are not formatted (scripts/check-format.sh --fix $base)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' | grep -Ev "$generated")
if [ $fix = 1 ]; then
  "$clang_format" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if [ ${#bad[@]} -gt 0 ]; then
  for f in "${bad[@]}"; do
    diff -u "$f" <("$clang_format" "$f") --label "$f" --label "$f (formatted)" || true
  done
  echo "check-format: ${#bad[@]} file(s) not formatted: ${bad[*]} (scripts/check-format.sh --fix)" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
