// cubin and fatbin from offload-lower-to-nvvm through ptxas (CUDA 12 or
// newer); without ptxas the default format is PTX (see ptx.mlir).
// REQUIRES: ptxas

// The default format is bin when ptxas is there, and a remark says so.
// RUN: offload-opt %s -offload-lower-to-nvvm -o %t.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: %extract-gpu-images -o %t.bin < %t.mlir
// RUN: llvm-readelf -h -S %t.bin/kernels.img | FileCheck %s --check-prefix=CUBIN

// RUN: offload-opt %s '-offload-lower-to-nvvm=format=bin chip=sm_80 O=1' 2>/dev/null \
// RUN:   | %extract-gpu-images -o %t.sm80
// RUN: llvm-readelf -h %t.sm80/kernels.img | FileCheck %s --check-prefix=SM80

// RUN: offload-opt %s -offload-lower-to-nvvm=format=fatbin 2>/dev/null \
// RUN:   | %extract-gpu-images -o %t.fatbin
// RUN: od -A n -t x1 -N 4 %t.fatbin/kernels.img | FileCheck %s --check-prefix=FATBIN

// REMARK: remark: NVVM target sm_90: format=bin: cubin for sm_90 by {{.*}}ptxas; PTX ISA 8.0 (+ptx80) derived from sm_90

// CUBIN: Class: ELF64
// CUBIN: Machine: NVIDIA CUDA architecture
// CUBIN: Flags: {{.*}}sm_90
// CUBIN-DAG: .text.scale {{ *}}PROGBITS
// CUBIN-DAG: .text.scale_spec_{{[0-9a-f]+}} {{ *}}PROGBITS

// SM80: Flags: {{.*}}sm_80

// The fatbin magic, 0xba55ed50, little endian.
// FATBIN: 50 ed 55 ba

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<?xf32>
      %r = arith.mulf %v, %s : f32
      %e = math.exp %r : f32
      memref.store %e, %x[%t] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<?xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%x : memref<?xf32>, %s : f32)
    return
  }
}
