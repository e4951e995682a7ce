/*===- capi-saxpy.c - The offload dialect through MLIR's C API ------------===*\
|*                                                                            *|
|* Part of the offload project, under the Apache License v2.0 with LLVM       *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * A C program built against an install prefix (Offload::CAPI): loads the
 * offload dialect through its handle, parses a module that uses it, runs the
 * generated C API of a pass (offload-specialize: one clone of the kernel for
 * the constant `a` at the launch site) and the offload-lower-to-host pipeline
 * by name, then runs the result with MLIR's ExecutionEngine on the installed
 * libOffloadRuntime.so and checks the value it returns. Exits 0 when every
 * check holds. Run by scripts/test-install.sh.
 */

#include "OffloadDialect-c/Dialects.h"
#include "OffloadDialect-c/Passes.h"

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef OFFLOAD_RUNTIME_LIBRARY
#error "define OFFLOAD_RUNTIME_LIBRARY: the path of libOffloadRuntime.so"
#endif

/* run(n) launches y = a * x + y with a = 2, x[i] = i, y[i] = 1, on n
 * elements and returns the sum of y: 2 * n(n-1)/2 + n = n * n. */
static const char *const Source =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @kernels {\n"
    "    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>)\n"
    "        kernel {\n"
    "      %k = offload.runtime_constant %a : f32\n"
    "      %b = gpu.block_id x\n"
    "      %d = gpu.block_dim x\n"
    "      %t = gpu.thread_id x\n"
    "      %o = arith.muli %b, %d : index\n"
    "      %i = arith.addi %o, %t : index\n"
    "      %xi = memref.load %x[%i] : memref<?xf32>\n"
    "      %yi = memref.load %y[%i] : memref<?xf32>\n"
    "      %p = arith.mulf %k, %xi : f32\n"
    "      %r = arith.addf %p, %yi : f32\n"
    "      memref.store %r, %y[%i] : memref<?xf32>\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  func.func @run(%n: index) -> f32 attributes {llvm.emit_c_interface} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c128 = arith.constant 128 : index\n"
    "    %a = arith.constant 2.0 : f32\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    %zero = arith.constant 0.0 : f32\n"
    "    %hx = memref.alloc(%n) : memref<?xf32>\n"
    "    %hy = memref.alloc(%n) : memref<?xf32>\n"
    "    scf.for %i = %c0 to %n step %c1 {\n"
    "      %ii = arith.index_cast %i : index to i32\n"
    "      %xf = arith.sitofp %ii : i32 to f32\n"
    "      memref.store %xf, %hx[%i] : memref<?xf32>\n"
    "      memref.store %one, %hy[%i] : memref<?xf32>\n"
    "    }\n"
    "    %dx = gpu.alloc (%n) : memref<?xf32>\n"
    "    %dy = gpu.alloc (%n) : memref<?xf32>\n"
    "    gpu.memcpy %dx, %hx : memref<?xf32>, memref<?xf32>\n"
    "    gpu.memcpy %dy, %hy : memref<?xf32>, memref<?xf32>\n"
    "    %blocks = arith.divui %n, %c128 : index\n"
    "    gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1)\n"
    "        threads in (%c128, %c1, %c1)\n"
    "        args(%a : f32, %dx : memref<?xf32>, %dy : memref<?xf32>)\n"
    "    gpu.memcpy %hy, %dy : memref<?xf32>, memref<?xf32>\n"
    "    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> f32 "
    "{\n"
    "      %v = memref.load %hy[%i] : memref<?xf32>\n"
    "      %t = arith.addf %s, %v : f32\n"
    "      scf.yield %t : f32\n"
    "    }\n"
    "    gpu.dealloc %dx : memref<?xf32>\n"
    "    gpu.dealloc %dy : memref<?xf32>\n"
    "    memref.dealloc %hx : memref<?xf32>\n"
    "    memref.dealloc %hy : memref<?xf32>\n"
    "    return %sum : f32\n"
    "  }\n"
    "}\n";

static int failures = 0;
#define EXPECT(Cond, ...)                                                      \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      fprintf(stderr, "capi-saxpy: %s:%d: ", __FILE__, __LINE__);              \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* Text sink for mlirOperationPrint and pipeline errors. */
typedef struct {
  char *Data;
  size_t Size;
} Buffer;
static void append(MlirStringRef Chunk, void *UserData) {
  Buffer *B = (Buffer *)UserData;
  B->Data = realloc(B->Data, B->Size + Chunk.length + 1);
  memcpy(B->Data + B->Size, Chunk.data, Chunk.length);
  B->Size += Chunk.length;
  B->Data[B->Size] = '\0';
}

/* Counts the operations named UserData->Name. */
typedef struct {
  const char *Name;
  int Count;
} OpCount;
static MlirWalkResult countOp(MlirOperation Op, void *UserData) {
  OpCount *C = (OpCount *)UserData;
  MlirStringRef Name = mlirIdentifierStr(mlirOperationGetName(Op));
  if (Name.length == strlen(C->Name) &&
      memcmp(Name.data, C->Name, Name.length) == 0)
    ++C->Count;
  return MlirWalkResultAdvance;
}
static int count(MlirModule Module, const char *Name) {
  OpCount C = {Name, 0};
  mlirOperationWalk(mlirModuleGetOperation(Module), countOp, &C,
                    MlirWalkPreOrder);
  return C.Count;
}

static MlirStringRef str(const char *S) {
  return mlirStringRefCreateFromCString(S);
}

int main(void) {
  /* The dialect's handle, its namespace and loading it. */
  MlirDialectHandle Offload = mlirGetDialectHandle__offload__();
  MlirStringRef Namespace = mlirDialectHandleGetNamespace(Offload);
  EXPECT(Namespace.length == 7 && memcmp(Namespace.data, "offload", 7) == 0,
         "dialect namespace '%.*s', expected 'offload'", (int)Namespace.length,
         Namespace.data);

  MlirDialectRegistry Registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(Registry);
  mlirOffloadRegisterDialects(Registry);
  MlirContext Context = mlirContextCreateWithRegistry(Registry, false);
  mlirDialectRegistryDestroy(Registry);
  mlirRegisterAllLLVMTranslations(Context);
  MlirDialect Loaded = mlirDialectHandleLoadDialect(Offload, Context);
  EXPECT(!mlirDialectIsNull(Loaded), "the offload dialect did not load");
  mlirOffloadRegisterAllPasses();
  mlirOffloadRegisterAllPasses(); /* registering twice is harmless */

  MlirModule Module = mlirModuleCreateParse(Context, str(Source));
  if (mlirModuleIsNull(Module)) {
    fprintf(stderr, "capi-saxpy: the module does not parse\n");
    return 1;
  }
  Buffer Printed = {NULL, 0};
  mlirOperationPrint(mlirModuleGetOperation(Module), append, &Printed);
  EXPECT(Printed.Data &&
             strstr(Printed.Data, "offload.runtime_constant %arg0 : f32"),
         "the printed module has no offload.runtime_constant");
  free(Printed.Data);
  EXPECT(count(Module, "gpu.func") == 1, "%d gpu.func before specializing",
         count(Module, "gpu.func"));

  /* A pass through its generated C API: offload-specialize clones the kernel
   * for a = 2 and the block size 128. */
  MlirPassManager Specialize = mlirPassManagerCreate(Context);
  mlirPassManagerAddOwnedPass(Specialize,
                              mlirCreateOffloadTransformsOffloadSpecialize());
  EXPECT(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(
             Specialize, mlirModuleGetOperation(Module))),
         "offload-specialize failed");
  mlirPassManagerDestroy(Specialize);
  EXPECT(count(Module, "gpu.func") == 2,
         "%d gpu.func after offload-specialize, expected 2 (kernel and clone)",
         count(Module, "gpu.func"));

  /* An unknown pipeline is an error; the registered one lowers. */
  MlirPassManager Lower = mlirPassManagerCreate(Context);
  Buffer Errors = {NULL, 0};
  EXPECT(mlirLogicalResultIsFailure(mlirParsePassPipeline(
             mlirPassManagerGetAsOpPassManager(Lower),
             str("builtin.module(offload-no-such-pipeline)"), append, &Errors)),
         "an unknown pipeline parsed");
  free(Errors.Data);
  Errors.Data = NULL;
  Errors.Size = 0;
  MlirLogicalResult Parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(Lower),
      str("builtin.module(offload-lower-to-host{O=2})"), append, &Errors);
  if (mlirLogicalResultIsFailure(Parsed)) {
    fprintf(stderr, "capi-saxpy: offload-lower-to-host: %s\n",
            Errors.Data ? Errors.Data : "");
    return 1;
  }
  free(Errors.Data);
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(Lower, mlirModuleGetOperation(Module)))) {
    fprintf(stderr, "capi-saxpy: offload-lower-to-host failed\n");
    return 1;
  }
  mlirPassManagerDestroy(Lower);
  EXPECT(count(Module, "gpu.launch_func") == 0 &&
             count(Module, "func.func") == 0,
         "the lowered module still has gpu.launch_func or func.func");
  EXPECT(count(Module, "llvm.func") > 0, "the lowered module has no llvm.func");

  /* Run it on the installed runtime. */
  MlirStringRef Libraries[] = {str(OFFLOAD_RUNTIME_LIBRARY)};
  MlirExecutionEngine Engine =
      mlirExecutionEngineCreate(Module, 2, 1, Libraries, false, false);
  if (mlirExecutionEngineIsNull(Engine)) {
    fprintf(stderr, "capi-saxpy: no execution engine\n");
    return 1;
  }
  mlirExecutionEngineInitialize(Engine);
  int64_t N = 1024;
  float Sum = 0.0f;
  void *Arguments[] = {&N, &Sum};
  EXPECT(mlirLogicalResultIsSuccess(
             mlirExecutionEngineInvokePacked(Engine, str("run"), Arguments)),
         "invoking run failed");
  EXPECT(Sum == (float)(N * N), "run(%lld) = %g, expected %g", (long long)N,
         Sum, (float)(N * N));
  mlirExecutionEngineDestroy(Engine);
  mlirModuleDestroy(Module);
  mlirContextDestroy(Context);
  if (failures)
    return 1;
  printf("capi-saxpy: dialect loaded, kernel specialized and lowered, "
         "run(%lld) = %g\n",
         (long long)N, Sum);
  return 0;
}
