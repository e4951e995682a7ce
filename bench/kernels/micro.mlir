// Kernels of the micro-benchmarks (not models of applications):
//   axpy:  y = a x + y with a runtime-constant a, the small kernel whose cold
//          specialization (compile to a host object and load) is timed;
//   touch: one store of a runtime-constant value, launched as 1 block of 1
//          thread to time the launch path (JIT cache hit against a launch of
//          the already-specialized kernel).
module attributes {gpu.container_module} {
  gpu.module @micro {
    gpu.func @axpy(%x: memref<?xf32>, %y: memref<?xf32>, %n: index,
                   %a_arg: f32) kernel {
      %a = offload.runtime_constant %a_arg : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in_range = arith.cmpi ult, %i, %n : index
      scf.if %in_range {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @touch(%x: memref<?xf32>, %v_arg: f32) kernel {
      %v = offload.runtime_constant %v_arg : f32
      %tid = gpu.thread_id x
      memref.store %v, %x[%tid] : memref<?xf32>
      gpu.return
    }
  }
}
