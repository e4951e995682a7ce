//===- jit-module.cpp - The installed JIT from an mlir::ModuleOp ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A C++ program built against an install prefix (Offload::JIT and MLIR's
// libMLIR.so): it holds its kernels as an mlir::ModuleOp in its own context
// (parsed here; a compiler would have built it), hands the module to the JIT
// with mlir::offload::jit::createProgram (OffloadJIT/MLIRModule.h), erases
// its own module, and launches the kernel through the C API for two values
// of a runtime constant on the host device, checking every result and the
// compile counts. Exits 0 when all match. Run by scripts/test-install.sh.
//
//===----------------------------------------------------------------------===//

#include "OffloadJIT/MLIRModule.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdint>
#include <cstdio>
#include <vector>

static const char *const Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %k = offload.runtime_constant %a : f32
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %k, %xi : f32
      %r = arith.addf %p, %yi : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
)mlir";

namespace {
struct MemRef1D {
  float *Allocated, *Aligned;
  int64_t Offset, Size, Stride;
};
struct AxpyArgs {
  float A;
  MemRef1D X, Y;
};

bool check(offload_result_t Result, const char *What) {
  if (!Result)
    return true;
  std::fprintf(stderr, "jit-module: %s: %s: %s\n", What,
               offloadErrcName(Result->Code), Result->Details);
  return false;
}
} // namespace

int main() {
  if (!check(offloadInit(), "offloadInit"))
    return 1;
  offload_device_handle_t Device = nullptr;
  if (!check(offloadGetHostDevice(&Device), "offloadGetHostDevice"))
    return 1;

  // The compiler's context and module. The context gets its dialects from
  // the JIT, whose copy of the offload dialect the module must use.
  mlir::DialectRegistry Registry;
  mlir::offload::jit::registerDialects(Registry);
  mlir::MLIRContext Context(Registry);
  mlir::OwningOpRef<mlir::ModuleOp> Module =
      mlir::parseSourceString<mlir::ModuleOp>(Source, &Context);
  if (!Module)
    return 1;
  offload_jit_program_handle_t Program = nullptr;
  if (!check(mlir::offload::jit::createProgram(Device, *Module, &Program),
             "createProgram"))
    return 1;
  Module = nullptr; // the program holds its own clone
  offload_jit_kernel_handle_t Kernel = nullptr;
  if (!check(offloadJITGetKernel(Program, "axpy", &Kernel),
             "offloadJITGetKernel"))
    return 1;

  constexpr int64_t N = 512, Threads = 128;
  int Bad = 0;
  for (float A : {3.0f, -1.5f, 3.0f}) {
    std::vector<float> X(N), Y(N);
    for (int64_t I = 0; I < N; ++I) {
      X[I] = static_cast<float>(I % 17);
      Y[I] = 0.5f * I;
    }
    AxpyArgs Args{
        A, {X.data(), X.data(), 0, N, 1}, {Y.data(), Y.data(), 0, N, 1}};
    offload_kernel_launch_size_args_t Sizes{};
    Sizes.Dimensions = 1;
    Sizes.NumGroups = {N / Threads, 1, 1};
    Sizes.GroupSize = {Threads, 1, 1};
    if (!check(offloadJITLaunchKernel(nullptr, Device, Kernel, &Args,
                                      sizeof(Args), &Sizes),
               "offloadJITLaunchKernel"))
      return 1;
    for (int64_t I = 0; I < N; ++I)
      if (Y[I] != A * static_cast<float>(I % 17) + 0.5f * I && Bad++ < 5)
        std::fprintf(stderr, "jit-module: a=%g y[%lld] = %g\n", A,
                     static_cast<long long>(I), Y[I]);
  }
  offload_jit_stats_t Stats{};
  offloadJITGetStats(&Stats);
  if (!check(offloadJITDestroyProgram(Program), "offloadJITDestroyProgram"))
    return 1;
  if (Bad || Stats.Launches != 3 || Stats.Compiles + Stats.DiskHits != 2 ||
      Stats.MemoryHits != 1) {
    std::fprintf(stderr,
                 "jit-module: %d wrong values; launches=%llu compiles=%llu "
                 "disk-hits=%llu memory-hits=%llu (expected 3, 2 compiled or "
                 "read from disk, 1 from memory)\n",
                 Bad, (unsigned long long)Stats.Launches,
                 (unsigned long long)Stats.Compiles,
                 (unsigned long long)Stats.DiskHits,
                 (unsigned long long)Stats.MemoryHits);
    return 1;
  }
  std::printf("jit-module: createProgram(ModuleOp): 3 launches of 2 "
              "specializations, %lld values each right\n",
              static_cast<long long>(N));
  check(offloadShutDown(), "offloadShutDown");
  return 0;
}
