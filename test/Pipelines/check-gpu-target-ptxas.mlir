// The NVVM image format follows ptxas: cubin when it is there (REQUIRES:
// ptxas), PTX for the driver otherwise (check-gpu-target-no-ptxas.mlir).
// REQUIRES: ptxas

// RUN: offload-opt %s -offload-check-gpu-target=target=nvvm 2>&1 | FileCheck %s
// CHECK: remark: NVVM target sm_90: format=bin: cubin for sm_90 by {{.*}}ptxas; PTX ISA 8.0 (+ptx80) derived from sm_90

module {}
