// nvgpu.mma.sync on the host: every lane of a warp holds its fragments in
// the layout of the PTX ISA's mma.m16n8k16 (f16), m16n8k8 (tf32), m8n8k4
// (f64) and m16n8k32 (s8) matrix fragments, and receives its part of D in
// the same layout (NVGPUOps.cpp). Each kernel loads the fragments of
// row-major A, B, C lane by lane, multiplies, stores D lane by lane; main
// compares D with a scalar product computed on the host and prints the
// number of mismatching elements. Values are small integers (exact in every
// type; i8 values are negative too, as the operands are signed).
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s
// CHECK: f16_f32 mismatches: 0
// CHECK: f16_f32 d[15][7] = 3
// CHECK: f16_f16 mismatches: 0
// CHECK: tf32 mismatches: 0
// CHECK: f64 mismatches: 0
// CHECK: i8 mismatches: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f16_f32(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>, %d: memref<16x8xf32>) kernel {
      %lane = gpu.lane_id
      %c4 = arith.constant 4 : index
      %g = arith.divui %lane, %c4 : index
      %t = arith.remui %lane, %c4 : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k8 = arith.constant 8 : index
      %k9 = arith.constant 9 : index
      %A_0 = arith.constant 0.0 : f16
      %A_s = vector.broadcast %A_0 : f16 to vector<4x2xf16>
      %i1_m = arith.muli %g, %k1 : index
      %i1 = arith.addi %i1_m, %k0 : index
      %i2_m = arith.muli %t, %k2 : index
      %i2 = arith.addi %i2_m, %k0 : index
      %A_e0_0 = memref.load %a[%i1, %i2] : memref<16x16xf16>
      %A_0_0 = vector.insert %A_e0_0, %A_s [0, 0] : f16 into vector<4x2xf16>
      %i3_m = arith.muli %g, %k1 : index
      %i3 = arith.addi %i3_m, %k0 : index
      %i4_m = arith.muli %t, %k2 : index
      %i4 = arith.addi %i4_m, %k1 : index
      %A_e0_1 = memref.load %a[%i3, %i4] : memref<16x16xf16>
      %A_0_1 = vector.insert %A_e0_1, %A_0_0 [0, 1] : f16 into vector<4x2xf16>
      %i5_m = arith.muli %g, %k1 : index
      %i5 = arith.addi %i5_m, %k8 : index
      %i6_m = arith.muli %t, %k2 : index
      %i6 = arith.addi %i6_m, %k0 : index
      %A_e1_0 = memref.load %a[%i5, %i6] : memref<16x16xf16>
      %A_1_0 = vector.insert %A_e1_0, %A_0_1 [1, 0] : f16 into vector<4x2xf16>
      %i7_m = arith.muli %g, %k1 : index
      %i7 = arith.addi %i7_m, %k8 : index
      %i8_m = arith.muli %t, %k2 : index
      %i8 = arith.addi %i8_m, %k1 : index
      %A_e1_1 = memref.load %a[%i7, %i8] : memref<16x16xf16>
      %A_1_1 = vector.insert %A_e1_1, %A_1_0 [1, 1] : f16 into vector<4x2xf16>
      %i9_m = arith.muli %g, %k1 : index
      %i9 = arith.addi %i9_m, %k0 : index
      %i10_m = arith.muli %t, %k2 : index
      %i10 = arith.addi %i10_m, %k8 : index
      %A_e2_0 = memref.load %a[%i9, %i10] : memref<16x16xf16>
      %A_2_0 = vector.insert %A_e2_0, %A_1_1 [2, 0] : f16 into vector<4x2xf16>
      %i11_m = arith.muli %g, %k1 : index
      %i11 = arith.addi %i11_m, %k0 : index
      %i12_m = arith.muli %t, %k2 : index
      %i12 = arith.addi %i12_m, %k9 : index
      %A_e2_1 = memref.load %a[%i11, %i12] : memref<16x16xf16>
      %A_2_1 = vector.insert %A_e2_1, %A_2_0 [2, 1] : f16 into vector<4x2xf16>
      %i13_m = arith.muli %g, %k1 : index
      %i13 = arith.addi %i13_m, %k8 : index
      %i14_m = arith.muli %t, %k2 : index
      %i14 = arith.addi %i14_m, %k8 : index
      %A_e3_0 = memref.load %a[%i13, %i14] : memref<16x16xf16>
      %A_3_0 = vector.insert %A_e3_0, %A_2_1 [3, 0] : f16 into vector<4x2xf16>
      %i15_m = arith.muli %g, %k1 : index
      %i15 = arith.addi %i15_m, %k8 : index
      %i16_m = arith.muli %t, %k2 : index
      %i16 = arith.addi %i16_m, %k9 : index
      %A_e3_1 = memref.load %a[%i15, %i16] : memref<16x16xf16>
      %A_3_1 = vector.insert %A_e3_1, %A_3_0 [3, 1] : f16 into vector<4x2xf16>
      %B_0 = arith.constant 0.0 : f16
      %B_s = vector.broadcast %B_0 : f16 to vector<2x2xf16>
      %i17_m = arith.muli %t, %k2 : index
      %i17 = arith.addi %i17_m, %k0 : index
      %i18_m = arith.muli %g, %k1 : index
      %i18 = arith.addi %i18_m, %k0 : index
      %B_e0_0 = memref.load %b[%i17, %i18] : memref<16x8xf16>
      %B_0_0 = vector.insert %B_e0_0, %B_s [0, 0] : f16 into vector<2x2xf16>
      %i19_m = arith.muli %t, %k2 : index
      %i19 = arith.addi %i19_m, %k1 : index
      %i20_m = arith.muli %g, %k1 : index
      %i20 = arith.addi %i20_m, %k0 : index
      %B_e0_1 = memref.load %b[%i19, %i20] : memref<16x8xf16>
      %B_0_1 = vector.insert %B_e0_1, %B_0_0 [0, 1] : f16 into vector<2x2xf16>
      %i21_m = arith.muli %t, %k2 : index
      %i21 = arith.addi %i21_m, %k8 : index
      %i22_m = arith.muli %g, %k1 : index
      %i22 = arith.addi %i22_m, %k0 : index
      %B_e1_0 = memref.load %b[%i21, %i22] : memref<16x8xf16>
      %B_1_0 = vector.insert %B_e1_0, %B_0_1 [1, 0] : f16 into vector<2x2xf16>
      %i23_m = arith.muli %t, %k2 : index
      %i23 = arith.addi %i23_m, %k9 : index
      %i24_m = arith.muli %g, %k1 : index
      %i24 = arith.addi %i24_m, %k0 : index
      %B_e1_1 = memref.load %b[%i23, %i24] : memref<16x8xf16>
      %B_1_1 = vector.insert %B_e1_1, %B_1_0 [1, 1] : f16 into vector<2x2xf16>
      %C_0 = arith.constant 0.0 : f32
      %C_s = vector.broadcast %C_0 : f32 to vector<2x2xf32>
      %i25_m = arith.muli %g, %k1 : index
      %i25 = arith.addi %i25_m, %k0 : index
      %i26_m = arith.muli %t, %k2 : index
      %i26 = arith.addi %i26_m, %k0 : index
      %C_e0_0 = memref.load %c[%i25, %i26] : memref<16x8xf32>
      %C_0_0 = vector.insert %C_e0_0, %C_s [0, 0] : f32 into vector<2x2xf32>
      %i27_m = arith.muli %g, %k1 : index
      %i27 = arith.addi %i27_m, %k0 : index
      %i28_m = arith.muli %t, %k2 : index
      %i28 = arith.addi %i28_m, %k1 : index
      %C_e0_1 = memref.load %c[%i27, %i28] : memref<16x8xf32>
      %C_0_1 = vector.insert %C_e0_1, %C_0_0 [0, 1] : f32 into vector<2x2xf32>
      %i29_m = arith.muli %g, %k1 : index
      %i29 = arith.addi %i29_m, %k8 : index
      %i30_m = arith.muli %t, %k2 : index
      %i30 = arith.addi %i30_m, %k0 : index
      %C_e1_0 = memref.load %c[%i29, %i30] : memref<16x8xf32>
      %C_1_0 = vector.insert %C_e1_0, %C_0_1 [1, 0] : f32 into vector<2x2xf32>
      %i31_m = arith.muli %g, %k1 : index
      %i31 = arith.addi %i31_m, %k8 : index
      %i32_m = arith.muli %t, %k2 : index
      %i32 = arith.addi %i32_m, %k1 : index
      %C_e1_1 = memref.load %c[%i31, %i32] : memref<16x8xf32>
      %C_1_1 = vector.insert %C_e1_1, %C_1_0 [1, 1] : f32 into vector<2x2xf32>
      %D = nvgpu.mma.sync(%A_3_1, %B_1_1, %C_1_1) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %i33_m = arith.muli %g, %k1 : index
      %i33 = arith.addi %i33_m, %k0 : index
      %i34_m = arith.muli %t, %k2 : index
      %i34 = arith.addi %i34_m, %k0 : index
      %D_0_0 = vector.extract %D[0, 0] : f32 from vector<2x2xf32>
      memref.store %D_0_0, %d[%i33, %i34] : memref<16x8xf32>
      %i35_m = arith.muli %g, %k1 : index
      %i35 = arith.addi %i35_m, %k0 : index
      %i36_m = arith.muli %t, %k2 : index
      %i36 = arith.addi %i36_m, %k1 : index
      %D_0_1 = vector.extract %D[0, 1] : f32 from vector<2x2xf32>
      memref.store %D_0_1, %d[%i35, %i36] : memref<16x8xf32>
      %i37_m = arith.muli %g, %k1 : index
      %i37 = arith.addi %i37_m, %k8 : index
      %i38_m = arith.muli %t, %k2 : index
      %i38 = arith.addi %i38_m, %k0 : index
      %D_1_0 = vector.extract %D[1, 0] : f32 from vector<2x2xf32>
      memref.store %D_1_0, %d[%i37, %i38] : memref<16x8xf32>
      %i39_m = arith.muli %g, %k1 : index
      %i39 = arith.addi %i39_m, %k8 : index
      %i40_m = arith.muli %t, %k2 : index
      %i40 = arith.addi %i40_m, %k1 : index
      %D_1_1 = vector.extract %D[1, 1] : f32 from vector<2x2xf32>
      memref.store %D_1_1, %d[%i39, %i40] : memref<16x8xf32>
      gpu.return
    }
    gpu.func @f16_f16(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf16>, %d: memref<16x8xf16>) kernel {
      %lane = gpu.lane_id
      %c4 = arith.constant 4 : index
      %g = arith.divui %lane, %c4 : index
      %t = arith.remui %lane, %c4 : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k8 = arith.constant 8 : index
      %k9 = arith.constant 9 : index
      %A_0 = arith.constant 0.0 : f16
      %A_s = vector.broadcast %A_0 : f16 to vector<4x2xf16>
      %i1_m = arith.muli %g, %k1 : index
      %i1 = arith.addi %i1_m, %k0 : index
      %i2_m = arith.muli %t, %k2 : index
      %i2 = arith.addi %i2_m, %k0 : index
      %A_e0_0 = memref.load %a[%i1, %i2] : memref<16x16xf16>
      %A_0_0 = vector.insert %A_e0_0, %A_s [0, 0] : f16 into vector<4x2xf16>
      %i3_m = arith.muli %g, %k1 : index
      %i3 = arith.addi %i3_m, %k0 : index
      %i4_m = arith.muli %t, %k2 : index
      %i4 = arith.addi %i4_m, %k1 : index
      %A_e0_1 = memref.load %a[%i3, %i4] : memref<16x16xf16>
      %A_0_1 = vector.insert %A_e0_1, %A_0_0 [0, 1] : f16 into vector<4x2xf16>
      %i5_m = arith.muli %g, %k1 : index
      %i5 = arith.addi %i5_m, %k8 : index
      %i6_m = arith.muli %t, %k2 : index
      %i6 = arith.addi %i6_m, %k0 : index
      %A_e1_0 = memref.load %a[%i5, %i6] : memref<16x16xf16>
      %A_1_0 = vector.insert %A_e1_0, %A_0_1 [1, 0] : f16 into vector<4x2xf16>
      %i7_m = arith.muli %g, %k1 : index
      %i7 = arith.addi %i7_m, %k8 : index
      %i8_m = arith.muli %t, %k2 : index
      %i8 = arith.addi %i8_m, %k1 : index
      %A_e1_1 = memref.load %a[%i7, %i8] : memref<16x16xf16>
      %A_1_1 = vector.insert %A_e1_1, %A_1_0 [1, 1] : f16 into vector<4x2xf16>
      %i9_m = arith.muli %g, %k1 : index
      %i9 = arith.addi %i9_m, %k0 : index
      %i10_m = arith.muli %t, %k2 : index
      %i10 = arith.addi %i10_m, %k8 : index
      %A_e2_0 = memref.load %a[%i9, %i10] : memref<16x16xf16>
      %A_2_0 = vector.insert %A_e2_0, %A_1_1 [2, 0] : f16 into vector<4x2xf16>
      %i11_m = arith.muli %g, %k1 : index
      %i11 = arith.addi %i11_m, %k0 : index
      %i12_m = arith.muli %t, %k2 : index
      %i12 = arith.addi %i12_m, %k9 : index
      %A_e2_1 = memref.load %a[%i11, %i12] : memref<16x16xf16>
      %A_2_1 = vector.insert %A_e2_1, %A_2_0 [2, 1] : f16 into vector<4x2xf16>
      %i13_m = arith.muli %g, %k1 : index
      %i13 = arith.addi %i13_m, %k8 : index
      %i14_m = arith.muli %t, %k2 : index
      %i14 = arith.addi %i14_m, %k8 : index
      %A_e3_0 = memref.load %a[%i13, %i14] : memref<16x16xf16>
      %A_3_0 = vector.insert %A_e3_0, %A_2_1 [3, 0] : f16 into vector<4x2xf16>
      %i15_m = arith.muli %g, %k1 : index
      %i15 = arith.addi %i15_m, %k8 : index
      %i16_m = arith.muli %t, %k2 : index
      %i16 = arith.addi %i16_m, %k9 : index
      %A_e3_1 = memref.load %a[%i15, %i16] : memref<16x16xf16>
      %A_3_1 = vector.insert %A_e3_1, %A_3_0 [3, 1] : f16 into vector<4x2xf16>
      %B_0 = arith.constant 0.0 : f16
      %B_s = vector.broadcast %B_0 : f16 to vector<2x2xf16>
      %i17_m = arith.muli %t, %k2 : index
      %i17 = arith.addi %i17_m, %k0 : index
      %i18_m = arith.muli %g, %k1 : index
      %i18 = arith.addi %i18_m, %k0 : index
      %B_e0_0 = memref.load %b[%i17, %i18] : memref<16x8xf16>
      %B_0_0 = vector.insert %B_e0_0, %B_s [0, 0] : f16 into vector<2x2xf16>
      %i19_m = arith.muli %t, %k2 : index
      %i19 = arith.addi %i19_m, %k1 : index
      %i20_m = arith.muli %g, %k1 : index
      %i20 = arith.addi %i20_m, %k0 : index
      %B_e0_1 = memref.load %b[%i19, %i20] : memref<16x8xf16>
      %B_0_1 = vector.insert %B_e0_1, %B_0_0 [0, 1] : f16 into vector<2x2xf16>
      %i21_m = arith.muli %t, %k2 : index
      %i21 = arith.addi %i21_m, %k8 : index
      %i22_m = arith.muli %g, %k1 : index
      %i22 = arith.addi %i22_m, %k0 : index
      %B_e1_0 = memref.load %b[%i21, %i22] : memref<16x8xf16>
      %B_1_0 = vector.insert %B_e1_0, %B_0_1 [1, 0] : f16 into vector<2x2xf16>
      %i23_m = arith.muli %t, %k2 : index
      %i23 = arith.addi %i23_m, %k9 : index
      %i24_m = arith.muli %g, %k1 : index
      %i24 = arith.addi %i24_m, %k0 : index
      %B_e1_1 = memref.load %b[%i23, %i24] : memref<16x8xf16>
      %B_1_1 = vector.insert %B_e1_1, %B_1_0 [1, 1] : f16 into vector<2x2xf16>
      %C_0 = arith.constant 0.0 : f16
      %C_s = vector.broadcast %C_0 : f16 to vector<2x2xf16>
      %i25_m = arith.muli %g, %k1 : index
      %i25 = arith.addi %i25_m, %k0 : index
      %i26_m = arith.muli %t, %k2 : index
      %i26 = arith.addi %i26_m, %k0 : index
      %C_e0_0 = memref.load %c[%i25, %i26] : memref<16x8xf16>
      %C_0_0 = vector.insert %C_e0_0, %C_s [0, 0] : f16 into vector<2x2xf16>
      %i27_m = arith.muli %g, %k1 : index
      %i27 = arith.addi %i27_m, %k0 : index
      %i28_m = arith.muli %t, %k2 : index
      %i28 = arith.addi %i28_m, %k1 : index
      %C_e0_1 = memref.load %c[%i27, %i28] : memref<16x8xf16>
      %C_0_1 = vector.insert %C_e0_1, %C_0_0 [0, 1] : f16 into vector<2x2xf16>
      %i29_m = arith.muli %g, %k1 : index
      %i29 = arith.addi %i29_m, %k8 : index
      %i30_m = arith.muli %t, %k2 : index
      %i30 = arith.addi %i30_m, %k0 : index
      %C_e1_0 = memref.load %c[%i29, %i30] : memref<16x8xf16>
      %C_1_0 = vector.insert %C_e1_0, %C_0_1 [1, 0] : f16 into vector<2x2xf16>
      %i31_m = arith.muli %g, %k1 : index
      %i31 = arith.addi %i31_m, %k8 : index
      %i32_m = arith.muli %t, %k2 : index
      %i32 = arith.addi %i32_m, %k1 : index
      %C_e1_1 = memref.load %c[%i31, %i32] : memref<16x8xf16>
      %C_1_1 = vector.insert %C_e1_1, %C_1_0 [1, 1] : f16 into vector<2x2xf16>
      %D = nvgpu.mma.sync(%A_3_1, %B_1_1, %C_1_1) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
      %i33_m = arith.muli %g, %k1 : index
      %i33 = arith.addi %i33_m, %k0 : index
      %i34_m = arith.muli %t, %k2 : index
      %i34 = arith.addi %i34_m, %k0 : index
      %D_0_0 = vector.extract %D[0, 0] : f16 from vector<2x2xf16>
      memref.store %D_0_0, %d[%i33, %i34] : memref<16x8xf16>
      %i35_m = arith.muli %g, %k1 : index
      %i35 = arith.addi %i35_m, %k0 : index
      %i36_m = arith.muli %t, %k2 : index
      %i36 = arith.addi %i36_m, %k1 : index
      %D_0_1 = vector.extract %D[0, 1] : f16 from vector<2x2xf16>
      memref.store %D_0_1, %d[%i35, %i36] : memref<16x8xf16>
      %i37_m = arith.muli %g, %k1 : index
      %i37 = arith.addi %i37_m, %k8 : index
      %i38_m = arith.muli %t, %k2 : index
      %i38 = arith.addi %i38_m, %k0 : index
      %D_1_0 = vector.extract %D[1, 0] : f16 from vector<2x2xf16>
      memref.store %D_1_0, %d[%i37, %i38] : memref<16x8xf16>
      %i39_m = arith.muli %g, %k1 : index
      %i39 = arith.addi %i39_m, %k8 : index
      %i40_m = arith.muli %t, %k2 : index
      %i40 = arith.addi %i40_m, %k1 : index
      %D_1_1 = vector.extract %D[1, 1] : f16 from vector<2x2xf16>
      memref.store %D_1_1, %d[%i39, %i40] : memref<16x8xf16>
      gpu.return
    }
    gpu.func @tf32(%a: memref<16x8xf32>, %b: memref<8x8xf32>, %c: memref<16x8xf32>, %d: memref<16x8xf32>) kernel {
      %lane = gpu.lane_id
      %c4 = arith.constant 4 : index
      %g = arith.divui %lane, %c4 : index
      %t = arith.remui %lane, %c4 : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k4 = arith.constant 4 : index
      %k8 = arith.constant 8 : index
      %A_0 = arith.constant 0.0 : f32
      %A_s = vector.broadcast %A_0 : f32 to vector<4x1xf32>
      %i1_m = arith.muli %g, %k1 : index
      %i1 = arith.addi %i1_m, %k0 : index
      %i2_m = arith.muli %t, %k1 : index
      %i2 = arith.addi %i2_m, %k0 : index
      %A_e0_0 = memref.load %a[%i1, %i2] : memref<16x8xf32>
      %A_0_0 = vector.insert %A_e0_0, %A_s [0, 0] : f32 into vector<4x1xf32>
      %i3_m = arith.muli %g, %k1 : index
      %i3 = arith.addi %i3_m, %k8 : index
      %i4_m = arith.muli %t, %k1 : index
      %i4 = arith.addi %i4_m, %k0 : index
      %A_e1_0 = memref.load %a[%i3, %i4] : memref<16x8xf32>
      %A_1_0 = vector.insert %A_e1_0, %A_0_0 [1, 0] : f32 into vector<4x1xf32>
      %i5_m = arith.muli %g, %k1 : index
      %i5 = arith.addi %i5_m, %k0 : index
      %i6_m = arith.muli %t, %k1 : index
      %i6 = arith.addi %i6_m, %k4 : index
      %A_e2_0 = memref.load %a[%i5, %i6] : memref<16x8xf32>
      %A_2_0 = vector.insert %A_e2_0, %A_1_0 [2, 0] : f32 into vector<4x1xf32>
      %i7_m = arith.muli %g, %k1 : index
      %i7 = arith.addi %i7_m, %k8 : index
      %i8_m = arith.muli %t, %k1 : index
      %i8 = arith.addi %i8_m, %k4 : index
      %A_e3_0 = memref.load %a[%i7, %i8] : memref<16x8xf32>
      %A_3_0 = vector.insert %A_e3_0, %A_2_0 [3, 0] : f32 into vector<4x1xf32>
      %B_0 = arith.constant 0.0 : f32
      %B_s = vector.broadcast %B_0 : f32 to vector<2x1xf32>
      %i9_m = arith.muli %t, %k1 : index
      %i9 = arith.addi %i9_m, %k0 : index
      %i10_m = arith.muli %g, %k1 : index
      %i10 = arith.addi %i10_m, %k0 : index
      %B_e0_0 = memref.load %b[%i9, %i10] : memref<8x8xf32>
      %B_0_0 = vector.insert %B_e0_0, %B_s [0, 0] : f32 into vector<2x1xf32>
      %i11_m = arith.muli %t, %k1 : index
      %i11 = arith.addi %i11_m, %k4 : index
      %i12_m = arith.muli %g, %k1 : index
      %i12 = arith.addi %i12_m, %k0 : index
      %B_e1_0 = memref.load %b[%i11, %i12] : memref<8x8xf32>
      %B_1_0 = vector.insert %B_e1_0, %B_0_0 [1, 0] : f32 into vector<2x1xf32>
      %C_0 = arith.constant 0.0 : f32
      %C_s = vector.broadcast %C_0 : f32 to vector<2x2xf32>
      %i13_m = arith.muli %g, %k1 : index
      %i13 = arith.addi %i13_m, %k0 : index
      %i14_m = arith.muli %t, %k2 : index
      %i14 = arith.addi %i14_m, %k0 : index
      %C_e0_0 = memref.load %c[%i13, %i14] : memref<16x8xf32>
      %C_0_0 = vector.insert %C_e0_0, %C_s [0, 0] : f32 into vector<2x2xf32>
      %i15_m = arith.muli %g, %k1 : index
      %i15 = arith.addi %i15_m, %k0 : index
      %i16_m = arith.muli %t, %k2 : index
      %i16 = arith.addi %i16_m, %k1 : index
      %C_e0_1 = memref.load %c[%i15, %i16] : memref<16x8xf32>
      %C_0_1 = vector.insert %C_e0_1, %C_0_0 [0, 1] : f32 into vector<2x2xf32>
      %i17_m = arith.muli %g, %k1 : index
      %i17 = arith.addi %i17_m, %k8 : index
      %i18_m = arith.muli %t, %k2 : index
      %i18 = arith.addi %i18_m, %k0 : index
      %C_e1_0 = memref.load %c[%i17, %i18] : memref<16x8xf32>
      %C_1_0 = vector.insert %C_e1_0, %C_0_1 [1, 0] : f32 into vector<2x2xf32>
      %i19_m = arith.muli %g, %k1 : index
      %i19 = arith.addi %i19_m, %k8 : index
      %i20_m = arith.muli %t, %k2 : index
      %i20 = arith.addi %i20_m, %k1 : index
      %C_e1_1 = memref.load %c[%i19, %i20] : memref<16x8xf32>
      %C_1_1 = vector.insert %C_e1_1, %C_1_0 [1, 1] : f32 into vector<2x2xf32>
      %D = nvgpu.mma.sync(%A_3_0, %B_1_0, %C_1_1) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %i21_m = arith.muli %g, %k1 : index
      %i21 = arith.addi %i21_m, %k0 : index
      %i22_m = arith.muli %t, %k2 : index
      %i22 = arith.addi %i22_m, %k0 : index
      %D_0_0 = vector.extract %D[0, 0] : f32 from vector<2x2xf32>
      memref.store %D_0_0, %d[%i21, %i22] : memref<16x8xf32>
      %i23_m = arith.muli %g, %k1 : index
      %i23 = arith.addi %i23_m, %k0 : index
      %i24_m = arith.muli %t, %k2 : index
      %i24 = arith.addi %i24_m, %k1 : index
      %D_0_1 = vector.extract %D[0, 1] : f32 from vector<2x2xf32>
      memref.store %D_0_1, %d[%i23, %i24] : memref<16x8xf32>
      %i25_m = arith.muli %g, %k1 : index
      %i25 = arith.addi %i25_m, %k8 : index
      %i26_m = arith.muli %t, %k2 : index
      %i26 = arith.addi %i26_m, %k0 : index
      %D_1_0 = vector.extract %D[1, 0] : f32 from vector<2x2xf32>
      memref.store %D_1_0, %d[%i25, %i26] : memref<16x8xf32>
      %i27_m = arith.muli %g, %k1 : index
      %i27 = arith.addi %i27_m, %k8 : index
      %i28_m = arith.muli %t, %k2 : index
      %i28 = arith.addi %i28_m, %k1 : index
      %D_1_1 = vector.extract %D[1, 1] : f32 from vector<2x2xf32>
      memref.store %D_1_1, %d[%i27, %i28] : memref<16x8xf32>
      gpu.return
    }
    gpu.func @f64(%a: memref<8x4xf64>, %b: memref<4x8xf64>, %c: memref<8x8xf64>, %d: memref<8x8xf64>) kernel {
      %lane = gpu.lane_id
      %c4 = arith.constant 4 : index
      %g = arith.divui %lane, %c4 : index
      %t = arith.remui %lane, %c4 : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %A_0 = arith.constant 0.0 : f64
      %A_s = vector.broadcast %A_0 : f64 to vector<1x1xf64>
      %i1_m = arith.muli %g, %k1 : index
      %i1 = arith.addi %i1_m, %k0 : index
      %i2_m = arith.muli %t, %k1 : index
      %i2 = arith.addi %i2_m, %k0 : index
      %A_e0_0 = memref.load %a[%i1, %i2] : memref<8x4xf64>
      %A_0_0 = vector.insert %A_e0_0, %A_s [0, 0] : f64 into vector<1x1xf64>
      %B_0 = arith.constant 0.0 : f64
      %B_s = vector.broadcast %B_0 : f64 to vector<1x1xf64>
      %i3_m = arith.muli %t, %k1 : index
      %i3 = arith.addi %i3_m, %k0 : index
      %i4_m = arith.muli %g, %k1 : index
      %i4 = arith.addi %i4_m, %k0 : index
      %B_e0_0 = memref.load %b[%i3, %i4] : memref<4x8xf64>
      %B_0_0 = vector.insert %B_e0_0, %B_s [0, 0] : f64 into vector<1x1xf64>
      %C_0 = arith.constant 0.0 : f64
      %C_s = vector.broadcast %C_0 : f64 to vector<1x2xf64>
      %i5_m = arith.muli %g, %k1 : index
      %i5 = arith.addi %i5_m, %k0 : index
      %i6_m = arith.muli %t, %k2 : index
      %i6 = arith.addi %i6_m, %k0 : index
      %C_e0_0 = memref.load %c[%i5, %i6] : memref<8x8xf64>
      %C_0_0 = vector.insert %C_e0_0, %C_s [0, 0] : f64 into vector<1x2xf64>
      %i7_m = arith.muli %g, %k1 : index
      %i7 = arith.addi %i7_m, %k0 : index
      %i8_m = arith.muli %t, %k2 : index
      %i8 = arith.addi %i8_m, %k1 : index
      %C_e0_1 = memref.load %c[%i7, %i8] : memref<8x8xf64>
      %C_0_1 = vector.insert %C_e0_1, %C_0_0 [0, 1] : f64 into vector<1x2xf64>
      %D = nvgpu.mma.sync(%A_0_0, %B_0_0, %C_0_1) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
      %i9_m = arith.muli %g, %k1 : index
      %i9 = arith.addi %i9_m, %k0 : index
      %i10_m = arith.muli %t, %k2 : index
      %i10 = arith.addi %i10_m, %k0 : index
      %D_0_0 = vector.extract %D[0, 0] : f64 from vector<1x2xf64>
      memref.store %D_0_0, %d[%i9, %i10] : memref<8x8xf64>
      %i11_m = arith.muli %g, %k1 : index
      %i11 = arith.addi %i11_m, %k0 : index
      %i12_m = arith.muli %t, %k2 : index
      %i12 = arith.addi %i12_m, %k1 : index
      %D_0_1 = vector.extract %D[0, 1] : f64 from vector<1x2xf64>
      memref.store %D_0_1, %d[%i11, %i12] : memref<8x8xf64>
      gpu.return
    }
    gpu.func @i8(%a: memref<16x32xi8>, %b: memref<32x8xi8>, %c: memref<16x8xi32>, %d: memref<16x8xi32>) kernel {
      %lane = gpu.lane_id
      %c4 = arith.constant 4 : index
      %g = arith.divui %lane, %c4 : index
      %t = arith.remui %lane, %c4 : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k3 = arith.constant 3 : index
      %k4 = arith.constant 4 : index
      %k8 = arith.constant 8 : index
      %k16 = arith.constant 16 : index
      %k17 = arith.constant 17 : index
      %k18 = arith.constant 18 : index
      %k19 = arith.constant 19 : index
      %A_0 = arith.constant 0 : i8
      %A_s = vector.broadcast %A_0 : i8 to vector<4x4xi8>
      %i1_m = arith.muli %g, %k1 : index
      %i1 = arith.addi %i1_m, %k0 : index
      %i2_m = arith.muli %t, %k4 : index
      %i2 = arith.addi %i2_m, %k0 : index
      %A_e0_0 = memref.load %a[%i1, %i2] : memref<16x32xi8>
      %A_0_0 = vector.insert %A_e0_0, %A_s [0, 0] : i8 into vector<4x4xi8>
      %i3_m = arith.muli %g, %k1 : index
      %i3 = arith.addi %i3_m, %k0 : index
      %i4_m = arith.muli %t, %k4 : index
      %i4 = arith.addi %i4_m, %k1 : index
      %A_e0_1 = memref.load %a[%i3, %i4] : memref<16x32xi8>
      %A_0_1 = vector.insert %A_e0_1, %A_0_0 [0, 1] : i8 into vector<4x4xi8>
      %i5_m = arith.muli %g, %k1 : index
      %i5 = arith.addi %i5_m, %k0 : index
      %i6_m = arith.muli %t, %k4 : index
      %i6 = arith.addi %i6_m, %k2 : index
      %A_e0_2 = memref.load %a[%i5, %i6] : memref<16x32xi8>
      %A_0_2 = vector.insert %A_e0_2, %A_0_1 [0, 2] : i8 into vector<4x4xi8>
      %i7_m = arith.muli %g, %k1 : index
      %i7 = arith.addi %i7_m, %k0 : index
      %i8_m = arith.muli %t, %k4 : index
      %i8 = arith.addi %i8_m, %k3 : index
      %A_e0_3 = memref.load %a[%i7, %i8] : memref<16x32xi8>
      %A_0_3 = vector.insert %A_e0_3, %A_0_2 [0, 3] : i8 into vector<4x4xi8>
      %i9_m = arith.muli %g, %k1 : index
      %i9 = arith.addi %i9_m, %k8 : index
      %i10_m = arith.muli %t, %k4 : index
      %i10 = arith.addi %i10_m, %k0 : index
      %A_e1_0 = memref.load %a[%i9, %i10] : memref<16x32xi8>
      %A_1_0 = vector.insert %A_e1_0, %A_0_3 [1, 0] : i8 into vector<4x4xi8>
      %i11_m = arith.muli %g, %k1 : index
      %i11 = arith.addi %i11_m, %k8 : index
      %i12_m = arith.muli %t, %k4 : index
      %i12 = arith.addi %i12_m, %k1 : index
      %A_e1_1 = memref.load %a[%i11, %i12] : memref<16x32xi8>
      %A_1_1 = vector.insert %A_e1_1, %A_1_0 [1, 1] : i8 into vector<4x4xi8>
      %i13_m = arith.muli %g, %k1 : index
      %i13 = arith.addi %i13_m, %k8 : index
      %i14_m = arith.muli %t, %k4 : index
      %i14 = arith.addi %i14_m, %k2 : index
      %A_e1_2 = memref.load %a[%i13, %i14] : memref<16x32xi8>
      %A_1_2 = vector.insert %A_e1_2, %A_1_1 [1, 2] : i8 into vector<4x4xi8>
      %i15_m = arith.muli %g, %k1 : index
      %i15 = arith.addi %i15_m, %k8 : index
      %i16_m = arith.muli %t, %k4 : index
      %i16 = arith.addi %i16_m, %k3 : index
      %A_e1_3 = memref.load %a[%i15, %i16] : memref<16x32xi8>
      %A_1_3 = vector.insert %A_e1_3, %A_1_2 [1, 3] : i8 into vector<4x4xi8>
      %i17_m = arith.muli %g, %k1 : index
      %i17 = arith.addi %i17_m, %k0 : index
      %i18_m = arith.muli %t, %k4 : index
      %i18 = arith.addi %i18_m, %k16 : index
      %A_e2_0 = memref.load %a[%i17, %i18] : memref<16x32xi8>
      %A_2_0 = vector.insert %A_e2_0, %A_1_3 [2, 0] : i8 into vector<4x4xi8>
      %i19_m = arith.muli %g, %k1 : index
      %i19 = arith.addi %i19_m, %k0 : index
      %i20_m = arith.muli %t, %k4 : index
      %i20 = arith.addi %i20_m, %k17 : index
      %A_e2_1 = memref.load %a[%i19, %i20] : memref<16x32xi8>
      %A_2_1 = vector.insert %A_e2_1, %A_2_0 [2, 1] : i8 into vector<4x4xi8>
      %i21_m = arith.muli %g, %k1 : index
      %i21 = arith.addi %i21_m, %k0 : index
      %i22_m = arith.muli %t, %k4 : index
      %i22 = arith.addi %i22_m, %k18 : index
      %A_e2_2 = memref.load %a[%i21, %i22] : memref<16x32xi8>
      %A_2_2 = vector.insert %A_e2_2, %A_2_1 [2, 2] : i8 into vector<4x4xi8>
      %i23_m = arith.muli %g, %k1 : index
      %i23 = arith.addi %i23_m, %k0 : index
      %i24_m = arith.muli %t, %k4 : index
      %i24 = arith.addi %i24_m, %k19 : index
      %A_e2_3 = memref.load %a[%i23, %i24] : memref<16x32xi8>
      %A_2_3 = vector.insert %A_e2_3, %A_2_2 [2, 3] : i8 into vector<4x4xi8>
      %i25_m = arith.muli %g, %k1 : index
      %i25 = arith.addi %i25_m, %k8 : index
      %i26_m = arith.muli %t, %k4 : index
      %i26 = arith.addi %i26_m, %k16 : index
      %A_e3_0 = memref.load %a[%i25, %i26] : memref<16x32xi8>
      %A_3_0 = vector.insert %A_e3_0, %A_2_3 [3, 0] : i8 into vector<4x4xi8>
      %i27_m = arith.muli %g, %k1 : index
      %i27 = arith.addi %i27_m, %k8 : index
      %i28_m = arith.muli %t, %k4 : index
      %i28 = arith.addi %i28_m, %k17 : index
      %A_e3_1 = memref.load %a[%i27, %i28] : memref<16x32xi8>
      %A_3_1 = vector.insert %A_e3_1, %A_3_0 [3, 1] : i8 into vector<4x4xi8>
      %i29_m = arith.muli %g, %k1 : index
      %i29 = arith.addi %i29_m, %k8 : index
      %i30_m = arith.muli %t, %k4 : index
      %i30 = arith.addi %i30_m, %k18 : index
      %A_e3_2 = memref.load %a[%i29, %i30] : memref<16x32xi8>
      %A_3_2 = vector.insert %A_e3_2, %A_3_1 [3, 2] : i8 into vector<4x4xi8>
      %i31_m = arith.muli %g, %k1 : index
      %i31 = arith.addi %i31_m, %k8 : index
      %i32_m = arith.muli %t, %k4 : index
      %i32 = arith.addi %i32_m, %k19 : index
      %A_e3_3 = memref.load %a[%i31, %i32] : memref<16x32xi8>
      %A_3_3 = vector.insert %A_e3_3, %A_3_2 [3, 3] : i8 into vector<4x4xi8>
      %B_0 = arith.constant 0 : i8
      %B_s = vector.broadcast %B_0 : i8 to vector<2x4xi8>
      %i33_m = arith.muli %t, %k4 : index
      %i33 = arith.addi %i33_m, %k0 : index
      %i34_m = arith.muli %g, %k1 : index
      %i34 = arith.addi %i34_m, %k0 : index
      %B_e0_0 = memref.load %b[%i33, %i34] : memref<32x8xi8>
      %B_0_0 = vector.insert %B_e0_0, %B_s [0, 0] : i8 into vector<2x4xi8>
      %i35_m = arith.muli %t, %k4 : index
      %i35 = arith.addi %i35_m, %k1 : index
      %i36_m = arith.muli %g, %k1 : index
      %i36 = arith.addi %i36_m, %k0 : index
      %B_e0_1 = memref.load %b[%i35, %i36] : memref<32x8xi8>
      %B_0_1 = vector.insert %B_e0_1, %B_0_0 [0, 1] : i8 into vector<2x4xi8>
      %i37_m = arith.muli %t, %k4 : index
      %i37 = arith.addi %i37_m, %k2 : index
      %i38_m = arith.muli %g, %k1 : index
      %i38 = arith.addi %i38_m, %k0 : index
      %B_e0_2 = memref.load %b[%i37, %i38] : memref<32x8xi8>
      %B_0_2 = vector.insert %B_e0_2, %B_0_1 [0, 2] : i8 into vector<2x4xi8>
      %i39_m = arith.muli %t, %k4 : index
      %i39 = arith.addi %i39_m, %k3 : index
      %i40_m = arith.muli %g, %k1 : index
      %i40 = arith.addi %i40_m, %k0 : index
      %B_e0_3 = memref.load %b[%i39, %i40] : memref<32x8xi8>
      %B_0_3 = vector.insert %B_e0_3, %B_0_2 [0, 3] : i8 into vector<2x4xi8>
      %i41_m = arith.muli %t, %k4 : index
      %i41 = arith.addi %i41_m, %k16 : index
      %i42_m = arith.muli %g, %k1 : index
      %i42 = arith.addi %i42_m, %k0 : index
      %B_e1_0 = memref.load %b[%i41, %i42] : memref<32x8xi8>
      %B_1_0 = vector.insert %B_e1_0, %B_0_3 [1, 0] : i8 into vector<2x4xi8>
      %i43_m = arith.muli %t, %k4 : index
      %i43 = arith.addi %i43_m, %k17 : index
      %i44_m = arith.muli %g, %k1 : index
      %i44 = arith.addi %i44_m, %k0 : index
      %B_e1_1 = memref.load %b[%i43, %i44] : memref<32x8xi8>
      %B_1_1 = vector.insert %B_e1_1, %B_1_0 [1, 1] : i8 into vector<2x4xi8>
      %i45_m = arith.muli %t, %k4 : index
      %i45 = arith.addi %i45_m, %k18 : index
      %i46_m = arith.muli %g, %k1 : index
      %i46 = arith.addi %i46_m, %k0 : index
      %B_e1_2 = memref.load %b[%i45, %i46] : memref<32x8xi8>
      %B_1_2 = vector.insert %B_e1_2, %B_1_1 [1, 2] : i8 into vector<2x4xi8>
      %i47_m = arith.muli %t, %k4 : index
      %i47 = arith.addi %i47_m, %k19 : index
      %i48_m = arith.muli %g, %k1 : index
      %i48 = arith.addi %i48_m, %k0 : index
      %B_e1_3 = memref.load %b[%i47, %i48] : memref<32x8xi8>
      %B_1_3 = vector.insert %B_e1_3, %B_1_2 [1, 3] : i8 into vector<2x4xi8>
      %C_0 = arith.constant 0 : i32
      %C_s = vector.broadcast %C_0 : i32 to vector<2x2xi32>
      %i49_m = arith.muli %g, %k1 : index
      %i49 = arith.addi %i49_m, %k0 : index
      %i50_m = arith.muli %t, %k2 : index
      %i50 = arith.addi %i50_m, %k0 : index
      %C_e0_0 = memref.load %c[%i49, %i50] : memref<16x8xi32>
      %C_0_0 = vector.insert %C_e0_0, %C_s [0, 0] : i32 into vector<2x2xi32>
      %i51_m = arith.muli %g, %k1 : index
      %i51 = arith.addi %i51_m, %k0 : index
      %i52_m = arith.muli %t, %k2 : index
      %i52 = arith.addi %i52_m, %k1 : index
      %C_e0_1 = memref.load %c[%i51, %i52] : memref<16x8xi32>
      %C_0_1 = vector.insert %C_e0_1, %C_0_0 [0, 1] : i32 into vector<2x2xi32>
      %i53_m = arith.muli %g, %k1 : index
      %i53 = arith.addi %i53_m, %k8 : index
      %i54_m = arith.muli %t, %k2 : index
      %i54 = arith.addi %i54_m, %k0 : index
      %C_e1_0 = memref.load %c[%i53, %i54] : memref<16x8xi32>
      %C_1_0 = vector.insert %C_e1_0, %C_0_1 [1, 0] : i32 into vector<2x2xi32>
      %i55_m = arith.muli %g, %k1 : index
      %i55 = arith.addi %i55_m, %k8 : index
      %i56_m = arith.muli %t, %k2 : index
      %i56 = arith.addi %i56_m, %k1 : index
      %C_e1_1 = memref.load %c[%i55, %i56] : memref<16x8xi32>
      %C_1_1 = vector.insert %C_e1_1, %C_1_0 [1, 1] : i32 into vector<2x2xi32>
      %D = nvgpu.mma.sync(%A_3_3, %B_1_3, %C_1_1) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
      %i57_m = arith.muli %g, %k1 : index
      %i57 = arith.addi %i57_m, %k0 : index
      %i58_m = arith.muli %t, %k2 : index
      %i58 = arith.addi %i58_m, %k0 : index
      %D_0_0 = vector.extract %D[0, 0] : i32 from vector<2x2xi32>
      memref.store %D_0_0, %d[%i57, %i58] : memref<16x8xi32>
      %i59_m = arith.muli %g, %k1 : index
      %i59 = arith.addi %i59_m, %k0 : index
      %i60_m = arith.muli %t, %k2 : index
      %i60 = arith.addi %i60_m, %k1 : index
      %D_0_1 = vector.extract %D[0, 1] : i32 from vector<2x2xi32>
      memref.store %D_0_1, %d[%i59, %i60] : memref<16x8xi32>
      %i61_m = arith.muli %g, %k1 : index
      %i61 = arith.addi %i61_m, %k8 : index
      %i62_m = arith.muli %t, %k2 : index
      %i62 = arith.addi %i62_m, %k0 : index
      %D_1_0 = vector.extract %D[1, 0] : i32 from vector<2x2xi32>
      memref.store %D_1_0, %d[%i61, %i62] : memref<16x8xi32>
      %i63_m = arith.muli %g, %k1 : index
      %i63 = arith.addi %i63_m, %k8 : index
      %i64_m = arith.muli %t, %k2 : index
      %i64 = arith.addi %i64_m, %k1 : index
      %D_1_1 = vector.extract %D[1, 1] : i32 from vector<2x2xi32>
      memref.store %D_1_1, %d[%i63, %i64] : memref<16x8xi32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // Fills a 16x16 A, 16x8 B and 16x8 C with (3 * i + 5 * j) % 7 - 3,
  // (2 * i + j) % 5 - 2 and i - j, runs @f16_f32, and counts the elements of D
  // that differ from C + A * B.
  func.func @check_f16_f32() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %cm = arith.constant 16 : index
    %cn = arith.constant 8 : index
    %ck = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x8xf16>
    %c = memref.alloc() : memref<16x8xf32>
    %d = memref.alloc() : memref<16x8xf32>
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %ck step %c1 {
        %x3 = arith.muli %i, %c3 : index
        %x5 = arith.muli %j, %c5 : index
        %s = arith.addi %x3, %x5 : index
        %r = arith.remui %s, %c7 : index
        %v = arith.index_cast %r : index to i64
        %three = arith.constant 3 : i64
        %w = arith.subi %v, %three : i64
        %e = arith.sitofp %w : i64 to f16
        memref.store %e, %a[%i, %j] : memref<16x16xf16>
      }
    }
    scf.for %i = %c0 to %ck step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %x2 = arith.muli %i, %c2 : index
        %s = arith.addi %x2, %j : index
        %r = arith.remui %s, %c5 : index
        %v = arith.index_cast %r : index to i64
        %two = arith.constant 2 : i64
        %w = arith.subi %v, %two : i64
        %e = arith.sitofp %w : i64 to f16
        memref.store %e, %b[%i, %j] : memref<16x8xf16>
      }
    }
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %iv = arith.index_cast %i : index to i64
        %jv = arith.index_cast %j : index to i64
        %w = arith.subi %iv, %jv : i64
        %e = arith.sitofp %w : i64 to f32
        memref.store %e, %c[%i, %j] : memref<16x8xf32>
      }
    }
    gpu.launch_func @kernels::@f16_f32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %b : memref<16x8xf16>, %c : memref<16x8xf32>, %d : memref<16x8xf32>)
    %bad = scf.for %i = %c0 to %cm step %c1 iter_args(%n0 = %c0) -> (index) {
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%n1 = %n0) -> (index) {
        %c_ij = memref.load %c[%i, %j] : memref<16x8xf32>
        %c64 = arith.extf %c_ij : f32 to f64
        %sum = scf.for %kk = %c0 to %ck step %c1 iter_args(%acc = %c64) -> (f64) {
          %x = memref.load %a[%i, %kk] : memref<16x16xf16>
          %y = memref.load %b[%kk, %j] : memref<16x8xf16>
          %x64 = arith.extf %x : f16 to f64
          %y64 = arith.extf %y : f16 to f64
          %p = arith.mulf %x64, %y64 : f64
          %acc1 = arith.addf %acc, %p : f64
          scf.yield %acc1 : f64
        }
        %d_ij = memref.load %d[%i, %j] : memref<16x8xf32>
        %d64 = arith.extf %d_ij : f32 to f64
        %ne = arith.cmpf one, %d64, %sum : f64
        %one = arith.select %ne, %c1, %c0 : index
        %n2 = arith.addi %n1, %one : index
        scf.yield %n2 : index
      }
      scf.yield %row : index
    }
    vector.print str "f16_f32 mismatches: "
    vector.print %bad : index
    %c15 = arith.constant 15 : index
    %last = memref.load %d[%c15, %c7] : memref<16x8xf32>
    vector.print str "f16_f32 d[15][7] = "
    vector.print %last : f32
    memref.dealloc %a : memref<16x16xf16>
    memref.dealloc %b : memref<16x8xf16>
    memref.dealloc %c : memref<16x8xf32>
    memref.dealloc %d : memref<16x8xf32>
    return
  }

  // Fills a 16x16 A, 16x8 B and 16x8 C with (3 * i + 5 * j) % 7 - 3,
  // (2 * i + j) % 5 - 2 and i - j, runs @f16_f16, and counts the elements of D
  // that differ from C + A * B.
  func.func @check_f16_f16() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %cm = arith.constant 16 : index
    %cn = arith.constant 8 : index
    %ck = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x8xf16>
    %c = memref.alloc() : memref<16x8xf16>
    %d = memref.alloc() : memref<16x8xf16>
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %ck step %c1 {
        %x3 = arith.muli %i, %c3 : index
        %x5 = arith.muli %j, %c5 : index
        %s = arith.addi %x3, %x5 : index
        %r = arith.remui %s, %c7 : index
        %v = arith.index_cast %r : index to i64
        %three = arith.constant 3 : i64
        %w = arith.subi %v, %three : i64
        %e = arith.sitofp %w : i64 to f16
        memref.store %e, %a[%i, %j] : memref<16x16xf16>
      }
    }
    scf.for %i = %c0 to %ck step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %x2 = arith.muli %i, %c2 : index
        %s = arith.addi %x2, %j : index
        %r = arith.remui %s, %c5 : index
        %v = arith.index_cast %r : index to i64
        %two = arith.constant 2 : i64
        %w = arith.subi %v, %two : i64
        %e = arith.sitofp %w : i64 to f16
        memref.store %e, %b[%i, %j] : memref<16x8xf16>
      }
    }
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %iv = arith.index_cast %i : index to i64
        %jv = arith.index_cast %j : index to i64
        %w = arith.subi %iv, %jv : i64
        %e = arith.sitofp %w : i64 to f16
        memref.store %e, %c[%i, %j] : memref<16x8xf16>
      }
    }
    gpu.launch_func @kernels::@f16_f16 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %b : memref<16x8xf16>, %c : memref<16x8xf16>, %d : memref<16x8xf16>)
    %bad = scf.for %i = %c0 to %cm step %c1 iter_args(%n0 = %c0) -> (index) {
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%n1 = %n0) -> (index) {
        %c_ij = memref.load %c[%i, %j] : memref<16x8xf16>
        %c64 = arith.extf %c_ij : f16 to f64
        %sum = scf.for %kk = %c0 to %ck step %c1 iter_args(%acc = %c64) -> (f64) {
          %x = memref.load %a[%i, %kk] : memref<16x16xf16>
          %y = memref.load %b[%kk, %j] : memref<16x8xf16>
          %x64 = arith.extf %x : f16 to f64
          %y64 = arith.extf %y : f16 to f64
          %p = arith.mulf %x64, %y64 : f64
          %acc1 = arith.addf %acc, %p : f64
          scf.yield %acc1 : f64
        }
        %d_ij = memref.load %d[%i, %j] : memref<16x8xf16>
        %d64 = arith.extf %d_ij : f16 to f64
        %ne = arith.cmpf one, %d64, %sum : f64
        %one = arith.select %ne, %c1, %c0 : index
        %n2 = arith.addi %n1, %one : index
        scf.yield %n2 : index
      }
      scf.yield %row : index
    }
    vector.print str "f16_f16 mismatches: "
    vector.print %bad : index
    memref.dealloc %a : memref<16x16xf16>
    memref.dealloc %b : memref<16x8xf16>
    memref.dealloc %c : memref<16x8xf16>
    memref.dealloc %d : memref<16x8xf16>
    return
  }

  // Fills a 16x8 A, 8x8 B and 16x8 C with (3 * i + 5 * j) % 7 - 3,
  // (2 * i + j) % 5 - 2 and i - j, runs @tf32, and counts the elements of D
  // that differ from C + A * B.
  func.func @check_tf32() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %cm = arith.constant 16 : index
    %cn = arith.constant 8 : index
    %ck = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x8xf32>
    %b = memref.alloc() : memref<8x8xf32>
    %c = memref.alloc() : memref<16x8xf32>
    %d = memref.alloc() : memref<16x8xf32>
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %ck step %c1 {
        %x3 = arith.muli %i, %c3 : index
        %x5 = arith.muli %j, %c5 : index
        %s = arith.addi %x3, %x5 : index
        %r = arith.remui %s, %c7 : index
        %v = arith.index_cast %r : index to i64
        %three = arith.constant 3 : i64
        %w = arith.subi %v, %three : i64
        %e = arith.sitofp %w : i64 to f32
        memref.store %e, %a[%i, %j] : memref<16x8xf32>
      }
    }
    scf.for %i = %c0 to %ck step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %x2 = arith.muli %i, %c2 : index
        %s = arith.addi %x2, %j : index
        %r = arith.remui %s, %c5 : index
        %v = arith.index_cast %r : index to i64
        %two = arith.constant 2 : i64
        %w = arith.subi %v, %two : i64
        %e = arith.sitofp %w : i64 to f32
        memref.store %e, %b[%i, %j] : memref<8x8xf32>
      }
    }
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %iv = arith.index_cast %i : index to i64
        %jv = arith.index_cast %j : index to i64
        %w = arith.subi %iv, %jv : i64
        %e = arith.sitofp %w : i64 to f32
        memref.store %e, %c[%i, %j] : memref<16x8xf32>
      }
    }
    gpu.launch_func @kernels::@tf32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x8xf32>, %b : memref<8x8xf32>, %c : memref<16x8xf32>, %d : memref<16x8xf32>)
    %bad = scf.for %i = %c0 to %cm step %c1 iter_args(%n0 = %c0) -> (index) {
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%n1 = %n0) -> (index) {
        %c_ij = memref.load %c[%i, %j] : memref<16x8xf32>
        %c64 = arith.extf %c_ij : f32 to f64
        %sum = scf.for %kk = %c0 to %ck step %c1 iter_args(%acc = %c64) -> (f64) {
          %x = memref.load %a[%i, %kk] : memref<16x8xf32>
          %y = memref.load %b[%kk, %j] : memref<8x8xf32>
          %x64 = arith.extf %x : f32 to f64
          %y64 = arith.extf %y : f32 to f64
          %p = arith.mulf %x64, %y64 : f64
          %acc1 = arith.addf %acc, %p : f64
          scf.yield %acc1 : f64
        }
        %d_ij = memref.load %d[%i, %j] : memref<16x8xf32>
        %d64 = arith.extf %d_ij : f32 to f64
        %ne = arith.cmpf one, %d64, %sum : f64
        %one = arith.select %ne, %c1, %c0 : index
        %n2 = arith.addi %n1, %one : index
        scf.yield %n2 : index
      }
      scf.yield %row : index
    }
    vector.print str "tf32 mismatches: "
    vector.print %bad : index
    memref.dealloc %a : memref<16x8xf32>
    memref.dealloc %b : memref<8x8xf32>
    memref.dealloc %c : memref<16x8xf32>
    memref.dealloc %d : memref<16x8xf32>
    return
  }

  // Fills a 8x4 A, 4x8 B and 8x8 C with (3 * i + 5 * j) % 7 - 3,
  // (2 * i + j) % 5 - 2 and i - j, runs @f64, and counts the elements of D
  // that differ from C + A * B.
  func.func @check_f64() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %cm = arith.constant 8 : index
    %cn = arith.constant 8 : index
    %ck = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<8x4xf64>
    %b = memref.alloc() : memref<4x8xf64>
    %c = memref.alloc() : memref<8x8xf64>
    %d = memref.alloc() : memref<8x8xf64>
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %ck step %c1 {
        %x3 = arith.muli %i, %c3 : index
        %x5 = arith.muli %j, %c5 : index
        %s = arith.addi %x3, %x5 : index
        %r = arith.remui %s, %c7 : index
        %v = arith.index_cast %r : index to i64
        %three = arith.constant 3 : i64
        %w = arith.subi %v, %three : i64
        %e = arith.sitofp %w : i64 to f64
        memref.store %e, %a[%i, %j] : memref<8x4xf64>
      }
    }
    scf.for %i = %c0 to %ck step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %x2 = arith.muli %i, %c2 : index
        %s = arith.addi %x2, %j : index
        %r = arith.remui %s, %c5 : index
        %v = arith.index_cast %r : index to i64
        %two = arith.constant 2 : i64
        %w = arith.subi %v, %two : i64
        %e = arith.sitofp %w : i64 to f64
        memref.store %e, %b[%i, %j] : memref<4x8xf64>
      }
    }
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %iv = arith.index_cast %i : index to i64
        %jv = arith.index_cast %j : index to i64
        %w = arith.subi %iv, %jv : i64
        %e = arith.sitofp %w : i64 to f64
        memref.store %e, %c[%i, %j] : memref<8x8xf64>
      }
    }
    gpu.launch_func @kernels::@f64 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<8x4xf64>, %b : memref<4x8xf64>, %c : memref<8x8xf64>, %d : memref<8x8xf64>)
    %bad = scf.for %i = %c0 to %cm step %c1 iter_args(%n0 = %c0) -> (index) {
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%n1 = %n0) -> (index) {
        %c_ij = memref.load %c[%i, %j] : memref<8x8xf64>
        %zero64 = arith.constant 0.0 : f64
        %c64 = arith.addf %c_ij, %zero64 : f64
        %sum = scf.for %kk = %c0 to %ck step %c1 iter_args(%acc = %c64) -> (f64) {
          %x = memref.load %a[%i, %kk] : memref<8x4xf64>
          %y = memref.load %b[%kk, %j] : memref<4x8xf64>
          %x64 = arith.addf %x, %zero64 : f64
          %y64 = arith.addf %y, %zero64 : f64
          %p = arith.mulf %x64, %y64 : f64
          %acc1 = arith.addf %acc, %p : f64
          scf.yield %acc1 : f64
        }
        %d_ij = memref.load %d[%i, %j] : memref<8x8xf64>
        %d64 = arith.addf %d_ij, %zero64 : f64
        %ne = arith.cmpf one, %d64, %sum : f64
        %one = arith.select %ne, %c1, %c0 : index
        %n2 = arith.addi %n1, %one : index
        scf.yield %n2 : index
      }
      scf.yield %row : index
    }
    vector.print str "f64 mismatches: "
    vector.print %bad : index
    memref.dealloc %a : memref<8x4xf64>
    memref.dealloc %b : memref<4x8xf64>
    memref.dealloc %c : memref<8x8xf64>
    memref.dealloc %d : memref<8x8xf64>
    return
  }

  // Fills a 16x32 A, 32x8 B and 16x8 C with (3 * i + 5 * j) % 7 - 3,
  // (2 * i + j) % 5 - 2 and i - j, runs @i8, and counts the elements of D
  // that differ from C + A * B.
  func.func @check_i8() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %cm = arith.constant 16 : index
    %cn = arith.constant 8 : index
    %ck = arith.constant 32 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x32xi8>
    %b = memref.alloc() : memref<32x8xi8>
    %c = memref.alloc() : memref<16x8xi32>
    %d = memref.alloc() : memref<16x8xi32>
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %ck step %c1 {
        %x3 = arith.muli %i, %c3 : index
        %x5 = arith.muli %j, %c5 : index
        %s = arith.addi %x3, %x5 : index
        %r = arith.remui %s, %c7 : index
        %v = arith.index_cast %r : index to i64
        %three = arith.constant 3 : i64
        %w = arith.subi %v, %three : i64
        %e = arith.trunci %w : i64 to i8
        memref.store %e, %a[%i, %j] : memref<16x32xi8>
      }
    }
    scf.for %i = %c0 to %ck step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %x2 = arith.muli %i, %c2 : index
        %s = arith.addi %x2, %j : index
        %r = arith.remui %s, %c5 : index
        %v = arith.index_cast %r : index to i64
        %two = arith.constant 2 : i64
        %w = arith.subi %v, %two : i64
        %e = arith.trunci %w : i64 to i8
        memref.store %e, %b[%i, %j] : memref<32x8xi8>
      }
    }
    scf.for %i = %c0 to %cm step %c1 {
      scf.for %j = %c0 to %cn step %c1 {
        %iv = arith.index_cast %i : index to i64
        %jv = arith.index_cast %j : index to i64
        %w = arith.subi %iv, %jv : i64
        %e = arith.trunci %w : i64 to i32
        memref.store %e, %c[%i, %j] : memref<16x8xi32>
      }
    }
    gpu.launch_func @kernels::@i8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x32xi8>, %b : memref<32x8xi8>, %c : memref<16x8xi32>, %d : memref<16x8xi32>)
    %bad = scf.for %i = %c0 to %cm step %c1 iter_args(%n0 = %c0) -> (index) {
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%n1 = %n0) -> (index) {
        %c_ij = memref.load %c[%i, %j] : memref<16x8xi32>
        %c64 = arith.sitofp %c_ij : i32 to f64
        %sum = scf.for %kk = %c0 to %ck step %c1 iter_args(%acc = %c64) -> (f64) {
          %x = memref.load %a[%i, %kk] : memref<16x32xi8>
          %y = memref.load %b[%kk, %j] : memref<32x8xi8>
          %x64 = arith.sitofp %x : i8 to f64
          %y64 = arith.sitofp %y : i8 to f64
          %p = arith.mulf %x64, %y64 : f64
          %acc1 = arith.addf %acc, %p : f64
          scf.yield %acc1 : f64
        }
        %d_ij = memref.load %d[%i, %j] : memref<16x8xi32>
        %d64 = arith.sitofp %d_ij : i32 to f64
        %ne = arith.cmpf one, %d64, %sum : f64
        %one = arith.select %ne, %c1, %c0 : index
        %n2 = arith.addi %n1, %one : index
        scf.yield %n2 : index
      }
      scf.yield %row : index
    }
    vector.print str "i8 mismatches: "
    vector.print %bad : index
    memref.dealloc %a : memref<16x32xi8>
    memref.dealloc %b : memref<32x8xi8>
    memref.dealloc %c : memref<16x8xi32>
    memref.dealloc %d : memref<16x8xi32>
    return
  }

  func.func @main() {
    call @check_f16_f32() : () -> ()
    call @check_f16_f16() : () -> ()
    call @check_tf32() : () -> ()
    call @check_f64() : () -> ()
    call @check_i8() : () -> ()
    return
  }
}
