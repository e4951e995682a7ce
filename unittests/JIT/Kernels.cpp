//===- Kernels.cpp - MLIR kernels of the JIT tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

const char *const offload_jit_test::KernelsSource = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %k = offload.runtime_constant %s : f32
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %k : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @poly(%x: memref<?xf32>, %coefficients: memref<4xf32>) kernel {
      %c = offload.runtime_constant %coefficients contents : memref<4xf32>
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %sum, %pow = scf.for %j = %c0 to %c4 step %c1
          iter_args(%acc = %zero, %p = %one) -> (f32, f32) {
        %a = memref.load %c[%j] : memref<4xf32>
        %term = arith.mulf %a, %p : f32
        %next = arith.addf %acc, %term : f32
        %np = arith.mulf %p, %v : f32
        scf.yield %next, %np : f32, f32
      }
      memref.store %sum, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @offset(%x: memref<?xf32>, %k: i32) kernel {
      %kk = offload.runtime_constant %k : i32
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %f = arith.sitofp %kk : i32 to f32
      %r = arith.addf %v, %f : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @iota(%x: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @reverse(%x: memref<?xf32>)
        workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>)
        kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c1 = arith.constant 1 : index
      %last = arith.subi %d, %c1 : index
      %r = arith.subi %last, %t : index
      %w = memref.load %tile[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
)mlir";
