//===- JIT.cpp - The JIT's module-level functions -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

using namespace nb::literals;

namespace offloadpy {

static nb::dict jitStats() {
  offload_jit_stats_t S{};
  check(offloadJITGetStats(&S));
  nb::dict D;
  D["launches"] = S.Launches;
  D["compiles"] = S.Compiles;
  D["memory_hits"] = S.MemoryHits;
  D["disk_hits"] = S.DiskHits;
  D["disk_writes"] = S.DiskWrites;
  D["corrupt_entries"] = S.CorruptEntries;
  D["generic_launches"] = S.GenericLaunches;
  D["async_compiles"] = S.AsyncCompiles;
  D["compile_ms"] = S.CompileMilliseconds;
  D["auto_variants"] = S.AutoVariants;
  D["auto_launches"] = S.AutoLaunches;
  D["auto_guard_misses"] = S.AutoGuardMisses;
  D["auto_profile_loads"] = S.AutoProfileLoads;
  D["auto_bound_reached"] = S.AutoBoundReached;
  D["measured_launches"] = S.MeasuredLaunches;
  D["measured_faster"] = S.MeasuredFaster;
  D["measured_slower"] = S.MeasuredSlower;
  D["verdict_loads"] = S.VerdictLoads;
  return D;
}

void bindJIT(nb::module_ &m) {
  m.def("jit_stats", &jitStats,
        "jit_stats() -> dict\n\nThis process's JIT counters: launches, "
        "compiles, memory_hits, disk_hits, disk_writes, corrupt_entries, "
        "generic_launches, async_compiles (counts), compile_ms "
        "(milliseconds spent compiling) and, for automatic specialization "
        "(set_jit_auto), auto_variants, auto_launches, auto_guard_misses, "
        "auto_profile_loads, auto_bound_reached and, for measurement "
        "against the generic kernel (OFFLOAD_JIT_MEASURE=1), "
        "measured_launches, measured_faster, measured_slower, verdict_loads "
        "(counts).");
  m.def(
      "reset_jit_stats", [] { check(offloadJITResetStats()); },
      "reset_jit_stats()\n\nSets every JIT counter to zero.");
  m.def(
      "clear_jit_cache", [] { check(offloadJITClearMemoryCache()); },
      "clear_jit_cache()\n\nDrops the in-memory cache of compiled kernels "
      "(the disk cache, OFFLOAD_CACHE_DIR, stays).");
  m.def(
      "set_jit_enabled",
      [](bool Enabled) { check(offloadJITSetEnabled(Enabled)); }, "enabled"_a,
      "set_jit_enabled(enabled)\n\nTurns run-time specialization on (the "
      "default, unless OFFLOAD_JIT=0) or off for later launches; off, "
      "launches run the generic kernel.");
  m.def(
      "set_jit_auto",
      [](bool Enabled) { check(offloadJITSetAutoEnabled(Enabled)); },
      "enabled"_a,
      "set_jit_auto(enabled)\n\nTurns automatic specialization on or off "
      "for later launches (the default comes from OFFLOAD_JIT_AUTO, off "
      "unless set): scalar kernel arguments not marked "
      "offload.runtime_constant that keep their values for "
      "OFFLOAD_JIT_AUTO_THRESHOLD launches are specialized on, guarded by "
      "their values (docs/JIT.md).");
  m.def(
      "wait_for_compiles",
      [] {
        nb::gil_scoped_release Release;
        (void)offloadJITWaitForCompiles();
      },
      "wait_for_compiles()\n\nWaits for background compiles "
      "(OFFLOAD_JIT_ASYNC=1).");
}

} // namespace offloadpy
