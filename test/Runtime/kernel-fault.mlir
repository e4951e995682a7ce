// Issue 11 items 4 and 13: a fault inside a host kernel names the kernel and
// the block that faulted before the process dies, then offload-run's crash
// report follows (issue 20 item 1: written without allocating, the stack
// raw).
// Block 2 of 4 stores 2^40 elements past its buffer.
//
// In sanitized builds ASan's own SEGV handler reports the crash and exits
// (no signal): not what this test checks.
// UNSUPPORTED: sanitized
// RUN: not --crash timeout 10 offload-run %s 2>&1 | FileCheck %s
// The kernel is its block-size specialization, named after the kernel the
// program wrote. The fault is the program's: offload-run says so instead of
// asking for a bug report of itself.
// CHECK: offload: fault in host kernel 'oob' (specialization oob_spec_{{[0-9a-f]+}}), block (2, 0, 0) of a grid of (4, 1, 1) blocks of (8, 1, 1) threads: SIGSEGV (segmentation fault)
// CHECK-NEXT: offload-run: the program crashed while it ran. If a host kernel faulted, the line above names it and the block (a bug of the kernel, such as an out-of-bounds access: --check=memcheck reports the access); if neither the program's code nor its kernels are at fault, please report it with the input and the stack dump below.
// CHECK-NEXT: Stack dump:
// CHECK-NEXT: Program arguments: {{.*}}offload-run{{.*}}kernel-fault.mlir
// CHECK-NEXT: offload-run: SIGSEGV (segmentation fault) at address 0x{{[0-9a-f]+}}
// CHECK-NEXT: Stack (return addresses; llvm-symbolizer resolves library+offset):
// CHECK-NEXT: offload-run(+0x{{[0-9a-f]+}})

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @oob(%m: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %c2 = arith.constant 2 : index
      %far = arith.constant 1099511627776 : index
      %is2 = arith.cmpi eq, %b, %c2 : index
      scf.if %is2 {
        %v = arith.constant 1.0 : f32
        memref.store %v, %m[%far] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %m = memref.alloc(%c8) : memref<?xf32>
    gpu.launch_func @kernels::@oob blocks in (%c4, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}
