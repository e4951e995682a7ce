// nw (Rodinia 3.1): Needleman-Wunsch global alignment scores of two
// sequences, the (n+1) x (n+1) score matrix filled in 16 x 16 blocks along
// anti-diagonals of blocks (one launch per diagonal, the host loops), each
// block in workgroup memory along anti-diagonals of cells with one
// gpu.barrier per cell diagonal (31 per block). needle_1 runs the diagonals
// of the upper-left triangle of blocks, needle_2 those of the lower-right.
// Written after Rodinia's CUDA kernels needle_cuda_shared_1/2 (BLOCK_SIZE
// 16, one thread per column of a block).
module attributes {gpu.container_module} {
  gpu.module @nw {
    // One cell: the best of the diagonal move plus its reference score and
    // the moves from the west and the north minus the gap penalty.
    func.func @cell(%temp: memref<17x17xi32, #gpu.address_space<workgroup>>,
                    %rl: memref<16x16xi32, #gpu.address_space<workgroup>>,
                    %y: index, %x: index, %penalty: i32) {
      %c1 = arith.constant 1 : index
      %ym = arith.subi %y, %c1 : index
      %xm = arith.subi %x, %c1 : index
      %dg = memref.load %temp[%ym, %xm] : memref<17x17xi32, #gpu.address_space<workgroup>>
      %r = memref.load %rl[%ym, %xm] : memref<16x16xi32, #gpu.address_space<workgroup>>
      %w = memref.load %temp[%y, %xm] : memref<17x17xi32, #gpu.address_space<workgroup>>
      %n = memref.load %temp[%ym, %x] : memref<17x17xi32, #gpu.address_space<workgroup>>
      %a = arith.addi %dg, %r : i32
      %b = arith.subi %w, %penalty : i32
      %c = arith.subi %n, %penalty : i32
      %ab = arith.maxsi %a, %b : i32
      %abc = arith.maxsi %ab, %c : i32
      memref.store %abc, %temp[%y, %x] : memref<17x17xi32, #gpu.address_space<workgroup>>
      return
    }
    gpu.func @needle_1(%ref: memref<?xi32>, %mat: memref<?xi32>, %cols: index,
                  %penalty: i32, %i: index, %block_width: index)
        workgroup(%temp: memref<17x17xi32, #gpu.address_space<workgroup>>,
                  %rl: memref<16x16xi32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      // Block (bx, i - 1 - bx) of diagonal i.
      %bxi = arith.addi %bx, %c0 : index
      %i1 = arith.subi %i, %c1 : index
      %by = arith.subi %i1, %bx : index
      %r16 = arith.muli %cols, %c16 : index
      %ry = arith.muli %r16, %by : index
      %cx = arith.muli %c16, %bxi : index
      %index_nw = arith.addi %ry, %cx : index
      %index_w = arith.addi %index_nw, %cols : index
      %n0 = arith.addi %index_nw, %tx : index
      %index_n = arith.addi %n0, %c1 : index
      %index = arith.addi %index_n, %cols : index
      // The block's reference scores and its north-west corner, north row
      // and west column of scores.
      scf.for %y = %c0 to %c16 step %c1 {
        %yo = arith.muli %cols, %y : index
        %a = arith.addi %index, %yo : index
        %v = memref.load %ref[%a] : memref<?xi32>
        memref.store %v, %rl[%y, %tx] : memref<16x16xi32, #gpu.address_space<workgroup>>
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %v = memref.load %mat[%index_nw] : memref<?xi32>
        memref.store %v, %temp[%c0, %c0] : memref<17x17xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %wo = arith.muli %cols, %tx : index
      %wa = arith.addi %index_w, %wo : index
      %wv = memref.load %mat[%wa] : memref<?xi32>
      %tx1 = arith.addi %tx, %c1 : index
      memref.store %wv, %temp[%tx1, %c0] : memref<17x17xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %nv = memref.load %mat[%index_n] : memref<?xi32>
      memref.store %nv, %temp[%c0, %tx1] : memref<17x17xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // The upper-left triangle of anti-diagonals, then the lower-right one:
      // thread tx computes the cell of column tx + 1 on diagonal m.
      scf.for %m = %c0 to %c16 step %c1 {
        %active = arith.cmpi ule, %tx, %m : index
        scf.if %active {
          %y0 = arith.subi %m, %tx : index
          %y = arith.addi %y0, %c1 : index
          func.call @cell(%temp, %rl, %y, %tx1, %penalty)
              : (memref<17x17xi32, #gpu.address_space<workgroup>>,
                 memref<16x16xi32, #gpu.address_space<workgroup>>, index,
                 index, i32) -> ()
        }
        gpu.barrier
      }
      scf.for %k = %c0 to %c15 step %c1 {
        // m = 14 - k, from 14 down to 0.
        %m0 = arith.subi %c15, %k : index
        %m = arith.subi %m0, %c1 : index
        %active = arith.cmpi ule, %tx, %m : index
        scf.if %active {
          %x0 = arith.addi %tx, %c16 : index
          %x = arith.subi %x0, %m : index
          %y = arith.subi %c16, %tx : index
          func.call @cell(%temp, %rl, %y, %x, %penalty)
              : (memref<17x17xi32, #gpu.address_space<workgroup>>,
                 memref<16x16xi32, #gpu.address_space<workgroup>>, index,
                 index, i32) -> ()
        }
        gpu.barrier
      }
      scf.for %y = %c0 to %c16 step %c1 {
        %y1 = arith.addi %y, %c1 : index
        %v = memref.load %temp[%y1, %tx1] : memref<17x17xi32, #gpu.address_space<workgroup>>
        %yo = arith.muli %cols, %y : index
        %a = arith.addi %index, %yo : index
        memref.store %v, %mat[%a] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @needle_2(%ref: memref<?xi32>, %mat: memref<?xi32>, %cols: index,
                  %penalty: i32, %i: index, %block_width: index)
        workgroup(%temp: memref<17x17xi32, #gpu.address_space<workgroup>>,
                  %rl: memref<16x16xi32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      // Block (bx + block_width - i, block_width - 1 - bx).
      %bw_i = arith.subi %block_width, %i : index
      %bxi = arith.addi %bx, %bw_i : index
      %bw1 = arith.subi %block_width, %c1 : index
      %by = arith.subi %bw1, %bx : index
      %r16 = arith.muli %cols, %c16 : index
      %ry = arith.muli %r16, %by : index
      %cx = arith.muli %c16, %bxi : index
      %index_nw = arith.addi %ry, %cx : index
      %index_w = arith.addi %index_nw, %cols : index
      %n0 = arith.addi %index_nw, %tx : index
      %index_n = arith.addi %n0, %c1 : index
      %index = arith.addi %index_n, %cols : index
      // The block's reference scores and its north-west corner, north row
      // and west column of scores.
      scf.for %y = %c0 to %c16 step %c1 {
        %yo = arith.muli %cols, %y : index
        %a = arith.addi %index, %yo : index
        %v = memref.load %ref[%a] : memref<?xi32>
        memref.store %v, %rl[%y, %tx] : memref<16x16xi32, #gpu.address_space<workgroup>>
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %v = memref.load %mat[%index_nw] : memref<?xi32>
        memref.store %v, %temp[%c0, %c0] : memref<17x17xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %wo = arith.muli %cols, %tx : index
      %wa = arith.addi %index_w, %wo : index
      %wv = memref.load %mat[%wa] : memref<?xi32>
      %tx1 = arith.addi %tx, %c1 : index
      memref.store %wv, %temp[%tx1, %c0] : memref<17x17xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %nv = memref.load %mat[%index_n] : memref<?xi32>
      memref.store %nv, %temp[%c0, %tx1] : memref<17x17xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // The upper-left triangle of anti-diagonals, then the lower-right one:
      // thread tx computes the cell of column tx + 1 on diagonal m.
      scf.for %m = %c0 to %c16 step %c1 {
        %active = arith.cmpi ule, %tx, %m : index
        scf.if %active {
          %y0 = arith.subi %m, %tx : index
          %y = arith.addi %y0, %c1 : index
          func.call @cell(%temp, %rl, %y, %tx1, %penalty)
              : (memref<17x17xi32, #gpu.address_space<workgroup>>,
                 memref<16x16xi32, #gpu.address_space<workgroup>>, index,
                 index, i32) -> ()
        }
        gpu.barrier
      }
      scf.for %k = %c0 to %c15 step %c1 {
        // m = 14 - k, from 14 down to 0.
        %m0 = arith.subi %c15, %k : index
        %m = arith.subi %m0, %c1 : index
        %active = arith.cmpi ule, %tx, %m : index
        scf.if %active {
          %x0 = arith.addi %tx, %c16 : index
          %x = arith.subi %x0, %m : index
          %y = arith.subi %c16, %tx : index
          func.call @cell(%temp, %rl, %y, %x, %penalty)
              : (memref<17x17xi32, #gpu.address_space<workgroup>>,
                 memref<16x16xi32, #gpu.address_space<workgroup>>, index,
                 index, i32) -> ()
        }
        gpu.barrier
      }
      scf.for %y = %c0 to %c16 step %c1 {
        %y1 = arith.addi %y, %c1 : index
        %v = memref.load %temp[%y1, %tx1] : memref<17x17xi32, #gpu.address_space<workgroup>>
        %yo = arith.muli %cols, %y : index
        %a = arith.addi %index, %yo : index
        memref.store %v, %mat[%a] : memref<?xi32>
      }
      gpu.return
    }
  }
}
