// RUN: offload-opt %s -split-input-file -offload-specialize | FileCheck %s
// RUN: offload-opt %s -split-input-file -offload-specialize=fold-grid-size=true | FileCheck %s --check-prefix=GRID
// RUN: offload-opt %s -split-input-file -offload-specialize=fold-unannotated-scalars=false | FileCheck %s --check-prefix=MARKED

// A scalar runtime constant known at the launch: the clone has the value
// folded in and the loop it bounds fully unrolled; the original kernel stays
// for other launches.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @sum_rows(
    // CHECK:         offload.runtime_constant
    // CHECK:         scf.for
    // CHECK-LABEL: gpu.func @sum_rows_spec_{{[0-9a-f]+}}(
    // CHECK-SAME:      known_block_size = array<i32: 64, 1, 1>
    // CHECK-NOT:     offload.runtime_constant
    // CHECK-NOT:     scf.for
    // CHECK-COUNT-4: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
    // CHECK-NOT:     memref.load
    // CHECK:         gpu.return
    gpu.func @sum_rows(%in: memref<?x?xf32>, %out: memref<?xf32>, %cols: index) kernel {
      %n = offload.runtime_constant %cols : index
      %row = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %v = memref.load %in[%row, %j] : memref<?x?xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      memref.store %sum, %out[%row] : memref<?xf32>
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @host(
  func.func @host(%in: memref<?x?xf32>, %out: memref<?xf32>, %unknown: index) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    // Two launches with the same constants share one specialization.
    // CHECK: offload.launch @kernels::@[[SPEC:sum_rows_spec_[0-9a-f]+]] on
    offload.launch @kernels::@sum_rows on %dev blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?xf32>, %c4 : index)
    // CHECK: offload.launch @kernels::@[[SPEC]] on
    offload.launch @kernels::@sum_rows on %dev blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?xf32>, %c4 : index)
    // CHECK: gpu.launch_func @kernels::@[[SPEC]] blocks
    gpu.launch_func @kernels::@sum_rows blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?xf32>, %c4 : index)
    // Value unknown, block size unknown: nothing to specialize.
    // CHECK: offload.launch @kernels::@sum_rows on
    offload.launch @kernels::@sum_rows on %dev blocks in (%c1, %c1, %c1)
        threads in (%unknown, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?xf32>, %unknown : index)
    return
  }
}

// -----

// Constant contents: loads at constant indices become constants; the
// polynomial's coefficients fold into the arithmetic.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.module @kernels
    // CHECK: memref.global "private" constant @[[G:poly_spec_[0-9a-f]+\.arg1]] : memref<3xf32> = dense<[1.000000e+00, 0.000000e+00, 2.500000e-01]>
    // CHECK-LABEL: gpu.func @poly_spec_
    // CHECK-NOT:     memref.load %{{.*}} : memref<3xf32>
    // CHECK-DAG:     %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
    // CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
    // CHECK:         arith.mulf %{{.*}}, %[[QUARTER]]
    gpu.func @poly(%x: memref<?xf32>, %coeffs: memref<3xf32>) kernel {
      %c = offload.runtime_constant %coeffs contents : memref<3xf32>
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = memref.load %x[%i] : memref<?xf32>
      %a0 = memref.load %c[%c0] : memref<3xf32>
      %a1 = memref.load %c[%c1] : memref<3xf32>
      %a2 = memref.load %c[%c2] : memref<3xf32>
      %t2 = arith.mulf %v, %a2 : f32
      %s1 = arith.addf %t2, %a1 : f32
      %t1 = arith.mulf %s1, %v : f32
      %r = arith.addf %t1, %a0 : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  memref.global "private" constant @coefficients : memref<3xf32> = dense<[1.0, 0.0, 0.25]>

  func.func @host(%x: memref<?xf32>) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %coeffs = memref.get_global @coefficients : memref<3xf32>
    // CHECK: offload.launch @kernels::@poly_spec_
    offload.launch @kernels::@poly on %dev blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%x : memref<?xf32>, %coeffs : memref<3xf32>)
    return
  }
}

// -----

