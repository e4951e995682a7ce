// The checking passes' string constants and runtime declarations (issue 25):
// one global per distinct string of a module, shared by every access, by
// both kernels and by the passes that run after one another (each access
// made its own global before, found by a linear symbol lookup: minutes of
// compile time on the benchmark kernels). initcheck's calls run only while
// the memref's allocation has unwritten bytes, as a call LLVM may hoist
// says (__offload_host_check_init_pending, without effects on memory).
//
// RUN: offload-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-check-memory-accesses,offload-check-initialization))' | FileCheck %s

// CHECK-LABEL: gpu.module @kernels
// The kernels' names, the ops' names, and a location per access (both
// passes use the same): nothing else, nothing twice.
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.kernel.0("copy\00")
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.kernel.1("scale\00")
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.op.0("memref.load\00")
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.op.1("memref.store\00")
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.location.0("a.cu:1:1\00")
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.location.1("a.cu:2:1\00")
// CHECK-DAG: llvm.mlir.global internal constant @__offload_check.location.2("a.cu:3:1\00")
// CHECK-NOT: llvm.mlir.global
// CHECK-LABEL: gpu.func @copy
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[ADDR:.*]] = arith.index_cast %[[BASE]] : index to i64
// CHECK: %[[PENDING:.*]] = func.call @__offload_host_check_init_pending(%[[ADDR]])
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[PENDING]]
// CHECK: scf.if %[[ANY]] {
// CHECK: llvm.mlir.addressof @__offload_check.location.0
// CHECK: llvm.mlir.addressof @__offload_check.kernel.0
// CHECK: func.call @__offload_host_check_init(
// CHECK-NEXT: }
// CHECK-NEXT: memref.load %arg0
// CHECK-LABEL: gpu.func @scale
// CHECK: llvm.mlir.addressof @__offload_check.location.2
// CHECK: llvm.mlir.addressof @__offload_check.op.0
// CHECK: llvm.mlir.addressof @__offload_check.kernel.1
// CHECK: func.func private @__offload_host_bounds_fail(
// CHECK: func.func private @__offload_host_check_init(
// CHECK: func.func private @__offload_host_check_init_pending(i64) -> i32 attributes {llvm.readnone, passthrough = ["nounwind", "willreturn", "speculatable"]}
// CHECK-NOT: func.func private @__offload_host_bounds_fail(
// CHECK-NOT: func.func private @__offload_host_check_init(
gpu.module @kernels {
  gpu.func @copy(%in: memref<8xf32>, %out: memref<8xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<8xf32> loc("a.cu":1:1)
    memref.store %v, %out[%t] : memref<8xf32> loc("a.cu":2:1)
    gpu.return
  }
  gpu.func @scale(%x: memref<8xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<8xf32> loc("a.cu":3:1)
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%t] : memref<8xf32> loc("a.cu":2:1)
    gpu.return
  }
}

// -----

// The runtime's names are reserved: a module's own symbol of one of them
// is an error, not a call of the wrong function.
gpu.module @reserved {
  // expected-error @+1 {{the symbol '__offload_host_bounds_fail' is the host runtime's: expected a func.func of type}}
  llvm.mlir.global internal constant @__offload_host_bounds_fail(0 : i32) : i32
  gpu.func @copy(%in: memref<8xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %in[%t] : memref<8xf32>
    memref.store %v, %in[%t] : memref<8xf32>
    gpu.return
  }
}
