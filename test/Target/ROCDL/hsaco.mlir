// HSA code objects (HSACO) from offload-lower-to-rocdl, linked by LLVM's
// ld.lld from the toolkit layout the build made, for gfx90a, gfx942 and
// gfx1100; the code object version follows the HIP runtime found.
// REQUIRES: rocm-toolkit

// RUN: rm -rf %t && mkdir -p %t/hip5 %t/rocm6/lib
// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=code-object-version=5' 2>/dev/null \
// RUN:   | %extract-gpu-images -o %t/gfx90a
// RUN: llvm-readelf -h -n %t/gfx90a/kernels.img | FileCheck %s -DCHIP=gfx90a -DABI=3
// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=chip=gfx942 code-object-version=5' 2>/dev/null \
// RUN:   | %extract-gpu-images -o %t/gfx942
// RUN: llvm-readelf -h -n %t/gfx942/kernels.img | FileCheck %s -DCHIP=gfx942 -DABI=3
// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=chip=gfx1100 code-object-version=4' 2>/dev/null \
// RUN:   | %extract-gpu-images -o %t/gfx1100
// RUN: llvm-readelf -h -n %t/gfx1100/kernels.img | FileCheck %s -DCHIP=gfx1100 -DABI=2

// CHECK: Class: ELF64
// CHECK: OS/ABI: AMDGPU - HSA
// CHECK: ABI Version: [[ABI]]
// CHECK: Type: DYN
// CHECK: Machine: EM_AMDGPU
// CHECK: Flags: {{.*}}[[CHIP]]
// CHECK: AMDGPU {{.*}} NT_AMDGPU_METADATA
// CHECK-DAG: .name: scale{{$}}
// CHECK-DAG: .name: scale_spec_{{[0-9a-f]+$}}
// CHECK-DAG: .name: dynamic{{$}}
// CHECK: amdhsa.target: amdgcn-amd-amdhsa--[[CHIP]]

// Without code-object-version: v4 for Debian's HIP 5.2 (a file name is all
// that is looked at), v5 for HIP 6, with a remark saying which.
// RUN: touch %t/hip5/libamdhip64.so.5.2.21153
// RUN: env LD_LIBRARY_PATH=%t/hip5 offload-opt %S/Inputs/kernels.mlir -offload-lower-to-rocdl -o %t/v4.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK4
// RUN: %extract-gpu-images -o %t/v4 < %t/v4.mlir
// RUN: llvm-readelf -h %t/v4/kernels.img | FileCheck %s --check-prefix=ABI4
// RUN: touch %t/rocm6/lib/libamdhip64.so.6.2.60200
// RUN: env LD_LIBRARY_PATH=%t/rocm6/lib offload-opt %S/Inputs/kernels.mlir -offload-lower-to-rocdl -o %t/v5.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK5
// RUN: %extract-gpu-images -o %t/v5 < %t/v5.mlir
// RUN: llvm-readelf -h %t/v5/kernels.img | FileCheck %s --check-prefix=ABI5

// REMARK4: remark: ROCDL target gfx90a: code object v4 for the HIP runtime 5.2 at {{.*}}hip5{{/|\\}}libamdhip64.so.5.2.21153 (older than 6.0); toolkit
// ABI4: ABI Version: 2
// REMARK5: remark: ROCDL target gfx90a: code object v5 for the HIP runtime 6.2 at {{.*}}libamdhip64.so.6.2.60200; toolkit
// ABI5: ABI Version: 3
