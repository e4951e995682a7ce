// RUN: offload-opt %s -split-input-file -offload-specialize | FileCheck %s
// RUN: offload-opt %s -split-input-file -offload-specialize="cost-model=false unroll-max-trip-count=16" | FileCheck %s --check-prefix=FIXED
// RUN: offload-opt %s -split-input-file -offload-specialize="max-table-bytes=0" | FileCheck %s --check-prefix=NOTABLE

// adam's bias corrections: 1 - b^t for t = 1..200 with b and the step count
// known. The 200-step loop is too large to unroll (its body stays large after
// folding), so the powf calls become loads from a table of 1 - 0.5^t,
// computed at specialization (0.5^t is exact in f32 up to t = 126, then
// 1 - 0.5^t rounds to 1).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // The table in hex, little-endian: 0.5, 0.75, 0.875, 0.9375, ..., 1.0.
    // CHECK:       memref.global "private" constant @[[TABLE:steps_spec_[0-9a-f]+\.table[_0-9]*]] : memref<200xf32> = dense<"0x0000003F0000403F0000603F0000703F
    // CHECK-SAME:    0000803F">
    // CHECK-LABEL: gpu.func @steps_spec_
    // CHECK:         %[[G:.*]] = memref.get_global @[[TABLE]] : memref<200xf32>
    // CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32
    // CHECK:           %[[D:.*]] = arith.subi %[[T]], %{{.*}} : i32
    // CHECK:           %[[I:.*]] = arith.index_castui %[[D]] : i32 to index
    // CHECK:           memref.load %[[G]][%[[I]]] : memref<200xf32>
    // CHECK-NOT:       math.powf
    // CHECK:         gpu.return
    // FIXED-LABEL: gpu.func @steps_spec_
    // FIXED:         math.powf
    // NOTABLE-LABEL: gpu.func @steps_spec_
    // NOTABLE:       math.powf
    // NOTABLE:       gpu.return
    // CHECK-LABEL: func.func @host
    // FIXED-LABEL: func.func @host
    // NOTABLE-LABEL: func.func @host
    gpu.func @steps(%x: memref<?xf32>, %b_arg: f32, %n_arg: i32) kernel {
      %b = offload.runtime_constant %b_arg : f32
      %n = offload.runtime_constant %n_arg : i32
      %c1 = arith.constant 1 : i32
      %one = arith.constant 1.0 : f32
      %i = gpu.thread_id x
      %end = arith.addi %n, %c1 : i32
      scf.for %t = %c1 to %end step %c1 : i32 {
        %xi = memref.load %x[%i] : memref<?xf32>
        %tf = arith.sitofp %t : i32 to f32
        %bt = math.powf %b, %tf : f32
        %bc = arith.subf %one, %bt : f32
        %y = arith.divf %xi, %bc : f32
        %y2 = arith.mulf %y, %y : f32
        %y3 = arith.addf %y2, %xi : f32
        %y4 = math.sqrt %y3 : f32
        memref.store %y4, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @host(%x: memref<?xf32>) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %b = arith.constant 0.5 : f32
    %n = arith.constant 200 : i32
    offload.launch @kernels::@steps on %dev blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %b : f32, %n : i32)
    return
  }
}

// -----

