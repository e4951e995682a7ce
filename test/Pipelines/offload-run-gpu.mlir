// offload-run --device=cuda|hip applies offload-lower-to-nvvm / -rocdl. On a
// machine without such a device the runtime reports it: a message and exit
// status 1, no crash.
// UNSUPPORTED: cuda-device, hip-device

// RUN: not offload-run --device=cuda %offload_src_root/examples/saxpy.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CUDA
// RUN: not offload-run --device=hip --device-index=1 %offload_src_root/examples/matmul.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HIP
// RUN: not offload-run --device=cuda --chip=sm_91 %offload_src_root/examples/saxpy.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHIP
// RUN: not offload-run --device=cuda --print-lowered-ir %offload_src_root/examples/saxpy.mlir 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=IR

// CUDA-NOT: Stack dump
// CUDA: offload error: offload.get_device{{.*}}: OFFLOAD_ERRC_NOT_FOUND:
// HIP-NOT: Stack dump
// HIP: offload error: offload.get_device{{.*}}: OFFLOAD_ERRC_NOT_FOUND:
// CHIP: error: invalid NVVM target: unknown NVVM chip 'sm_91'
// IR: llvm.mlir.global internal constant @__offload_image.kernels(
