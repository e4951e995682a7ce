// backprop (Rodinia 3.1): one training step of a two-layer perceptron (in
// inputs, 16 hidden units, 1 output), the input layer's two kernels, 16 x 16
// threads per block, one block per 16 inputs (grid 1 x in/16).
//   weights, old: (in + 1) x 17 row-major (row 0 and column 0: the biases)
// layerforward: each block multiplies its 16 x 16 weights by its 16 inputs
// in workgroup memory and sums the products over the inputs with a tree of
// 4 steps (a gpu.barrier each), writing one partial sum per hidden unit and
// block (the host adds them and applies the sigmoid). adjust_weights:
// w += eta delta_hidden input + momentum old, old = that change; the bias
// row once. Written after Rodinia's CUDA kernels bpnn_layerforward_CUDA and
// bpnn_adjust_weights_cuda (WIDTH = HEIGHT = 16); unlike the CUDA kernel,
// layerforward does not write the tree's intermediate values back over the
// weights (the CUDA host code copies the weights in again before adjusting
// them).
module attributes {gpu.container_module} {
  gpu.module @backprop {
    gpu.func @layerforward(%input: memref<?xf32>, %weights: memref<?xf32>,
                           %partial: memref<?xf32>, %hid: index)
        workgroup(%node: memref<16xf32, #gpu.address_space<workgroup>>,
                  %wm: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %c16 = arith.constant 16 : index
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %h1 = arith.addi %hid, %c1 : index
      %row0 = arith.muli %c16, %by : index
      %row1 = arith.addi %row0, %ty : index
      %row = arith.addi %row1, %c1 : index
      %ro = arith.muli %h1, %row : index
      %col = arith.addi %tx, %c1 : index
      %index = arith.addi %ro, %col : index
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %v = memref.load %input[%row] : memref<?xf32>
        memref.store %v, %node[%ty] : memref<16xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %w = memref.load %weights[%index] : memref<?xf32>
      memref.store %w, %wm[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %wm[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %n = memref.load %node[%ty] : memref<16xf32, #gpu.address_space<workgroup>>
      %p = arith.mulf %x, %n : f32
      memref.store %p, %wm[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      // Steps i = 1..4: rows ty % 2^i == 0 add row ty + 2^(i-1).
      scf.for %i = %c1 to %c5 step %c1 {
        %i64 = arith.index_cast %i : index to i64
        %one = arith.constant 1 : i64
        %pw64 = arith.shli %one, %i64 : i64
        %pw = arith.index_cast %pw64 : i64 to index
        %rem = arith.remui %ty, %pw : index
        %on = arith.cmpi eq, %rem, %c0 : index
        scf.if %on {
          %half = arith.divui %pw, %c2 : index
          %other = arith.addi %ty, %half : index
          %a = memref.load %wm[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %b = memref.load %wm[%other, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s = arith.addf %a, %b : f32
          memref.store %s, %wm[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      scf.if %first {
        %s = memref.load %wm[%tx, %ty] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %po = arith.muli %by, %hid : index
        %pa = arith.addi %po, %ty : index
        memref.store %s, %partial[%pa] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @adjust_weights(%delta: memref<?xf32>, %hid: index,
                             %ly: memref<?xf32>, %w: memref<?xf32>,
                             %oldw: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %eta = arith.constant 0.3 : f32
      %momentum = arith.constant 0.3 : f32
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %h1 = arith.addi %hid, %c1 : index
      %row0 = arith.muli %c16, %by : index
      %row1 = arith.addi %row0, %ty : index
      %row = arith.addi %row1, %c1 : index
      %ro = arith.muli %h1, %row : index
      %col = arith.addi %tx, %c1 : index
      %index = arith.addi %ro, %col : index
      %d = memref.load %delta[%col] : memref<?xf32>
      %l = memref.load %ly[%row] : memref<?xf32>
      %o = memref.load %oldw[%index] : memref<?xf32>
      %ed = arith.mulf %eta, %d : f32
      %edl = arith.mulf %ed, %l : f32
      %mo = arith.mulf %momentum, %o : f32
      %dw = arith.addf %edl, %mo : f32
      %old = memref.load %w[%index] : memref<?xf32>
      %new = arith.addf %old, %dw : f32
      memref.store %new, %w[%index] : memref<?xf32>
      memref.store %dw, %oldw[%index] : memref<?xf32>
      gpu.barrier
      %top = arith.cmpi eq, %ty, %c0 : index
      %b0 = arith.cmpi eq, %by, %c0 : index
      %bias = arith.andi %top, %b0 : i1
      scf.if %bias {
        %ob = memref.load %oldw[%col] : memref<?xf32>
        %mob = arith.mulf %momentum, %ob : f32
        %dwb = arith.addf %ed, %mob : f32
        %wb = memref.load %w[%col] : memref<?xf32>
        %nb = arith.addf %wb, %dwb : f32
        memref.store %nb, %w[%col] : memref<?xf32>
        memref.store %dwb, %oldw[%col] : memref<?xf32>
      }
      gpu.return
    }
  }
}
