// leakcheck's reports come at exit, after the program chose its exit status;
// offload-run --check makes a run with any report exit 1 all the same
// (OFFLOAD_CHECK_ERROR_EXITCODE, compute-sanitizer's --error-exitcode),
// and names the gpu.alloc that made the leaked buffer. With the setting
// 0, the process keeps its own status (0 here).

// RUN: not offload-run --check=leak %s | FileCheck %s
// RUN: env OFFLOAD_CHECK_ERROR_EXITCODE=0 offload-run --check=leak %s | FileCheck %s
// RUN: offload-run --check=leak %offload_src_root/examples/saxpy.mlir | FileCheck %s --check-prefix=CLEAN

// CHECK: ========= Leaked allocation of 32 bytes of device memory
// CHECK-NEXT: =========     created at main ({{.*}}leakcheck-exit-status.mlir:{{[0-9]+}}:10)
// CHECK: ========= ERROR SUMMARY: 1 error

// CLEAN: ========= ERROR SUMMARY: 0 errors

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 1.0 : f32
    %m = gpu.alloc () : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      memref.store %f, %m[%tx] : memref<8xf32>
      gpu.terminator
    }
    return
  }
}
