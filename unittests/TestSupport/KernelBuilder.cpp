//===- KernelBuilder.cpp - Host kernel objects for the tests --------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <mutex>

using namespace llvm;
using namespace offload_test;

//===----------------------------------------------------------------------===//
// Code generation helpers
//===----------------------------------------------------------------------===//

// Byte offsets of offload_host_kernel_context_t fields.
static constexpr uint64_t BlockIdOffset = 0;
static constexpr uint64_t BlockDimOffset = 24;
static constexpr uint64_t GridDimOffset = 48;
static constexpr uint64_t SharedMemoryOffset = 72;
static constexpr uint64_t DynamicSharedMemoryOffset = 80;

static Value *loadField(IRBuilder<> &B, Type *Ty, Value *Base,
                        uint64_t Offset) {
  Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
  return B.CreateLoad(Ty, Addr);
}

/// for (I = 0; I < Count; ++I) Body(I), with Count > 0.
static void emitLoop(IRBuilder<> &B, Function *F, Value *Count,
                     function_ref<void(Value *)> Body) {
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Header = BasicBlock::Create(F->getContext(), "loop", F);
  BasicBlock *Exit = BasicBlock::Create(F->getContext(), "loop.exit", F);
  B.CreateBr(Header);
  B.SetInsertPoint(Header);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Pre);
  Body(I);
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(Next, Count), Header, Exit);
  B.SetInsertPoint(Exit);
}

ThreadEnv::ThreadEnv(IRBuilder<> &B, Function *F) : B(B), F(F) {
  Args = F->getArg(0);
  Ctx = F->getArg(1);
  Tx = F->getArg(2);
  Ty = F->getArg(3);
  Tz = F->getArg(4);
}

Value *ThreadEnv::blockId(int Dim) {
  return loadField(B, i64(), Ctx, BlockIdOffset + 8 * Dim);
}
Value *ThreadEnv::blockDim(int Dim) {
  return loadField(B, i64(), Ctx, BlockDimOffset + 8 * Dim);
}
Value *ThreadEnv::gridDim(int Dim) {
  return loadField(B, i64(), Ctx, GridDimOffset + 8 * Dim);
}
Value *ThreadEnv::sharedMemory() {
  return loadField(B, ptr(), Ctx, SharedMemoryOffset);
}
Value *ThreadEnv::dynamicSharedMemory() {
  return loadField(B, ptr(), Ctx, DynamicSharedMemoryOffset);
}

Value *ThreadEnv::linearThreadId() {
  Value *Bx = blockDim(0), *By = blockDim(1);
  return B.CreateAdd(Tx, B.CreateMul(B.CreateAdd(Ty, B.CreateMul(Tz, By)), Bx));
}

Value *ThreadEnv::blockThreads() {
  return B.CreateMul(B.CreateMul(blockDim(0), blockDim(1)), blockDim(2));
}

Value *ThreadEnv::arg(Type *Ty, uint64_t Offset) {
  return loadField(B, Ty, Args, Offset);
}

Value *ThreadEnv::elem(Type *ElemTy, Value *Base, Value *Index) {
  return B.CreateInBoundsGEP(ElemTy, Base, Index);
}

void ThreadEnv::barrier(uint32_t Id) {
  Module &M = *F->getParent();
  FunctionCallee Barrier = M.getOrInsertFunction(
      "__offload_host_barrier",
      FunctionType::get(B.getVoidTy(), {ptr(), i32()}, false));
  B.CreateCall(Barrier, {Ctx, c32(int32_t(Id))});
}

std::pair<Value *, Value *> ThreadEnv::shuffle(Value *Value64, Value *Offset,
                                               Value *Width, Value *Mode) {
  Module &M = *F->getParent();
  FunctionCallee Shuffle = M.getOrInsertFunction(
      "__offload_host_shuffle",
      FunctionType::get(i64(), {ptr(), i64(), i32(), i32(), i32(), ptr()},
                        false));
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  Value *Valid = Entry.CreateAlloca(i8());
  Value *Result =
      B.CreateCall(Shuffle, {Ctx, Value64, Offset, Width, Mode, Valid});
  return {Result, B.CreateLoad(i8(), Valid)};
}

