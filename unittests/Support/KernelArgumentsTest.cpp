//===- KernelArgumentsTest.cpp - The packed kernel argument layout --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The layout of OffloadSupport/KernelArguments.h against what
// convert-offload-to-llvm emits: for each argument list (memrefs of rank 0 to
// 3, scalars of every width, mixed), the lowering's LLVM struct is laid out by
// the host's LLVM data layout and compared, field by field and in size, with
// the layout the core computes from a plain description (what Python, MGPU
// and the benchmarks use) and with the one the MLIR adapter computes from the
// argument types (what the JIT and the host target use). A change to any of
// them that the others do not follow fails here.
//
//===----------------------------------------------------------------------===//

#include "OffloadSupport/KernelArguments.h"
#include "OffloadSupport/MLIRKernelArguments.h"

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/IR/OffloadDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/TypeToLLVM.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "gtest/gtest.h"

#include <climits>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace offload::kernelargs;

namespace {

//===----------------------------------------------------------------------===//
// The core alone
//===----------------------------------------------------------------------===//

TEST(KernelArgumentsCore, ScalarFields) {
  struct Row {
    uint64_t Bits, Size, Align;
  } Rows[] = {{1, 1, 1},    {8, 1, 1},     {16, 2, 2},    {24, 4, 4},
              {32, 4, 4},   {48, 8, 8},    {64, 8, 8},    {80, 16, 16},
              {96, 16, 16}, {128, 16, 16}, {136, 32, 16}, {256, 32, 16},
              {264, 48, 16}};
  for (const Row &R : Rows) {
    FieldType F = getScalarField(R.Bits);
    EXPECT_EQ(F.Size, R.Size) << "i" << R.Bits;
    EXPECT_EQ(F.Align, R.Align) << "i" << R.Bits;
  }
  EXPECT_EQ(getIndexField().Size, 8u);
  EXPECT_EQ(getPointerField().Align, 8u);
}

TEST(KernelArgumentsCore, MemRefFields) {
  for (uint64_t Rank = 0; Rank <= 3; ++Rank) {
    ArgumentLayout L;
    L.addScalar(8); // an i8 first: the descriptor is 8-aligned after it
    unsigned First = L.addMemRef(Rank);
    ASSERT_EQ(L.getFields().size(), 1 + getMemRefFieldCount(Rank));
    for (uint64_t K = 0; K < getMemRefFieldCount(Rank); ++K)
      EXPECT_EQ(L.getFields()[First + K].Offset, 8 + 8 * K)
          << "rank " << Rank << " field " << K;
    EXPECT_EQ(L.getSize(), 8 + getMemRefDescriptorSize(Rank));
    EXPECT_EQ(getStrideField(Rank, 0), 3 + Rank);
  }
}

TEST(KernelArgumentsCore, TailPaddingAndEmpty) {
  ArgumentLayout Empty;
  EXPECT_EQ(Empty.getSize(), 0u);
  ArgumentLayout L;
  L.addPointer();
  L.addScalar(32);
  EXPECT_EQ(L.getUnpaddedSize(), 12u);
  EXPECT_EQ(L.getSize(), 16u);
  EXPECT_EQ(L.getAlignment(), 8u);
}

TEST(KernelArgumentsCore, DescriptorRoundTrip) {
  int64_t Sizes[3] = {2, 3, 4}, Strides[3] = {12, 4, 1};
  float Data[24];
  std::vector<char> Buffer(getMemRefDescriptorSize(3));
  writeMemRefDescriptor(Buffer.data(), Data, Data + 1, 5, Sizes, Strides, 3);
  MemRefDescriptor D = readMemRefDescriptor(Buffer.data(), 3);
  EXPECT_EQ(D.Allocated, reinterpret_cast<char *>(Data));
  EXPECT_EQ(D.Aligned, reinterpret_cast<char *>(Data + 1));
  EXPECT_EQ(D.Offset, 5);
  EXPECT_EQ(D.Sizes, (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(D.Strides, (std::vector<int64_t>{12, 4, 1}));
  // The same bytes as MLIR's StridedMemRefType<float, 3>.
  struct {
    float *Allocated, *Aligned;
    int64_t Offset, Sizes[3], Strides[3];
  } Native{Data, Data + 1, 5, {2, 3, 4}, {12, 4, 1}};
  ASSERT_EQ(sizeof(Native), Buffer.size());
  EXPECT_EQ(std::memcmp(&Native, Buffer.data(), Buffer.size()), 0);
}

TEST(KernelArgumentsCore, Extent) {
  int64_t Sizes[2] = {3, 4}, Strides[2] = {-4, 1};
  MemRefExtent E;
  ASSERT_TRUE(getMemRefExtent(2, Sizes, Strides, E));
  EXPECT_EQ(E.Low, -8);
  EXPECT_EQ(E.High, 3);
  EXPECT_FALSE(E.Empty);
  int64_t EmptySizes[2] = {0, INT64_MAX}, Huge[2] = {INT64_MAX, INT64_MAX};
  ASSERT_TRUE(getMemRefExtent(2, EmptySizes, Huge, E));
  EXPECT_TRUE(E.Empty);
  int64_t Big[2] = {INT64_MAX, 3};
  EXPECT_FALSE(getMemRefExtent(2, Big, Huge, E));
  int64_t Negative[1] = {-1}, One[1] = {1};
  EXPECT_FALSE(getMemRefExtent(1, Negative, One, E));
}

TEST(KernelArgumentsCore, PackingThroughARecordedLayout) {
  const uint64_t Offsets[2] = {0, 8}, Sizes[2] = {4, 8};
  EXPECT_EQ(getPackedSize(Offsets, Sizes, 2, 0), 16u);
  EXPECT_EQ(getPackedSize(Offsets, Sizes, 2, 32), 32u);
  EXPECT_EQ(findFieldOutside(Offsets, Sizes, 2, 16), 2u);
  EXPECT_EQ(findFieldOutside(Offsets, Sizes, 2, 12), 1u);
  int32_t A = 7;
  int64_t B = -3;
  const void *Values[2] = {&A, &B};
  std::vector<char> Buffer(16, 0);
  packFields(Buffer.data(), Offsets, Sizes, 2, Values);
  int32_t A2;
  int64_t B2;
  std::memcpy(&A2, Buffer.data(), 4);
  std::memcpy(&B2, Buffer.data() + 8, 8);
  EXPECT_EQ(A2, 7);
  EXPECT_EQ(B2, -3);
}

TEST(KernelArgumentsCore, LaunchSizeRule) {
  EXPECT_FALSE(isValidLaunchSize(0));
  EXPECT_FALSE(isValidLaunchSize(-1));
  EXPECT_TRUE(isValidLaunchSize(1));
  EXPECT_TRUE(isValidLaunchSize(int64_t(UINT32_MAX)));
  EXPECT_FALSE(isValidLaunchSize(int64_t(UINT32_MAX) + 1));
  EXPECT_EQ(kMaxLaunchSize, int64_t(UINT32_MAX));
  EXPECT_NE(std::string(OFFLOAD_LAUNCH_SIZE_RULE).find("4294967295"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// The core against the lowering
//===----------------------------------------------------------------------===//

/// One kernel argument: its MLIR type and how a component without MLIR
/// (Python, MGPU's users, the benchmarks) describes it to the core.
struct Arg {
  std::string Type;
  std::function<void(ArgumentLayout &)> Add;
};

Arg memref(const std::string &Type, uint64_t Rank) {
  return {Type, [Rank](ArgumentLayout &L) { L.addMemRef(Rank); }};
}
Arg scalar(const std::string &Type, uint64_t Bits) {
  return {Type, [Bits](ArgumentLayout &L) { L.addScalar(Bits); }};
}
Arg index() {
  return {"index", [](ArgumentLayout &L) { L.addIndex(); }};
}
Arg pointer() {
  return {"!llvm.ptr", [](ArgumentLayout &L) { L.addPointer(); }};
}

struct Case {
  const char *Name;
  std::vector<Arg> Args;
};

std::vector<Case> getCases() {
  return {
      {"rank0", {memref("memref<f32>", 0)}},
      {"rank1", {memref("memref<?xf32>", 1)}},
      {"rank2", {memref("memref<4x?xf64>", 2)}},
      {"rank3", {memref("memref<?x?x?xi8>", 3)}},
      {"strided",
       {memref("memref<?x?xf32, strided<[?, 1], offset: ?>>", 2),
        scalar("i32", 32)}},
      {"i8_then_memref", {scalar("i8", 8), memref("memref<?xi16>", 1)}},
      {"widths",
       {scalar("i1", 1), scalar("i8", 8), scalar("i16", 16), scalar("i32", 32),
        scalar("i64", 64), scalar("i1", 1), index(), scalar("f16", 16),
        scalar("bf16", 16), scalar("f32", 32), scalar("f64", 64),
        scalar("i8", 8)}},
      {"odd_widths",
       {scalar("i1", 1), scalar("i24", 24), scalar("i8", 8), scalar("i48", 48),
        scalar("i16", 16), scalar("i128", 128), scalar("i8", 8),
        scalar("i96", 96)}},
      {"wide", {scalar("i8", 8), scalar("i256", 256), scalar("i32", 32)}},
      {"i32_i64", {scalar("i32", 32), scalar("i64", 64)}},
      {"tail_padding", {memref("memref<?xf32>", 1), scalar("f32", 32)}},
      {"pointers", {scalar("i16", 16), pointer(), scalar("i8", 8), pointer()}},
      {"mixed",
       {scalar("f32", 32), memref("memref<f32>", 0), scalar("i8", 8),
        memref("memref<2x3x4xi32>", 3), scalar("f16", 16),
        memref("memref<?x?xbf16>", 2), index(), scalar("i1", 1)}},
  };
}

/// The kernel module the lowering sees: one function launching @kernels::@k
/// with one argument of each type.
std::string makeModule(const Case &C) {
  std::string Params = "%dev: !offload.device", Operands;
  for (size_t I = 0; I < C.Args.size(); ++I) {
    std::string Name = "%a" + std::to_string(I);
    Params += ", " + Name + ": " + C.Args[I].Type;
    Operands += (I ? ", " : "") + Name + " : " + C.Args[I].Type;
  }
  return "module attributes {gpu.container_module} {\n"
         "  gpu.binary @kernels [#gpu.object<#nvvm.target, \"BLOB\">]\n"
         "  func.func @launch(" +
         Params +
         ") {\n"
         "    %c1 = arith.constant 1 : index\n"
         "    offload.launch @kernels::@k on %dev blocks in (%c1, %c1, %c1)\n"
         "        threads in (%c1, %c1, %c1) args(" +
         Operands +
         ")\n"
         "    return\n"
         "  }\n"
         "}\n";
}

/// The host's data layout, as the runtime's callers and the JIT compile.
const llvm::DataLayout &getHostDataLayout() {
  static const llvm::DataLayout Layout = [] {
    llvm::InitializeNativeTarget();
    llvm::Triple TT(llvm::sys::getProcessTriple());
    std::string Errors;
    const llvm::Target *T = llvm::TargetRegistry::lookupTarget(TT, Errors);
    if (!T)
      return llvm::DataLayout();
    std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
        TT, "generic", "", llvm::TargetOptions(), std::nullopt));
    return TM->createDataLayout();
  }();
  return Layout;
}

class KernelArgumentsLowering : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    mlir::DialectRegistry Registry;
    Registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                    mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                    mlir::memref::MemRefDialect, mlir::NVVM::NVVMDialect>();
    mlir::offload::registerOffloadDialect(Registry);
    Context = std::make_unique<mlir::MLIRContext>(Registry);
    Context->loadAllAvailableDialects();
  }
  std::unique_ptr<mlir::MLIRContext> Context;
};

TEST_P(KernelArgumentsLowering, MatchesTheLLVMStruct) {
  const Case &C = GetParam();
  std::string Source = makeModule(C);
  mlir::OwningOpRef<mlir::ModuleOp> Module =
      mlir::parseSourceString<mlir::ModuleOp>(Source, Context.get());
  ASSERT_TRUE(Module) << Source;

  // The argument types as the JIT sees them, before the lowering.
  std::vector<mlir::Type> Types;
  Module->walk([&](mlir::func::FuncOp F) {
    for (mlir::Type T : F.getArgumentTypes().drop_front())
      Types.push_back(T);
  });
  ASSERT_EQ(Types.size(), C.Args.size());

  mlir::PassManager PM(Context.get());
  PM.addPass(mlir::offload::createConvertOffloadToLLVM());
  ASSERT_TRUE(mlir::succeeded(PM.run(*Module))) << Source;

  // The buffer offloadLaunchKernel receives: operand 3, an alloca of the
  // struct the lowering packs.
  mlir::LLVM::LLVMStructType Packed;
  Module->walk([&](mlir::LLVM::CallOp Call) {
    if (Call.getCallee() != "offloadLaunchKernel")
      return;
    if (auto Alloca = Call.getOperand(3).getDefiningOp<mlir::LLVM::AllocaOp>())
      Packed = mlir::dyn_cast<mlir::LLVM::LLVMStructType>(Alloca.getElemType());
  });
  ASSERT_TRUE(Packed) << "no packed argument struct in the lowered module";

  llvm::LLVMContext LLVMContext;
  mlir::LLVM::TypeToLLVMIRTranslator Translator(LLVMContext);
  auto *Struct = llvm::cast<llvm::StructType>(Translator.translateType(Packed));
  const llvm::DataLayout &DL = getHostDataLayout();
  ASSERT_FALSE(DL.getStringRepresentation().empty()) << "no native target";
  const llvm::StructLayout *SL = DL.getStructLayout(Struct);

  ArgumentLayout Plain, FromTypes;
  for (const Arg &A : C.Args)
    A.Add(Plain);
  for (mlir::Type T : Types)
    ASSERT_TRUE(addArgument(FromTypes, T).has_value())
        << "no layout for a type";

  ASSERT_EQ(Plain.getFields().size(), Struct->getNumElements());
  ASSERT_EQ(FromTypes.getFields().size(), Struct->getNumElements());
  for (unsigned I = 0; I < Struct->getNumElements(); ++I) {
    uint64_t Offset = SL->getElementOffset(I);
    uint64_t Size = DL.getTypeAllocSize(Struct->getElementType(I));
    EXPECT_EQ(Plain.getFields()[I].Offset, Offset) << C.Name << " field " << I;
    EXPECT_EQ(Plain.getFields()[I].Size, Size) << C.Name << " field " << I;
    EXPECT_EQ(FromTypes.getFields()[I].Offset, Offset)
        << C.Name << " field " << I;
    EXPECT_EQ(FromTypes.getFields()[I].Size, Size) << C.Name << " field " << I;
  }
  EXPECT_EQ(Plain.getSize(), SL->getSizeInBytes()) << C.Name;
  EXPECT_EQ(FromTypes.getSize(), SL->getSizeInBytes()) << C.Name;
  EXPECT_EQ(Plain.getAlignment(), SL->getAlignment().value()) << C.Name;
}

INSTANTIATE_TEST_SUITE_P(Cases, KernelArgumentsLowering,
                         ::testing::ValuesIn(getCases()),
                         [](const ::testing::TestParamInfo<Case> &Info) {
                           return std::string(Info.param.Name);
                         });

} // namespace
