//===- WorkgroupMemory.cpp - Per-block workgroup globals ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Turns workgroup globals into workgroup attributions (see the header).
//
// Mechanism. The globals a function needs are those it names and those its
// callees need (a fixed point over the direct calls of the module, so
// recursion is fine). Every kernel gets one workgroup attribution per global
// it needs: the host lowering already places attributions in the static
// shared memory of the running block, for thread loops and fibers alike.
// Device functions get the memory as trailing arguments, in the order of the
// globals in the module, and every call site passes its own values on. This
// is how a GPU's shared memory behaves: one object per block, visible to
// every function the block's threads run.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/HostKernel/WorkgroupMemory.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTWORKGROUPMEMORY
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

/// The alignment the host lowering gives every workgroup attribution, in
/// bytes (kSharedAlignment in GPUToOffloadHost.cpp).
static constexpr uint64_t kMaxWorkgroupAlignment = 16;

bool mlir::offload::isWorkgroupMemorySpace(Attribute memorySpace) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(memorySpace))
    return gpuSpace.getValue() == gpu::GPUDialect::getWorkgroupAddressSpace();
  if (auto number = dyn_cast_or_null<IntegerAttr>(memorySpace))
    return number.getValue() == kLLVMWorkgroupAddressSpace;
  return false;
}

namespace {
/// One workgroup global of the module and how its uses see it.
struct WorkgroupGlobal {
  Operation *op;
  StringAttr name;
  /// The type of the kernels' attribution (in #gpu.address_space<workgroup>).
  MemRefType attributionType;
  /// The type uses see: the global's memref type, or !llvm.ptr<3>.
  Type valueType;
};

/// The rewrite of one gpu.module.
class Privatizer {
public:
  explicit Privatizer(gpu::GPUModuleOp module) : module(module) {}
  LogicalResult run();

private:
  LogicalResult collectGlobals();
  LogicalResult collectNeeds();
  /// Rewrites \p fn's uses and calls with \p values, one per global index.
  void rewriteBody(FunctionOpInterface fn,
                   const DenseMap<unsigned, Value> &values);

  /// The globals \p fn needs, in the order of the module.
  SmallVector<unsigned> getSortedNeeds(Operation *fn) const {
    SmallVector<unsigned> sorted(needs.lookup(fn).getArrayRef());
    llvm::sort(sorted);
    return sorted;
  }

  gpu::GPUModuleOp module;
  SmallVector<WorkgroupGlobal> globals;
  DenseMap<StringAttr, unsigned> globalIndex;
  /// The functions with a body: kernels and func.func device functions.
  SmallVector<FunctionOpInterface> functions;
  /// The globals each function needs, directly or through its callees.
  DenseMap<Operation *, llvm::SetVector<unsigned>> needs;
};
} // namespace

LogicalResult Privatizer::collectGlobals() {
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      module.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  DataLayout layout = DataLayout::closest(module);
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto global = dyn_cast<memref::GlobalOp>(op)) {
      MemRefType type = global.getType();
      if (!isWorkgroupMemorySpace(type.getMemorySpace()))
        continue;
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return global.emitOpError(
                   "in workgroup memory must be statically shaped with the "
                   "identity layout on the host target, got ")
               << type;
      if (global.getAlignment() &&
          *global.getAlignment() > kMaxWorkgroupAlignment)
        return global.emitOpError("in workgroup memory is aligned to ")
               << *global.getAlignment()
               << " bytes; the host target aligns workgroup memory to at most "
               << kMaxWorkgroupAlignment;
      if (global.getInitialValue() && !isa<UnitAttr>(*global.getInitialValue()))
        global.emitWarning("initial value of a workgroup global is not "
                           "applied: workgroup memory starts undefined in "
                           "each block, as on GPUs");
      auto attributionType =
          MemRefType::get(type.getShape(), type.getElementType(),
                          MemRefLayoutAttrInterface(), workgroupSpace);
      globals.push_back(
          {global, global.getSymNameAttr(), attributionType, type});
      continue;
    }
    if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
      if (global.getAddrSpace() != kLLVMWorkgroupAddressSpace)
        continue;
      if (global.getAlignment() &&
          *global.getAlignment() > kMaxWorkgroupAlignment)
        return global.emitOpError("in address space 3 is aligned to ")
               << *global.getAlignment()
               << " bytes; the host target aligns workgroup memory to at most "
               << kMaxWorkgroupAlignment;
      if (global.getValueOrNull() || !global.getInitializerRegion().empty())
        global.emitWarning("initial value of a global in address space 3 is "
                           "not applied: workgroup memory starts undefined in "
                           "each block, as on GPUs");
      Type elementType = global.getGlobalType();
      llvm::TypeSize bytes = layout.getTypeSize(elementType);
      if (bytes.isScalable())
        return global.emitOpError("in address space 3 has a scalable size");
      // A zero-sized array (`[0 x i8]`, the extern shared array of CUDA) is
      // dynamic shared memory by another name; it is not supported here yet.
      if (bytes.getFixedValue() == 0)
        return global.emitOpError(
            "in address space 3 has no size: use gpu.dynamic_shared_memory "
            "for dynamically sized workgroup memory on the host target");
      auto attributionType =
          MemRefType::get({static_cast<int64_t>(bytes.getFixedValue())},
                          IntegerType::get(module.getContext(), 8),
                          MemRefLayoutAttrInterface(), workgroupSpace);
      auto ptrType = LLVM::LLVMPointerType::get(module.getContext(),
                                                kLLVMWorkgroupAddressSpace);
      globals.push_back(
          {global, global.getSymNameAttr(), attributionType, ptrType});
    }
  }
  for (auto [i, global] : llvm::enumerate(globals))
    globalIndex[global.name] = i;
  return success();
}

