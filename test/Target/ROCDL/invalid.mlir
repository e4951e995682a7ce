// Impossible ROCDL target requests are diagnostics (exit status 1) before any
// upstream pass runs, never an LLVM abort. Each case is its own file: the
// options differ.

// RUN: split-file %s %t
// RUN: mkdir -p %t/no-lld
// RUN: offload-opt %t/chip.mlir '-offload-lower-to-rocdl=chip=gfx999' -verify-diagnostics
// RUN: offload-opt %t/target-id.mlir '-offload-lower-to-rocdl=chip=gfx90a:xnack+' -verify-diagnostics
// RUN: offload-opt %t/feature.mlir '-offload-lower-to-rocdl=features=+fast' -verify-diagnostics
// RUN: offload-opt %t/wave32.mlir '-offload-lower-to-rocdl=features=+wavefrontsize32' -verify-diagnostics
// RUN: offload-opt %t/cov3.mlir '-offload-lower-to-rocdl=code-object-version=3' -verify-diagnostics
// RUN: offload-opt %t/generic.mlir '-offload-lower-to-rocdl=chip=gfx9-generic code-object-version=5' -verify-diagnostics
// RUN: offload-opt %t/format.mlir '-offload-lower-to-rocdl=format=fatbin' -verify-diagnostics
// RUN: offload-opt %t/lld.mlir '-offload-lower-to-rocdl=toolkit=%t/no-lld' -verify-diagnostics
// RUN: offload-opt %t/opt.mlir '-offload-lower-to-rocdl=O=7' -verify-diagnostics

// The exit status without -verify-diagnostics.
// RUN: not offload-opt %t/plain.mlir '-offload-lower-to-rocdl=chip=gfx999' 2>&1 | FileCheck %s
// CHECK: plain.mlir:1:1: error: invalid ROCDL target: unknown ROCDL chip 'gfx999'
// CHECK-NOT: error
// CHECK-NOT: LLVM ERROR

//--- chip.mlir
// expected-error @below {{invalid ROCDL target: unknown ROCDL chip 'gfx999' (llc -march=amdgcn -mcpu=help lists the valid ones)}}
module {}

//--- target-id.mlir
// expected-error @below {{invalid ROCDL target: chip 'gfx90a:xnack+' has target-id features; give the chip alone and the features as features=+xnack,-sramecc}}
module {}

//--- feature.mlir
// expected-error @below {{invalid ROCDL target: unknown AMDGPU feature 'fast' (llc -march=amdgcn -mattr=help lists the valid ones)}}
module {}

//--- wave32.mlir
// expected-error @below {{invalid ROCDL target: chip gfx90a has no 32-lane wavefronts (features ask for wavefrontsize32)}}
module {}

//--- cov3.mlir
// expected-error @below {{invalid ROCDL target: code-object-version=3 is not supported (4, 5 or 6)}}
module {}

//--- generic.mlir
// expected-error @below {{invalid ROCDL target: chip gfx9-generic needs code object version 6, but code-object-version=5 was given}}
module {}

//--- format.mlir
// expected-error @below {{invalid ROCDL target: format 'fatbin' is not one of bin (HSACO) or isa for ROCDL}}
module {}

//--- lld.mlir
// expected-error-re @below {{invalid ROCDL target: format=bin needs ld.lld, but toolkit {{.*}}no-lld has no llvm/bin/ld.lld}}
module {}

//--- opt.mlir
// expected-error @below {{invalid ROCDL target: O=7 is not an optimization level (0-3)}}
module {}

//--- plain.mlir
module {}
