// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-workgroup-memory))'

gpu.module @strided {
  // expected-error @+1 {{in workgroup memory must be statically shaped with the identity layout on the host target, got 'memref<4xf32, strided<[2]>, #gpu.address_space<workgroup>>'}}
  memref.global "private" @tile : memref<4xf32, strided<[2]>, #gpu.address_space<workgroup>>
}

// -----

gpu.module @aligned {
  // expected-error @+1 {{in workgroup memory is aligned to 64 bytes; the host target aligns workgroup memory to at most 16}}
  memref.global "private" @tile : memref<16xf32, #gpu.address_space<workgroup>> {alignment = 64}
}

// -----

gpu.module @unsized {
  // expected-error @+1 {{in address space 3 has no size: use gpu.dynamic_shared_memory for dynamically sized workgroup memory on the host target}}
  llvm.mlir.global external @dyn() {addr_space = 3 : i32} : !llvm.array<0 x i8>
}

// -----

gpu.module @in_llvm_func {
  llvm.mlir.global internal @b() {addr_space = 3 : i32} : !llvm.array<2 x i32>
  llvm.func @f() {
    // expected-error @+1 {{refers to the workgroup global @b, which the host target gives each block its own copy of: only memref.get_global and llvm.mlir.addressof in kernels and func.func device functions can refer to it}}
    %p = llvm.mlir.addressof @b : !llvm.ptr<3>
    llvm.return
  }
}

// -----

gpu.module @indirect {
  memref.global "private" @a : memref<4xf32, #gpu.address_space<workgroup>>
  func.func @f() {
    %m = memref.get_global @a : memref<4xf32, #gpu.address_space<workgroup>>
    return
  }
  gpu.func @k() kernel {
    // expected-error @+1 {{refers to @f, which uses workgroup globals: the host target passes them to it as arguments, so it can only be called directly}}
    %f = func.constant @f : () -> ()
    gpu.return
  }
}

// -----

gpu.module @initialized {
  // expected-warning @+1 {{initial value of a workgroup global is not applied: workgroup memory starts undefined in each block, as on GPUs}}
  memref.global "private" @tile : memref<2xf32, #gpu.address_space<workgroup>> = dense<1.0>
}

// -----

gpu.module @alloca {
  gpu.func @k() kernel {
    // expected-error @+1 {{allocates workgroup memory inside a function, which the host target cannot give each block its own copy of: use a workgroup attribution of the kernel, a workgroup memref.global or gpu.dynamic_shared_memory}}
    %m = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
