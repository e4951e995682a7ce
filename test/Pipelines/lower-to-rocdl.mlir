// offload-lower-to-rocdl on the examples: high-level gpu IR to LLVM dialect
// that calls the offload runtime for a HIP device and embeds HSA code
// objects linked with the toolkit layout the build made.
// REQUIRES: rocm-toolkit

// RUN: offload-opt %offload_src_root/examples/saxpy.mlir -offload-lower-to-rocdl=code-object-version=5 -o %t.saxpy.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=SAXPY < %t.saxpy.mlir
// RUN: FileCheck %s --check-prefix=SAXPY-IMAGE < %t.saxpy.mlir
// RUN: offload-opt %offload_src_root/examples/matmul.mlir '-offload-lower-to-rocdl=chip=gfx1100 code-object-version=5' -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=MATMUL < %t.mlir
// RUN: %extract-gpu-images -o %t.images < %t.mlir
// RUN: llvm-readelf -h -n %t.images/main_kernel.img | FileCheck %s --check-prefix=MATMUL-HSACO

// SAXPY-IMAGE: llvm.mlir.global internal constant @__offload_image.kernels("\7FELF
// SAXPY-IMAGE-SAME: amdgcn-amd-amdhsa--gfx90a

// SAXPY-NOT: {{ (gpu|offload)\.[a-z_]+ }}
// SAXPY-LABEL: llvm.func @main()
// SAXPY-DAG: %[[HIP:.*]] = llvm.mlir.constant(2 : i32) : i32
// SAXPY-DAG: %[[IDX:.*]] = llvm.mlir.constant(0 : i32) : i32
// SAXPY: llvm.call @offloadGetDevice(%[[HIP]], %[[IDX]], %{{.*}})
// SAXPY: llvm.insertvalue %{{.*}}[11] : !llvm.struct<(f32, ptr, ptr, i64, i64, i64, ptr, ptr, i64, i64, i64, i64)>
// SAXPY: llvm.call @offloadLaunchKernel(
// SAXPY-NOT: {{ (gpu|offload)\.[a-z_]+ }}

// MATMUL-NOT: {{ (gpu|offload)\.[a-z_]+ }}
// MATMUL: llvm.call @offloadLaunchKernel(
// MATMUL-NOT: {{ (gpu|offload)\.[a-z_]+ }}
// MATMUL: llvm.mlir.global internal constant @__offload_image.main_kernel("\7FELF
// MATMUL-NOT: {{ (gpu|offload)\.[a-z_]+ }}

// MATMUL-HSACO: OS/ABI: AMDGPU - HSA
// MATMUL-HSACO: ABI Version: 3
// MATMUL-HSACO: Flags: {{.*}}gfx1100
// MATMUL-HSACO: .group_segment_fixed_size: 2048
// MATMUL-HSACO: .name: main_kernel
// MATMUL-HSACO: .reqd_workgroup_size:
// MATMUL-HSACO-NEXT: - 16
// MATMUL-HSACO-NEXT: - 16
// MATMUL-HSACO-NEXT: - 1
// MATMUL-HSACO: .wavefront_size: 32
// MATMUL-HSACO: amdhsa.target: amdgcn-amd-amdhsa--gfx1100
