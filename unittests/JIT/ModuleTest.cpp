//===- ModuleTest.cpp - JIT programs from an mlir::ModuleOp ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// mlir::offload::jit::createProgram (OffloadJIT/MLIRModule.h): a program made
// from a module the caller holds, launched through the C API, with the
// ownership, key and error rules of the header.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "DiskCache.h"

#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadJIT/MLIRModule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <numeric>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace offload_jit_test;

namespace {
class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_OK(offloadInit());
    ASSERT_OK(offloadGetHostDevice(&Device));
    static const std::string ProcessDir = [] {
      const char *Base = std::getenv("OFFLOAD_CACHE_DIR");
      std::string Dir = std::string(Base && *Base ? Base : "/tmp") +
                        "/module." + std::to_string(getpid());
      setenv("OFFLOAD_CACHE_DIR", Dir.c_str(), 1);
      return Dir;
    }();
    CacheDir = ProcessDir;
    offloadjit::DiskCache(CacheDir, 0).clear();
    ASSERT_OK(offloadJITClearMemoryCache());
    ASSERT_OK(offloadJITResetStats());
    mlir::offload::jit::registerDialects(Registry);
    Context = std::make_unique<mlir::MLIRContext>(Registry);
    Module =
        mlir::parseSourceString<mlir::ModuleOp>(KernelsSource, Context.get());
    ASSERT_TRUE(Module);
  }
  void TearDown() override {
    offloadjit::DiskCache(CacheDir, 0).clear();
    EXPECT_EQ(offloadShutDown(), OFFLOAD_SUCCESS);
  }

  /// Runs `scale` of \p Program over 256 floats (0, 1, ...) by \p S.
  std::vector<float> scale(offload_jit_program_handle_t Program, float S) {
    offload_jit_kernel_handle_t Kernel = nullptr;
    offload_result_t R = offloadJITGetKernel(Program, "scale", &Kernel);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    std::vector<float> X(256);
    std::iota(X.begin(), X.end(), 0.0f);
    ScaleArgs Args{view(X.data(), X.size()), S};
    auto Sizes = sizes(4, 64);
    R = offloadJITLaunchKernel(nullptr, Device, Kernel, &Args, sizeof(Args),
                               &Sizes);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return X;
  }

  offload_device_handle_t Device = nullptr;
  std::string CacheDir;
  mlir::DialectRegistry Registry;
  std::unique_ptr<mlir::MLIRContext> Context;
  mlir::OwningOpRef<mlir::ModuleOp> Module;
};
} // namespace

TEST_F(ModuleTest, LaunchesASpecializationOfTheCallersModule) {
  offload_jit_program_handle_t Program = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Module, &Program));
  std::vector<float> X = scale(Program, 2.5f);
  for (size_t I = 0; I < X.size(); ++I)
    ASSERT_EQ(X[I], 2.5f * I) << "at " << I;
  X = scale(Program, 2.5f);
  EXPECT_EQ(X[7], 17.5f);
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.Launches, 2u);
  EXPECT_EQ(S.Compiles, 1u);
  EXPECT_EQ(S.MemoryHits, 1u);
  ASSERT_OK(offloadJITDestroyProgram(Program));
}

TEST_F(ModuleTest, TheModuleIsCloned) {
  offload_jit_program_handle_t Program = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Module, &Program));
  // The caller changes its module (the scale kernel now adds instead of
  // multiplying), then erases it: the program keeps what it was given.
  Module->walk([](mlir::arith::MulFOp Mul) {
    mlir::OpBuilder B(Mul);
    Mul.replaceAllUsesWith(
        mlir::arith::AddFOp::create(B, Mul.getLoc(), Mul.getLhs(), Mul.getRhs())
            .getResult());
    Mul.erase();
  });
  offload_jit_program_handle_t Changed = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Module, &Changed));
  Module = nullptr;
  EXPECT_EQ(scale(Program, 3.0f)[5], 15.0f);
  EXPECT_EQ(scale(Changed, 3.0f)[5], 8.0f);
  // Another module: another key.
  EXPECT_EQ(stats().Compiles, 2u);
  ASSERT_OK(offloadJITDestroyProgram(Program));
  ASSERT_OK(offloadJITDestroyProgram(Changed));
}

TEST_F(ModuleTest, KeysAreTheModulesAndServeTheDiskCache) {
  offload_jit_program_handle_t First = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Module, &First));
  EXPECT_EQ(scale(First, 4.0f)[3], 12.0f);
  ASSERT_OK(offloadJITDestroyProgram(First));
  // The same module in another context (as another process would make it):
  // the same key, read from the disk cache.
  mlir::MLIRContext Other(Registry);
  mlir::OwningOpRef<mlir::ModuleOp> Again =
      mlir::parseSourceString<mlir::ModuleOp>(KernelsSource, &Other);
  ASSERT_TRUE(Again);
  ASSERT_OK(offloadJITClearMemoryCache());
  offload_jit_program_handle_t Second = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Again, &Second));
  EXPECT_EQ(scale(Second, 4.0f)[3], 12.0f);
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.Compiles, 1u);
  EXPECT_EQ(S.DiskHits, 1u);
  ASSERT_OK(offloadJITDestroyProgram(Second));
}

TEST_F(ModuleTest, ConcurrentLaunchesCompileInTheCallersContext) {
  offload_jit_program_handle_t Program = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Module, &Program));
  // Four values from eight threads: each value compiles once, in the
  // caller's (multi-threaded) context, one compile at a time.
  std::vector<std::vector<float>> Results(8);
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] { Results[T] = scale(Program, 1.0f + T % 4); });
  for (std::thread &T : Threads)
    T.join();
  for (int T = 0; T < 8; ++T)
    EXPECT_EQ(Results[T][10], 10.0f * (1.0f + T % 4)) << "thread " << T;
  EXPECT_EQ(stats().Compiles, 4u);
  ASSERT_OK(offloadJITDestroyProgram(Program));
}

