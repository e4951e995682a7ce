//===- KernelBuilder.h - Host kernel objects for the tests ------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Builds ELF objects for the host device the way the `#offload.host` target
// does (HostKernelABI.h): LLVM IR made with IRBuilder, one thread function per
// kernel, a block loop for non-cooperative kernels and a
// `__offload_kernel.<name>` descriptor, compiled with the native
// TargetMachine.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_UNITTESTS_KERNELBUILDER_H
#define OFFLOADRUNTIME_UNITTESTS_KERNELBUILDER_H

#include "OffloadRuntime/HostKernelABI.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace offload_test {

/// The code generation context of one GPU thread of a kernel.
class ThreadEnv {
public:
  ThreadEnv(llvm::IRBuilder<> &B, llvm::Function *F);

  llvm::IRBuilder<> &B;
  llvm::Value *Args;
  llvm::Value *Ctx;
  llvm::Value *Tx, *Ty, *Tz;

  llvm::Type *i8() { return B.getInt8Ty(); }
  llvm::Type *i32() { return B.getInt32Ty(); }
  llvm::Type *i64() { return B.getInt64Ty(); }
  llvm::Type *f32() { return B.getFloatTy(); }
  llvm::Type *ptr() { return B.getPtrTy(); }
  llvm::Value *c64(int64_t V) { return B.getInt64(V); }
  llvm::Value *c32(int32_t V) { return B.getInt32(V); }

  /// Fields of the block context (i64).
  llvm::Value *blockId(int Dim);
  llvm::Value *blockDim(int Dim);
  llvm::Value *gridDim(int Dim);
  llvm::Value *sharedMemory();
  llvm::Value *dynamicSharedMemory();
  /// Linear thread id within the block (x fastest).
  llvm::Value *linearThreadId();
  /// Threads per block.
  llvm::Value *blockThreads();

  /// Loads a \p Ty argument at byte \p Offset of the packed argument buffer.
  llvm::Value *arg(llvm::Type *Ty, uint64_t Offset);
  /// Address of element \p Index of array \p Base of \p ElemTy.
  llvm::Value *elem(llvm::Type *ElemTy, llvm::Value *Base, llvm::Value *Index);

  /// Calls __offload_host_barrier with barrier id \p Id.
  void barrier(uint32_t Id);
  /// Calls __offload_host_shuffle; returns {value, valid (i8)}.
  std::pair<llvm::Value *, llvm::Value *> shuffle(llvm::Value *Value64,
                                                  llvm::Value *Offset,
                                                  llvm::Value *Width,
                                                  llvm::Value *Mode);

  /// Emits the code of \p Then under \p Cond.
  void ifThen(llvm::Value *Cond, llvm::function_ref<void()> Then);
  /// Emits the code of \p Then under \p Cond, else \p Else.
  void ifThenElse(llvm::Value *Cond, llvm::function_ref<void()> Then,
                  llvm::function_ref<void()> Else);
  /// Returns from the thread when \p Cond holds.
  void returnIf(llvm::Value *Cond);
  /// for (I = 0; I < Count; ++I) Body(I), Count > 0 (i64).
  void loop(llvm::Value *Count, llvm::function_ref<void(llvm::Value *)> Body);

private:
  llvm::Function *F;
};

/// A module of host kernels.
class HostModuleBuilder {
public:
  explicit HostModuleBuilder(llvm::StringRef Name);
  ~HostModuleBuilder();

  llvm::Module &getModule() { return *M; }

  struct KernelOptions {
    bool Cooperative = false;
    uint64_t StaticSharedBytes = 0;
    uint32_t Version = OFFLOAD_HOST_KERNEL_ABI_VERSION;
    /// (offset, size) of each argument in the packed buffer, recorded in the
    /// descriptor; empty: the layout is unknown (NumArguments 0).
    std::vector<std::pair<uint64_t, uint64_t>> ArgumentLayout;
    /// The descriptor's CooperativeReason of a cooperative kernel; empty:
    /// null.
    std::string CooperativeReason = "the test kernel synchronizes threads";
    /// The descriptor's RequiredGroupSize and RequiredNumGroups (zeros: any).
    std::array<uint32_t, 3> RequiredGroupSize{0, 0, 0};
    std::array<uint32_t, 3> RequiredNumGroups{0, 0, 0};
  };

  /// Adds kernel \p Name whose thread body \p Body builds; \p ArgumentsSize
  /// is the size of its packed argument buffer.
  void addKernel(llvm::StringRef Name, uint64_t ArgumentsSize,
                 KernelOptions Options,
                 llvm::function_ref<void(ThreadEnv &)> Body);

  /// Adds an exported global i32 \p Name = \p Value.
  llvm::GlobalVariable *addGlobalI32(llvm::StringRef Name, int32_t Value);
  /// Adds an exported global [Count x i32] \p Name, element i = i.
  llvm::GlobalVariable *addGlobalArrayI32(llvm::StringRef Name, unsigned Count);

