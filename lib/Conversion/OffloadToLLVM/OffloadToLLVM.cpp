//===- OffloadToLLVM.cpp - Offload ops to runtime calls -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Lowers host-side offload ops to LLVM dialect calls into the runtime's C API
// (include/OffloadRuntime/OffloadAPI.h) and gpu.binary ops to constant
// globals holding the selected device image.
//
// Every call returning an offload_result_t is followed by
// `offloadAbortOnError(result, "<context>")`. Out-parameters live in allocas
// at the start of the closest automatic allocation scope (the function, or
// e.g. an async.execute body), never inside loops.
//
// Kernel arguments are packed into one buffer whose layout is the non-packed
// LLVM struct of the lowered argument types, in order; a ranked memref
// contributes its descriptor's fields as separate members (allocated pointer,
// aligned pointer, offset, sizes[rank], strides[rank]). That is the layout
// OffloadSupport/KernelArguments.h describes for every other component
// (unittests/Support/KernelArgumentsTest.cpp compares the two).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/OffloadToLLVM/OffloadToLLVM.h"

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadSupport/KernelArguments.h"
#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_CONVERTOFFLOADTOLLVM
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

//===----------------------------------------------------------------------===//
// The runtime's declaration table
//===----------------------------------------------------------------------===//

namespace {

/// A C type of the runtime API, as lowered to LLVM.
enum class CType : uint8_t {
  Void,           ///< void
  Ptr,            ///< pointers, handles and offload_result_t
  Enum,           ///< C enums (i32)
  U32,            ///< uint32_t
  I64,            ///< int64_t
  Size,           ///< size_t (the converter's index type)
  Dimensions,     ///< offload_dimensions_t (kDimensionsFields)
  LaunchSizeArgs, ///< offload_kernel_launch_size_args_t
};

// The members of the structs the lowering builds (DimensionsField,
// kDimensionsFields, LaunchSizeArgsField, kLaunchSizeArgsFields), generated
// from include/OffloadRuntime/API/OffloadAPI.td.
#define OFFLOAD_RUNTIME_STRUCTS
#include "OffloadRuntimeFunctions.inc"

/// The runtime entry points the lowering calls (the functions of
/// OffloadAPI.td marked LoweringUses, and the JIT's); indexes
/// kRuntimeFunctions.
enum class RuntimeFunction : unsigned {
#define OFFLOAD_RUNTIME_FUNCTION_NAMES
#include "OffloadRuntimeFunctions.inc"
};

/// The declaration of a runtime entry point.
struct RuntimeFunctionDecl {
  StringLiteral name;
  CType result;
  unsigned numParams;
  CType params[6];
};

} // namespace

/// One entry per RuntimeFunction, in order, generated from OffloadAPI.td.
static constexpr RuntimeFunctionDecl kRuntimeFunctions[] = {
#define OFFLOAD_RUNTIME_FUNCTION_DECLS
#include "OffloadRuntimeFunctions.inc"
};

/// The first file location inside \p loc, or null.
static FileLineColLoc getFirstFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// "file:line:col" of \p loc (the first file location inside it), else how
/// MLIR prints it.
static std::string formatLoc(Location loc) {
  std::string text;
  if (FileLineColLoc file = getFirstFileLoc(loc))
    text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
               .str();
  if (text.empty()) {
    llvm::raw_string_ostream os(text);
    os << loc;
  }
  return text;
}

/// offload_platform_backend_t of a platform.
static int32_t getBackend(Platform platform) {
  switch (platform) {
  case Platform::host:
    return 3; // OFFLOAD_PLATFORM_BACKEND_HOST
  case Platform::cuda:
    return 1; // OFFLOAD_PLATFORM_BACKEND_CUDA
  case Platform::hip:
    return 2; // OFFLOAD_PLATFORM_BACKEND_AMDGPU
  case Platform::any:
    return 0; // OFFLOAD_PLATFORM_BACKEND_UNKNOWN
  }
  llvm_unreachable("unknown platform");
}

/// offload_alloc_type_t of an allocation kind.
static int32_t getAllocType(AllocKind kind) {
  switch (kind) {
  case AllocKind::host:
    return 0; // OFFLOAD_ALLOC_TYPE_HOST
  case AllocKind::device:
    return 1; // OFFLOAD_ALLOC_TYPE_DEVICE
  case AllocKind::managed:
    return 2; // OFFLOAD_ALLOC_TYPE_MANAGED
  }
  llvm_unreachable("unknown allocation kind");
}

//===----------------------------------------------------------------------===//
// Images
//===----------------------------------------------------------------------===//

/// Prefix of the globals holding device images.
static constexpr StringLiteral kImagePrefix = "__offload_image.";

/// Returns the object of \p binary its offloading handler selects
/// (`#gpu.select_object<index or target>`, by default the first object), or
/// an error message.
static FailureOr<gpu::ObjectAttr> selectObject(gpu::BinaryOp binary,
                                               std::string &error) {
  ArrayRef<Attribute> objects = binary.getObjects().getValue();
  Attribute handler = binary.getOffloadingHandlerAttr();
  auto select = dyn_cast_if_present<gpu::SelectObjectAttr>(handler);
  if (handler && !select) {
    error = "unsupported offloading handler (only #gpu.select_object is)";
    return failure();
  }
  Attribute target = select ? select.getTarget() : Attribute();
  if (!target)
    return cast<gpu::ObjectAttr>(objects.front());
  if (auto index = dyn_cast<IntegerAttr>(target)) {
    int64_t value = index.getInt();
    if (value < 0 || value >= static_cast<int64_t>(objects.size())) {
      error = "object index " + std::to_string(value) + " is out of range";
      return failure();
    }
    return cast<gpu::ObjectAttr>(objects[value]);
  }
  for (Attribute object : objects)
    if (cast<gpu::ObjectAttr>(object).getTarget() == target)
      return cast<gpu::ObjectAttr>(object);
  error = "no object for the selected target";
  return failure();
}

