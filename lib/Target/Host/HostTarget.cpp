//===- HostTarget.cpp - The #offload.host gpu target ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Serializes a gpu.module, whose kernels offload-host-kernel-to-llvm lowered
// to LLVM dialect, for the CPU: LLVM IR is optimized at the target's level and
// emitted as an ELF relocatable object (position independent, so the
// runtime's JIT linker can place it anywhere and reach libc through its GOT).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Target/Host/HostTarget.h"
#include "OffloadDialect/IR/OffloadDialect.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <memory>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace mlir::offload;

/// The host CPU's features as an LLVM feature string ("+avx2,-avx512f,...").
static std::string getHostFeatures() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::string result;
  for (const auto &feature : features) {
    if (!result.empty())
      result += ',';
    result += (feature.second ? "+" : "-");
    result += feature.first().str();
  }
  return result;
}

static void initializeNativeTarget() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

namespace {
/// Host target machines, reused across serializations. Creating an
/// llvm::TargetMachine is cheap, but its first subtarget (X86Subtarget: the
/// feature string's implied features, X86TargetLowering's operation actions)
/// costs about as much as generating the code of a small kernel, and
/// upstream's ModuleToObject creates one machine for the optimizer and we
/// another for code generation, at every serialization. A machine serves
/// one serialization at a time (TargetMachine is not safe for concurrent
/// code generation): acquire() takes an idle one for the key or creates one,
/// release() returns it, keeping at most kMaxIdle per key.
///
/// Each machine keeps its object-file code generation pipeline too (a
/// legacy pass manager from addPassesToEmitFile, writing into a buffer of
/// its own): building it (the passes, their analysis usage) was about 7% of
/// the instructions of a small kernel's compile. The pipeline is made for
/// any number of modules: each run initializes its passes for the module
/// and finalizes them after it (MachineModuleInfo resets its MCContext,
/// the AsmPrinter finishes and resets its object streamer), as llc's
/// pipeline does for its one module (test/Target/Host/serialize.mlir: the
/// same kernel's object is the same after another module).
struct PooledMachine {
  std::unique_ptr<llvm::TargetMachine> target;
  /// The code generation pipeline to an object file, built on first use;
  /// it writes into `object` through `stream` (declared last: destroyed
  /// first, before what it refers to).
  SmallVector<char, 0> object;
  std::unique_ptr<llvm::raw_svector_ostream> stream;
  std::unique_ptr<llvm::legacy::PassManager> codegen;
};

class TargetMachinePool {
public:
  using Machine = std::unique_ptr<PooledMachine>;
  static TargetMachinePool &get() {
    static TargetMachinePool *pool =
        new TargetMachinePool(); // lives until exit
    return *pool;
  }

  /// An idle machine for \p key, or null if there is none.
  Machine acquire(StringRef key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = idle.find(key);
    if (it == idle.end() || it->second.empty())
      return nullptr;
    Machine machine = std::move(it->second.back());
    it->second.pop_back();
    return machine;
  }

  void release(StringRef key, Machine machine) {
    std::lock_guard<std::mutex> lock(mutex);
    SmallVector<Machine, 2> &machines = idle[key];
    if (machines.size() < kMaxIdle)
      machines.push_back(std::move(machine));
  }

private:
  static constexpr size_t kMaxIdle = 4;
  std::mutex mutex;
  llvm::StringMap<SmallVector<Machine, 2>> idle;
};

/// Serializes a lowered gpu.module for the host CPU.
class HostSerializer : public LLVM::ModuleToObject {
public:
  HostSerializer(Operation &module, StringRef triple, StringRef chip,
                 StringRef features, int optLevel,
                 const gpu::TargetOptions &options)
      : ModuleToObject(module, triple, chip, features, optLevel,
                       options.getInitialLlvmIRCallback(),
                       options.getLinkedLlvmIRCallback(),
                       options.getOptimizedLlvmIRCallback(),
                       options.getISACallback()),
        format(options.getCompilationTarget()) {}
  ~HostSerializer() override {
    if (machine)
      TargetMachinePool::get().release(machineKey, std::move(machine));
  }

protected:
  /// The data layout and triple of the pooled machine (upstream's creates
  /// a machine of its own for them).
  void setDataLayoutAndTriple(llvm::Module &llvmModule) override;
  /// Optimizes at the target's level with the machine code generation uses.
  LogicalResult optimizeModule(llvm::Module &llvmModule, int optL) override;
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override;

private:
  /// The machine of this serialization: position independent, at the code
  /// generation level of the optimization level; from the pool.
  FailureOr<llvm::TargetMachine *> getMachine();

  gpu::CompilationTarget format;
  std::string machineKey;
  TargetMachinePool::Machine machine;
  /// getMachine() failed and said why.
  bool machineFailed = false;
};
} // namespace

