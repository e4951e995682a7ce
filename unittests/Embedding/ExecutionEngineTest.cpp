//===- ExecutionEngineTest.cpp - offload-opt output under mlir::ExecutionEngine
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What a compiler that embeds the dialect does to run a program: lower it
// with the offload-lower-to-host pipeline in its own context and run it with
// MLIR's mlir::ExecutionEngine, the runtime (and for jit=true the JIT) loaded
// as shared libraries, as mlir-runner does (test/Embedding/mlir-runner.test;
// docs/Embedding.md).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/InitAll.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

using namespace mlir;

namespace {
class ExecutionEngineTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    offload::registerAllOffloadPasses();
    // The JIT (jit=true) reads its settings when the engine loads it.
    setenv("OFFLOAD_CACHE_DIR", OFFLOAD_TEST_CACHE_DIR, 1);
    llvm::sys::fs::remove_directories(OFFLOAD_TEST_CACHE_DIR);
  }
  void SetUp() override {
    registerAllDialects(Registry);
    registerAllExtensions(Registry);
    registerAllToLLVMIRTranslations(Registry);
    offload::registerAllOffload(Registry);
    Context = std::make_unique<MLIRContext>(Registry);
  }

  /// \p Source lowered by `offload-lower-to-host{Options}`.
  OwningOpRef<ModuleOp> lower(const std::string &Source,
                              const std::string &Options) {
    OwningOpRef<ModuleOp> Module =
        parseSourceString<ModuleOp>(Source, Context.get());
    EXPECT_TRUE(Module);
    if (!Module)
      return nullptr;
    // The pipeline runs on the module itself: a PassManager anchored on it,
    // and the pipeline's text without a `builtin.module(...)` around it
    // (which would nest it, on modules inside this one: a silent no-op).
    PassManager PM(Context.get(), ModuleOp::getOperationName());
    std::string Error;
    llvm::raw_string_ostream OS(Error);
    LogicalResult Parsed =
        parsePassPipeline("offload-lower-to-host{" + Options + "}", PM, OS);
    EXPECT_TRUE(succeeded(Parsed)) << Error;
    EXPECT_TRUE(succeeded(PM.run(*Module)));
    return Module;
  }

  /// An engine on \p Module with the runtime, MLIR's runner utilities and,
  /// with \p JIT, libOffloadJIT.so.
  std::unique_ptr<ExecutionEngine> engine(ModuleOp Module, bool JIT) {
    LibraryPaths = {OFFLOAD_RUNTIME_LIBRARY};
    if (JIT)
      LibraryPaths.push_back(OFFLOAD_JIT_LIBRARY);
    LibraryPaths.push_back(MLIR_LIB_DIR "/libmlir_runner_utils.so");
    LibraryPaths.push_back(MLIR_LIB_DIR "/libmlir_c_runner_utils.so");
    Libraries.assign(LibraryPaths.begin(), LibraryPaths.end());
    ExecutionEngineOptions Options;
    Options.transformer = Transformer;
    Options.sharedLibPaths = Libraries;
    auto Engine = ExecutionEngine::create(Module, Options);
    if (!Engine) {
      ADD_FAILURE() << llvm::toString(Engine.takeError());
      return nullptr;
    }
    return std::move(*Engine);
  }

  DialectRegistry Registry;
  std::unique_ptr<MLIRContext> Context;
  std::function<llvm::Error(llvm::Module *)> Transformer =
      makeOptimizingTransformer(2, 0, nullptr);
  std::vector<std::string> LibraryPaths;
  llvm::SmallVector<llvm::StringRef> Libraries;
};

std::string readFile(const char *Path) {
  std::string Text;
  if (FILE *F = std::fopen(Path, "rb")) {
    char Buffer[4096];
    size_t N;
    while ((N = std::fread(Buffer, 1, sizeof(Buffer), F)) > 0)
      Text.append(Buffer, N);
    std::fclose(F);
  }
  return Text;
}

/// A host function around a saxpy kernel: y = a * x + y, through device
/// memory, callable from C++ (llvm.emit_c_interface).
const char *const SaxpySource = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %k = offload.runtime_constant %a : f32
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %k, %xi : f32
      %r = arith.addf %ax, %yi : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>)
      attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %dx = gpu.alloc (%n) : memref<?xf32>
    %dy = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %dx, %x : memref<?xf32>, memref<?xf32>
    gpu.memcpy %dy, %y : memref<?xf32>, memref<?xf32>
    %blocks = arith.divui %n, %c64 : index
    gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%a : f32, %dx : memref<?xf32>, %dy : memref<?xf32>)
    gpu.memcpy %y, %dy : memref<?xf32>, memref<?xf32>
    gpu.dealloc %dx : memref<?xf32>
    gpu.dealloc %dy : memref<?xf32>
    return
  }
}
)mlir";
} // namespace

TEST_F(ExecutionEngineTest, RunsTheSaxpyExample) {
  std::string Source = readFile(OFFLOAD_SOURCE_DIR "/examples/saxpy.mlir");
  ASSERT_FALSE(Source.empty());
  OwningOpRef<ModuleOp> Module = lower(Source, "");
  ASSERT_TRUE(Module);
  std::unique_ptr<ExecutionEngine> Engine = engine(*Module, /*JIT=*/false);
  ASSERT_TRUE(Engine);
  ::testing::internal::CaptureStdout();
  llvm::Error E = Engine->invokePacked("main");
  std::cout.flush();
  std::fflush(stdout);
  std::string Out = ::testing::internal::GetCapturedStdout();
  ASSERT_FALSE(E) << llvm::toString(std::move(E));
  EXPECT_NE(Out.find("[1,  3,  5,  7,  9,  11,  13,  15]"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("checksum: 1e+08"), std::string::npos) << Out;
}

class ExecutionEngineModes : public ExecutionEngineTest,
                             public ::testing::WithParamInterface<bool> {};

TEST_P(ExecutionEngineModes, SaxpyThroughTheCInterface) {
  bool JIT = GetParam();
  OwningOpRef<ModuleOp> Module = lower(SaxpySource, JIT ? "jit=true" : "");
  ASSERT_TRUE(Module);
  std::unique_ptr<ExecutionEngine> Engine = engine(*Module, JIT);
  ASSERT_TRUE(Engine);
  constexpr int64_t N = 256;
  for (float A : {2.0f, -0.5f}) {
    std::vector<float> X(N), Y(N);
    for (int64_t I = 0; I < N; ++I) {
      X[I] = static_cast<float>(I);
      Y[I] = 1.0f + I % 7;
    }
    StridedMemRefType<float, 1> XRef{X.data(), X.data(), 0, {N}, {1}};
    StridedMemRefType<float, 1> YRef{Y.data(), Y.data(), 0, {N}, {1}};
    llvm::Error E = Engine->invoke("saxpy", A, &XRef, &YRef);
    ASSERT_FALSE(E) << llvm::toString(std::move(E));
    for (int64_t I = 0; I < N; ++I)
      ASSERT_EQ(Y[I], A * I + (1.0f + I % 7)) << "a=" << A << " at " << I;
  }
}

INSTANTIATE_TEST_SUITE_P(, ExecutionEngineModes, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &Info) {
                           return Info.param ? "JIT" : "AheadOfTime";
                         });