void ThreadEnv::ifThen(Value *Cond, function_ref<void()> Then) {
  BasicBlock *ThenBB = BasicBlock::Create(F->getContext(), "then", F);
  BasicBlock *Merge = BasicBlock::Create(F->getContext(), "merge", F);
  B.CreateCondBr(Cond, ThenBB, Merge);
  B.SetInsertPoint(ThenBB);
  Then();
  B.CreateBr(Merge);
  B.SetInsertPoint(Merge);
}

void ThreadEnv::ifThenElse(Value *Cond, function_ref<void()> Then,
                           function_ref<void()> Else) {
  BasicBlock *ThenBB = BasicBlock::Create(F->getContext(), "then", F);
  BasicBlock *ElseBB = BasicBlock::Create(F->getContext(), "else", F);
  BasicBlock *Merge = BasicBlock::Create(F->getContext(), "merge", F);
  B.CreateCondBr(Cond, ThenBB, ElseBB);
  B.SetInsertPoint(ThenBB);
  Then();
  B.CreateBr(Merge);
  B.SetInsertPoint(ElseBB);
  Else();
  B.CreateBr(Merge);
  B.SetInsertPoint(Merge);
}

void ThreadEnv::returnIf(Value *Cond) {
  BasicBlock *Ret = BasicBlock::Create(F->getContext(), "early.ret", F);
  BasicBlock *Cont = BasicBlock::Create(F->getContext(), "cont", F);
  B.CreateCondBr(Cond, Ret, Cont);
  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  B.SetInsertPoint(Cont);
}

void ThreadEnv::loop(Value *Count, function_ref<void(Value *)> Body) {
  emitLoop(B, F, Count, Body);
}

//===----------------------------------------------------------------------===//
// HostModuleBuilder
//===----------------------------------------------------------------------===//

HostModuleBuilder::HostModuleBuilder(StringRef Name)
    : Context(std::make_unique<LLVMContext>()),
      M(std::make_unique<Module>(Name, *Context)), B(*Context) {}

HostModuleBuilder::~HostModuleBuilder() = default;

