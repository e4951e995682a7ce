//===- ThreadLoopsTest.cpp - Cooperative kernels against C++ references ---===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kernels that synchronize threads (barriers at top level, under uniform
// loops and conditions, early exits, private and workgroup memory, shuffles,
// subgroup and block reductions) launched through the JIT on the host
// device, each checked against a C++ reference of its GPU semantics. ctest
// runs this binary three times: with thread loops and block-size
// specialization (the default), with generic kernels (OFFLOAD_JIT=0: thread
// loops with run-time block sizes), and on fibers
// (OFFLOAD_HOST_THREAD_LOOPS=0), so the two execution strategies are checked
// against each other through the same references.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <tuple>
#include <vector>

using namespace offload_jit_test;

namespace {

const char *const Source = R"mlir(
module attributes {gpu.container_module} {
gpu.module @k {
  // out[i] = in[block base + n - 1 - t] + in[i]: a top-level barrier, the
  // loaded value lives across it.
  gpu.func @reverse(%in: memref<?xi32>, %out: memref<?xi32>)
      workgroup(%tile: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %n = gpu.block_dim x
    %base = arith.muli %bx, %n : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<?xi32>
    memref.store %v, %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %last = arith.subi %n, %c1 : index
    %r = arith.subi %last, %tx : index
    %w = memref.load %tile[%r] : memref<1024xi32, #gpu.address_space<workgroup>>
    %s = arith.addi %w, %v : i32
    memref.store %s, %out[%i] : memref<?xi32>
    gpu.return
  }

  // 2-D blocks: out = transpose of each block's bx x by tile of in.
  gpu.func @transpose_tile(%in: memref<?x?xi32>, %out: memref<?x?xi32>)
      workgroup(%tile: memref<32x32xi32, #gpu.address_space<workgroup>>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %v = memref.load %in[%ty, %tx] : memref<?x?xi32>
    memref.store %v, %tile[%tx, %ty] : memref<32x32xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %tile[%ty, %tx] : memref<32x32xi32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%ty, %tx] : memref<?x?xi32>
    gpu.return
  }

  // A uniform loop with two barriers and a loop-carried sum:
  // out[t] = sum over k < steps of in[(t + k) % n] * (k + 1).
  gpu.func @rotate_sum(%in: memref<?xi32>, %out: memref<?xi32>, %steps: index)
      workgroup(%tile: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %tx = gpu.thread_id x
    %n = gpu.block_dim x
    %v0 = memref.load %in[%tx] : memref<?xi32>
    memref.store %v0, %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    %r:2 = scf.for %k = %c0 to %steps step %c1 iter_args(%acc = %zero, %w = %one) -> (i32, i32) {
      gpu.barrier
      %t1 = arith.addi %tx, %c1 : index
      %src = arith.remui %t1, %n : index
      %x = memref.load %tile[%src] : memref<1024xi32, #gpu.address_space<workgroup>>
      %cur = memref.load %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      %p = arith.muli %cur, %w : i32
      %acc2 = arith.addi %acc, %p : i32
      gpu.barrier
      memref.store %x, %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      %w2 = arith.addi %w, %one : i32
      scf.yield %acc2, %w2 : i32, i32
    }
    memref.store %r#0, %out[%tx] : memref<?xi32>
    gpu.return
  }