// Block and grid sizes: with constant launch sizes the clone declares them and
// gpu.block_dim folds; gpu.grid_dim folds only with fold-grid-size.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @index_spec_
    // CHECK-SAME:      known_block_size = array<i32: 128, 1, 1>
    // CHECK-NOT:     gpu.block_dim
    // CHECK:         arith.constant 128 : index
    // CHECK:         gpu.grid_dim x
    // GRID-LABEL: gpu.func @index_spec_
    // GRID-SAME:      known_block_size = array<i32: 128, 1, 1>
    // GRID-SAME:      known_grid_size = array<i32: 8, 1, 1>
    // GRID-NOT:     gpu.grid_dim
    // GRID:         arith.constant 1024 : index
    gpu.func @index(%out: memref<?xindex>) kernel {
      %b = gpu.block_id x
      %bd = gpu.block_dim x
      %t = gpu.thread_id x
      %gd = gpu.grid_dim x
      %base = arith.muli %b, %bd : index
      %i = arith.addi %base, %t : index
      %total = arith.muli %gd, %bd : index
      memref.store %total, %out[%i] : memref<?xindex>
      gpu.return
    }
  }

  func.func @host(%out: memref<?xindex>) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    offload.launch @kernels::@index on %dev blocks in (%c8, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%out : memref<?xindex>)
    return
  }
}

// -----

// Nothing known: no clone, launch untouched.

module attributes {gpu.container_module} {
  // CHECK-LABEL: gpu.module @kernels
  // CHECK-NOT: _spec_
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %k = offload.runtime_constant %s : f32
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %k : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @host(
  func.func @host(%x: memref<?xf32>, %s: f32) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    // CHECK: offload.launch @kernels::@scale on
    offload.launch @kernels::@scale on %dev blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%x : memref<?xf32>, %s : f32)
    return
  }
}

// -----

// Unmarked scalars that the launch passes as constants are folded (a launch
// site passes the same value every run); a memref is not (its elements may
// change), nor is a scalar the launch does not know. With
// fold-unannotated-scalars=false only the block size is folded.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @axpby(
    // CHECK-LABEL: gpu.func @axpby_spec_{{[0-9a-f]+}}(
    // CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf32>, %[[Y:[a-z0-9]+]]: memref<?xf32>, %{{.*}}: f32, %{{.*}}: index, %[[B:[a-z0-9]+]]: f32)
    // CHECK-DAG: %[[A:.*]] = arith.constant 2.500000e+00 : f32
    // CHECK-DAG: %[[N:.*]] = arith.constant 1000 : index
    // CHECK: arith.cmpi ult, %{{.*}}, %[[N]] : index
    // CHECK: arith.mulf %{{.*}}, %[[A]] : f32
    // CHECK: arith.mulf %{{.*}}, %[[B]] : f32
    // MARKED-LABEL: gpu.func @axpby_spec_{{[0-9a-f]+}}(
    // MARKED-NOT: arith.constant 2.500000e+00
    // MARKED-NOT: arith.constant 1000 : index
    // MARKED: gpu.return
    gpu.func @axpby(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32, %n: index, %b: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %xv, %a : f32
        %by = arith.mulf %yv, %b : f32
        %r = arith.addf %ax, %by : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @host(
  // MARKED-LABEL: func.func @host(
  func.func @host(%x: memref<?xf32>, %y: memref<?xf32>, %b: f32) {
    %dev = offload.get_device host 0
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 1000 : index
    %a = arith.constant 2.5 : f32
    // CHECK: offload.launch @kernels::@axpby_spec_{{[0-9a-f]+}} on
    // CHECK-SAME: args(%{{.*}} : memref<?xf32>, %{{.*}} : memref<?xf32>, %{{.*}} : f32, %{{.*}} : index, %{{.*}} : f32)
    // MARKED: offload.launch @kernels::@axpby_spec_{{[0-9a-f]+}} on
    offload.launch @kernels::@axpby on %dev blocks in (%c8, %c1, %c1)
        threads in (%c128, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>, %a : f32, %n : index, %b : f32)
    return
  }
}