FailureOr<llvm::TargetMachine *> HostSerializer::getMachine() {
  if (machine)
    return machine->target.get();
  if (machineFailed)
    return failure();
  machineFailed = true; // until a machine exists
  llvm::CodeGenOptLevel level = optLevel >= 2
                                    ? llvm::CodeGenOptLevel::Aggressive
                                    : llvm::CodeGenOptLevel::Less;
  machineKey = (triple + "\n" + chip + "\n" + features + "\n" +
                Twine(static_cast<int>(level)))
                   .str();
  machine = TargetMachinePool::get().acquire(machineKey);
  if (machine) {
    machineFailed = false;
    return machine->target.get();
  }
  std::string error;
  llvm::Triple targetTriple(triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(targetTriple, error);
  if (!target)
    return getOperation().emitError()
           << "cannot serialize for the host: " << error;
  std::unique_ptr<llvm::TargetMachine> created(target->createTargetMachine(
      targetTriple, chip, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, level));
  if (!created)
    return getOperation().emitError() << "cannot create a target machine for '"
                                      << triple << "', chip '" << chip << "'";
  machine = std::make_unique<PooledMachine>();
  machine->target = std::move(created);
  machineFailed = false;
  return machine->target.get();
}

void HostSerializer::setDataLayoutAndTriple(llvm::Module &llvmModule) {
  FailureOr<llvm::TargetMachine *> tm = getMachine();
  if (failed(tm))
    return; // optimizeModule and moduleToObject fail with the reason given
  llvmModule.setDataLayout((*tm)->createDataLayout());
  llvmModule.setTargetTriple((*tm)->getTargetTriple());
}

/// Whether loop \p loop loads or stores vectors: a loop that
/// offload-host-vectorize-thread-loops made (its lanes are threads).
static bool accessesVectors(const llvm::Loop &loop) {
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &inst : *block) {
      if (auto *load = dyn_cast<llvm::LoadInst>(&inst);
          load && load->getType()->isVectorTy())
        return true;
      if (auto *store = dyn_cast<llvm::StoreInst>(&inst);
          store && store->getValueOperand()->getType()->isVectorTy())
        return true;
    }
  return false;
}