/// Whether \p object holds MLIR for the JIT (made by offload-embed-mlir).
static bool isJITObject(gpu::ObjectAttr object) {
  DictionaryAttr properties = object.getProperties();
  return properties &&
         properties.get(OffloadDialect::JitAttrHelper::getNameStr());
}

/// Whether the kernel module \p name in \p symbolTable is a gpu.binary whose
/// selected object is MLIR for the JIT.
static bool isJITModule(Operation *symbolTable, StringRef name) {
  auto binary = dyn_cast_if_present<gpu::BinaryOp>(
      SymbolTable::lookupSymbolIn(symbolTable, name));
  std::string error;
  if (!binary)
    return false;
  FailureOr<gpu::ObjectAttr> object = selectObject(binary, error);
  return succeeded(object) && isJITObject(*object);
}

/// Returns the `__offload_image.<name>` global of the gpu.binary \p name in
/// \p symbolTable, creating it (just before the binary) if needed.
static FailureOr<LLVM::GlobalOp> getOrCreateImageGlobal(OpBuilder &builder,
                                                        Operation *symbolTable,
                                                        StringRef name) {
  std::string globalName = (kImagePrefix + name).str();
  if (auto global = dyn_cast_if_present<LLVM::GlobalOp>(
          SymbolTable::lookupSymbolIn(symbolTable, globalName)))
    return global;
  auto binary = dyn_cast_if_present<gpu::BinaryOp>(
      SymbolTable::lookupSymbolIn(symbolTable, name));
  if (!binary)
    return failure();
  std::string error;
  FailureOr<gpu::ObjectAttr> object = selectObject(binary, error);
  if (failed(object))
    return failure();
  StringRef bytes = object->getObject().getValue();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(binary);
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
  return LLVM::GlobalOp::create(builder, binary.getLoc(), type,
                                /*isConstant=*/true, LLVM::Linkage::Internal,
                                globalName, builder.getStringAttr(bytes),
                                /*alignment=*/64);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Returns a pointer to a constant, null-terminated copy of \p value in a
/// global named \p baseName (or \p baseName.N if that name holds something
/// else), created once in the symbol table enclosing \p op.
static Value getOrCreateGlobalString(OpBuilder &builder, Location loc,
                                     Operation *op, StringRef baseName,
                                     StringRef value) {
  Operation *symbolTable = op->getParentWithTrait<OpTrait::SymbolTable>();
  std::string contents = (value + Twine('\0')).str();
  StringAttr contentsAttr = builder.getStringAttr(contents);
  for (unsigned suffix = 0;; ++suffix) {
    std::string name =
        suffix == 0 ? baseName.str() : (baseName + "." + Twine(suffix)).str();
    Operation *existing = SymbolTable::lookupSymbolIn(symbolTable, name);
    if (auto global = dyn_cast_if_present<LLVM::GlobalOp>(existing);
        global && global.getValueAttr() == contentsAttr)
      return LLVM::AddressOfOp::create(builder, loc, global);
    if (existing)
      continue;
    LLVM::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&symbolTable->getRegion(0).front());
      auto type =
          LLVM::LLVMArrayType::get(builder.getI8Type(), contents.size());
      global =
          LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                 LLVM::Linkage::Internal, name, contentsAttr);
    }
    return LLVM::AddressOfOp::create(builder, loc, global);
  }
}

/// Whether allocas for ops nested in \p op belong at the start of \p op's
/// region: functions, isolated ops and allocation scopes (e.g. async.execute,
/// whose body may run concurrently with its parent), but not sequential loops,
/// so that allocas are hoisted out of them. Parallel loops keep their own
/// allocas, as iterations may run concurrently.
static bool isAllocaScope(Operation *op) {
  if (isa<FunctionOpInterface>(op) ||
      op->hasTrait<OpTrait::IsIsolatedFromAbove>())
    return true;
  if (!op->hasTrait<OpTrait::AutomaticAllocationScope>())
    return false;
  return !isa<LoopLikeOpInterface>(op) ||
         isa<scf::ParallelOp, scf::ForallOp>(op);
}

/// Returns the entry block of the region, enclosing \p op, of its closest
/// alloca scope, or null if there is none.
static Block *getAllocaBlock(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (!parent)
      return nullptr;
    if (isAllocaScope(parent))
      return &region->front();
  }
  return nullptr;
}

/// Whether memrefs of \p type are contiguous (copyable as one byte range).
static bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         type.areTrailingDimsContiguous(type.getRank());
}

namespace {

//===----------------------------------------------------------------------===//
// Pattern base
//===----------------------------------------------------------------------===//

/// Base of the offload op lowerings: emits runtime calls, error checks and
/// allocas.
template <typename OpTy>
class OffloadOpLowering : public ConvertOpToLLVMPattern<OpTy> {
public:
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;

protected:
  Type getLLVMType(CType type) const {
    MLIRContext *context = &this->getTypeConverter()->getContext();
    switch (type) {
    case CType::Void:
      return LLVM::LLVMVoidType::get(context);
    case CType::Ptr:
      return LLVM::LLVMPointerType::get(context);
    case CType::Enum:
    case CType::U32:
      return IntegerType::get(context, 32);
    case CType::I64:
      return IntegerType::get(context, 64);
    case CType::Size:
      return this->getIndexType();
    case CType::Dimensions:
      return getStructType(kDimensionsFields);
    case CType::LaunchSizeArgs:
      return getStructType(kLaunchSizeArgsFields);
    }
    llvm_unreachable("unknown C type");
  }

