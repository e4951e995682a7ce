// Issue 20 item 1: a kernel that stores 24 floats past its 1000-element
// buffer corrupts malloc's heap; glibc aborts in free (holding its arena
// lock). offload-run's crash report allocates nothing, so the run ends with
// the signal instead of hanging in the report (8 runs of 10 hung when LLVM's
// stack printer ran there). Ten runs, each under `timeout 10`: a hang would
// be status 124.
//
// ASan reports the overflow itself: not what this test checks.
// UNSUPPORTED: sanitized
// RUN: sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do timeout 10 offload-run %s > %t.$i 2>&1; echo "status $? report $(grep -c "^offload-run: SIG" %t.$i)"; done' | sort | uniq -c | FileCheck %s --implicit-check-not=status
// CHECK: 10 status {{134|139}} report 1
// RUN: FileCheck %s --check-prefix=REPORT < %t.1
// REPORT: offload-run: the program crashed while it ran. {{.*}} please report it with the input and the stack dump below.
// REPORT-NEXT: Stack dump:
// REPORT-NEXT: Program arguments: {{.*}}offload-run{{.*}}kernel-heap-corruption.mlir
// REPORT-NEXT: offload-run: {{SIGABRT \(abort\)|SIGSEGV}}
// REPORT-NEXT: Stack (return addresses; llvm-symbolizer resolves library+offset):

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @overrun(%m: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %o = arith.muli %b, %n : index
      %i = arith.addi %o, %t : index
      %v = arith.constant 1.0 : f32
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c1000 = arith.constant 1000 : index
    %m = memref.alloc(%c1000) : memref<?xf32>
    %after = memref.alloc(%c1000) : memref<?xf32>
    // 8 x 128 = 1024 threads store to m[0..1023].
    gpu.launch_func @kernels::@overrun blocks in (%c8, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%m : memref<?xf32>)
    memref.dealloc %m : memref<?xf32>
    memref.dealloc %after : memref<?xf32>
    return
  }
}