  /// Verifies the module and compiles it into an ELF object for the host;
  /// with \p Optimize, after LLVM's O2 pipeline (the test kernels are built
  /// without, so that they keep the shape they were built with).
  /// With \p UseInitArray, global constructors and destructors go to
  /// .init_array/.fini_array sections (clang's choice), else to .ctors/.dtors
  /// (TargetOptions' default, also MLIR's).
  std::string emitObject(bool Optimize = false, bool UseInitArray = false);

private:
  std::unique_ptr<llvm::LLVMContext> Context;
  std::unique_ptr<llvm::Module> M;
  llvm::IRBuilder<> B;
};

/// The object with every test kernel, built once per process. Kernels:
///  - saxpy {float a; float *x; float *y; int64 n}: y[i] = a*x[i] + y[i]; the
///    only kernel whose descriptor records its argument layout
///    ({0,4}, {8,8}, {16,8}, {24,8})
///  - ids {int64 *out}: each thread writes 12 int64: block id, block dim,
///    grid dim, thread id (xyz each) at out[global linear thread id * 12]
///  - ids_fixed: ids, compiled for blocks of 4x2x1 threads and grids of
///    3x1x1 blocks (the descriptor's RequiredGroupSize, RequiredNumGroups)
///  - alignment {int64 *out}: per block, SharedMemory % 64 and
///    DynamicSharedMemory % 64 at out[2*linear block id]
///  - expf {float *x; float *y; int64 n}: y[i] = expf(x[i]) (libm call)
///  - read_global {int32 *out}: out[0] = offload_test_global (42)
///  - reverse (cooperative) {int32 *in; int32 *out}: reverses each block's
///    slice through static shared memory and a barrier
///  - reverse_dynamic (cooperative) {int32 *in; int32 *out}: same, through
///    dynamic shared memory, result out[g] = 2*in[(tid+1)%bx of the block]
///  - shuffle (cooperative) {int64 *out; int8 *valid; int32 offset;
///    int32 width; int32 mode; int32 active}: lanes < active shuffle
///    value(g) = g*10+7 and write the result and Valid at out[g], valid[g];
///    other lanes exit at once (out untouched)
///  - warp_sum (cooperative) {int64 *in; int64 *out}: butterfly xor sum over
///    each warp, out[g] = sum of the warp
///  - early_exit (cooperative) {int32 *out}: odd threads exit, even threads
///    write tid to shared memory, barrier, out[g] = s[(tid+2)%bx]
///  - deadlock (cooperative, no arguments): threads < 16 wait at barrier 1,
///    the others at barrier 2
///  - duplicated_barrier (cooperative) {int32 *out}: one barrier (id 0)
///    whose call is emitted twice, in both branches of `tid < 16` (as
///    LLVM's optimizer may duplicate a call), then out[g] = tid of the
///    mirror thread, read through shared memory
///  - no_reason (cooperative, no arguments): a barrier; the descriptor has
///    no CooperativeReason
///  - barrier_misuse (non-cooperative, no arguments): calls the barrier
///  - bad_version: a descriptor with Version 99
///  - read_array {int32 *out; int64 n}: out[i] = offload_test_array[i]
///  - count_blocks {int64 *counts}: every thread atomically adds 1 to
///    counts[linear block id]
///  - count_blocks_cooperative (cooperative) {int64 *counts}: the same, twice,
///    with a barrier in between
///  - bad_layout: a descriptor whose argument 0 lies outside its 8-byte buffer
///  - huge_args: a descriptor with ArgumentsSize 2^64 - 1 (layout unknown)
///  - padded_args: a descriptor with one 8-byte argument and ArgumentsSize
///    4096
/// and the exported globals `offload_test_global` (i32 42) and
/// `offload_test_array` ([16 x i32], element i = i).
const std::string &getTestKernels();

/// An object whose kernel `needs_missing` calls an undefined function
/// `__offload_test_missing_function`.
const std::string &getUnresolvedObject();

/// An object with global constructors and destructors (internal functions
/// in llvm.global_ctors / llvm.global_dtors) and no kernel:
///  - constructors of priorities 200, 100 and 65535 (listed in that order)
///    append 2, 1 and 3 to the exported `offload_test_ctor_log` ([8 x i32],
///    zeros) at index `offload_test_ctor_count` (i32, 0) and increment it;
///  - destructors of priorities 100, 200 and 65535 append 1, 2 and 3 to the
///    int32_t array the exported pointer `offload_test_dtor_sink` points to
///    (nothing while it is null): element 0 counts, entries follow.
/// Constructors thus log 1, 2, 3 (ascending priority), destructors 3, 2, 1
/// (descending priority). \p UseInitArray: see emitObject.
const std::string &getInitFiniObject(bool UseInitArray);

} // namespace offload_test

#endif // OFFLOADRUNTIME_UNITTESTS_KERNELBUILDER_H