/// Marks the scalar remainder loops of thread loops that MLIR already
/// vectorized (offload-host-vectorize-thread-loops: a vector loop over
/// whole groups of lanes, then a scalar loop over the last threads, fewer
/// than one group) as LLVM marks the scalar epilogue of a loop it vectorized
/// itself: `llvm.loop.isvectorized` and `llvm.loop.unroll.disable`. Without
/// them, LLVM's loop vectorizer vectorizes the remainder again (runtime
/// alias checks, a vector body, a vector epilogue, since the kernel's
/// buffers may alias) and the unroller unrolls it, which for a small kernel
/// is about half of its optimization and code generation time, for a loop
/// that runs fewer iterations than a vector has lanes.
///
/// The vector loops themselves get `llvm.loop.unroll.runtime.disable`: each
/// iteration already runs a group of threads, and LLVM's runtime unrolling
/// (8 copies of the body for a small one, plus a loop over the leftover
/// groups) was, after the remainders, most of what was left of the kernel's
/// optimization and code generation time (axpy: 0.75x of the instructions
/// of a cold compile without it), for no measurable speed (bench/README.md).
/// A vector thread loop (not nested in another loop) whose trip count is
/// bounded but not a constant (a known block size behind a bounds check: at
/// most 8 groups of 16 threads for a 128-thread block) gets
/// `llvm.loop.unroll.disable` instead: LLVM unrolled it fully by its bound (8
/// copies of the body, each with its exit test), which was 0.8x of the
/// instructions of a cold compile of axpy. Full unrolling of a loop with a
/// constant trip count is still LLVM's decision.
///
/// A remainder is recognized by its structure: an innermost loop without
/// vector accesses whose induction variable starts at a value the exit
/// condition of an innermost vector loop compares against (it continues
/// where the vector loop stops), entered right after that loop.
static void markVectorizedRemainders(llvm::Module &llvmModule) {
  for (llvm::Function &func : llvmModule) {
    if (func.isDeclaration())
      continue;
    // Cheap filter: no vector access, no vectorized thread loop.
    bool anyVector = llvm::any_of(llvm::instructions(func), [](auto &inst) {
      return isa<llvm::StoreInst>(inst) && cast<llvm::StoreInst>(inst)
                                               .getValueOperand()
                                               ->getType()
                                               ->isVectorTy();
    });
    if (!anyVector)
      continue;
    llvm::DominatorTree dominators(func);
    llvm::LoopInfo loops(dominators);
    SmallVector<llvm::Loop *> vectorLoops, scalarLoops;
    for (llvm::Loop *loop : loops.getLoopsInPreorder())
      if (loop->isInnermost())
        (accessesVectors(*loop) ? vectorLoops : scalarLoops).push_back(loop);
    std::optional<llvm::TargetLibraryInfoImpl> libraryInfoImpl;
    std::optional<llvm::TargetLibraryInfo> libraryInfo;
    std::optional<llvm::AssumptionCache> assumptions;
    std::optional<llvm::ScalarEvolution> scev;
    if (!vectorLoops.empty()) {
      libraryInfoImpl.emplace(llvmModule.getTargetTriple());
      libraryInfo.emplace(*libraryInfoImpl, &func);
      assumptions.emplace(func);
      scev.emplace(func, *libraryInfo, *assumptions, dominators, loops);
    }
    for (llvm::Loop *vector : vectorLoops) {
      // A thread loop (outermost) with a bounded trip count that is not a
      // constant (a known block size with a bounds check): no unrolling at
      // all (LLVM would unroll it fully by its bound). A constant trip
      // count, or a loop inside the thread loop (a loop of each thread,
      // where unrolling by a bound is as useful as in any loop): LLVM
      // decides.
      bool bounded = vector->getLoopDepth() == 1 &&
                     scev->getSmallConstantTripCount(vector) == 0 &&
                     scev->getSmallConstantMaxTripCount(vector) != 0;
      llvm::addStringMetadataToLoop(vector,
                                    bounded
                                        ? "llvm.loop.unroll.disable"
                                        : "llvm.loop.unroll.runtime.disable",
                                    1);
    }
    for (llvm::Loop *scalar : scalarLoops) {
      llvm::BasicBlock *preheader = scalar->getLoopPreheader();
      if (!preheader)
        continue;
      for (llvm::Loop *vector : vectorLoops) {
        llvm::BasicBlock *exit = vector->getExitBlock();
        llvm::BasicBlock *exiting = vector->getExitingBlock();
        if (!exit || !exiting || !dominators.dominates(exit, preheader))
          continue;
        auto *branch = dyn_cast<llvm::BranchInst>(exiting->getTerminator());
        auto *exitTest = branch && branch->isConditional()
                             ? dyn_cast<llvm::ICmpInst>(branch->getCondition())
                             : nullptr;
        if (!exitTest)
          continue;
        // The scalar loop's induction starts at the vector loop's bound.
        bool continues =
            llvm::any_of(scalar->getHeader()->phis(), [&](llvm::PHINode &phi) {
              llvm::Value *start = phi.getIncomingValueForBlock(preheader);
              return start && (start == exitTest->getOperand(0) ||
                               start == exitTest->getOperand(1));
            });
        if (!continues)
          continue;
        llvm::addStringMetadataToLoop(scalar, "llvm.loop.isvectorized", 1);
        llvm::addStringMetadataToLoop(scalar, "llvm.loop.unroll.disable", 1);
        break;
      }
    }
  }
}

LogicalResult HostSerializer::optimizeModule(llvm::Module &llvmModule,
                                             int optL) {
  if (optL < 0 || optL > 3)
    return getOperation().emitError()
           << "invalid optimization level " << optL << " (0 to 3)";
  FailureOr<llvm::TargetMachine *> tm = getMachine();
  if (failed(tm))
    return failure();
  markVectorizedRemainders(llvmModule);
  // The same new-pass-manager pipeline as upstream's ModuleToObject
  // (buildPerModuleDefaultPipeline at optL).
  if (llvm::Error error =
          makeOptimizingTransformer(optL, /*sizeLevel=*/0, *tm)(&llvmModule))
    return getOperation().emitError() << "cannot optimize the LLVM IR: "
                                      << llvm::toString(std::move(error));
  return success();
}