  /// The LLVM struct of a C struct with members of types \p fields.
  Type getStructType(ArrayRef<CType> fields) const {
    SmallVector<Type> types;
    for (CType field : fields)
      types.push_back(getLLVMType(field));
    return LLVM::LLVMStructType::getLiteral(
        &this->getTypeConverter()->getContext(), types);
  }

  /// Returns the declaration of \p function, inserting it if needed.
  FailureOr<LLVM::LLVMFuncOp>
  getRuntimeFunction(ConversionPatternRewriter &rewriter, Operation *op,
                     RuntimeFunction function) const {
    const RuntimeFunctionDecl &decl =
        kRuntimeFunctions[static_cast<unsigned>(function)];
    SmallVector<Type, 6> params;
    for (unsigned i = 0; i < decl.numParams; ++i)
      params.push_back(getLLVMType(decl.params[i]));
    Operation *symbolTable = op->getParentWithTrait<OpTrait::SymbolTable>();
    return LLVM::lookupOrCreateFn(rewriter, symbolTable, decl.name, params,
                                  getLLVMType(decl.result));
  }

  /// Calls \p function with \p args, then offloadAbortOnError on its result
  /// with \p context as the message's context.
  LogicalResult callChecked(ConversionPatternRewriter &rewriter, Location loc,
                            Operation *op, RuntimeFunction function,
                            ValueRange args, StringRef context) const {
    FailureOr<LLVM::LLVMFuncOp> callee =
        getRuntimeFunction(rewriter, op, function);
    FailureOr<LLVM::LLVMFuncOp> abort =
        getRuntimeFunction(rewriter, op, RuntimeFunction::AbortOnError);
    if (failed(callee) || failed(abort))
      return failure();
    Value result =
        LLVM::CallOp::create(rewriter, loc, *callee, args).getResult();
    // "offload.launch @m::@k" is stored in
    // "__offload_context.offload.launch.m.k".
    std::string globalName = "__offload_context.";
    bool separate = false;
    for (char c : context) {
      if (llvm::isAlnum(c) || c == '_') {
        if (separate)
          globalName.push_back('.');
        globalName.push_back(c);
        separate = false;
      } else if (globalName.back() != '.') {
        separate = true;
      }
    }
    Value contextPtr =
        getOrCreateGlobalString(rewriter, loc, op, globalName, context);
    LLVM::CallOp::create(rewriter, loc, *abort, ValueRange{result, contextPtr});
    return success();
  }

  /// Returns an alloca of \p count values of \p elementType at the start of
  /// the closest automatic allocation scope of \p op.
  Value createAlloca(ConversionPatternRewriter &rewriter, Location loc,
                     Operation *op, Type elementType, int64_t count = 1) const {
    OpBuilder::InsertionGuard guard(rewriter);
    if (Block *block = getAllocaBlock(op))
      rewriter.setInsertionPointToStart(block);
    Value size = createIndexConstant(rewriter, loc, count);
    return LLVM::AllocaOp::create(rewriter, loc, getPtrType(), elementType,
                                  size);
  }

  /// Calls \p function with an out-parameter of \p resultType appended to
  /// \p args (then \p trailing, if given), and returns the value it wrote.
  FailureOr<Value> callWithResult(ConversionPatternRewriter &rewriter,
                                  Location loc, Operation *op,
                                  RuntimeFunction function, ValueRange args,
                                  Type resultType, StringRef context,
                                  Value trailing = nullptr) const {
    Value slot = createAlloca(rewriter, loc, op, resultType);
    SmallVector<Value> operands(args);
    operands.push_back(slot);
    if (trailing)
      operands.push_back(trailing);
    if (failed(callChecked(rewriter, loc, op, function, operands, context)))
      return failure();
    return LLVM::LoadOp::create(rewriter, loc, resultType, slot).getResult();
  }

  Type getPtrType() const {
    return LLVM::LLVMPointerType::get(&this->getTypeConverter()->getContext());
  }

  /// A pointer to an offload_code_location_t of \p op's source location
  /// (the first file location in it; the function is the enclosing
  /// symbol's name), for the WithCodeLoc entry points: filled in an alloca
  /// right before the call (the runtime copies what it keeps). Null when the
  /// location names no file.
  Value createCodeLocation(ConversionPatternRewriter &rewriter, Location loc,
                           Operation *op) const {
    FileLineColLoc file = getFirstFileLoc(loc);
    if (!file)
      return createNull(rewriter, loc);
    StringRef function = "";
    if (auto symbol = op->getParentOfType<SymbolOpInterface>())
      function = symbol.getName();
    MLIRContext *ctx = rewriter.getContext();
    Type i32 = rewriter.getI32Type();
    // offload_code_location_t: FunctionName, SourceFile, LineNumber,
    // ColumnNumber (checked against the generated struct description).
    static_assert(kCodeLocationFields[0] == CType::Ptr &&
                  kCodeLocationFields[1] == CType::Ptr &&
                  kCodeLocationFields[2] == CType::U32 &&
                  kCodeLocationFields[3] == CType::U32);
    auto type = LLVM::LLVMStructType::getLiteral(
        ctx, {getPtrType(), getPtrType(), i32, i32});
    Value slot = createAlloca(rewriter, loc, op, type);
    Value functionName = getOrCreateGlobalString(
        rewriter, loc, op, "__offload_code_location_function", function);
    Value sourceFile = getOrCreateGlobalString(rewriter, loc, op,
                                               "__offload_code_location_file",
                                               file.getFilename().getValue());
    Value fields[] = {functionName, sourceFile,
                      createI32Constant(rewriter, loc, file.getLine()),
                      createI32Constant(rewriter, loc, file.getColumn())};
    for (auto [index, field] : llvm::enumerate(fields)) {
      Value address = LLVM::GEPOp::create(
          rewriter, loc, getPtrType(), type, slot,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
      LLVM::StoreOp::create(rewriter, loc, field, address);
    }
    return slot;
  }

  Value createIndexConstant(OpBuilder &builder, Location loc,
                            int64_t value) const {
    return LLVM::ConstantOp::create(builder, loc, this->getIndexType(), value);
  }

  Value createI32Constant(OpBuilder &builder, Location loc,
                          int32_t value) const {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), value);
  }