TEST_F(ModuleTest, CheckToolsOption) {
  offload_jit_program_handle_t Program = nullptr;
  mlir::offload::jit::ProgramOptions Options;
  Options.checkTools = "memcheck";
  ASSERT_OK(
      mlir::offload::jit::createProgram(Device, *Module, &Program, Options));
  EXPECT_EQ(scale(Program, 2.0f)[9], 18.0f);
  ASSERT_OK(offloadJITDestroyProgram(Program));
  Options.checkTools = "memcheck,banana";
  offload_result_t R =
      mlir::offload::jit::createProgram(Device, *Module, &Program, Options);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_VALUE) << describe(R);
  EXPECT_NE(std::string(R->Details).find("banana"), std::string::npos);
}

TEST_F(ModuleTest, Errors) {
  offload_jit_program_handle_t Program = nullptr;
  auto Code = [](offload_result_t R) {
    return R ? R->Code : OFFLOAD_ERRC_SUCCESS;
  };
  EXPECT_EQ(Code(mlir::offload::jit::createProgram(nullptr, *Module, &Program)),
            OFFLOAD_ERRC_INVALID_NULL_HANDLE);
  EXPECT_EQ(Code(mlir::offload::jit::createProgram(Device, mlir::ModuleOp(),
                                                   &Program)),
            OFFLOAD_ERRC_INVALID_NULL_POINTER);
  EXPECT_EQ(Code(mlir::offload::jit::createProgram(Device, *Module, nullptr)),
            OFFLOAD_ERRC_INVALID_NULL_POINTER);

  // No gpu.module.
  auto Empty =
      mlir::parseSourceString<mlir::ModuleOp>("module {}", Context.get());
  offload_result_t R =
      mlir::offload::jit::createProgram(Device, *Empty, &Program);
  EXPECT_EQ(Code(R), OFFLOAD_ERRC_INVALID_BINARY);
  EXPECT_NE(std::string(R->Details).find("no gpu.module"), std::string::npos);

  // A module that does not verify (parsed without verifying it).
  mlir::ParserConfig Unverified(Context.get(), /*verifyAfterParse=*/false);
  auto Bad = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    module attributes {gpu.container_module} {
      gpu.module @kernels {
        gpu.func @bad(%a: i32, %b: i64) kernel {
          %c = "arith.addi"(%a, %b) : (i32, i64) -> i32
          gpu.return
        }
      }
    })mlir",
                                                     Unverified);
  ASSERT_TRUE(Bad);
  R = mlir::offload::jit::createProgram(Device, *Bad, &Program);
  EXPECT_EQ(Code(R), OFFLOAD_ERRC_INVALID_BINARY);
  EXPECT_NE(std::string(R->Details).find("does not verify"), std::string::npos)
      << R->Details;
  EXPECT_NE(std::string(R->Details).find("arith.addi"), std::string::npos)
      << R->Details;
}

TEST_F(ModuleTest, TheProgramsOwnCopyOfTheDialect) {
  // This test links the offload dialect's static library, as a compiler that
  // embeds the dialect (Offload::Dialect) does: its TypeIDs and
  // libOffloadJIT.so's are one (the program's symbols interpose), so a
  // context registered from it works.
  mlir::DialectRegistry Own;
  Own.insert<mlir::offload::OffloadDialect, mlir::gpu::GPUDialect,
             mlir::arith::ArithDialect, mlir::memref::MemRefDialect,
             mlir::scf::SCFDialect>();
  mlir::MLIRContext Mine(Own);
  auto Parsed = mlir::parseSourceString<mlir::ModuleOp>(KernelsSource, &Mine);
  ASSERT_TRUE(Parsed);
  offload_jit_program_handle_t Program = nullptr;
  ASSERT_OK(mlir::offload::jit::createProgram(Device, *Parsed, &Program));
  EXPECT_EQ(scale(Program, 6.0f)[4], 24.0f);
  ASSERT_OK(offloadJITDestroyProgram(Program));
}

namespace {
/// Another dialect under the offload dialect's namespace: what a copy of the
/// dialect that is not libOffloadJIT's looks like to it.
class ForeignOffloadDialect : public mlir::Dialect {
public:
  explicit ForeignOffloadDialect(mlir::MLIRContext *Context)
      : Dialect(getDialectNamespace(), Context,
                mlir::TypeID::get<ForeignOffloadDialect>()) {}
  static llvm::StringRef getDialectNamespace() { return "offload"; }
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ForeignOffloadDialect)
};
} // namespace

TEST_F(ModuleTest, AnotherOffloadDialectIsRefused) {
  mlir::DialectRegistry Foreign;
  Foreign.insert<ForeignOffloadDialect, mlir::gpu::GPUDialect,
                 mlir::arith::ArithDialect, mlir::memref::MemRefDialect>();
  mlir::MLIRContext Context(Foreign);
  Context.getOrLoadDialect<ForeignOffloadDialect>();
  auto Parsed = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    module attributes {gpu.container_module} {
      gpu.module @kernels {
        gpu.func @k(%x: memref<?xf32>) kernel {
          gpu.return
        }
      }
    })mlir",
                                                        &Context);
  ASSERT_TRUE(Parsed);
  offload_jit_program_handle_t Program = nullptr;
  offload_result_t R =
      mlir::offload::jit::createProgram(Device, *Parsed, &Program);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_ARGUMENT) << describe(R);
  EXPECT_NE(std::string(R->Details).find("registerDialects"),
            std::string::npos);
}