void HostModuleBuilder::addKernel(StringRef Name, uint64_t ArgumentsSize,
                                  KernelOptions Options,
                                  function_ref<void(ThreadEnv &)> Body) {
  LLVMContext &C = *Context;
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();

  // void K.thread(ptr Args, ptr Ctx, i64 Tx, i64 Ty, i64 Tz)
  auto *ThreadTy =
      FunctionType::get(B.getVoidTy(), {Ptr, Ptr, I64, I64, I64}, false);
  Function *Thread = Function::Create(ThreadTy, GlobalValue::InternalLinkage,
                                      Name + ".thread", *M);
  B.SetInsertPoint(BasicBlock::Create(C, "entry", Thread));
  ThreadEnv Env(B, Thread);
  Body(Env);
  B.CreateRetVoid();

  // void K.block(ptr Args, ptr Ctx): the threads in a loop, x fastest.
  Function *Block = nullptr;
  if (!Options.Cooperative) {
    auto *BlockTy = FunctionType::get(B.getVoidTy(), {Ptr, Ptr}, false);
    Block = Function::Create(BlockTy, GlobalValue::InternalLinkage,
                             Name + ".block", *M);
    B.SetInsertPoint(BasicBlock::Create(C, "entry", Block));
    Value *Args = Block->getArg(0), *Ctx = Block->getArg(1);
    Value *Bx = loadField(B, I64, Ctx, BlockDimOffset);
    Value *By = loadField(B, I64, Ctx, BlockDimOffset + 8);
    Value *Bz = loadField(B, I64, Ctx, BlockDimOffset + 16);
    emitLoop(B, Block, Bz, [&](Value *Z) {
      emitLoop(B, Block, By, [&](Value *Y) {
        emitLoop(B, Block, Bx,
                 [&](Value *X) { B.CreateCall(Thread, {Args, Ctx, X, Y, Z}); });
      });
    });
    B.CreateRetVoid();
  }

  Constant *NameInit = ConstantDataArray::getString(C, Name);
  auto *NameVar =
      new GlobalVariable(*M, NameInit->getType(), true,
                         GlobalValue::PrivateLinkage, NameInit, Name + ".name");
  StructType *DescTy =
      StructType::get(C, {I32, I32, I64, I64, Ptr, Ptr, Ptr, I64, Ptr, Ptr, Ptr,
                          ArrayType::get(I32, 3), ArrayType::get(I32, 3)});
  Constant *NullPtr = ConstantPointerNull::get(cast<PointerType>(Ptr));
  // The argument layout: two private [N x i64] arrays.
  Constant *Offsets = NullPtr, *Sizes = NullPtr;
  uint64_t NumArguments = Options.ArgumentLayout.size();
  if (NumArguments) {
    SmallVector<uint64_t> OffsetValues, SizeValues;
    for (auto [Offset, Size] : Options.ArgumentLayout) {
      OffsetValues.push_back(Offset);
      SizeValues.push_back(Size);
    }
    auto MakeArray = [&](ArrayRef<uint64_t> Values, const Twine &Suffix) {
      Constant *Init = ConstantDataArray::get(C, Values);
      return new GlobalVariable(*M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init,
                                Name + Suffix);
    };
    Offsets = MakeArray(OffsetValues, ".arg_offsets");
    Sizes = MakeArray(SizeValues, ".arg_sizes");
  }
  Constant *Reason = NullPtr;
  if (Options.Cooperative && !Options.CooperativeReason.empty()) {
    Constant *Init = ConstantDataArray::getString(C, Options.CooperativeReason);
    Reason =
        new GlobalVariable(*M, Init->getType(), true,
                           GlobalValue::PrivateLinkage, Init, Name + ".reason");
  }
  Constant *Desc = ConstantStruct::get(
      DescTy,
      {B.getInt32(Options.Version),
       B.getInt32(Options.Cooperative ? OFFLOAD_HOST_KERNEL_COOPERATIVE : 0),
       B.getInt64(Options.StaticSharedBytes), B.getInt64(ArgumentsSize),
       Block ? static_cast<Constant *>(Block)
             : ConstantPointerNull::get(cast<PointerType>(Ptr)),
       Thread, NameVar, B.getInt64(NumArguments), Offsets, Sizes, Reason,
       ConstantDataArray::get(C, ArrayRef<uint32_t>(Options.RequiredGroupSize)),
       ConstantDataArray::get(C,
                              ArrayRef<uint32_t>(Options.RequiredNumGroups))});
  new GlobalVariable(*M, DescTy, true, GlobalValue::ExternalLinkage, Desc,
                     OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX + Name);
}

GlobalVariable *HostModuleBuilder::addGlobalI32(StringRef Name, int32_t Value) {
  return new GlobalVariable(*M, B.getInt32Ty(), false,
                            GlobalValue::ExternalLinkage, B.getInt32(Value),
                            Name);
}

GlobalVariable *HostModuleBuilder::addGlobalArrayI32(StringRef Name,
                                                     unsigned Count) {
  SmallVector<uint32_t> Values;
  for (unsigned I = 0; I < Count; ++I)
    Values.push_back(I);
  Constant *Init = ConstantDataArray::get(*Context, Values);
  return new GlobalVariable(*M, Init->getType(), false,
                            GlobalValue::ExternalLinkage, Init, Name);
}