  Value createNull(OpBuilder &builder, Location loc) const {
    return LLVM::ZeroOp::create(builder, loc, getPtrType());
  }

  /// The converted queue operand, or a null pointer for synchronous ops.
  Value getQueueOrNull(OpBuilder &builder, Location loc, Value queue) const {
    return queue ? queue : createNull(builder, loc);
  }

  /// Returns the number of elements of the memref described by \p desc;
  /// \p staticCount is set when it is known at compile time.
  Value getElementCount(OpBuilder &builder, Location loc, MemRefType type,
                        MemRefDescriptor &desc,
                        std::optional<int64_t> &staticCount) const {
    int64_t constant = 1;
    Value dynamic;
    for (auto [dim, size] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(size)) {
        constant *= size;
        continue;
      }
      Value dimSize = desc.size(builder, loc, dim);
      dynamic = dynamic ? LLVM::MulOp::create(builder, loc, dynamic, dimSize)
                        : dimSize;
    }
    if (!dynamic) {
      staticCount = constant;
      return createIndexConstant(builder, loc, constant);
    }
    staticCount = std::nullopt;
    if (constant == 1)
      return dynamic;
    return LLVM::MulOp::create(builder, loc, dynamic,
                               createIndexConstant(builder, loc, constant));
  }

  /// Emits \p body when \p count (an element count) is not zero: directly
  /// when \p staticCount says so, under an scf.if otherwise.
  LogicalResult emitIfNotEmpty(ConversionPatternRewriter &rewriter,
                               Location loc, Value count,
                               std::optional<int64_t> staticCount,
                               function_ref<LogicalResult()> body) const {
    if (staticCount)
      return *staticCount == 0 ? success() : body();
    Value zero = createIndexConstant(rewriter, loc, 0);
    Value notEmpty = LLVM::ICmpOp::create(rewriter, loc,
                                          LLVM::ICmpPredicate::ne, count, zero);
    auto ifOp = scf::IfOp::create(rewriter, loc, notEmpty,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    return body();
  }
};

//===----------------------------------------------------------------------===//
// Devices and memory
//===----------------------------------------------------------------------===//

/// offload.get_device -> offloadInit + offloadGetDevice.
struct GetDeviceOpLowering : OffloadOpLowering<GetDeviceOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(GetDeviceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef context = op->getName().getStringRef();
    // offloadInit fails for the whole runtime (a bad OFFLOAD_* variable, a
    // plugin that cannot start), not for this device: name it.
    if (failed(callChecked(rewriter, loc, op, RuntimeFunction::Init, {},
                           "offloadInit")))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    Value backend =
        createI32Constant(rewriter, loc, getBackend(op.getPlatform()));
    Value index = createI32Constant(rewriter, loc, op.getIndex());
    FailureOr<Value> device =
        callWithResult(rewriter, loc, op, RuntimeFunction::GetDevice,
                       {backend, index}, getPtrType(), context);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.replaceOp(op, *device);
    return success();
  }
};

/// offload.alloc -> offloadMemAlloc + a memref descriptor.
struct AllocOpLowering : OffloadOpLowering<AllocOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    if (!isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(
          op, "result type is not convertible or has a non-identity layout");
    FailureOr<unsigned> addressSpace =
        getTypeConverter()->getMemRefAddressSpace(type);
    if (failed(addressSpace) || *addressSpace != 0)
      return rewriter.notifyMatchFailure(
          op, "only memrefs in the default address space can be allocated");

    Location loc = op.getLoc();
    SmallVector<Value> sizes, strides;
    Value sizeBytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             sizes, strides, sizeBytes, /*sizeInBytes=*/true);
    // Dynamic sizes: elements times element size must not wrap (static ones
    // were checked by the pass).
    if (!type.hasStaticShape()) {
      Type i64 = rewriter.getI64Type();
      auto withOverflow = LLVM::LLVMStructType::getLiteral(
          rewriter.getContext(), {i64, rewriter.getI1Type()});
      Value bytes = createIndexConstant(
          rewriter, loc,
          DataLayout::closest(op).getTypeSize(type.getElementType()));
      Value elementSize = bytes;
      Value overflowed = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(false));
      for (Value size : sizes) {
        Value product = LLVM::UMulWithOverflowOp::create(
            rewriter, loc, withOverflow, bytes, size);
        bytes = LLVM::ExtractValueOp::create(rewriter, loc, product, 0);
        Value flag = LLVM::ExtractValueOp::create(rewriter, loc, product, 1);
        overflowed = LLVM::OrOp::create(rewriter, loc, overflowed, flag);
      }
      // Above INT64_MAX bytes (or a negative size) is no size either.
      Value zero = createIndexConstant(rewriter, loc, 0);
      Value negative = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::slt, bytes, zero);
      overflowed = LLVM::OrOp::create(rewriter, loc, overflowed, negative);
      Value flag = LLVM::ZExtOp::create(rewriter, loc, i64, overflowed);
      std::string context;
      llvm::raw_string_ostream os(context);
      os << op->getName() << " of " << type << " at " << formatLoc(loc);
      if (failed(callChecked(rewriter, loc, op,
                             RuntimeFunction::CheckAllocationSize,
                             {flag, elementSize}, context)))
        return rewriter.notifyMatchFailure(op,
                                           "conflicting runtime declaration");
    }
    // The runtime rejects empty allocations: allocate one byte instead.
    if (!type.hasStaticShape() || type.getNumElements() == 0) {
      Value zero = createIndexConstant(rewriter, loc, 0);
      Value one = createIndexConstant(rewriter, loc, 1);
      Value isEmpty = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, sizeBytes, zero);
      sizeBytes =
          LLVM::SelectOp::create(rewriter, loc, isEmpty, one, sizeBytes);
    }
    Value kind = createI32Constant(rewriter, loc, getAllocType(op.getKind()));
    // With the op's location, so that the checking tools name where a
    // buffer was allocated (initcheck's origin, leakcheck's creator).
    Value codeLocation = createCodeLocation(rewriter, loc, op);
    FailureOr<Value> ptr =
        callWithResult(rewriter, loc, op, RuntimeFunction::MemAllocWithCodeLoc,
                       {adaptor.getDevice(), kind, sizeBytes}, getPtrType(),
                       op->getName().getStringRef(), codeLocation);
    if (failed(ptr))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    Value descriptor =
        createMemRefDescriptor(loc, type, *ptr, *ptr, sizes, strides, rewriter);
    rewriter.replaceOp(op, descriptor);
    return success();
  }
};

