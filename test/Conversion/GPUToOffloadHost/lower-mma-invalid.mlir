// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-lower-mma))'
// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-offload-host))'

gpu.module @m {
  gpu.func @k(%m: memref<16x16xf32>, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @below {{'gpu.subgroup_mma_extract_thread_local' op is not supported by the host target: the first lane of a subgroup holds the whole fragment, and a lane's share of it is not defined there}}
    %v = gpu.subgroup_mma_extract_thread_local %a[%c0] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
    memref.store %v, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<16x16xf32>, %v: f32) kernel {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @below {{'gpu.subgroup_mma_insert_thread_local' op is not supported by the host target}}
    %b = gpu.subgroup_mma_insert_thread_local %v, %a[%c0] : f32, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %b, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<128x64xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{host target supports !gpu.mma_matrix of at most 4096 elements, got '!gpu.mma_matrix<128x64xf32, "COp">'}}
    %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 64 : index} : memref<128x64xf32> -> !gpu.mma_matrix<128x64xf32, "COp">
    gpu.subgroup_mma_store_matrix %a, %m[%c0, %c0] {leadDimension = 64 : index} : !gpu.mma_matrix<128x64xf32, "COp">, memref<128x64xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%m: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{host target needs the memref element type to be the fragment's, got 'memref<16x16xf32>' for '!gpu.mma_matrix<16x16xf16, "AOp">'}}
    %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf16, "AOp">
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xf64, "AOp">, %b: !gpu.mma_matrix<16x16xf64, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{host target needs floating-point A and B operands no wider than the accumulator, got '!gpu.mma_matrix<16x16xf64, "AOp">' with '!gpu.mma_matrix<16x16xf32, "COp">'}}
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf64, "AOp">, !gpu.mma_matrix<16x16xf64, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xsi8, "AOp">, %b: !gpu.mma_matrix<16x16xsi8, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{host target needs floating-point A and B operands no wider than the accumulator, got '!gpu.mma_matrix<16x16xsi8, "AOp">'}}
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xi32, "COp">, %m: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{host target needs si8 or ui8 A and B operands for an i32 accumulator, got '!gpu.mma_matrix<16x16xf16, "AOp">'}}
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'addf' takes 2 operand(s), got 1}}
    %d = gpu.subgroup_mma_elementwise addf %a : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xi32, "COp">, %m: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'addf' does not apply to '!gpu.mma_matrix<16x16xi32, "COp">'}}
    %d = gpu.subgroup_mma_elementwise addf %a, %a : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'extf' needs a wider floating-point result, got '!gpu.mma_matrix<16x16xf16, "COp">'}}
    %d = gpu.subgroup_mma_elementwise extf %a : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{host target needs the result element type to be the operands', got '!gpu.mma_matrix<16x16xf16, "COp">'}}
    %d = gpu.subgroup_mma_elementwise negatef %a : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %d, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: si8, %m: memref<16x16xi32>) kernel {
    // expected-error @below {{host target needs a signless or floating-point value, got 'si8'}}
    %a = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xsi8, "AOp">
    gpu.return
  }
}
