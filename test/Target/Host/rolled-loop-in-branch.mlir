// RUN: offload-opt %s --pass-pipeline='builtin.module(offload-host-kernel-pipeline,gpu-module-to-binary{format=isa})' | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s
// The JIT runs the pipeline without the verifier: the same, as it does.
// RUN: offload-opt %s --verify-each=0 --pass-pipeline='builtin.module(offload-host-kernel-pipeline,gpu-module-to-binary{format=isa})' | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s

// A kernel with a barrier and a loop without results in a branch on the
// thread ids (Rodinia's lud_perimeter with its row loops left rolled, cut
// down): threads 0-15 copy rows 0-3 of %m (row stride %dim) into workgroup
// memory. The branch is predicated (thread loops over threads 0-15 and
// 16-31) with the row loop inside them: the loop's column is a select, so
// it is not moved out of the thread loop; the vectorizer runs the 16 threads
// as lanes around the rolled loop. Its body had two yields (the builder of
// the loop made one), which the LLVM conversion rejected: "'scf.yield' op is
// not supported by the host target" (without the verifier; with it, "must
// be the last operation in the parent block"). Now it compiles to an
// object, the rows copied 8 lanes at a time.
// (test/Runtime/thread-loops-rolled-loop-in-branch.mlir runs it.)

// CHECK-LABEL: __offload_block.rows_in_branch:
// CHECK: vmovups {{.*}}%ymm
// CHECK: __offload_kernel_name.rows_in_branch:

module attributes {gpu.container_module} {
  gpu.module @kernels [#offload.host<chip = "x86-64-v3">] {
    gpu.func @rows_in_branch(%m: memref<?xf32>, %dim: index, %out: memref<?xf32>)
        workgroup(%tile: memref<4x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %low = arith.cmpi ult, %tx, %c16 : index
      %high = arith.subi %tx, %c16 : index
      %col = arith.select %low, %tx, %high : index
      scf.if %low {
        scf.for %i = %c0 to %c4 step %c1 {
          %row = arith.muli %i, %dim : index
          %a = arith.addi %row, %col : index
          %v = memref.load %m[%a] : memref<?xf32>
          memref.store %v, %tile[%i, %col] : memref<4x16xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %r = arith.divui %tx, %c8 : index
      %t = memref.load %tile[%r, %col] : memref<4x16xf32, #gpu.address_space<workgroup>>
      memref.store %t, %out[%tx] : memref<?xf32>
      gpu.return
    }
  }
}