/// offload.free -> offloadMemFree(allocated pointer).
struct FreeOpLowering : OffloadOpLowering<FreeOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(FreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value ptr =
        MemRefDescriptor(adaptor.getMemref()).allocatedPtr(rewriter, loc);
    // A free needs no device, so nothing else may have initialized the
    // runtime in this program: make sure it is (reference counted), so that
    // freeing foreign memory reports that, not "uninitialized".
    if (failed(callChecked(rewriter, loc, op, RuntimeFunction::Init, {},
                           op->getName().getStringRef())) ||
        failed(callChecked(rewriter, loc, op, RuntimeFunction::MemFree, {ptr},
                           op->getName().getStringRef())))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.eraseOp(op);
    return success();
  }
};

/// offload.memcpy -> offloadMemcpy of the source's bytes (skipped when
/// empty).
struct MemcpyOpLowering : OffloadOpLowering<MemcpyOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(MemcpyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = dyn_cast<MemRefType>(op.getSrc().getType());
    auto dstType = dyn_cast<MemRefType>(op.getDst().getType());
    if (!srcType || !dstType)
      return rewriter.notifyMatchFailure(
          op, "unranked memrefs are not supported; cast to a ranked memref");
    if (!isContiguous(srcType) || !isContiguous(dstType))
      return rewriter.notifyMatchFailure(
          op, "source and destination must be contiguous");

    Location loc = op.getLoc();
    MemRefDescriptor srcDesc(adaptor.getSrc()), dstDesc(adaptor.getDst());
    std::optional<int64_t> staticCount;
    Value count = getElementCount(rewriter, loc, srcType, srcDesc, staticCount);
    LogicalResult result = emitIfNotEmpty(
        rewriter, loc, count, staticCount, [&]() -> LogicalResult {
          Value elementSize =
              getSizeInBytes(loc, srcType.getElementType(), rewriter);
          Value size = LLVM::MulOp::create(rewriter, loc, count, elementSize);
          Value src =
              srcDesc.bufferPtr(rewriter, loc, *getTypeConverter(), srcType);
          Value dst =
              dstDesc.bufferPtr(rewriter, loc, *getTypeConverter(), dstType);
          Value queue = getQueueOrNull(rewriter, loc, adaptor.getQueue());
          // The runtime finds out which side is host memory; both sides are
          // memory of the op's device or of the host.
          Value device = adaptor.getDevice();
          return callChecked(rewriter, loc, op, RuntimeFunction::Memcpy,
                             {queue, dst, device, src, device, size},
                             op->getName().getStringRef());
        });
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.eraseOp(op);
    return success();
  }
};

/// offload.memfill -> offloadMemFill with a pointer to the value as pattern
/// (skipped when empty).
struct MemfillOpLowering : OffloadOpLowering<MemfillOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(MemfillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dstType = dyn_cast<MemRefType>(op.getDst().getType());
    if (!dstType)
      return rewriter.notifyMatchFailure(
          op, "unranked memrefs are not supported; cast to a ranked memref");
    if (!isContiguous(dstType))
      return rewriter.notifyMatchFailure(op, "destination must be contiguous");

    Location loc = op.getLoc();
    MemRefDescriptor dstDesc(adaptor.getDst());
    std::optional<int64_t> staticCount;
    Value count = getElementCount(rewriter, loc, dstType, dstDesc, staticCount);
    LogicalResult result = emitIfNotEmpty(
        rewriter, loc, count, staticCount, [&]() -> LogicalResult {
          Value value = adaptor.getValue();
          Value pattern = createAlloca(rewriter, loc, op, value.getType());
          LLVM::StoreOp::create(rewriter, loc, value, pattern);
          Value patternSize =
              getSizeInBytes(loc, dstType.getElementType(), rewriter);
          Value size = LLVM::MulOp::create(rewriter, loc, count, patternSize);
          Value dst =
              dstDesc.bufferPtr(rewriter, loc, *getTypeConverter(), dstType);
          Value queue = getQueueOrNull(rewriter, loc, adaptor.getQueue());
          return callChecked(rewriter, loc, op, RuntimeFunction::MemFill,
                             {queue, dst, patternSize, pattern, size},
                             op->getName().getStringRef());
        });
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.eraseOp(op);
    return success();
  }
};