FailureOr<SmallVector<char, 0>>
HostSerializer::moduleToObject(llvm::Module &llvmModule) {
  if (format == gpu::CompilationTarget::Offload)
    return ModuleToObject::moduleToObject(llvmModule);

  FailureOr<llvm::TargetMachine *> tm = getMachine();
  if (failed(tm))
    return failure();
  if (format == gpu::CompilationTarget::Assembly) {
    FailureOr<SmallString<0>> isa = translateModuleToISA(
        llvmModule, **tm, [&] { return getOperation().emitError(); });
    if (failed(isa))
      return failure();
    return SmallVector<char, 0>(isa->begin(), isa->end());
  }

  if (!machine->codegen) {
    auto codegen = std::make_unique<llvm::legacy::PassManager>();
    auto stream = std::make_unique<llvm::raw_svector_ostream>(machine->object);
    if ((*tm)->addPassesToEmitFile(*codegen, *stream, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
      return getOperation().emitError()
             << "the host target machine cannot emit object files";
    machine->codegen = std::move(codegen);
    machine->stream = std::move(stream);
  }
  machine->object.clear();
  machine->codegen->run(llvmModule);
  SmallVector<char, 0> object = std::move(machine->object);
  machine->object.clear();
  return object;
}

llvm::Error mlir::offload::checkHostTarget(StringRef triple, StringRef chip,
                                           StringRef features) {
  initializeNativeTarget();
  std::string tripleName =
      triple.empty() ? llvm::sys::getProcessTriple() : triple.str();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(tripleName), error);
  if (!target)
    return llvm::createStringError("no LLVM target for triple '" + tripleName +
                                   "': " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(llvm::Triple(tripleName), "", ""));
  if (!info)
    return llvm::createStringError("cannot describe the subtargets of '" +
                                   tripleName + "'");
  if (!chip.empty() && !info->isCPUStringValid(chip))
    return llvm::createStringError("unknown chip '" + chip + "' for " +
                                   tripleName +
                                   " (llc -mcpu=help lists the valid ones)");
  SmallVector<StringRef> items;
  features.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    StringRef name = item.trim();
    if (!name.consume_front("+") && !name.consume_front("-"))
      return llvm::createStringError("feature '" + item +
                                     "' must start with '+' or '-'");
    if (!llvm::any_of(info->getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &feature) {
                        return name == feature.Key;
                      }))
      return llvm::createStringError("unknown feature '" + name + "' for " +
                                     tripleName +
                                     " (llc -mattr=help lists the valid ones)");
  }
  return llvm::Error::success();
}

/// Emits a diagnostic on \p module unless LLVM knows \p chip and every
/// feature of \p features for \p triple. LLVM only warns about unknown
/// processors and then may abort in code generation, so this is checked
/// first.
static LogicalResult checkChipAndFeatures(Operation &module, StringRef triple,
                                          StringRef chip, StringRef features) {
  if (llvm::Error error = checkHostTarget(triple, chip, features))
    return mlir::emitError(module.getLoc())
           << "#offload.host: " << llvm::toString(std::move(error));
  return success();
}

namespace {
/// gpu::TargetAttrInterface for #offload.host.
class HostTargetAttrImpl
    : public gpu::TargetAttrInterface::FallbackModel<HostTargetAttrImpl> {
public:
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *module,
                    const gpu::TargetOptions &options) const;

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const;
};
} // namespace

std::optional<SmallVector<char, 0>>
HostTargetAttrImpl::serializeToObject(Attribute attribute, Operation *module,
                                      const gpu::TargetOptions &options) const {
  auto gpuModule = dyn_cast_or_null<gpu::GPUModuleOp>(module);
  if (!gpuModule) {
    if (module)
      module->emitError("#offload.host can only serialize a gpu.module");
    return std::nullopt;
  }
  // The module must already be in LLVM dialect.
  WalkResult walk = gpuModule.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module || isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("'")
        << op->getName()
        << "' cannot be serialized by #offload.host: run the host kernel "
           "pipeline (offload-host-kernel-to-llvm) on the gpu.module first";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return std::nullopt;

  auto target = cast<HostTargetAttr>(attribute);
  initializeNativeTarget();
  std::string triple = target.getTriple().empty()
                           ? llvm::sys::getProcessTriple()
                           : target.getTriple().str();
  std::string chip = target.getChip().empty()
                         ? llvm::sys::getHostCPUName().str()
                         : target.getChip().str();
  std::string features =
      target.getFeatures().empty() && target.getChip().empty()
          ? getHostFeatures()
          : target.getFeatures().str();
  if (failed(checkChipAndFeatures(*module, triple, chip, features)))
    return std::nullopt;
  HostSerializer serializer(*module, triple, chip, features, target.getO(),
                            options);
  return serializer.run();
}

Attribute
HostTargetAttrImpl::createObject(Attribute attribute, Operation *module,
                                 const SmallVector<char, 0> &object,
                                 const gpu::TargetOptions &options) const {
  Builder builder(attribute.getContext());
  return gpu::ObjectAttr::get(
      attribute.getContext(), attribute, options.getCompilationTarget(),
      builder.getStringAttr(StringRef(object.data(), object.size())),
      /*properties=*/nullptr, /*kernels=*/nullptr);
}

void mlir::offload::registerHostTargetInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, OffloadDialect *dialect) {
    HostTargetAttr::attachInterface<HostTargetAttrImpl>(*context);
  });
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

void mlir::offload::registerHostTargetInterfaceExternalModels(
    MLIRContext &context) {
  DialectRegistry registry;
  registerHostTargetInterfaceExternalModels(registry);
  context.appendDialectRegistry(registry);
}