std::string HostModuleBuilder::emitObject(bool Optimize, bool UseInitArray) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
  std::string Errors;
  raw_string_ostream ErrorOS(Errors);
  if (verifyModule(*M, &ErrorOS))
    report_fatal_error(Twine("invalid test module: ") + Errors);

  Triple TT(sys::getProcessTriple());
  const Target *T = TargetRegistry::lookupTarget(TT, Errors);
  if (!T)
    report_fatal_error(Twine("no native target: ") + Errors);
  // Position-independent code, as for any relocatable object; by default no
  // optimization, so that the code keeps the shape it was built with (the
  // duplicated_barrier kernel relies on two calls of one barrier).
  TargetOptions Options;
  Options.UseInitArray = UseInitArray;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, "generic", "", Options, Reloc::PIC_, std::nullopt,
      Optimize ? CodeGenOptLevel::Default : CodeGenOptLevel::None));
  M->setTargetTriple(TT);
  M->setDataLayout(TM->createDataLayout());
  if (Optimize) {
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB(TM.get());
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(*M, MAM);
  }

  SmallVector<char, 0> Buffer;
  raw_svector_ostream OS(Buffer);
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
    report_fatal_error("the native target cannot emit objects");
  PM.run(*M);
  return std::string(Buffer.begin(), Buffer.end());
}

//===----------------------------------------------------------------------===//
// Test kernels
//===----------------------------------------------------------------------===//

/// Linear id of the block.
static Value *linearBlockId(ThreadEnv &E) {
  IRBuilder<> &B = E.B;
  Value *Gx = E.gridDim(0), *Gy = E.gridDim(1);
  return B.CreateAdd(
      E.blockId(0),
      B.CreateMul(B.CreateAdd(E.blockId(1), B.CreateMul(E.blockId(2), Gy)),
                  Gx));
}

/// Global linear thread id: block id * threads per block + thread id.
static Value *globalThreadId(ThreadEnv &E) {
  return E.B.CreateAdd(E.B.CreateMul(linearBlockId(E), E.blockThreads()),
                       E.linearThreadId());
}

/// blockId.x * blockDim.x + threadId.x
static Value *globalIndexX(ThreadEnv &E) {
  return E.B.CreateAdd(E.B.CreateMul(E.blockId(0), E.blockDim(0)), E.Tx);
}