/// offload.host_register / offload.host_unregister ->
/// offloadMem(Un)RegisterMemRef(device, rank, descriptor, element size).
template <typename OpTy, RuntimeFunction function>
struct HostRegistrationOpLowering : OffloadOpLowering<OpTy> {
  using OffloadOpLowering<OpTy>::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<BaseMemRefType>(op.getMemref().getType());
    Value rank, descriptor;
    if (auto ranked = dyn_cast<MemRefType>(type)) {
      // Promote the ranked descriptor to memory, as an unranked memref does.
      Value desc = adaptor.getMemref();
      descriptor = this->createAlloca(rewriter, loc, op, desc.getType());
      LLVM::StoreOp::create(rewriter, loc, desc, descriptor);
      rank = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      ranked.getRank());
    } else {
      UnrankedMemRefDescriptor desc(adaptor.getMemref());
      rank = desc.rank(rewriter, loc);
      descriptor = desc.memRefDescPtr(rewriter, loc);
    }
    Value elementSize =
        this->getSizeInBytes(loc, type.getElementType(), rewriter);
    // The runtime takes int64_t ranks and sizes, whatever the index width.
    Type i64 = rewriter.getI64Type();
    if (rank.getType() != i64)
      rank = LLVM::SExtOp::create(rewriter, loc, i64, rank);
    if (elementSize.getType() != i64)
      elementSize = LLVM::ZExtOp::create(rewriter, loc, i64, elementSize);
    if (failed(this->callChecked(
            rewriter, loc, op, function,
            {adaptor.getDevice(), rank, descriptor, elementSize},
            op->getName().getStringRef())))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

/// Ops that become one runtime call on their (converted) single operand.
template <typename OpTy, RuntimeFunction function>
struct UnaryCallOpLowering : OffloadOpLowering<OpTy> {
  using OffloadOpLowering<OpTy>::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(this->callChecked(rewriter, op.getLoc(), op, function,
                                 adaptor.getOperands(),
                                 op->getName().getStringRef())))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.eraseOp(op);
    return success();
  }
};

/// Ops that create a handle from their single operand through an
/// out-parameter: offload.queue_create, offload.event_record.
template <typename OpTy, RuntimeFunction function>
struct CreateHandleOpLowering : OffloadOpLowering<OpTy> {
  using OffloadOpLowering<OpTy>::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> handle = this->callWithResult(
        rewriter, op.getLoc(), op, function, adaptor.getOperands(),
        this->getPtrType(), op->getName().getStringRef());
    if (failed(handle))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.replaceOp(op, *handle);
    return success();
  }
};

