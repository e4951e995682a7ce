// Impossible NVVM target requests are diagnostics (exit status 1) before any
// upstream pass runs, never an LLVM abort. Each case is its own file: the
// options differ.

// RUN: split-file %s %t
// RUN: offload-opt %t/ptx60.mlir '-offload-lower-to-nvvm=chip=sm_90 features=+ptx60' -verify-diagnostics
// RUN: offload-opt %t/ptx80-sm100.mlir '-offload-lower-to-nvvm=chip=sm_100 features=+ptx80' -verify-diagnostics
// RUN: offload-opt %t/chip.mlir '-offload-lower-to-nvvm=chip=sm_91' -verify-diagnostics
// RUN: offload-opt %t/compute.mlir '-offload-lower-to-nvvm=chip=compute_90' -verify-diagnostics
// RUN: offload-opt %t/feature.mlir '-offload-lower-to-nvvm=features=+ptx80,+fast' -verify-diagnostics
// RUN: offload-opt %t/sign.mlir '-offload-lower-to-nvvm=features=ptx80' -verify-diagnostics
// RUN: offload-opt %t/two.mlir '-offload-lower-to-nvvm=features=+ptx80,+ptx83' -verify-diagnostics
// RUN: offload-opt %t/remove.mlir '-offload-lower-to-nvvm=features=-ptx80' -verify-diagnostics
// RUN: offload-opt %t/format.mlir '-offload-lower-to-nvvm=format=cubin' -verify-diagnostics
// RUN: offload-opt %t/opt.mlir '-offload-lower-to-nvvm=O=4' -verify-diagnostics
// RUN: offload-opt %t/toolkit.mlir '-offload-lower-to-nvvm=toolkit=%t/missing' -verify-diagnostics
// RUN: offload-opt %t/target.mlir '-offload-check-gpu-target=target=spirv' -verify-diagnostics

// The exit status without -verify-diagnostics, and nothing after the check.
// RUN: not offload-opt %t/plain.mlir '-offload-lower-to-nvvm=chip=sm_90 features=+ptx60' 2>&1 \
// RUN:   | FileCheck %s
// CHECK: plain.mlir:1:1: error: invalid NVVM target: chip sm_90 needs PTX ISA 7.8 or newer, but the features ask for +ptx60
// CHECK-NOT: error
// CHECK-NOT: LLVM ERROR

//--- ptx60.mlir
// expected-error @below {{invalid NVVM target: chip sm_90 needs PTX ISA 7.8 or newer, but the features ask for +ptx60}}
module {}

//--- ptx80-sm100.mlir
// expected-error @below {{invalid NVVM target: chip sm_100 needs PTX ISA 8.6 or newer, but the features ask for +ptx80}}
module {}

//--- chip.mlir
// expected-error @below {{invalid NVVM target: unknown NVVM chip 'sm_91' (llc -march=nvptx64 -mcpu=help lists the valid ones)}}
module {}

//--- compute.mlir
// expected-error @below {{invalid NVVM target: unknown NVVM chip 'compute_90'}}
module {}

//--- feature.mlir
// expected-error @below {{invalid NVVM target: unknown NVPTX feature 'fast' (llc -march=nvptx64 -mattr=help lists the valid ones)}}
module {}

//--- sign.mlir
// expected-error @below {{invalid NVVM target: feature 'ptx80' must start with '+' or '-'}}
module {}

//--- two.mlir
// expected-error @below {{invalid NVVM target: features name more than one PTX ISA version (+ptx80 and +ptx83)}}
module {}

//--- remove.mlir
// expected-error @below {{invalid NVVM target: features cannot remove a PTX ISA version ('-ptx80'); give the one to use as +ptxNN}}
module {}

//--- format.mlir
// expected-error @below {{invalid NVVM target: format 'cubin' is not one of isa (PTX), bin (cubin) or fatbin}}
module {}

//--- opt.mlir
// expected-error @below {{invalid NVVM target: O=4 is not an optimization level (0-3)}}
module {}

//--- toolkit.mlir
// expected-error @below {{invalid NVVM target: toolkit '}}
module {}

//--- target.mlir
// expected-error @below {{unknown GPU target 'spirv' (expected nvvm, rocdl or host)}}
module {}

//--- plain.mlir
module {}