/// The global \p op names, if it is a use this rewrite understands.
static StringAttr getReferencedGlobal(Operation *op) {
  if (auto get = dyn_cast<memref::GetGlobalOp>(op))
    return get.getNameAttr().getAttr();
  if (auto address = dyn_cast<LLVM::AddressOfOp>(op))
    return address.getGlobalNameAttr().getAttr();
  return {};
}

LogicalResult Privatizer::collectNeeds() {
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (kernel.isKernel())
        functions.push_back(kernel);
    } else if (auto fn = dyn_cast<func::FuncOp>(op)) {
      if (!fn.isExternal())
        functions.push_back(fn);
    }
  }
  // Every reference to a workgroup global must be a get_global or addressof
  // in one of those functions.
  for (WorkgroupGlobal &global : globals) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(global.op, module);
    if (!uses)
      return global.op->emitOpError("has uses the host target cannot follow");
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *user = use.getUser();
      auto owner = user->getParentOfType<FunctionOpInterface>();
      bool inFunction = owner && llvm::is_contained(functions, owner) &&
                        getReferencedGlobal(user) == global.name;
      if (!inFunction)
        return user->emitOpError("refers to the workgroup global @")
               << global.name.getValue()
               << ", which the host target gives each block its own copy of: "
                  "only memref.get_global and llvm.mlir.addressof in kernels "
                  "and func.func device functions can refer to it";
      needs[owner].insert(globalIndex.lookup(global.name));
    }
  }
  // What callees need, to a fixed point.
  DenseMap<Operation *, SmallVector<Operation *>> callees;
  for (FunctionOpInterface fn : functions)
    fn->walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal())
        callees[fn].push_back(callee);
    });
  for (bool changed = true; changed;) {
    changed = false;
    for (FunctionOpInterface fn : functions)
      for (Operation *callee : callees[fn]) {
        if (callee == fn.getOperation())
          continue;
        llvm::SetVector<unsigned> calleeNeeds = needs.lookup(callee);
        for (unsigned index : calleeNeeds)
          changed |= needs[fn].insert(index);
      }
  }
  // A device function whose signature grows must be reached by calls only.
  for (FunctionOpInterface fn : functions) {
    if (isa<gpu::GPUFuncOp>(fn) || needs.lookup(fn).empty())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(fn, module);
    if (!uses)
      return fn.emitOpError("has uses the host target cannot follow");
    for (const SymbolTable::SymbolUse &use : *uses)
      if (!isa<func::CallOp>(use.getUser()))
        return use.getUser()->emitOpError("refers to @")
               << fn.getName()
               << ", which uses workgroup globals: the host target passes them "
                  "to it as arguments, so it can only be called directly";
  }
  return success();
}