// Unrolling by cost: a 40-iteration loop reading a constant table (contents)
// folds to 40 multiply-adds by immediates and is unrolled, though it is longer
// than the fixed bound of 16; a 40-iteration loop of 12 ops whose loads do not
// fold stays rolled (unrolled cost 40 x 12 - 1 = 479 > 300 x 560 / 479 %).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @weights_spec_
    // CHECK-NOT:     scf.for
    // CHECK-COUNT-40: arith.mulf %{{.*}}, %cst{{.*}} : f32
    // CHECK-NOT:     scf.for
    // CHECK:         gpu.return
    // FIXED-LABEL: gpu.func @weights_spec_
    // FIXED:         scf.for
    // FIXED:         gpu.return
    gpu.func @weights(%x: memref<?xf32>, %w_arg: memref<40xf32>,
                      %n_arg: index) kernel {
      %w = offload.runtime_constant %w_arg contents : memref<40xf32>
      %n = offload.runtime_constant %n_arg : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %i = gpu.thread_id x
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %p = arith.addi %i, %k : index
        %xk = memref.load %x[%p] : memref<?xf32>
        %wk = memref.load %w[%k] : memref<40xf32>
        %t = arith.mulf %xk, %wk : f32
        %a = arith.addf %acc, %t : f32
        scf.yield %a : f32
      }
      memref.store %s, %x[%i] : memref<?xf32>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @products_spec_
    // CHECK:         scf.for
    // CHECK-COUNT-2:   memref.load
    // CHECK-NOT:       memref.load
    // CHECK:         gpu.return
    // CHECK-LABEL: func.func @host
    // FIXED-LABEL: func.func @host
    gpu.func @products(%x: memref<?xf32>, %y: memref<?xf32>,
                       %n_arg: index) kernel {
      %n = offload.runtime_constant %n_arg : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %i = gpu.thread_id x
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %p = arith.addi %i, %k : index
        %xk = memref.load %x[%p] : memref<?xf32>
        %yk = memref.load %y[%p] : memref<?xf32>
        %t = arith.mulf %xk, %yk : f32
        %u = arith.subf %t, %xk : f32
        %v = arith.mulf %u, %yk : f32
        %w = arith.addf %v, %t : f32
        %w2 = arith.mulf %w, %w : f32
        %w3 = arith.subf %w2, %yk : f32
        %w4 = arith.mulf %w3, %xk : f32
        %w5 = arith.addf %w4, %u : f32
        %a = arith.addf %acc, %w5 : f32
        scf.yield %a : f32
      }
      memref.store %s, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%x: memref<?xf32>, %y: memref<?xf32>) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %w = memref.get_global @w : memref<40xf32>
    offload.launch @kernels::@weights on %dev blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %w : memref<40xf32>, %c40 : index)
    offload.launch @kernels::@products on %dev blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %c40 : index)
    return
  }
  memref.global "private" constant @w : memref<40xf32> = dense<[
      0.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0,
      11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0,
      21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0,
      31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0]>
}

// -----

// Nested loops (sw4ck's closure): the inner 8-iteration loop is unrolled; the
// outer loops, 8 x 8 and 6 x 8 x 8 copies of a body whose loads do not fold,
// stay rolled, where the fixed bound unrolls all 384 iterations.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @closure_spec_
    // CHECK:         scf.for
    // CHECK:           scf.for
    // CHECK-NOT:         scf.for
    // CHECK-COUNT-8:     memref.load %{{.*}} : memref<6x8x8xf64>
    // CHECK:         gpu.return
    // FIXED-LABEL: gpu.func @closure_spec_
    // FIXED-NOT:     scf.for
    // FIXED:         gpu.return
    // CHECK-LABEL: func.func @host
    // FIXED-LABEL: func.func @host
    gpu.func @closure(%u: memref<?xf64>, %acof_arg: memref<6x8x8xf64>,
                      %plane: index) kernel {
      %acof = offload.runtime_constant %acof_arg contents : memref<6x8x8xf64>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f64
      %i = gpu.thread_id x
      scf.for %k = %c0 to %c6 step %c1 {
        %r = scf.for %q = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f64 {
          %s = scf.for %m = %c0 to %c8 step %c1 iter_args(%a = %zero) -> f64 {
            %mp = arith.muli %m, %plane : index
            %pm = arith.addi %mp, %i : index
            %um = memref.load %u[%pm] : memref<?xf64>
            %cm = memref.load %acof[%k, %q, %m] : memref<6x8x8xf64>
            %t = arith.mulf %cm, %um : f64
            %na = arith.addf %a, %t : f64
            scf.yield %na : f64
          }
          %qp = arith.muli %q, %plane : index
          %pq = arith.addi %qp, %i : index
          %uq = memref.load %u[%pq] : memref<?xf64>
          %t = arith.mulf %s, %uq : f64
          %n = arith.addf %acc, %t : f64
          scf.yield %n : f64
        }
        %kp = arith.muli %k, %plane : index
        %p = arith.addi %kp, %i : index
        memref.store %r, %u[%p] : memref<?xf64>
      }
      gpu.return
    }
  }
  func.func @host(%u: memref<?xf64>, %plane: index) {
    %dev = offload.get_device host 0
    %acof = memref.get_global @acof : memref<6x8x8xf64>
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    offload.launch @kernels::@closure on %dev blocks in (%c1, %c1, %c1)
        threads in (%c16, %c1, %c1)
        args(%u : memref<?xf64>, %acof : memref<6x8x8xf64>, %plane : index)
    return
  }
  memref.global "private" constant @acof : memref<6x8x8xf64> = dense<0.25>
}

