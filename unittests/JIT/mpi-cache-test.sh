#!/usr/bin/env bash
# ctest JITMPICache / JITMPICacheEnvironment: 4 MPI ranks on one cache
# directory with OFFLOAD_JIT_CACHE_MPI=1 compile each of the 6
# specializations of offload-jit-mpi-rank once in total; every other rank
# reads it from the disk cache (a disk hit); every rank's values are right.
#
#   mpi-cache-test.sh RANK_PROGRAM CACHE_DIR [--mpi]
#
# --mpi: the ranks initialize MPI (the JIT asks MPI for the rank), else the
# JIT reads Open MPI's launcher's environment. Exit status 77 (skipped) when
# mpirun is missing (Debian: openmpi-bin libopenmpi-dev).
set -uo pipefail
program=$1 cache=$2 mode=${3:-}
ranks=4 specializations=6
if ! command -v mpirun > /dev/null; then
  echo "mpi-cache-test: SKIP: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
  exit 77
fi
rm -rf "$cache" "$cache.stderr"
# Open MPI refuses to run as root without these (containers, CI).
out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  OFFLOAD_CACHE_DIR=$cache OFFLOAD_JIT_CACHE_MPI=1 OFFLOAD_JIT_STATS=1 \
  timeout 300 mpirun -np $ranks --oversubscribe --bind-to none \
  -x OFFLOAD_CACHE_DIR -x OFFLOAD_JIT_CACHE_MPI -x OFFLOAD_JIT_STATS \
  "$program" $mode 2> "$cache.stderr")
status=$?
# Each rank's stdout line and its stderr lines (the JIT's counters) apart:
# merged, lines of different ranks could interleave.
err=$(cat "$cache.stderr")
echo "$out"
echo "$err"
[ $status -eq 0 ] || { echo "mpi-cache-test: FAIL: mpirun exited with $status"; exit 1; }
failed=0
lines=$(echo "$out" | grep -c "^rank [0-9]* of $ranks .* ok$")
[ "$lines" = $ranks ] || { echo "mpi-cache-test: FAIL: $lines of $ranks ranks report right values"; failed=1; }
sum() { echo "$out" | grep "^rank " | sed -n "s/.* $1=\([0-9]*\).*/\1/p" | awk '{s += $1} END {print s + 0}'; }
compiles=$(sum compiles) hits=$(sum disk-hits) launches=$(sum launches)
expected_hits=$(( (ranks - 1) * specializations ))
[ "$compiles" = $specializations ] || { echo "mpi-cache-test: FAIL: $compiles compiles in total, expected $specializations (one per specialization)"; failed=1; }
[ "$hits" = $expected_hits ] || { echo "mpi-cache-test: FAIL: $hits disk hits in total, expected $expected_hits"; failed=1; }
[ "$launches" = $(( ranks * specializations * 2 )) ] || { echo "mpi-cache-test: FAIL: $launches launches"; failed=1; }
source=environment
[ "$mode" = --mpi ] && source=MPI
mpi_lines=$(echo "$err" | grep -c "^offload-jit mpi: rank [0-9]* of $ranks (from $source)")
[ "$mpi_lines" = $ranks ] || { echo "mpi-cache-test: FAIL: $mpi_lines of $ranks ranks took their rank from $source"; failed=1; }
[ $failed = 0 ] && echo "mpi-cache-test: PASS: $ranks ranks, $compiles compiles, $hits disk hits (ranks from $source)"
exit $failed