static void buildTestKernels(HostModuleBuilder &MB) {
  using Opts = HostModuleBuilder::KernelOptions;
  Opts Plain;
  Opts Coop;
  Coop.Cooperative = true;
  Coop.StaticSharedBytes = 1024 * 4;

  Opts SaxpyOpts = Plain;
  SaxpyOpts.ArgumentLayout = {{0, 4}, {8, 8}, {16, 8}, {24, 8}};
  MB.addKernel("saxpy", 32, SaxpyOpts, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *A = E.arg(E.f32(), 0), *X = E.arg(E.ptr(), 8);
    Value *Y = E.arg(E.ptr(), 16), *N = E.arg(E.i64(), 24);
    Value *I = globalIndexX(E);
    E.ifThen(B.CreateICmpSLT(I, N), [&] {
      Value *Xv = B.CreateLoad(E.f32(), E.elem(E.f32(), X, I));
      Value *YAddr = E.elem(E.f32(), Y, I);
      Value *Yv = B.CreateLoad(E.f32(), YAddr);
      B.CreateStore(B.CreateFAdd(B.CreateFMul(A, Xv), Yv), YAddr);
    });
  });

  auto Ids = [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Out = E.arg(E.ptr(), 0);
    Value *Base = B.CreateMul(globalThreadId(E), E.c64(12));
    Value *Values[] = {E.blockId(0),  E.blockId(1),  E.blockId(2),
                       E.blockDim(0), E.blockDim(1), E.blockDim(2),
                       E.gridDim(0),  E.gridDim(1),  E.gridDim(2),
                       E.Tx,          E.Ty,          E.Tz};
    for (int K = 0; K < 12; ++K)
      B.CreateStore(Values[K],
                    E.elem(E.i64(), Out, B.CreateAdd(Base, E.c64(K))));
  };
  MB.addKernel("ids", 8, Plain, Ids);
  Opts Fixed = Plain;
  Fixed.RequiredGroupSize = {4, 2, 1};
  Fixed.RequiredNumGroups = {3, 1, 1};
  MB.addKernel("ids_fixed", 8, Fixed, Ids);

  Opts PlainShared = Plain;
  PlainShared.StaticSharedBytes = 100;
  MB.addKernel("alignment", 8, PlainShared, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Out = E.arg(E.ptr(), 0);
    E.ifThen(B.CreateICmpEQ(E.linearThreadId(), E.c64(0)), [&] {
      Value *Slot = B.CreateMul(linearBlockId(E), E.c64(2));
      Value *S = B.CreateAnd(B.CreatePtrToInt(E.sharedMemory(), E.i64()), 63);
      Value *D =
          B.CreateAnd(B.CreatePtrToInt(E.dynamicSharedMemory(), E.i64()), 63);
      B.CreateStore(S, E.elem(E.i64(), Out, Slot));
      B.CreateStore(D, E.elem(E.i64(), Out, B.CreateAdd(Slot, E.c64(1))));
    });
  });

  MB.addKernel("expf", 24, Plain, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Module &M = *B.GetInsertBlock()->getModule();
    FunctionCallee Expf = M.getOrInsertFunction(
        "expf", FunctionType::get(E.f32(), {E.f32()}, false));
    Value *X = E.arg(E.ptr(), 0), *Y = E.arg(E.ptr(), 8);
    Value *N = E.arg(E.i64(), 16);
    Value *I = globalIndexX(E);
    E.ifThen(B.CreateICmpSLT(I, N), [&] {
      Value *Xv = B.CreateLoad(E.f32(), E.elem(E.f32(), X, I));
      B.CreateStore(B.CreateCall(Expf, {Xv}), E.elem(E.f32(), Y, I));
    });
  });

  GlobalVariable *Global = MB.addGlobalI32("offload_test_global", 42);
  MB.addKernel("read_global", 8, Plain, [Global](ThreadEnv &E) {
    Value *Out = E.arg(E.ptr(), 0);
    E.B.CreateStore(E.B.CreateLoad(E.i32(), Global), Out);
  });

  MB.addKernel("reverse", 16, Coop, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *In = E.arg(E.ptr(), 0), *Out = E.arg(E.ptr(), 8);
    Value *Tid = E.linearThreadId(), *N = E.blockThreads();
    Value *Base = B.CreateMul(linearBlockId(E), N);
    Value *S = E.sharedMemory();
    Value *V =
        B.CreateLoad(E.i32(), E.elem(E.i32(), In, B.CreateAdd(Base, Tid)));
    B.CreateStore(V, E.elem(E.i32(), S, Tid));
    E.barrier(0);
    Value *Mirror = B.CreateSub(B.CreateSub(N, E.c64(1)), Tid);
    Value *R = B.CreateLoad(E.i32(), E.elem(E.i32(), S, Mirror));
    B.CreateStore(R, E.elem(E.i32(), Out, B.CreateAdd(Base, Tid)));
  });

  Opts CoopNoStatic = Coop;
  CoopNoStatic.StaticSharedBytes = 0;
  MB.addKernel("reverse_dynamic", 16, CoopNoStatic, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *In = E.arg(E.ptr(), 0), *Out = E.arg(E.ptr(), 8);
    Value *Tid = E.linearThreadId(), *N = E.blockThreads();
    Value *Base = B.CreateMul(linearBlockId(E), N);
    Value *D = E.dynamicSharedMemory();
    Value *V =
        B.CreateLoad(E.i32(), E.elem(E.i32(), In, B.CreateAdd(Base, Tid)));
    B.CreateStore(B.CreateMul(V, E.c32(2)), E.elem(E.i32(), D, Tid));
    E.barrier(0);
    Value *Next = B.CreateURem(B.CreateAdd(Tid, E.c64(1)), N);
    Value *R = B.CreateLoad(E.i32(), E.elem(E.i32(), D, Next));
    B.CreateStore(R, E.elem(E.i32(), Out, B.CreateAdd(Base, Tid)));
  });

  MB.addKernel("shuffle", 32, CoopNoStatic, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Out = E.arg(E.ptr(), 0), *Valid = E.arg(E.ptr(), 8);
    Value *Offset = E.arg(E.i32(), 16), *Width = E.arg(E.i32(), 20);
    Value *Mode = E.arg(E.i32(), 24), *Active = E.arg(E.i32(), 28);
    Value *G = globalThreadId(E);
    Value *Lane = B.CreateURem(E.linearThreadId(), E.c64(32));
    E.returnIf(B.CreateICmpSGE(Lane, B.CreateSExt(Active, E.i64())));
    Value *V = B.CreateAdd(B.CreateMul(G, E.c64(10)), E.c64(7));
    auto [R, Ok] = E.shuffle(V, Offset, Width, Mode);
    B.CreateStore(R, E.elem(E.i64(), Out, G));
    B.CreateStore(Ok, E.elem(E.i8(), Valid, G));
  });

  MB.addKernel("warp_sum", 16, CoopNoStatic, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *In = E.arg(E.ptr(), 0), *Out = E.arg(E.ptr(), 8);
    Value *G = globalThreadId(E);
    Value *V = B.CreateLoad(E.i64(), E.elem(E.i64(), In, G));
    for (int Offset = 16; Offset >= 1; Offset /= 2) {
      auto [R, Ok] = E.shuffle(V, E.c32(Offset), E.c32(32),
                               E.c32(OFFLOAD_HOST_SHUFFLE_XOR));
      (void)Ok;
      V = B.CreateAdd(V, R);
    }
    B.CreateStore(V, E.elem(E.i64(), Out, G));
  });

  MB.addKernel("early_exit", 8, Coop, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Out = E.arg(E.ptr(), 0);
    Value *Tid = E.linearThreadId(), *N = E.blockThreads();
    Value *Base = B.CreateMul(linearBlockId(E), N);
    E.returnIf(B.CreateICmpNE(B.CreateAnd(Tid, 1), E.c64(0)));
    Value *S = E.sharedMemory();
    B.CreateStore(B.CreateTrunc(Tid, E.i32()), E.elem(E.i32(), S, Tid));
    E.barrier(0);
    Value *Src = B.CreateURem(B.CreateAdd(Tid, E.c64(2)), N);
    Value *R = B.CreateLoad(E.i32(), E.elem(E.i32(), S, Src));
    B.CreateStore(R, E.elem(E.i32(), Out, B.CreateAdd(Base, Tid)));
  });

  MB.addKernel("deadlock", 0, CoopNoStatic, [](ThreadEnv &E) {
    E.ifThenElse(
        E.B.CreateICmpULT(E.linearThreadId(), E.c64(16)), [&] { E.barrier(1); },
        [&] { E.barrier(2); });
  });

  MB.addKernel("duplicated_barrier", 8, Coop, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Out = E.arg(E.ptr(), 0);
    Value *Tid = E.linearThreadId(), *N = E.blockThreads();
    Value *Base = B.CreateMul(linearBlockId(E), N);
    Value *S = E.sharedMemory();
    B.CreateStore(B.CreateTrunc(Tid, E.i32()), E.elem(E.i32(), S, Tid));
    E.ifThenElse(
        B.CreateICmpULT(Tid, E.c64(16)), [&] { E.barrier(0); },
        [&] { E.barrier(0); });
    Value *Mirror = B.CreateSub(B.CreateSub(N, E.c64(1)), Tid);
    Value *R = B.CreateLoad(E.i32(), E.elem(E.i32(), S, Mirror));
    B.CreateStore(R, E.elem(E.i32(), Out, B.CreateAdd(Base, Tid)));
  });

  Opts NoReason = CoopNoStatic;
  NoReason.CooperativeReason.clear();
  MB.addKernel("no_reason", 0, NoReason, [](ThreadEnv &E) { E.barrier(0); });

  MB.addKernel("barrier_misuse", 0, Plain, [](ThreadEnv &E) { E.barrier(0); });

  Opts Bad = Plain;
  Bad.Version = 99;
  MB.addKernel("bad_version", 0, Bad, [](ThreadEnv &) {});

  GlobalVariable *Array = MB.addGlobalArrayI32("offload_test_array", 16);
  MB.addKernel("read_array", 16, Plain, [Array](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Out = E.arg(E.ptr(), 0), *N = E.arg(E.i64(), 8);
    Value *I = globalIndexX(E);
    E.ifThen(B.CreateICmpSLT(I, N), [&] {
      Value *V = B.CreateLoad(E.i32(), E.elem(E.i32(), Array, I));
      B.CreateStore(V, E.elem(E.i32(), Out, I));
    });
  });

  MB.addKernel("count_blocks", 8, Plain, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Counts = E.arg(E.ptr(), 0);
    B.CreateAtomicRMW(AtomicRMWInst::Add,
                      E.elem(E.i64(), Counts, linearBlockId(E)), E.c64(1),
                      MaybeAlign(8), AtomicOrdering::Monotonic);
  });

  MB.addKernel("count_blocks_cooperative", 8, CoopNoStatic, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Counts = E.arg(E.ptr(), 0);
    Value *Slot = E.elem(E.i64(), Counts, linearBlockId(E));
    B.CreateAtomicRMW(AtomicRMWInst::Add, Slot, E.c64(1), MaybeAlign(8),
                      AtomicOrdering::Monotonic);
    E.barrier(0);
    B.CreateAtomicRMW(AtomicRMWInst::Add, Slot, E.c64(1), MaybeAlign(8),
                      AtomicOrdering::Monotonic);
  });

  // Thread 0 of each block arrives at a grid-wide counter (*Counter, i64),
  // then waits until every block of the grid arrived, or until it gave up
  // after 2^30 looks, and writes the count it saw last to Seen[block]: all
  // blocks see the grid's size only when they ran at once (a cooperative
  // launch); blocks run one after another give up and see fewer.
  Opts GridOpts = Plain;
  GridOpts.ArgumentLayout = {{0, 8}, {8, 8}};
  MB.addKernel("grid_arrive_wait", 16, GridOpts, [](ThreadEnv &E) {
    IRBuilder<> &B = E.B;
    Value *Counter = E.arg(E.ptr(), 0), *Seen = E.arg(E.ptr(), 8);
    E.ifThen(B.CreateICmpEQ(E.linearThreadId(), E.c64(0)), [&] {
      Value *Blocks =
          B.CreateMul(B.CreateMul(E.gridDim(0), E.gridDim(1)), E.gridDim(2));
      B.CreateAtomicRMW(AtomicRMWInst::Add, Counter, E.c64(1), MaybeAlign(8),
                        AtomicOrdering::SequentiallyConsistent);
      BasicBlock *Entry = B.GetInsertBlock();
      Function *F = Entry->getParent();
      BasicBlock *Spin = BasicBlock::Create(F->getContext(), "spin", F);
      BasicBlock *Done = BasicBlock::Create(F->getContext(), "done", F);
      B.CreateBr(Spin);
      B.SetInsertPoint(Spin);
      PHINode *Looks = B.CreatePHI(E.i64(), 2);
      Looks->addIncoming(E.c64(0), Entry);
      LoadInst *Count = B.CreateAlignedLoad(E.i64(), Counter, Align(8));
      Count->setAtomic(AtomicOrdering::Acquire);
      Value *Next = B.CreateAdd(Looks, E.c64(1));
      Looks->addIncoming(Next, Spin);
      B.CreateCondBr(B.CreateOr(B.CreateICmpUGE(Count, Blocks),
                                B.CreateICmpUGE(Next, E.c64(int64_t(1) << 30))),
                     Done, Spin);
      B.SetInsertPoint(Done);
      B.CreateStore(Count, E.elem(E.i64(), Seen, linearBlockId(E)));
    });
  });

  Opts BadLayout = Plain;
  BadLayout.ArgumentLayout = {{4, 8}};
  MB.addKernel("bad_layout", 8, BadLayout, [](ThreadEnv &) {});
  MB.addKernel("huge_args", UINT64_MAX, Plain, [](ThreadEnv &) {});
  Opts Padded = Plain;
  Padded.ArgumentLayout = {{0, 8}};
  MB.addKernel("padded_args", 4096, Padded, [](ThreadEnv &) {});
}