void Privatizer::rewriteBody(FunctionOpInterface fn,
                             const DenseMap<unsigned, Value> &values) {
  fn->walk([&](Operation *op) {
    if (StringAttr name = getReferencedGlobal(op)) {
      auto it = globalIndex.find(name);
      if (it == globalIndex.end())
        return WalkResult::advance();
      op->getResult(0).replaceAllUsesWith(values.lookup(it->second));
      op->erase();
      return WalkResult::advance();
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return WalkResult::advance();
      SmallVector<Value> extra;
      for (unsigned index : getSortedNeeds(callee))
        extra.push_back(values.lookup(index));
      call.getOperandsMutable().append(extra);
    }
    return WalkResult::advance();
  });
}

/// Workgroup memory allocated inside a function would be per thread on the
/// host (and has no meaning on a GPU): refuse it.
static LogicalResult checkNoWorkgroupAllocations(gpu::GPUModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (!isa<memref::AllocaOp, memref::AllocOp>(op))
      return WalkResult::advance();
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (!isWorkgroupMemorySpace(type.getMemorySpace()))
      return WalkResult::advance();
    op->emitOpError("allocates workgroup memory inside a function, which the "
                    "host target cannot give each block its own copy of: use "
                    "a workgroup attribution of the kernel, a workgroup "
                    "memref.global or gpu.dynamic_shared_memory");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult Privatizer::run() {
  if (failed(checkNoWorkgroupAllocations(module)))
    return failure();
  if (failed(collectGlobals()))
    return failure();
  if (globals.empty())
    return success();
  if (failed(collectNeeds()))
    return failure();

  // Device functions first: their new arguments are what their call sites,
  // rewritten with the callers' bodies, pass on.
  for (FunctionOpInterface fn : functions) {
    auto device = dyn_cast<func::FuncOp>(fn.getOperation());
    if (!device)
      continue;
    DenseMap<unsigned, Value> values;
    for (unsigned index : getSortedNeeds(device)) {
      unsigned position = device.getNumArguments();
      if (failed(device.insertArgument(position, globals[index].valueType,
                                       DictionaryAttr(),
                                       globals[index].op->getLoc())))
        return device.emitOpError("cannot take the workgroup global @")
               << globals[index].name.getValue() << " as an argument";
      values[index] = device.getArgument(position);
    }
    rewriteBody(device, values);
  }
  for (FunctionOpInterface fn : functions) {
    auto kernel = dyn_cast<gpu::GPUFuncOp>(fn.getOperation());
    if (!kernel)
      continue;
    SmallVector<unsigned> kernelNeeds = getSortedNeeds(kernel);
    if (kernelNeeds.empty())
      continue;
    DenseMap<unsigned, Value> values;
    OpBuilder builder(kernel.getContext());
    for (unsigned index : kernelNeeds) {
      const WorkgroupGlobal &global = globals[index];
      Location loc = global.op->getLoc();
      Value memory =
          kernel.addWorkgroupAttribution(global.attributionType, loc);
      builder.setInsertionPointToStart(&kernel.front());
      if (isa<LLVM::LLVMPointerType>(global.valueType)) {
        // The block's copy as the pointer the LLVM-dialect code expects.
        Value address = memref::ExtractAlignedPointerAsIndexOp::create(
            builder, loc, memory);
        Value bits = arith::IndexCastOp::create(builder, loc,
                                                builder.getI64Type(), address);
        memory = LLVM::IntToPtrOp::create(builder, loc, global.valueType, bits);
      } else if (global.valueType != memory.getType()) {
        // The global was in memory space 3: uses keep that type.
        memory = memref::MemorySpaceCastOp::create(builder, loc,
                                                   global.valueType, memory);
      }
      values[index] = memory;
    }
    rewriteBody(kernel, values);
  }
  for (WorkgroupGlobal &global : globals)
    global.op->erase();
  return success();
}

LogicalResult
mlir::offload::privatizeWorkgroupGlobals(gpu::GPUModuleOp module) {
  return Privatizer(module).run();
}

namespace {
struct HostWorkgroupMemoryPass
    : public offload::impl::OffloadHostWorkgroupMemoryBase<
          HostWorkgroupMemoryPass> {
  void runOnOperation() override {
    if (failed(privatizeWorkgroupGlobals(getOperation())))
      signalPassFailure();
  }
};
} // namespace
