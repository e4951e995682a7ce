//===- OffloadOps.cpp - Offload dialect operations ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/IR/OffloadDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::offload;

/// Prefix of the kernel descriptors emitted by offload-host-emit-kernel-entries
/// (OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX in OffloadRuntime/HostKernelABI.h).
static constexpr llvm::StringLiteral kHostKernelSymbolPrefix =
    "__offload_kernel.";

/// Number of elements of a memref type, or std::nullopt when not static.
static std::optional<int64_t> getStaticNumElements(Type type) {
  auto ranked = dyn_cast<MemRefType>(type);
  if (!ranked || !ranked.hasStaticShape())
    return std::nullopt;
  return ranked.getNumElements();
}

static Type getElementType(Type type) {
  return cast<BaseMemRefType>(type).getElementType();
}

/// Whether a ranked memref is laid out contiguously (so it can be copied or
/// filled as one block of bytes). Unranked memrefs are checked at run time.
static bool isContiguous(Type type) {
  auto ranked = dyn_cast<MemRefType>(type);
  return !ranked || ranked.getLayout().isIdentity() ||
         ranked.areTrailingDimsContiguous(ranked.getRank());
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  MemRefType type = getMemref().getType();
  if (!type.getLayout().isIdentity())
    return emitOpError("result must have the identity layout, got ") << type;
  int64_t numDynamic = type.getNumDynamicDims();
  if (static_cast<int64_t>(getDynamicSizes().size()) != numDynamic)
    return emitOpError("expected ")
           << numDynamic << " dynamic size(s) for " << type << ", got "
           << getDynamicSizes().size();
  return success();
}

//===----------------------------------------------------------------------===//
// MemcpyOp
//===----------------------------------------------------------------------===//

LogicalResult MemcpyOp::verify() {
  // Element types are checked by AllElementTypesMatch.
  Type dstType = getDst().getType(), srcType = getSrc().getType();
  std::optional<int64_t> dstCount = getStaticNumElements(dstType);
  std::optional<int64_t> srcCount = getStaticNumElements(srcType);
  if (dstCount && srcCount && *dstCount != *srcCount)
    return emitOpError("source has ")
           << *srcCount << " elements but destination has " << *dstCount;
  if (!isContiguous(dstType) || !isContiguous(srcType))
    return emitOpError("source and destination must be contiguous");
  return success();
}

//===----------------------------------------------------------------------===//
// MemfillOp
//===----------------------------------------------------------------------===//

LogicalResult MemfillOp::verify() {
  // The value type is checked against the element type by TypesMatchWith.
  Type elementType = getElementType(getDst().getType());
  if (!elementType.isIntOrIndexOrFloat())
    return emitOpError("element type must be an integer, index or float, got ")
           << elementType;
  if (!isContiguous(getDst().getType()))
    return emitOpError("destination must be contiguous");
  return success();
}

//===----------------------------------------------------------------------===//
// QueueWaitOp
//===----------------------------------------------------------------------===//

LogicalResult QueueWaitOp::verify() {
  if (getEvents().empty())
    return emitOpError("expects at least one event");
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

/// Parses the `(%a : f32, %b : memref<?xf32>)` list that follows `args` in a
/// launch, the syntax of gpu.launch_func.
static ParseResult
parseLaunchArgs(OpAsmParser &parser,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                SmallVectorImpl<Type> &types) {
  auto parseArg = [&]() -> ParseResult {
    return failure(parser.parseOperand(operands.emplace_back()) ||
                   parser.parseColonType(types.emplace_back()));
  };
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseArg,
                                        " in argument list");
}

static void printLaunchArgs(OpAsmPrinter &printer, Operation *,
                            OperandRange operands, TypeRange types) {
  printer << "(";
  llvm::interleaveComma(llvm::zip_equal(operands, types), printer,
                        [&](auto pair) {
                          auto [operand, type] = pair;
                          printer << operand << " : " << type;
                        });
  printer << ")";
}

LogicalResult LaunchOp::verify() {
  if (getKernel().getNestedReferences().size() != 1)
    return emitOpError("expects a kernel symbol of the form @module::@kernel, "
                       "got ")
           << getKernel();
  if (getEvent() && !getQueue())
    return emitOpError("an event result requires a queue");
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // Symbols are resolved from the closest symbol table above the launch.
  Operation *table = SymbolTable::getNearestSymbolTable(getOperation());
  if (!table)
    return success();
  Operation *module = symbolTable.lookupNearestSymbolFrom(
      table, getKernel().getRootReference());
  if (!module)
    return emitOpError("kernel module '")
           << getKernelModuleName() << "' is undefined";
  // Compiled modules are opaque: their kernels are checked at run time.
  if (isa<gpu::BinaryOp>(module))
    return success();
  auto gpuModule = dyn_cast<gpu::GPUModuleOp>(module);
  if (!gpuModule)
    return emitOpError("'")
           << getKernelModuleName() << "' is not a gpu.module or gpu.binary";
  auto kernel = gpuModule.lookupSymbol<gpu::GPUFuncOp>(getKernelName());
  // Once a target lowered the module's kernels (to llvm.func, or to the host
  // ABI's descriptor), only their existence can be checked.
  if (!kernel && (gpuModule.lookupSymbol(getKernelName()) ||
                  gpuModule.lookupSymbol(
                      (kHostKernelSymbolPrefix + getKernelName()).str())))
    return success();
  if (!kernel)
    return emitOpError("kernel '")
           << getKernelName() << "' is undefined in module '"
           << getKernelModuleName() << "'";
  if (!kernel.isKernel())
    return emitOpError("'") << getKernel()
                            << "' is not a kernel (gpu.func without the "
                               "'kernel' attribute)";
  ArrayRef<Type> expected = kernel.getArgumentTypes();
  if (expected.size() != getKernelOperands().size())
    return emitOpError("kernel '")
           << getKernelName() << "' expects " << expected.size()
           << " argument(s), got " << getKernelOperands().size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(expected, getKernelOperands()))) {
    auto [type, operand] = pair;
    if (type != operand.getType())
      return emitOpError("argument #")
             << index << " has type " << operand.getType() << " but kernel '"
             << getKernelName() << "' expects " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// RuntimeConstantOp
//===----------------------------------------------------------------------===//

LogicalResult RuntimeConstantOp::verify() {
  // Device code: a gpu.func, or a function nested in a gpu.module.
  auto func = getOperation()->getParentOfType<FunctionOpInterface>();
  if (!func || !func->getParentOfType<gpu::GPUModuleOp>())
    return emitOpError("expects to be inside a gpu.func or a function nested "
                       "in a gpu.module");
  Type type = getValue().getType();
  if (getContents()) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape())
      return emitOpError("'contents' requires a statically shaped memref, got ")
             << type;
    if (!memref.getElementType().isIntOrIndexOrFloat())
      return emitOpError("'contents' requires integer or float elements, got ")
             << memref.getElementType();
    return success();
  }
  if (!type.isIntOrIndexOrFloat())
    return emitOpError("expects an integer, index or float value (or a memref "
                       "with 'contents'), got ")
           << type;
  return success();
}

#define GET_OP_CLASSES
#include "OffloadDialect/IR/OffloadOps.cpp.inc"
