/*===- jit-saxpy.c - The installed runtime and JIT from C -----------------===*\
|*                                                                            *|
|* Part of the offload project, under the Apache License v2.0 with LLVM       *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * A C program built against an install prefix, once through
 * find_package(Offload) (Offload::JIT) and once through pkg-config
 * (offload-jit.pc): creates a JIT program from MLIR text on the host device,
 * launches its saxpy kernel (`a` is a runtime constant, so each value of it
 * is a specialization) on device memory and checks every result, and that a
 * second launch with the same `a` compiles nothing. Exits 0 when all values
 * match. Run by scripts/test-install.sh.
 */

#include "OffloadJIT/OffloadJIT.h"
#include "OffloadRuntime/OffloadAPI.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const Source =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @kernels {\n"
    "    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>)\n"
    "        kernel {\n"
    "      %k = offload.runtime_constant %a : f32\n"
    "      %b = gpu.block_id x\n"
    "      %d = gpu.block_dim x\n"
    "      %t = gpu.thread_id x\n"
    "      %o = arith.muli %b, %d : index\n"
    "      %i = arith.addi %o, %t : index\n"
    "      %xi = memref.load %x[%i] : memref<?xf32>\n"
    "      %yi = memref.load %y[%i] : memref<?xf32>\n"
    "      %p = arith.mulf %k, %xi : f32\n"
    "      %r = arith.addf %p, %yi : f32\n"
    "      memref.store %r, %y[%i] : memref<?xf32>\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

/* A memref<?xf32> in the packed argument buffer. */
typedef struct {
  float *Allocated, *Aligned;
  int64_t Offset, Size, Stride;
} MemRef1D;

typedef struct {
  float A;
  MemRef1D X, Y;
} SaxpyArgs;

#define N 1024
#define THREADS 128

static int check(offload_result_t Result, const char *What) {
  if (Result == OFFLOAD_SUCCESS)
    return 0;
  fprintf(stderr, "jit-saxpy: %s: %s: %s\n", What,
          offloadErrcName(Result->Code), Result->Details);
  return 1;
}
#define CHECK(Call)                                                            \
  do {                                                                         \
    if (check((Call), #Call))                                                  \
      return 1;                                                                \
  } while (0)

/* y = a * x + y on the device, x[i] = i, y[i] = 1; compares with the host. */
static int run(offload_device_handle_t Device, offload_queue_handle_t Queue,
               offload_jit_kernel_handle_t Kernel, float A) {
  float *Host = malloc(2 * N * sizeof(float));
  void *X = NULL, *Y = NULL;
  int Errors = 0;
  for (int I = 0; I < N; ++I) {
    Host[I] = (float)I;
    Host[N + I] = 1.0f;
  }
  CHECK(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, N * sizeof(float),
                        &X));
  CHECK(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, N * sizeof(float),
                        &Y));
  offload_device_handle_t HostDevice = NULL;
  CHECK(offloadGetHostDevice(&HostDevice));
  CHECK(offloadMemcpy(Queue, X, Device, Host, HostDevice, N * sizeof(float)));
  CHECK(
      offloadMemcpy(Queue, Y, Device, Host + N, HostDevice, N * sizeof(float)));

  SaxpyArgs Args = {A, {X, X, 0, N, 1}, {Y, Y, 0, N, 1}};
  offload_kernel_launch_size_args_t Sizes;
  memset(&Sizes, 0, sizeof(Sizes));
  Sizes.Dimensions = 1;
  Sizes.NumGroups.x = N / THREADS;
  Sizes.NumGroups.y = Sizes.NumGroups.z = 1;
  Sizes.GroupSize.x = THREADS;
  Sizes.GroupSize.y = Sizes.GroupSize.z = 1;
  CHECK(offloadJITLaunchKernel(Queue, Device, Kernel, &Args, sizeof(Args),
                               &Sizes));
  CHECK(
      offloadMemcpy(Queue, Host + N, HostDevice, Y, Device, N * sizeof(float)));
  CHECK(offloadSyncQueue(Queue));
  for (int I = 0; I < N; ++I) {
    float Expected = A * (float)I + 1.0f;
    if (Host[N + I] != Expected && Errors++ < 5)
      fprintf(stderr, "jit-saxpy: a=%g: y[%d] = %g, expected %g\n", A, I,
              Host[N + I], Expected);
  }
  CHECK(offloadMemFree(X));
  CHECK(offloadMemFree(Y));
  free(Host);
  return Errors != 0;
}

int main(void) {
  offload_device_handle_t Device = NULL;
  offload_queue_handle_t Queue = NULL;
  offload_jit_program_handle_t Program = NULL;
  offload_jit_kernel_handle_t Kernel = NULL;
  offload_jit_stats_t Stats;

  CHECK(offloadInit());
  CHECK(offloadGetHostDevice(&Device));
  CHECK(offloadCreateQueue(Device, &Queue));
  CHECK(offloadCreateProgramFromMLIR(Device, Source, strlen(Source), &Program));
  CHECK(offloadJITGetKernel(Program, "saxpy", &Kernel));

  if (run(Device, Queue, Kernel, 2.0f) || run(Device, Queue, Kernel, 2.0f) ||
      run(Device, Queue, Kernel, -0.5f))
    return 1;
  CHECK(offloadJITGetStats(&Stats));
  /* Two specializations (a = 2 and a = -0.5); the second a = 2 launch hits
   * the in-memory cache. */
  if (Stats.Launches != 3 || Stats.Compiles + Stats.DiskHits != 2 ||
      Stats.MemoryHits != 1) {
    fprintf(stderr,
            "jit-saxpy: launches %llu, compiles %llu, disk hits %llu, memory "
            "hits %llu; expected 3 launches, 2 compiles or disk hits, 1 "
            "memory hit\n",
            (unsigned long long)Stats.Launches,
            (unsigned long long)Stats.Compiles,
            (unsigned long long)Stats.DiskHits,
            (unsigned long long)Stats.MemoryHits);
    return 1;
  }
  CHECK(offloadJITDestroyProgram(Program));
  CHECK(offloadDestroyQueue(Queue));
  CHECK(offloadShutDown());
  printf("jit-saxpy: %d values checked for a = 2, 2, -0.5 (%llu compiles, "
         "%llu memory hit)\n",
         3 * N, (unsigned long long)Stats.Compiles,
         (unsigned long long)Stats.MemoryHits);
  return 0;
}