const std::string &offload_test::getTestKernels() {
  static const std::string Object = [] {
    HostModuleBuilder MB("offload_test_kernels");
    buildTestKernels(MB);
    return MB.emitObject();
  }();
  return Object;
}

const std::string &offload_test::getUnresolvedObject() {
  static const std::string Object = [] {
    HostModuleBuilder MB("offload_test_unresolved");
    MB.addKernel("needs_missing", 0, {}, [](ThreadEnv &E) {
      Module &M = *E.B.GetInsertBlock()->getModule();
      FunctionCallee Missing =
          M.getOrInsertFunction("__offload_test_missing_function",
                                FunctionType::get(E.B.getVoidTy(), false));
      E.B.CreateCall(Missing);
    });
    return MB.emitObject();
  }();
  return Object;
}

const std::string &offload_test::getInitFiniObject(bool UseInitArray) {
  auto Build = [](bool UseInitArray) {
    HostModuleBuilder MB("offload_test_init_fini");
    Module &M = MB.getModule();
    LLVMContext &C = M.getContext();
    IRBuilder<> B(C);
    Type *I32 = B.getInt32Ty();
    ArrayType *LogTy = ArrayType::get(I32, 8);
    auto *Log = new GlobalVariable(
        M, LogTy, false, GlobalValue::ExternalLinkage,
        ConstantAggregateZero::get(LogTy), "offload_test_ctor_log");
    auto *Count =
        new GlobalVariable(M, I32, false, GlobalValue::ExternalLinkage,
                           B.getInt32(0), "offload_test_ctor_count");
    auto *Sink = new GlobalVariable(
        M, B.getPtrTy(), false, GlobalValue::ExternalLinkage,
        ConstantPointerNull::get(B.getPtrTy()), "offload_test_dtor_sink");
    FunctionType *VoidFn = FunctionType::get(B.getVoidTy(), false);
    auto MakeCtor = [&](int Tag) {
      Function *F = Function::Create(VoidFn, GlobalValue::InternalLinkage,
                                     "ctor" + Twine(Tag), M);
      B.SetInsertPoint(BasicBlock::Create(C, "entry", F));
      Value *N = B.CreateLoad(I32, Count);
      B.CreateStore(B.getInt32(Tag),
                    B.CreateInBoundsGEP(LogTy, Log, {B.getInt32(0), N}));
      B.CreateStore(B.CreateAdd(N, B.getInt32(1)), Count);
      B.CreateRetVoid();
      return F;
    };
    auto MakeDtor = [&](int Tag) {
      Function *F = Function::Create(VoidFn, GlobalValue::InternalLinkage,
                                     "dtor" + Twine(Tag), M);
      BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
      BasicBlock *Write = BasicBlock::Create(C, "write", F);
      BasicBlock *Done = BasicBlock::Create(C, "done", F);
      B.SetInsertPoint(Entry);
      Value *S = B.CreateLoad(B.getPtrTy(), Sink);
      B.CreateCondBr(B.CreateIsNull(S), Done, Write);
      B.SetInsertPoint(Write);
      Value *N = B.CreateLoad(I32, S);
      Value *Next = B.CreateAdd(N, B.getInt32(1));
      B.CreateStore(B.getInt32(Tag), B.CreateInBoundsGEP(I32, S, Next));
      B.CreateStore(Next, S);
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
      B.CreateRetVoid();
      return F;
    };
    appendToGlobalCtors(M, MakeCtor(2), 200);
    appendToGlobalCtors(M, MakeCtor(1), 100);
    appendToGlobalCtors(M, MakeCtor(3), 65535);
    appendToGlobalDtors(M, MakeDtor(1), 100);
    appendToGlobalDtors(M, MakeDtor(2), 200);
    appendToGlobalDtors(M, MakeDtor(3), 65535);
    return MB.emitObject(/*Optimize=*/false, UseInitArray);
  };
  static const std::string WithInitArray = Build(true);
  static const std::string WithCtors = Build(false);
  return UseInitArray ? WithInitArray : WithCtors;
}