  // A barrier under a uniform condition with a result, and nested uniform
  // loops: out[t] = flag ? in[(t + rows * cols) % n] : -in[t].
  gpu.func @uniform_if_nested(%in: memref<?xi32>, %out: memref<?xi32>,
                              %flag: i32, %rows: index, %cols: index)
      workgroup(%tile: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %tx = gpu.thread_id x
    %n = gpu.block_dim x
    %v = memref.load %in[%tx] : memref<?xi32>
    %on = arith.cmpi ne, %flag, %zero : i32
    %res = scf.if %on -> (i32) {
      memref.store %v, %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      scf.for %i = %c0 to %rows step %c1 {
        scf.for %j = %c0 to %cols step %c1 {
          gpu.barrier
          %t1 = arith.addi %tx, %c1 : index
          %src = arith.remui %t1, %n : index
          %x = memref.load %tile[%src] : memref<1024xi32, #gpu.address_space<workgroup>>
          gpu.barrier
          memref.store %x, %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %y = memref.load %tile[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      scf.yield %y : i32
    } else {
      %neg = arith.subi %zero, %v : i32
      scf.yield %neg : i32
    }
    memref.store %res, %out[%tx] : memref<?xi32>
    gpu.return
  }

  // Tree reduction in workgroup memory with a uniform scf.while; thread 0
  // writes the block's sum. Block size: a power of two.
  gpu.func @tree_sum(%in: memref<?xi32>, %out: memref<?xi32>)
      workgroup(%sh: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %n = gpu.block_dim x
    %base = arith.muli %bx, %n : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<?xi32>
    memref.store %v, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %half = arith.divui %n, %c2 : index
    %last = scf.while (%s = %half) : (index) -> index {
      %go = arith.cmpi ugt, %s, %c0 : index
      scf.condition(%go) %s : index
    } do {
    ^bb0(%s: index):
      %low = arith.cmpi ult, %tx, %s : index
      scf.if %low {
        %j = arith.addi %tx, %s : index
        %a = memref.load %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
        %b = memref.load %sh[%j] : memref<1024xi32, #gpu.address_space<workgroup>>
        %ab = arith.addi %a, %b : i32
        memref.store %ab, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %next = arith.divui %s, %c2 : index
      scf.yield %next : index
    }
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %sum = memref.load %sh[%c0] : memref<1024xi32, #gpu.address_space<workgroup>>
      memref.store %sum, %out[%bx] : memref<?xi32>
    }
    gpu.return
  }

  // Early exit: threads t >= limit return; the others synchronize and read a
  // neighbour written before the barrier: out[t] = in[(t + 2) % limit] + 1.
  gpu.func @early_exit(%in: memref<?xi32>, %out: memref<?xi32>, %limit: index)
      workgroup(%sh: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c2 = arith.constant 2 : index
    %one = arith.constant 1 : i32
    %tx = gpu.thread_id x
    %gone = arith.cmpi uge, %tx, %limit : index
    cf.cond_br %gone, ^exit, ^work
  ^work:
    %v = memref.load %in[%tx] : memref<?xi32>
    memref.store %v, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %t2 = arith.addi %tx, %c2 : index
    %src = arith.remui %t2, %limit : index
    %w = memref.load %sh[%src] : memref<1024xi32, #gpu.address_space<workgroup>>
    %w1 = arith.addi %w, %one : i32
    memref.store %w1, %out[%tx] : memref<?xi32>
    gpu.return
  ^exit:
    gpu.return
  }

  // Private memory that lives across barriers: each thread keeps 4 values.
  // out[t] = sum_k in[(t + k) % n] * (k + 1) for k < 4, read back after the
  // barrier from the thread's own private array.
  gpu.func @private_array(%in: memref<?xi32>, %out: memref<?xi32>)
      workgroup(%sh: memref<1024xi32, #gpu.address_space<workgroup>>)
      private(%mine: memref<4xi32, #gpu.address_space<private>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %tx = gpu.thread_id x
    %n = gpu.block_dim x
    %v = memref.load %in[%tx] : memref<?xi32>
    memref.store %v, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.for %k = %c0 to %c4 step %c1 {
      %tk = arith.addi %tx, %k : index
      %src = arith.remui %tk, %n : index
      %x = memref.load %sh[%src] : memref<1024xi32, #gpu.address_space<workgroup>>
      memref.store %x, %mine[%k] : memref<4xi32, #gpu.address_space<private>>
    }
    gpu.barrier
    memref.store %zero, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> i32 {
      %x = memref.load %mine[%k] : memref<4xi32, #gpu.address_space<private>>
      %k1 = arith.addi %k, %c1 : index
      %w = arith.index_cast %k1 : index to i32
      %p = arith.muli %x, %w : i32
      %a = arith.addi %acc, %p : i32
      scf.yield %a : i32
    }
    memref.store %sum, %out[%tx] : memref<?xi32>
    gpu.return
  }

  // Shuffles of every mode; results and valid bits per thread:
  // out[4 t + m] = value or -1 when invalid, for modes xor, up, down, idx.
  gpu.func @shuffles(%in: memref<?xi32>, %out: memref<?xi32>, %offset: i32,
                     %width: i32) kernel {
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %minus = arith.constant -1 : i32
    %tx = gpu.thread_id x
    %v = memref.load %in[%tx] : memref<?xi32>
    %b = arith.muli %tx, %c4 : index
    %x, %xv = gpu.shuffle xor %v, %offset, %width : i32
    %x1 = arith.select %xv, %x, %minus : i32
    memref.store %x1, %out[%b] : memref<?xi32>
    %u, %uv = gpu.shuffle up %v, %offset, %width : i32
    %u1 = arith.select %uv, %u, %minus : i32
    %b1 = arith.addi %b, %c1 : index
    memref.store %u1, %out[%b1] : memref<?xi32>
    %d, %dv = gpu.shuffle down %v, %offset, %width : i32
    %d1 = arith.select %dv, %d, %minus : i32
    %b2 = arith.addi %b, %c2 : index
    memref.store %d1, %out[%b2] : memref<?xi32>
    %i, %iv = gpu.shuffle idx %v, %offset, %width : i32
    %i1 = arith.select %iv, %i, %minus : i32
    %b3 = arith.addi %b, %c3 : index
    memref.store %i1, %out[%b3] : memref<?xi32>
    gpu.return
  }

  // A warp-shuffle sum tree (xor 16..1) in every warp, then one value per
  // warp through workgroup memory; thread 0 adds them: out[block] = sum.
  gpu.func @warp_sum(%in: memref<?xf32>, %out: memref<?xf32>)
      workgroup(%partial: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %w32 = arith.constant 32 : i32
    %zero = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %n = gpu.block_dim x
    %base = arith.muli %bx, %n : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<?xf32>
    %o16 = arith.constant 16 : i32
    %o8 = arith.constant 8 : i32
    %o4 = arith.constant 4 : i32
    %o2 = arith.constant 2 : i32
    %o1 = arith.constant 1 : i32
    %s16, %ok16 = gpu.shuffle xor %v, %o16, %w32 : f32
    %a16 = arith.addf %v, %s16 : f32
    %s8, %ok8 = gpu.shuffle xor %a16, %o8, %w32 : f32
    %a8 = arith.addf %a16, %s8 : f32
    %s4, %ok4 = gpu.shuffle xor %a8, %o4, %w32 : f32
    %a4 = arith.addf %a8, %s4 : f32
    %s2, %ok2 = gpu.shuffle xor %a4, %o2, %w32 : f32
    %a2 = arith.addf %a4, %s2 : f32
    %s1, %ok1 = gpu.shuffle xor %a2, %o1, %w32 : f32
    %a1 = arith.addf %a2, %s1 : f32
    %lane = gpu.lane_id
    %warp = gpu.subgroup_id : index
    %lead = arith.cmpi eq, %lane, %c0 : index
    scf.if %lead {
      memref.store %a1, %partial[%warp] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %warps = arith.divui %n, %c32 : index
      %sum = scf.for %w = %c0 to %warps step %c1 iter_args(%acc = %zero) -> f32 {
        %p = memref.load %partial[%w] : memref<32xf32, #gpu.address_space<workgroup>>
        %a = arith.addf %acc, %p : f32
        scf.yield %a : f32
      }
      memref.store %sum, %out[%bx] : memref<?xf32>
    }
    gpu.return
  }

  // Shuffles under a condition that differs between threads: only even lanes
  // take part, so odd sources are invalid. out[t] = result or -1 (invalid) for
  // even t, unchanged for odd t.
  gpu.func @shuffle_divergent(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %off = arith.constant 2 : i32
    %w = arith.constant 32 : i32
    %minus = arith.constant -1 : i32
    %tx = gpu.thread_id x
    %r = arith.remui %tx, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    scf.if %even {
      %v = memref.load %in[%tx] : memref<?xi32>
      %d, %dv = gpu.shuffle down %v, %off, %w : i32
      %x, %xv = gpu.shuffle xor %v, %off, %w : i32
      %dd = arith.select %dv, %d, %minus : i32
      %xx = arith.select %xv, %x, %minus : i32
      %s = arith.addi %dd, %xx : i32
      memref.store %s, %out[%tx] : memref<?xi32>
    }
    gpu.return
  }

  // gpu.all_reduce of every integer operation, and the region form; thread 0
  // writes all results: out[8 * block + k].
  gpu.func @all_reduce_int(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %n = gpu.block_dim x
    %base = arith.muli %bx, %n : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<?xi32>
    %add = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %mul = gpu.all_reduce mul %v uniform {} : (i32) -> (i32)
    %mins = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
    %maxs = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
    %minu = gpu.all_reduce minui %v uniform {} : (i32) -> (i32)
    %and = gpu.all_reduce and %v uniform {} : (i32) -> (i32)
    %or = gpu.all_reduce or %v uniform {} : (i32) -> (i32)
    %xor = gpu.all_reduce %v uniform {
    ^bb0(%a: i32, %b: i32):
      %r = arith.xori %a, %b : i32
      gpu.yield %r : i32
    } : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %o = arith.muli %bx, %c8 : index
      memref.store %add, %out[%o] : memref<?xi32>
      %o1 = arith.addi %o, %c1 : index
      memref.store %mul, %out[%o1] : memref<?xi32>
      %o2 = arith.addi %o, %c2 : index
      memref.store %mins, %out[%o2] : memref<?xi32>
      %o3 = arith.addi %o, %c3 : index
      memref.store %maxs, %out[%o3] : memref<?xi32>
      %o4 = arith.addi %o, %c4 : index
      memref.store %minu, %out[%o4] : memref<?xi32>
      %o5 = arith.addi %o, %c5 : index
      memref.store %and, %out[%o5] : memref<?xi32>
      %o6 = arith.addi %o, %c6 : index
      memref.store %or, %out[%o6] : memref<?xi32>
      %o7 = arith.addi %o, %c7 : index
      memref.store %xor, %out[%o7] : memref<?xi32>
    }
    gpu.return
  }

  // Floating-point reductions whose results every thread writes:
  // out[3 t + {0, 1, 2}] = block sum, max, min of in (exact: small integers).
  gpu.func @all_reduce_float(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %tx = gpu.thread_id x
    %v = memref.load %in[%tx] : memref<?xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    %max = gpu.all_reduce maxnumf %v uniform {} : (f32) -> (f32)
    %min = gpu.all_reduce minimumf %v uniform {} : (f32) -> (f32)
    %o = arith.muli %tx, %c3 : index
    memref.store %sum, %out[%o] : memref<?xf32>
    %o1 = arith.addi %o, %c1 : index
    memref.store %max, %out[%o1] : memref<?xf32>
    %o2 = arith.addi %o, %c2 : index
    memref.store %min, %out[%o2] : memref<?xf32>
    gpu.return
  }

  // The issue's case: only thread 0 uses the reduction.
  gpu.func @thread0_sum(%out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<?xi32>
    }
    gpu.return
  }

  // gpu.subgroup_reduce over the whole subgroup and over clusters:
  // out[3 t + {0, 1, 2}] = add over the subgroup, add over clusters of 4
  // lanes 1 apart, max over clusters of 4 lanes 8 apart.
  gpu.func @subgroup_reduce(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %tx = gpu.thread_id x
    %v = memref.load %in[%tx] : memref<?xi32>
    %all = gpu.subgroup_reduce add %v : (i32) -> i32
    %four = gpu.subgroup_reduce add %v cluster(size = 4) : (i32) -> i32
    %spread = gpu.subgroup_reduce maxsi %v cluster(size = 4, stride = 8) : (i32) -> i32
    %o = arith.muli %tx, %c3 : index
    memref.store %all, %out[%o] : memref<?xi32>
    %o1 = arith.addi %o, %c1 : index
    memref.store %four, %out[%o1] : memref<?xi32>
    %o2 = arith.addi %o, %c2 : index
    memref.store %spread, %out[%o2] : memref<?xi32>
    gpu.return
  }

  // Dynamic shared memory across a barrier: out[t] = 2 * in[(t + 1) % n].
  gpu.func @dynamic_shared(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %n = gpu.block_dim x
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %sh = memref.view %raw[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
    %v = memref.load %in[%tx] : memref<?xi32>
    %v2 = arith.addi %v, %v : i32
    memref.store %v2, %sh[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %t1 = arith.addi %tx, %c1 : index
    %src = arith.remui %t1, %n : index
    %w = memref.load %sh[%src] : memref<?xi32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%tx] : memref<?xi32>
    gpu.return
  }

  // A barrier in a loop whose trip count is read from memory: the same for
  // every thread at run time, but not provably so; it runs on fibers in
  // every mode. out[t] = in[(t + trips) % n].
  gpu.func @loaded_trip_count(%in: memref<?xi32>, %out: memref<?xi32>,
                              %trips: memref<?xindex>)
      workgroup(%sh: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %n = gpu.block_dim x
    %count = memref.load %trips[%c0] : memref<?xindex>
    %v = memref.load %in[%tx] : memref<?xi32>
    memref.store %v, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %count step %c1 {
      gpu.barrier
      %t1 = arith.addi %tx, %c1 : index
      %src = arith.remui %t1, %n : index
      %x = memref.load %sh[%src] : memref<1024xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %x, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %y = memref.load %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
    memref.store %y, %out[%tx] : memref<?xi32>
    gpu.return
  }

  // Histogram with workgroup atomics merged by global atomics:
  // hist[b] += count of b in the block's slice, 64 bins.
  gpu.func @histogram(%in: memref<?xi32>, %hist: memref<?xi32>, %n: index)
      workgroup(%local: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %bd = gpu.block_dim x
    %small = arith.cmpi ult, %tx, %c64 : index
    scf.if %small {
      memref.store %zero, %local[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %base = arith.muli %bx, %bd : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %v = memref.load %in[%i] : memref<?xi32>
      %b = arith.index_cast %v : i32 to index
      %old = memref.atomic_rmw addi %one, %local[%b] : (i32, memref<64xi32, #gpu.address_space<workgroup>>) -> i32
    }
    gpu.barrier
    scf.if %small {
      %c = memref.load %local[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      %g = memref.atomic_rmw addi %c, %hist[%tx] : (i32, memref<?xi32>) -> i32
    }
    gpu.return
  }

  // A grid-stride loop: y[i] = a * x[i] + y[i] for every i < n.
  gpu.func @grid_stride_saxpy(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32,
                              %n: index) kernel {
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %bd = gpu.block_dim x
    %gd = gpu.grid_dim x
    %base = arith.muli %bx, %bd : index
    %i0 = arith.addi %base, %tx : index
    %stride = arith.muli %gd, %bd : index
    scf.for %i = %i0 to %n step %stride {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
    }
    gpu.return
  }

  // A stencil with a radius loop in the thread body (interchanged):
  // out[i] = sum_{k < 2r+1} w[k] * in[i + k] for i < n.
  gpu.func @radius_stencil(%in: memref<?xf32>, %w: memref<?xf32>,
                           %out: memref<?xf32>, %r: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %bd = gpu.block_dim x
    %base = arith.muli %bx, %bd : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %r2 = arith.muli %r, %c2 : index
      %taps = arith.addi %r2, %c1 : index
      %sum = scf.for %k = %c0 to %taps step %c1 iter_args(%acc = %zero) -> f32 {
        %j = arith.addi %i, %k : index
        %v = memref.load %in[%j] : memref<?xf32>
        %wk = memref.load %w[%k] : memref<?xf32>
        %p = arith.mulf %v, %wk : f32
        %a = arith.addf %acc, %p : f32
        scf.yield %a : f32
      }
      memref.store %sum, %out[%i] : memref<?xf32>
    }
    gpu.return
  }

  // A bounds check that wraps for thread 0 (tid - 1 < n, unsigned) guarding
  // a barrier: out[t] = in[t - 1] for 1 <= t <= n, untouched otherwise.
  gpu.func @wrapping_check(%in: memref<?xi32>, %out: memref<?xi32>,
                           %n: index)
      workgroup(%sh: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %im1 = arith.subi %tx, %c1 : index
    %ok = arith.cmpi ult, %im1, %n : index
    scf.if %ok {
      %v = memref.load %in[%im1] : memref<?xi32>
      memref.store %v, %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %sh[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tx] : memref<?xi32>
    }
    gpu.return
  }
}
}
)mlir";

/// Packs kernel arguments at their natural alignment (the host ABI's
/// non-packed LLVM struct).
class Args {
public:
  template <typename T> Args &scalar(T Value) {
    align(alignof(T));
    size_t At = Bytes.size();
    Bytes.resize(At + sizeof(T));
    std::memcpy(Bytes.data() + At, &Value, sizeof(T));
    MaxAlign = std::max(MaxAlign, alignof(T));
    return *this;
  }
  /// A 1-D memref over \p Data.
  template <typename T> Args &memref(T *Data, int64_t Size) {
    scalar(Data);
    scalar(Data);
    scalar<int64_t>(0);
    return scalar<int64_t>(Size).scalar<int64_t>(1);
  }
  /// A row-major 2-D memref over \p Data.
  template <typename T> Args &memref2D(T *Data, int64_t Rows, int64_t Cols) {
    scalar(Data);
    scalar(Data);
    scalar<int64_t>(0);
    scalar<int64_t>(Rows).scalar<int64_t>(Cols);
    return scalar<int64_t>(Cols).scalar<int64_t>(1);
  }
  const void *data() const { return Bytes.data(); }
  size_t size() const {
    return (Bytes.size() + MaxAlign - 1) / MaxAlign * MaxAlign;
  }

private:
  void align(size_t A) { Bytes.resize((Bytes.size() + A - 1) / A * A); }
  std::vector<uint8_t> Bytes;
  size_t MaxAlign = 1;
};

class ThreadLoopsTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Before the JIT reads its environment (first use).
    setenv("OFFLOAD_CACHE_DIR", OFFLOAD_THREAD_LOOPS_TEST_CACHE_DIR, 0);
    ASSERT_OK(offloadInit());
    ASSERT_OK(offloadGetHostDevice(&Device));
    ASSERT_OK(offloadCreateProgramFromMLIR(Device, Source, std::strlen(Source),
                                           &Program));
  }
  void TearDown() override {
    if (Program)
      ASSERT_OK(offloadJITDestroyProgram(Program));
  }

  /// Launches \p Name with a padded buffer so that Args may be shorter.
  void launch(const char *Name, const Args &A, uint32_t Blocks,
              uint32_t ThreadsX, uint32_t ThreadsY = 1,
              size_t DynamicShared = 0) {
    offload_jit_kernel_handle_t Kernel;
    ASSERT_OK(offloadJITGetKernel(Program, Name, &Kernel));
    offload_kernel_launch_size_args_t S = sizes(Blocks, ThreadsX);
    S.Dimensions = ThreadsY > 1 ? 2 : 1;
    S.GroupSize.y = ThreadsY;
    S.DynSharedMemory = DynamicShared;
    ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, Kernel, A.data(),
                                     A.size(), &S));
  }

  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
};

std::vector<int32_t> pattern(size_t N, int32_t Seed = 7) {
  std::vector<int32_t> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = int32_t((I * 37 + Seed) % 101) - 50;
  return V;
}

TEST_F(ThreadLoopsTest, TopLevelBarrier) {
  for (uint32_t Threads : {1u, 32u, 100u, 256u, 1024u}) {
    const uint32_t Blocks = 3;
    std::vector<int32_t> In = pattern(Blocks * Threads), Out(In.size(), 0);
    launch("reverse",
           Args().memref(In.data(), In.size()).memref(Out.data(), Out.size()),
           Blocks, Threads);
    for (uint32_t B = 0; B < Blocks; ++B)
      for (uint32_t T = 0; T < Threads; ++T)
        ASSERT_EQ(Out[B * Threads + T],
                  In[B * Threads + Threads - 1 - T] + In[B * Threads + T])
            << "threads " << Threads << " block " << B << " thread " << T;
  }
}

TEST_F(ThreadLoopsTest, TwoDimensionalBlock) {
  for (int Side : {1, 5, 16, 32}) {
    std::vector<int32_t> In = pattern(Side * Side), Out(In.size(), 0);
    launch(
        "transpose_tile",
        Args().memref2D(In.data(), Side, Side).memref2D(Out.data(), Side, Side),
        1, Side, Side);
    for (int R = 0; R < Side; ++R)
      for (int C = 0; C < Side; ++C)
        ASSERT_EQ(Out[R * Side + C], In[C * Side + R])
            << Side << "x" << Side << " at " << R << "," << C;
  }
}

TEST_F(ThreadLoopsTest, BarriersInUniformLoop) {
  for (uint32_t Threads : {1u, 33u, 128u}) {
    for (int64_t Steps : {0, 1, 5}) {
      std::vector<int32_t> In = pattern(Threads), Out(Threads, -7);
      launch("rotate_sum",
             Args()
                 .memref(In.data(), Threads)
                 .memref(Out.data(), Threads)
                 .scalar<int64_t>(Steps),
             1, Threads);
      for (uint32_t T = 0; T < Threads; ++T) {
        int32_t Expected = 0;
        for (int64_t K = 0; K < Steps; ++K)
          Expected += In[(T + K) % Threads] * int32_t(K + 1);
        ASSERT_EQ(Out[T], Expected)
            << "threads " << Threads << " steps " << Steps << " thread " << T;
      }
    }
  }
}

TEST_F(ThreadLoopsTest, BarriersUnderUniformIfAndNestedLoops) {
  const uint32_t Threads = 96;
  for (int32_t Flag : {0, 1}) {
    for (auto [Rows, Cols] : {std::pair<int64_t, int64_t>{0, 3}, {2, 3}}) {
      std::vector<int32_t> In = pattern(Threads), Out(Threads, 0);
      launch("uniform_if_nested",
             Args()
                 .memref(In.data(), Threads)
                 .memref(Out.data(), Threads)
                 .scalar<int32_t>(Flag)
                 .scalar<int64_t>(Rows)
                 .scalar<int64_t>(Cols),
             1, Threads);
      for (uint32_t T = 0; T < Threads; ++T)
        ASSERT_EQ(Out[T], Flag ? In[(T + Rows * Cols) % Threads] : -In[T])
            << "flag " << Flag << " rows " << Rows << " thread " << T;
    }
  }
}

TEST_F(ThreadLoopsTest, UniformWhileTreeReduction) {
  for (uint32_t Threads : {1u, 2u, 64u, 1024u}) {
    const uint32_t Blocks = 5;
    std::vector<int32_t> In = pattern(Blocks * Threads), Out(Blocks, 0);
    launch("tree_sum",
           Args().memref(In.data(), In.size()).memref(Out.data(), Blocks),
           Blocks, Threads);
    for (uint32_t B = 0; B < Blocks; ++B)
      ASSERT_EQ(Out[B], std::accumulate(In.begin() + B * Threads,
                                        In.begin() + (B + 1) * Threads, 0))
          << "threads " << Threads << " block " << B;
  }
}

TEST_F(ThreadLoopsTest, EarlyExit) {
  const uint32_t Threads = 128;
  for (int64_t Limit : {1, 50, 127, 128}) {
    std::vector<int32_t> In = pattern(Threads), Out(Threads, -9);
    launch("early_exit",
           Args()
               .memref(In.data(), Threads)
               .memref(Out.data(), Threads)
               .scalar<int64_t>(Limit),
           1, Threads);
    for (uint32_t T = 0; T < Threads; ++T) {
      int32_t Expected = T < Limit ? In[(T + 2) % Limit] + 1 : -9;
      ASSERT_EQ(Out[T], Expected) << "limit " << Limit << " thread " << T;
    }
  }
}

TEST_F(ThreadLoopsTest, PrivateMemoryAcrossBarriers) {
  for (uint32_t Threads : {3u, 64u, 250u}) {
    std::vector<int32_t> In = pattern(Threads), Out(Threads, 0);
    launch("private_array",
           Args().memref(In.data(), Threads).memref(Out.data(), Threads), 1,
           Threads);
    for (uint32_t T = 0; T < Threads; ++T) {
      int32_t Expected = 0;
      for (uint32_t K = 0; K < 4; ++K)
        Expected += In[(T + K) % Threads] * int32_t(K + 1);
      ASSERT_EQ(Out[T], Expected) << "threads " << Threads << " thread " << T;
    }
  }
}

/// The fiber scheduler's shuffle semantics (lib/Runtime/plugins/host/
/// Fiber.cpp): lanes within 32-thread subgroups; the source is valid when in
/// [0, Width) and an existing thread that takes part.
int32_t shuffleReference(const std::vector<int32_t> &In, uint32_t T,
                         uint32_t Threads, int Mode, int32_t Offset,
                         int32_t Width,
                         const std::function<bool(uint32_t)> &TakesPart) {
  int64_t Lane = T % 32, Base = T - Lane;
  int64_t Source = Mode == 0   ? (Lane ^ Offset)
                   : Mode == 1 ? Lane - Offset
                   : Mode == 2 ? Lane + Offset
                               : Offset;
  bool Valid = Source >= 0 && Source < Width && Base + Source < Threads &&
               TakesPart(uint32_t(Base + Source));
  return Valid ? In[Base + Source] : -1;
}

TEST_F(ThreadLoopsTest, ShuffleModesAndValidity) {
  for (uint32_t Threads : {32u, 100u, 256u}) {
    for (auto [Offset, Width] : {std::pair<int32_t, int32_t>{1, 32},
                                 {5, 32},
                                 {3, 16},
                                 {31, 32},
                                 {40, 32}}) {
      std::vector<int32_t> In = pattern(Threads), Out(4 * Threads, 0);
      launch("shuffles",
             Args()
                 .memref(In.data(), Threads)
                 .memref(Out.data(), Out.size())
                 .scalar<int32_t>(Offset)
                 .scalar<int32_t>(Width),
             1, Threads);
      for (uint32_t T = 0; T < Threads; ++T)
        for (int Mode = 0; Mode < 4; ++Mode)
          ASSERT_EQ(Out[4 * T + Mode],
                    shuffleReference(In, T, Threads, Mode, Offset, Width,
                                     [](uint32_t) { return true; }))
              << "threads " << Threads << " offset " << Offset << " width "
              << Width << " thread " << T << " mode " << Mode;
    }
  }
}

TEST_F(ThreadLoopsTest, WarpShuffleTreeSum) {
  const uint32_t Threads = 256, Blocks = 6;
  std::vector<int32_t> Ints = pattern(Threads * Blocks);
  std::vector<float> In(Ints.begin(), Ints.end()), Out(Blocks, 0);
  launch("warp_sum",
         Args().memref(In.data(), In.size()).memref(Out.data(), Blocks), Blocks,
         Threads);
  for (uint32_t B = 0; B < Blocks; ++B)
    ASSERT_EQ(Out[B], std::accumulate(In.begin() + B * Threads,
                                      In.begin() + (B + 1) * Threads, 0.0f))
        << "block " << B;
}

TEST_F(ThreadLoopsTest, ShufflesUnderDivergentCondition) {
  for (uint32_t Threads : {32u, 70u}) {
    std::vector<int32_t> In = pattern(Threads), Out(Threads, 1234);
    launch("shuffle_divergent",
           Args().memref(In.data(), Threads).memref(Out.data(), Threads), 1,
           Threads);
    auto Even = [](uint32_t T) { return T % 2 == 0; };
    for (uint32_t T = 0; T < Threads; ++T) {
      int32_t Expected =
          Even(T) ? shuffleReference(In, T, Threads, 2, 2, 32, Even) +
                        shuffleReference(In, T, Threads, 0, 2, 32, Even)
                  : 1234;
      ASSERT_EQ(Out[T], Expected) << "threads " << Threads << " thread " << T;
    }
  }
}

TEST_F(ThreadLoopsTest, AllReduceIntegerOperations) {
  for (uint32_t Threads : {1u, 31u, 96u, 512u}) {
    const uint32_t Blocks = 3;
    std::vector<int32_t> In(Threads * Blocks);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = int32_t((I * 2654435761u) % 1000) - 300;
    // Keep the product small: mostly ones and minus ones.
    for (size_t I = 0; I < In.size(); I += 3)
      In[I] = I % 2 ? 1 : -1;
    std::vector<int32_t> Out(8 * Blocks, 0);
    launch("all_reduce_int",
           Args().memref(In.data(), In.size()).memref(Out.data(), Out.size()),
           Blocks, Threads);
    for (uint32_t B = 0; B < Blocks; ++B) {
      const int32_t *V = In.data() + B * Threads;
      int32_t Add = 0, Mul = 1, MinS = std::numeric_limits<int32_t>::max(),
              MaxS = std::numeric_limits<int32_t>::min(), And = -1, Or = 0,
              Xor = 0;
      uint32_t MinU = std::numeric_limits<uint32_t>::max();
      for (uint32_t T = 0; T < Threads; ++T) {
        Add += V[T];
        Mul = int32_t(uint32_t(Mul) * uint32_t(V[T]));
        MinS = std::min(MinS, V[T]);
        MaxS = std::max(MaxS, V[T]);
        MinU = std::min(MinU, uint32_t(V[T]));
        And &= V[T];
        Or |= V[T];
        Xor ^= V[T];
      }
      const int32_t *R = Out.data() + 8 * B;
      EXPECT_EQ(R[0], Add) << "add, threads " << Threads;
      EXPECT_EQ(R[1], Mul) << "mul, threads " << Threads;
      EXPECT_EQ(R[2], MinS) << "minsi, threads " << Threads;
      EXPECT_EQ(R[3], MaxS) << "maxsi, threads " << Threads;
      EXPECT_EQ(uint32_t(R[4]), MinU) << "minui, threads " << Threads;
      EXPECT_EQ(R[5], And) << "and, threads " << Threads;
      EXPECT_EQ(R[6], Or) << "or, threads " << Threads;
      EXPECT_EQ(R[7], Xor) << "region xor, threads " << Threads;
    }
  }
}

TEST_F(ThreadLoopsTest, AllReduceFloatEveryThreadUsesIt) {
  const uint32_t Threads = 200;
  std::vector<int32_t> Ints = pattern(Threads);
  std::vector<float> In(Ints.begin(), Ints.end()), Out(3 * Threads, 0);
  launch("all_reduce_float",
         Args().memref(In.data(), Threads).memref(Out.data(), Out.size()), 1,
         Threads);
  float Sum = std::accumulate(In.begin(), In.end(), 0.0f);
  float Max = *std::max_element(In.begin(), In.end());
  float Min = *std::min_element(In.begin(), In.end());
  for (uint32_t T = 0; T < Threads; ++T) {
    ASSERT_EQ(Out[3 * T], Sum) << "thread " << T;
    ASSERT_EQ(Out[3 * T + 1], Max) << "thread " << T;
    ASSERT_EQ(Out[3 * T + 2], Min) << "thread " << T;
  }
}

TEST_F(ThreadLoopsTest, AllReduceUsedByThreadZeroOnly) {
  for (uint32_t Threads : {32u, 64u, 96u, 100u, 128u, 256u, 512u, 1024u}) {
    int32_t Out = -1;
    launch("thread0_sum", Args().memref(&Out, 1), 1, Threads);
    ASSERT_EQ(Out, int32_t(Threads * (Threads - 1) / 2))
        << "threads " << Threads;
  }
}

/// Whether this process runs cooperative kernels on fibers.
bool onFibers() {
  const char *Value = std::getenv("OFFLOAD_HOST_THREAD_LOOPS");
  return Value && std::string(Value) == "0";
}

TEST_F(ThreadLoopsTest, SubgroupReduceClusters) {
  std::vector<uint32_t> Sizes{32, 64, 90};
  // On fibers, subgroup reductions are upstream's shuffle trees, which assume
  // full subgroups.
  if (onFibers())
    Sizes.pop_back();
  for (uint32_t Threads : Sizes) {
    std::vector<int32_t> In = pattern(Threads, 11), Out(3 * Threads, 0);
    launch("subgroup_reduce",
           Args().memref(In.data(), Threads).memref(Out.data(), Out.size()), 1,
           Threads);
    for (uint32_t T = 0; T < Threads; ++T) {
      uint32_t Base = T - T % 32;
      int32_t All = 0;
      for (uint32_t L = Base; L < std::min(Base + 32, Threads); ++L)
        All += In[L];
      int32_t Four = 0;
      uint32_t Start4 = T - T % 4;
      for (uint32_t L = Start4; L < std::min(Start4 + 4, Threads); ++L)
        Four += In[L];
      // Clusters of 4 lanes 8 apart within each 32 lanes: lane % 8 names the
      // cluster.
      int32_t Spread = std::numeric_limits<int32_t>::min();
      for (uint32_t K = 0; K < 4; ++K) {
        uint32_t L = Base + (T % 8) + 8 * K;
        if (L < Threads)
          Spread = std::max(Spread, In[L]);
      }
      ASSERT_EQ(Out[3 * T], All) << "threads " << Threads << " thread " << T;
      ASSERT_EQ(Out[3 * T + 1], Four)
          << "threads " << Threads << " thread " << T;
      ASSERT_EQ(Out[3 * T + 2], Spread)
          << "threads " << Threads << " thread " << T;
    }
  }
}

TEST_F(ThreadLoopsTest, DynamicSharedMemory) {
  const uint32_t Threads = 77;
  std::vector<int32_t> In = pattern(Threads), Out(Threads, 0);
  launch("dynamic_shared",
         Args().memref(In.data(), Threads).memref(Out.data(), Threads), 1,
         Threads, 1, Threads * sizeof(int32_t));
  for (uint32_t T = 0; T < Threads; ++T)
    ASSERT_EQ(Out[T], 2 * In[(T + 1) % Threads]) << "thread " << T;
}

TEST_F(ThreadLoopsTest, HistogramWithWorkgroupAtomics) {
  for (uint32_t Threads : {64u, 128u, 200u}) {
    const int64_t N = 10007;
    uint32_t Blocks = uint32_t((N + Threads - 1) / Threads);
    std::vector<int32_t> In(N), Hist(64, 0), Expected(64, 0);
    for (int64_t I = 0; I < N; ++I) {
      In[I] = int32_t((I * I + 3 * I) % 64);
      ++Expected[In[I]];
    }
    launch("histogram",
           Args().memref(In.data(), N).memref(Hist.data(), 64).scalar(N),
           Blocks, Threads);
    ASSERT_EQ(Hist, Expected) << "threads " << Threads;
  }
}

TEST_F(ThreadLoopsTest, GridStrideLoop) {
  for (auto [Blocks, Threads, N] :
       {std::tuple<uint32_t, uint32_t, int64_t>{3, 64, 1000},
        {1, 256, 255},
        {4, 32, 4096},
        {2, 100, 7}}) {
    std::vector<float> X(N), Y(N), Expected(N);
    for (int64_t I = 0; I < N; ++I) {
      X[I] = float(I % 17);
      Y[I] = float(I % 5) - 2;
      Expected[I] = 3.0f * X[I] + Y[I];
    }
    launch(
        "grid_stride_saxpy",
        Args().memref(X.data(), N).memref(Y.data(), N).scalar(3.0f).scalar(N),
        Blocks, Threads);
    ASSERT_EQ(Y, Expected) << Blocks << " blocks of " << Threads << ", n " << N;
  }
}

TEST_F(ThreadLoopsTest, StencilWithRadiusLoop) {
  for (int64_t R : {0, 1, 3}) {
    const int64_t N = 1000;
    const uint32_t Threads = 128;
    std::vector<float> In(N + 2 * R), W(2 * R + 1), Out(N, -1), Expected(N);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = float(I % 11);
    for (size_t K = 0; K < W.size(); ++K)
      W[K] = float(K + 1);
    for (int64_t I = 0; I < N; ++I) {
      float Acc = 0;
      for (int64_t K = 0; K < 2 * R + 1; ++K)
        Acc += In[I + K] * W[K];
      Expected[I] = Acc;
    }
    launch("radius_stencil",
           Args()
               .memref(In.data(), In.size())
               .memref(W.data(), W.size())
               .memref(Out.data(), N)
               .scalar(R)
               .scalar(N),
           uint32_t((N + Threads - 1) / Threads), Threads);
    ASSERT_EQ(Out, Expected) << "radius " << R;
  }
}

TEST_F(ThreadLoopsTest, UnsignedCheckThatWraps) {
  const uint32_t Threads = 64;
  for (int64_t N : {0, 10, 63, 100}) {
    std::vector<int32_t> In = pattern(Threads + 1), Out(Threads, -5);
    launch("wrapping_check",
           Args()
               .memref(In.data(), In.size())
               .memref(Out.data(), Threads)
               .scalar(N),
           1, Threads);
    for (uint32_t T = 0; T < Threads; ++T)
      ASSERT_EQ(Out[T], T >= 1 && T <= N ? In[T - 1] : -5)
          << "n " << N << " thread " << T;
  }
}

TEST_F(ThreadLoopsTest, UnprovableUniformityFallsBackToFibers) {
  const uint32_t Threads = 64;
  for (int64_t Trips : {0, 3}) {
    std::vector<int32_t> In = pattern(Threads), Out(Threads, 0);
    std::vector<int64_t> Count{Trips};
    launch("loaded_trip_count",
           Args()
               .memref(In.data(), Threads)
               .memref(Out.data(), Threads)
               .memref(Count.data(), 1),
           1, Threads);
    for (uint32_t T = 0; T < Threads; ++T)
      ASSERT_EQ(Out[T], In[(T + Trips) % Threads])
          << "trips " << Trips << " thread " << T;
  }
}

} // namespace
