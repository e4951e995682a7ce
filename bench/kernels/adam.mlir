// adam: HeCBench `adam` (the fused Adam optimizer of NVIDIA apex). Every
// thread owns parameters j = global id, global id + total threads, ... and
// applies `time_step` Adam updates to p, m and v from the gradient g, with the
// bias corrections 1 - b1^t and 1 - b2^t computed per step (powf), as the
// benchmark's kernel does. Proteus specializes the optimizer's
// hyper-parameters: with b1, b2, eps, grad_scale, step_size, mode, decay and
// time_step known, the time loop is fully unrolled, the powf calls fold to
// constants and the mode branch disappears.
module attributes {gpu.container_module} {
  gpu.module @adam {
    gpu.func @adam(%p: memref<?xf32>, %m: memref<?xf32>, %v: memref<?xf32>,
                   %g: memref<?xf32>, %b1_arg: f32, %b2_arg: f32,
                   %eps_arg: f32, %grad_scale_arg: f32,
                   %step_size_arg: f32, %time_step_arg: i32,
                   %vector_size_arg: index, %mode: i32, %decay_arg: f32)
        kernel {
      %b1 = offload.runtime_constant %b1_arg : f32
      %b2 = offload.runtime_constant %b2_arg : f32
      %eps = offload.runtime_constant %eps_arg : f32
      %grad_scale = offload.runtime_constant %grad_scale_arg : f32
      %step_size = offload.runtime_constant %step_size_arg : f32
      %time_step = offload.runtime_constant %time_step_arg : i32
      %vector_size = offload.runtime_constant %vector_size_arg : index
      %decay = offload.runtime_constant %decay_arg : f32
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %one = arith.constant 1.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %gdim = gpu.grid_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %total = arith.muli %gdim, %bdim : index
      %t_end = arith.addi %time_step, %c1_i32 : i32
      %mode0 = arith.cmpi eq, %mode, %c0_i32 : i32
      %one_minus_b1 = arith.subf %one, %b1 : f32
      %one_minus_b2 = arith.subf %one, %b2 : f32
      scf.for %j = %i to %vector_size step %total {
        scf.for %t = %c1_i32 to %t_end step %c1_i32 : i32 {
          %gj = memref.load %g[%j] : memref<?xf32>
          %scaled_grad = arith.divf %gj, %grad_scale : f32
          %mj = memref.load %m[%j] : memref<?xf32>
          %m_decay = arith.mulf %b1, %mj : f32
          %m_grad = arith.mulf %one_minus_b1, %scaled_grad : f32
          %m_new = arith.addf %m_decay, %m_grad : f32
          memref.store %m_new, %m[%j] : memref<?xf32>
          %vj = memref.load %v[%j] : memref<?xf32>
          %v_decay = arith.mulf %b2, %vj : f32
          %v_grad0 = arith.mulf %one_minus_b2, %scaled_grad : f32
          %v_grad = arith.mulf %v_grad0, %scaled_grad : f32
          %v_new = arith.addf %v_decay, %v_grad : f32
          memref.store %v_new, %v[%j] : memref<?xf32>
          %tf = arith.sitofp %t : i32 to f32
          %b1_t = math.powf %b1, %tf : f32
          %bc1 = arith.subf %one, %b1_t : f32
          %m_corrected = arith.divf %m_new, %bc1 : f32
          %b2_t = math.powf %b2, %tf : f32
          %bc2 = arith.subf %one, %b2_t : f32
          %v_corrected = arith.divf %v_new, %bc2 : f32
          %denom = scf.if %mode0 -> f32 {
            %s = arith.addf %v_corrected, %eps : f32
            %r = math.sqrt %s : f32
            scf.yield %r : f32
          } else {
            %r = math.sqrt %v_corrected : f32
            %s = arith.addf %r, %eps : f32
            scf.yield %s : f32
          }
          %pj = memref.load %p[%j] : memref<?xf32>
          %ratio = arith.divf %m_corrected, %denom : f32
          %weight_decay = arith.mulf %decay, %pj : f32
          %update = arith.addf %ratio, %weight_decay : f32
          %step = arith.mulf %step_size, %update : f32
          %p_new = arith.subf %pj, %step : f32
          memref.store %p_new, %p[%j] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