/// offload.queue_wait -> offloadWaitEvents with the events in an alloca.
struct QueueWaitOpLowering : OffloadOpLowering<QueueWaitOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(QueueWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange events = adaptor.getEvents();
    auto arrayType = LLVM::LLVMArrayType::get(getPtrType(), events.size());
    Value array = createAlloca(rewriter, loc, op, arrayType);
    for (auto [index, event] : llvm::enumerate(events)) {
      Value slot = LLVM::GEPOp::create(
          rewriter, loc, getPtrType(), arrayType, array,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
      LLVM::StoreOp::create(rewriter, loc, event, slot);
    }
    Value count = createIndexConstant(rewriter, loc, events.size());
    if (failed(callChecked(rewriter, loc, op, RuntimeFunction::WaitEvents,
                           {adaptor.getQueue(), array, count},
                           op->getName().getStringRef())))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

/// offload.launch -> offloadGetKernelFromImage + packed arguments +
/// offloadLaunchKernel (+ offloadCreateEvent for an event result).
struct LaunchOpLowering : OffloadOpLowering<LaunchOp> {
  using OffloadOpLowering::OffloadOpLowering;

  LogicalResult
  matchAndRewrite(LaunchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Operation *symbolTable = op->getParentWithTrait<OpTrait::SymbolTable>();
    FailureOr<LLVM::GlobalOp> image =
        getOrCreateImageGlobal(rewriter, symbolTable, op.getKernelModuleName());
    if (failed(image))
      return rewriter.notifyMatchFailure(
          op, "the kernel module is not a gpu.binary with a selectable object");

    // Pack the arguments first: this fails on unsupported operand types.
    SmallVector<Value> fields;
    for (auto [operand, converted] :
         llvm::zip(op.getKernelOperands(), adaptor.getKernelOperands())) {
      if (isa<UnrankedMemRefType>(operand.getType()))
        return rewriter.notifyMatchFailure(
            op, "unranked memref kernel arguments are not supported");
      if (auto memrefType = dyn_cast<MemRefType>(operand.getType())) {
        if (!isa<LLVM::LLVMStructType>(converted.getType()))
          return rewriter.notifyMatchFailure(
              op, "memref argument was not converted to a descriptor");
        size_t first = fields.size();
        MemRefDescriptor::unpack(rewriter, loc, converted, memrefType, fields);
        if (fields.size() - first !=
            ::offload::kernelargs::getMemRefFieldCount(memrefType.getRank()))
          return rewriter.notifyMatchFailure(
              op, "memref descriptor does not expand into the packed layout's "
                  "fields");
        continue;
      }
      if (!LLVM::isCompatibleType(converted.getType()))
        return rewriter.notifyMatchFailure(
            op, "kernel argument has no LLVM-compatible type");
      fields.push_back(converted);
    }

    std::string launchContext =
        ("offload.launch " + Twine("@") + op.getKernelModuleName() + "::@" +
         op.getKernelName())
            .str();
    Value imagePtr = LLVM::AddressOfOp::create(rewriter, loc, *image);
    Value imageSize = createIndexConstant(
        rewriter, loc,
        cast<LLVM::LLVMArrayType>(image->getType()).getNumElements());
    Value name = getOrCreateGlobalString(rewriter, loc, op,
                                         ("__offload_kernel_name." +
                                          op.getKernelModuleName() + "." +
                                          op.getKernelName())
                                             .str(),
                                         op.getKernelName());
    // Kernels embedded as MLIR launch through the JIT, which specializes
    // them on their runtime constants.
    bool jit = isJITModule(symbolTable, op.getKernelModuleName());
    FailureOr<Value> kernel =
        callWithResult(rewriter, loc, op,
                       jit ? RuntimeFunction::JITGetKernelFromImage
                           : RuntimeFunction::GetKernelFromImage,
                       {adaptor.getDevice(), imagePtr, imageSize, name},
                       getPtrType(), launchContext);
    if (failed(kernel))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");

    Value argsPtr, argsSize;
    if (fields.empty()) {
      argsPtr = createNull(rewriter, loc);
      argsSize = createIndexConstant(rewriter, loc, 0);
    } else {
      SmallVector<Type> fieldTypes;
      for (Value field : fields)
        fieldTypes.push_back(field.getType());
      auto argsType = LLVM::LLVMStructType::getLiteral(context, fieldTypes);
      Value args = LLVM::PoisonOp::create(rewriter, loc, argsType);
      for (auto [index, field] : llvm::enumerate(fields))
        args = LLVM::InsertValueOp::create(rewriter, loc, args, field, index);
      argsPtr = createAlloca(rewriter, loc, op, argsType);
      LLVM::StoreOp::create(rewriter, loc, args, argsPtr);
      argsSize = getSizeInBytes(loc, argsType, rewriter);
    }

    // offload_kernel_launch_size_args_t, as OffloadAPI.td describes it.
    Type i32 = rewriter.getI32Type();
    Type sizeArgsType = this->getLLVMType(CType::LaunchSizeArgs);
    Value sizeArgs = LLVM::PoisonOp::create(rewriter, loc, sizeArgsType);
    auto insert = [&](Value value, LaunchSizeArgsField field,
                      std::optional<int64_t> dim = std::nullopt) {
      SmallVector<int64_t, 2> position{static_cast<int64_t>(field)};
      if (dim)
        position.push_back(*dim);
      sizeArgs =
          LLVM::InsertValueOp::create(rewriter, loc, sizeArgs, value, position);
    };
    insert(createIndexConstant(rewriter, loc, 3),
           LaunchSizeArgsField::Dimensions);
    Value grid[] = {adaptor.getGridSizeX(), adaptor.getGridSizeY(),
                    adaptor.getGridSizeZ()};
    Value block[] = {adaptor.getBlockSizeX(), adaptor.getBlockSizeY(),
                     adaptor.getBlockSizeZ()};
    // Sizes known only at run time are checked before they are narrowed to
    // 32 bits (constant ones were checked by the pass).
    SmallVector<Value> sizes{grid[0],  grid[1],  grid[2],
                             block[0], block[1], block[2]};
    Value original[] = {op.getGridSizeX(),  op.getGridSizeY(),
                        op.getGridSizeZ(),  op.getBlockSizeX(),
                        op.getBlockSizeY(), op.getBlockSizeZ()};
    if (!llvm::all_of(original,
                      [](Value v) { return matchPattern(v, m_Constant()); }) &&
        failed(callChecked(rewriter, loc, op, RuntimeFunction::CheckLaunchSizes,
                           sizes, launchContext + " at " + formatLoc(loc))))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    static_assert(std::size(kDimensionsFields) == 3, "x, y, z");
    for (int64_t dim = 0; dim < 3; ++dim) {
      insert(LLVM::TruncOp::create(rewriter, loc, i32, grid[dim]),
             LaunchSizeArgsField::NumGroups, dim);
      insert(LLVM::TruncOp::create(rewriter, loc, i32, block[dim]),
             LaunchSizeArgsField::GroupSize, dim);
    }
    Value sharedMemory =
        adaptor.getDynamicSharedMemorySize()
            ? LLVM::ZExtOp::create(rewriter, loc, getIndexType(),
                                   adaptor.getDynamicSharedMemorySize())
                  .getResult()
            : createIndexConstant(rewriter, loc, 0);
    insert(sharedMemory, LaunchSizeArgsField::DynSharedMemory);
    Value sizeArgsPtr = createAlloca(rewriter, loc, op, sizeArgsType);
    LLVM::StoreOp::create(rewriter, loc, sizeArgs, sizeArgsPtr);

    Value queue = getQueueOrNull(rewriter, loc, adaptor.getQueue());
    if (failed(callChecked(rewriter, loc, op,
                           jit ? RuntimeFunction::JITLaunchKernel
                               : RuntimeFunction::LaunchKernel,
                           {queue, adaptor.getDevice(), *kernel, argsPtr,
                            argsSize, sizeArgsPtr},
                           launchContext)))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");

    if (!op.getEvent()) {
      rewriter.eraseOp(op);
      return success();
    }
    FailureOr<Value> event =
        callWithResult(rewriter, loc, op, RuntimeFunction::CreateEvent, {queue},
                       getPtrType(), launchContext);
    if (failed(event))
      return rewriter.notifyMatchFailure(op, "conflicting runtime declaration");
    rewriter.replaceOp(op, *event);
    return success();
  }
};

/// gpu.binary -> `__offload_image.<name>`, an internal constant global of the
/// selected object's bytes aligned to 64.
struct BinaryOpLowering : ConvertOpToLLVMPattern<gpu::BinaryOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(gpu::BinaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *symbolTable = op->getParentWithTrait<OpTrait::SymbolTable>();
    if (failed(getOrCreateImageGlobal(rewriter, symbolTable, op.getName())))
      return rewriter.notifyMatchFailure(op, "cannot select an object");
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertOffloadToLLVMPass
    : public mlir::offload::impl::ConvertOffloadToLLVMBase<
          ConvertOffloadToLLVMPass> {
  using Base::Base;

  /// Launch sizes that are constants must fit the runtime's 32-bit sizes.
  static LogicalResult checkConstantLaunchSizes(LaunchOp launch) {
    Value sizes[] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                     launch.getGridSizeZ(),  launch.getBlockSizeX(),
                     launch.getBlockSizeY(), launch.getBlockSizeZ()};
    for (auto [index, size] : llvm::enumerate(sizes)) {
      APInt value;
      if (!matchPattern(size, m_ConstantInt(&value)))
        continue;
      int64_t v = value.getSExtValue();
      if (::offload::kernelargs::isValidLaunchSize(v))
        continue;
      return launch.emitError() << (index < 3 ? "grid" : "block") << " size "
                                << "xyz"[index % 3] << " is " << v
                                << (index < 3 ? " blocks" : " threads")
                                << "; " OFFLOAD_LAUNCH_SIZE_RULE;
    }
    return success();
  }

  /// An allocation of static shape must have a byte count that fits.
  static LogicalResult checkStaticAllocationSize(AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getElementType().isIntOrIndexOrFloat())
      return success();
    unsigned bits = type.getElementType().isIndex()
                        ? 64
                        : type.getElementType().getIntOrFloatBitWidth();
    APInt bytes(64, llvm::divideCeil(bits, 8));
    bool overflow = false;
    for (int64_t size : type.getShape()) {
      bool step = false;
      bytes = bytes.umul_ov(APInt(64, size), step);
      overflow |= step;
    }
    if (!overflow && !bytes.isNegative())
      return success();
    return alloc.emitError("allocation of ")
           << type << " is more than 2^63 bytes";
  }

  /// Emits the user-facing errors the patterns can only report as match
  /// failures: launches of uncompiled modules, unselectable objects, sizes
  /// that cannot be.
  LogicalResult checkKernelModules(ModuleOp module) {
    SymbolTableCollection symbolTables;
    WalkResult result = module.walk([&](Operation *op) {
      if (auto binary = dyn_cast<gpu::BinaryOp>(op)) {
        std::string error;
        if (failed(selectObject(binary, error))) {
          binary.emitError("cannot select an object of gpu.binary '")
              << binary.getName() << "': " << error;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      if (auto alloc = dyn_cast<AllocOp>(op)) {
        if (failed(checkStaticAllocationSize(alloc)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      }
      auto launch = dyn_cast<LaunchOp>(op);
      if (!launch)
        return WalkResult::advance();
      if (failed(checkConstantLaunchSizes(launch)))
        return WalkResult::interrupt();
      Operation *target = symbolTables.lookupNearestSymbolFrom(
          launch, launch.getKernel().getRootReference());
      if (isa_and_present<gpu::GPUModuleOp>(target)) {
        launch.emitError("kernel module '")
            << launch.getKernelModuleName()
            << "' has not been compiled to a gpu.binary; run "
               "gpu-module-to-binary first";
        return WalkResult::interrupt();
      }
      if (!isa_and_present<gpu::BinaryOp>(target)) {
        launch.emitError("kernel module '")
            << launch.getKernelModuleName() << "' is not a gpu.binary";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkKernelModules(module)))
      return signalPassFailure();

    const auto &dataLayoutAnalysis = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(context,
                               dataLayoutAnalysis.getAtOrAbove(module));
    LLVMTypeConverter converter(context, options, &dataLayoutAnalysis);
    populateOffloadToLLVMTypeConversions(converter);

    // Values of offload types flowing through functions, calls, branches and
    // scf ops change type too; nothing else does.
    TypeConverter structuralConverter;
    structuralConverter.addConversion([](Type type) { return type; });
    structuralConverter.addConversion([](Type type) -> std::optional<Type> {
      if (isa<DeviceType, QueueType, EventType>(type))
        return LLVM::LLVMPointerType::get(type.getContext());
      return std::nullopt;
    });

    LLVMConversionTarget target(*context);
    configureOffloadToLLVMLegality(target);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      // Other blocks are converted by the branch ops that jump to them.
      return structuralConverter.isSignatureLegal(func.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return structuralConverter.isLegal(op); });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(
        patterns, structuralConverter);
    populateCallOpTypeConversionPattern(patterns, structuralConverter);
    populateReturnOpTypeConversionPattern(patterns, structuralConverter);
    scf::populateSCFStructuralTypeConversionsAndLegality(structuralConverter,
                                                         patterns, target);
    cf::populateCFStructuralTypeConversionsAndLegality(structuralConverter,
                                                       patterns, target);
    populateOffloadToLLVMConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

void mlir::offload::populateOffloadToLLVMTypeConversions(
    LLVMTypeConverter &converter) {
  converter.addConversion([](Type type) -> std::optional<Type> {
    if (isa<DeviceType, QueueType, EventType>(type))
      return LLVM::LLVMPointerType::get(type.getContext());
    return std::nullopt;
  });
}

void mlir::offload::configureOffloadToLLVMLegality(ConversionTarget &target) {
  target.addIllegalDialect<OffloadDialect>();
  target.addLegalOp<RuntimeConstantOp>();
  target.addIllegalOp<gpu::BinaryOp>();
}

void mlir::offload::populateOffloadToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<GetDeviceOpLowering, AllocOpLowering, FreeOpLowering,
           MemcpyOpLowering, MemfillOpLowering,
           HostRegistrationOpLowering<HostRegisterOp,
                                      RuntimeFunction::MemRegisterMemRef>,
           HostRegistrationOpLowering<HostUnregisterOp,
                                      RuntimeFunction::MemUnregisterMemRef>,
           CreateHandleOpLowering<QueueCreateOp, RuntimeFunction::CreateQueue>,
           UnaryCallOpLowering<QueueSyncOp, RuntimeFunction::SyncQueue>,
           UnaryCallOpLowering<QueueDestroyOp, RuntimeFunction::DestroyQueue>,
           QueueWaitOpLowering,
           CreateHandleOpLowering<EventRecordOp, RuntimeFunction::CreateEvent>,
           UnaryCallOpLowering<EventSyncOp, RuntimeFunction::SyncEvent>,
           UnaryCallOpLowering<EventDestroyOp, RuntimeFunction::DestroyEvent>,
           LaunchOpLowering, BinaryOpLowering>(converter);
}
