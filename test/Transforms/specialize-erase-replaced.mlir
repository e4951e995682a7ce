// RUN: offload-opt %s -split-input-file -offload-specialize=erase-replaced-kernels=true | FileCheck %s
// RUN: offload-opt %s -split-input-file -offload-specialize | FileCheck %s --check-prefix=KEEP
// RUN: offload-opt %s -split-input-file -offload-lower-to-host=erase-replaced-kernels=true -mlir-print-ir-after=offload-specialize -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// erase-replaced-kernels: a kernel whose every launch became a
// specialization, and that nothing else names, is erased (offload-run: the
// input is the whole program, so it would be compiled for nothing). Without
// the option it stays, for code that looks it up by name.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-NOT:   gpu.func @scale(
    // CHECK-LABEL: gpu.func @scale_spec_{{[0-9a-f]+}}(
    // CHECK-SAME:      known_block_size = array<i32: 128, 1, 1>
    // KEEP-LABEL:  gpu.func @scale(
    // KEEP-LABEL:  gpu.func @scale_spec_{{[0-9a-f]+}}(
    // PIPELINE-NOT:   gpu.func @scale(
    // PIPELINE-LABEL: gpu.func @scale_spec_{{[0-9a-f]+}}(
    gpu.func @scale(%x: memref<?xf32>, %a: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%x: memref<?xf32>, %a: f32) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %a : f32)
    return
  }
}

// -----

// A kernel still launched generically (block size unknown at one launch)
// stays, and so does its specialization for the other launch.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @scale(
    // CHECK-LABEL: gpu.func @scale_spec_{{[0-9a-f]+}}(
    gpu.func @scale(%x: memref<?xf32>, %a: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @host(
  func.func @host(%x: memref<?xf32>, %a: f32, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    // CHECK: gpu.launch_func @kernels::@scale_spec_{{[0-9a-f]+}} blocks
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %a : f32)
    // CHECK: gpu.launch_func @kernels::@scale blocks
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%n, %c1, %c1) args(%x : memref<?xf32>, %a : f32)
    return
  }
}

// -----

// A kernel that another symbol reference names (here an attribute of
// another function) stays.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @scale(
    gpu.func @scale(%x: memref<?xf32>, %a: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%x: memref<?xf32>, %a: f32) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %a : f32)
    return
  }
  func.func @named() attributes {kernel_ref = @kernels::@scale} {
    return
  }
}
