//===- KernelNamesTest.cpp - Names of specialized kernels -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The runtime's messages read the kernel a specialization came from out of
// its name (OffloadSupport/KernelNames.h); the names are made by
// getSpecializedName (lib/Dialect/Transforms/Specialize.cpp). A change of
// either that the other does not follow fails here.
//
//===----------------------------------------------------------------------===//

#include "OffloadSupport/KernelNames.h"

#include "OffloadDialect/Transforms/Specialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

TEST(KernelNamesTest, SpecializedNamesNameTheirKernel) {
  MLIRContext Context;
  Context.loadDialect<gpu::GPUDialect, arith::ArithDialect>();
  OwningOpRef<ModuleOp> Module = parseSourceString<ModuleOp>(R"mlir(
    gpu.module @m {
      gpu.func @scale_rows(%n: i32, %x: f32) kernel { gpu.return }
    })mlir",
                                                             &Context);
  ASSERT_TRUE(Module);
  gpu::GPUFuncOp Kernel;
  Module->walk([&](gpu::GPUFuncOp F) { Kernel = F; });
  ASSERT_TRUE(Kernel);

  Builder B(&Context);
  mlir::offload::KernelSpecialization Spec;
  Spec.argumentValues = {B.getI32IntegerAttr(7), B.getF32FloatAttr(0.5f)};
  Spec.blockSize = std::array<int32_t, 3>{128, 1, 1};
  std::string Name = mlir::offload::getSpecializedName(Kernel, Spec);
  EXPECT_EQ(::offload::getSpecializedKernelBase(Name), "scale_rows") << Name;
  EXPECT_EQ(::offload::getKernelDisplayName(Name),
            "'scale_rows' (specialization " + Name + ")");
  // Other values, another clone of the same kernel.
  Spec.argumentValues[0] = B.getI32IntegerAttr(8);
  std::string Other = mlir::offload::getSpecializedName(Kernel, Spec);
  EXPECT_NE(Other, Name);
  EXPECT_EQ(::offload::getSpecializedKernelBase(Other), "scale_rows");
}

TEST(KernelNamesTest, OtherNamesStayWhole) {
  for (llvm::StringRef Name :
       {"saxpy", "_spec_0123456789abcdef", "k_spec_0123456789abcde",
        "k_spec_0123456789ABCDEF", "k_spec_0123456789abcdefg",
        "k_spec_0123456789abcdef_tail", "k_spex_0123456789abcdef"}) {
    EXPECT_EQ(::offload::getSpecializedKernelBase(Name), "") << Name.str();
    EXPECT_EQ(::offload::getKernelDisplayName(Name), "'" + Name.str() + "'");
  }
  // The kernel's own name may contain the separator.
  EXPECT_EQ(
      ::offload::getSpecializedKernelBase("a_spec_b_spec_00000000000000ff"),
      "a_spec_b");
}

} // namespace