// -----

// Strength reduction of powf with constant integer exponents and code motion
// of what became invariant: x^2 is a multiplication, x^3 two, and
// sqrt(c * s) with c a runtime constant and s a kernel argument leaves the
// loop of unknown trip count.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @powers_spec_
    // CHECK:         %[[H:.*]] = math.sqrt
    // CHECK:         scf.for
    // CHECK-NOT:       math.powf
    // CHECK-NOT:       math.sqrt
    // CHECK:           arith.mulf %[[H]]
    // CHECK:         gpu.return
    // FIXED-LABEL: gpu.func @powers_spec_
    // FIXED:         scf.for
    // FIXED:           math.powf
    // FIXED:         gpu.return
    // CHECK-LABEL: func.func @host
    // FIXED-LABEL: func.func @host
    gpu.func @powers(%x: memref<?xf32>, %e_arg: f32, %c_arg: f32, %s: f32,
                     %n: index) kernel {
      %e = offload.runtime_constant %e_arg : f32
      %c = offload.runtime_constant %c_arg : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.thread_id x
      scf.for %k = %c0 to %n step %c1 {
        %p = arith.addi %i, %k : index
        %xk = memref.load %x[%p] : memref<?xf32>
        %sq = math.powf %xk, %e : f32
        %cs = arith.mulf %c, %s : f32
        %h = math.sqrt %cs : f32
        %y = arith.mulf %h, %sq : f32
        memref.store %y, %x[%p] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @host(%x: memref<?xf32>, %s: f32, %n: index) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %e = arith.constant 3.0 : f32
    %c = arith.constant 2.0 : f32
    offload.launch @kernels::@powers on %dev blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %e : f32, %c : f32, %s : f32, %n : index)
    return
  }
}

// -----

// A loop over rows of the block's threads (the classic transpose's `for (j =
// 0; j < 32; j += 8) out[(y + j) * n + x] = ...`: no results, a store at an
// address computed from the thread ids) stays rolled: the host's thread loops
// move it out of the loop over the threads, one row of them per step. A loop
// with the same trip count that carries a value is unrolled, as without the
// cost model are both.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @rows_spec_
    // CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
    // CHECK:           memref.store
    // CHECK:         }
    // CHECK-NOT:     scf.for
    // CHECK:         gpu.return
    // FIXED-LABEL: gpu.func @rows_spec_
    // FIXED-NOT:     scf.for
    // FIXED:         gpu.return
    // CHECK-LABEL: func.func @host
    // FIXED-LABEL: func.func @host
    gpu.func @rows(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      scf.for %j = %c0 to %c32 step %c8 {
        %r = arith.addi %y, %j : index
        %rn = arith.muli %r, %n : index
        %i = arith.addi %rn, %x : index
        %v = memref.load %in[%i] : memref<?xf32>
        memref.store %v, %out[%i] : memref<?xf32>
      }
      %sum = scf.for %j = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (f32) {
        %r = arith.addi %y, %j : index
        %rn = arith.muli %r, %n : index
        %i = arith.addi %rn, %x : index
        %v = memref.load %in[%i] : memref<?xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %sum, %out[%x] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    offload.launch @kernels::@rows on %dev blocks in (%c1, %c1, %c1)
        threads in (%c32, %c8, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index)
    return
  }
}
