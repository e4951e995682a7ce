// Without ptxas, offload-lower-to-nvvm emits PTX that the CUDA driver
// compiles when the program loads it.
// UNSUPPORTED: ptxas

// RUN: offload-opt %s -offload-check-gpu-target=target=nvvm 2>&1 | FileCheck %s
// CHECK: remark: NVVM target sm_90: format=isa: PTX for sm_90, compiled by the CUDA driver when loaded

module {}
