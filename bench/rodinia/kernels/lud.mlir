// lud (Rodinia 3.1): in-place LU decomposition (Doolittle, no pivoting) of a
// dense n x n matrix in 16 x 16 blocks, right-looking: for each diagonal
// block at offset, lud_diagonal factors it (one block of 16 threads),
// lud_perimeter solves the blocks of its row and column (one block of 32
// threads per pair: threads 0-15 a row block, 16-31 a column block) and
// lud_internal updates the trailing matrix (16 x 16 threads per block), all
// in workgroup memory with gpu.barrier between the phases. Written after
// Rodinia's CUDA kernels (BLOCK_SIZE 16).
module attributes {gpu.container_module} {
  gpu.module @lud {
    gpu.func @lud_diagonal(%m: memref<?xf32>, %dim: index, %offset: index)
        workgroup(%shadow: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %r0 = arith.muli %offset, %dim : index
      %base = arith.addi %r0, %offset : index
      scf.for %i = %c0 to %c16 step %c1 {
        %ro = arith.muli %i, %dim : index
        %a0 = arith.addi %base, %ro : index
        %a = arith.addi %a0, %tx : index
        %v = memref.load %m[%a] : memref<?xf32>
        memref.store %v, %shadow[%i, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %i = %c0 to %c15 step %c1 {
        %below = arith.cmpi ugt, %tx, %i : index
        scf.if %below {
          // L: shadow[tx][i] = (shadow[tx][i] - sum_j<i shadow[tx][j] shadow[j][i]) / shadow[i][i]
          %s0 = memref.load %shadow[%tx, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %s0) -> (f32) {
            %l = memref.load %shadow[%tx, %j] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %u = memref.load %shadow[%j, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %p = arith.mulf %l, %u : f32
            %d = arith.subf %acc, %p : f32
            scf.yield %d : f32
          }
          %piv = memref.load %shadow[%i, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %q = arith.divf %s, %piv : f32
          memref.store %q, %shadow[%tx, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.if %below {
          // U: shadow[i+1][tx] -= sum_j<=i shadow[i+1][j] shadow[j][tx]
          %i1 = arith.addi %i, %c1 : index
          %s0 = memref.load %shadow[%i1, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s = scf.for %j = %c0 to %i1 step %c1 iter_args(%acc = %s0) -> (f32) {
            %l = memref.load %shadow[%i1, %j] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %u = memref.load %shadow[%j, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %p = arith.mulf %l, %u : f32
            %d = arith.subf %acc, %p : f32
            scf.yield %d : f32
          }
          memref.store %s, %shadow[%i1, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      // Row 0 is unchanged.
      scf.for %i = %c1 to %c16 step %c1 {
        %ro = arith.muli %i, %dim : index
        %a0 = arith.addi %base, %ro : index
        %a = arith.addi %a0, %tx : index
        %v = memref.load %shadow[%i, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        memref.store %v, %m[%a] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @lud_perimeter(%m: memref<?xf32>, %dim: index, %offset: index)
        workgroup(%dia: memref<16x16xf32, #gpu.address_space<workgroup>>, %peri_row: memref<16x16xf32, #gpu.address_space<workgroup>>, %peri_col: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bx1 = arith.addi %bx, %c1 : index
      %boff = arith.muli %bx1, %c16 : index
      %r0 = arith.muli %offset, %dim : index
      %base = arith.addi %r0, %offset : index
      %is_row = arith.cmpi ult, %tx, %c16 : index
      %idx_col = arith.subi %tx, %c16 : index
      %idx = arith.select %is_row, %tx, %idx_col : index
      scf.if %is_row {
        // Rows 0-7 of the diagonal block, and the row block.
        scf.for %i = %c0 to %c8 step %c1 {
          %ro = arith.muli %i, %dim : index
          %a0 = arith.addi %base, %ro : index
          %a = arith.addi %a0, %idx : index
          %v = memref.load %m[%a] : memref<?xf32>
          memref.store %v, %dia[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        scf.for %i = %c0 to %c16 step %c1 {
          %ro = arith.muli %i, %dim : index
          %a0 = arith.addi %base, %ro : index
          %a1 = arith.addi %a0, %boff : index
          %a = arith.addi %a1, %idx : index
          %v = memref.load %m[%a] : memref<?xf32>
          memref.store %v, %peri_row[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
      } else {
        // Rows 8-15 of the diagonal block, and the column block.
        scf.for %i = %c8 to %c16 step %c1 {
          %ro = arith.muli %i, %dim : index
          %a0 = arith.addi %base, %ro : index
          %a = arith.addi %a0, %idx : index
          %v = memref.load %m[%a] : memref<?xf32>
          memref.store %v, %dia[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        %crow = arith.addi %offset, %boff : index
        %cr = arith.muli %crow, %dim : index
        %cbase = arith.addi %cr, %offset : index
        scf.for %i = %c0 to %c16 step %c1 {
          %ro = arith.muli %i, %dim : index
          %a0 = arith.addi %cbase, %ro : index
          %a = arith.addi %a0, %idx : index
          %v = memref.load %m[%a] : memref<?xf32>
          memref.store %v, %peri_col[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      scf.if %is_row {
        // Forward substitution with the unit lower triangle of dia.
        scf.for %i = %c1 to %c16 step %c1 {
          %s0 = memref.load %peri_row[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %s0) -> (f32) {
            %l = memref.load %dia[%i, %j] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %u = memref.load %peri_row[%j, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %p = arith.mulf %l, %u : f32
            %d = arith.subf %acc, %p : f32
            scf.yield %d : f32
          }
          memref.store %s, %peri_row[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
      } else {
        // Solve with the upper triangle of dia.
        scf.for %i = %c0 to %c16 step %c1 {
          %s0 = memref.load %peri_col[%idx, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %s0) -> (f32) {
            %l = memref.load %peri_col[%idx, %j] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %u = memref.load %dia[%j, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
            %p = arith.mulf %l, %u : f32
            %d = arith.subf %acc, %p : f32
            scf.yield %d : f32
          }
          %piv = memref.load %dia[%i, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %q = arith.divf %s, %piv : f32
          memref.store %q, %peri_col[%idx, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      scf.if %is_row {
        scf.for %i = %c1 to %c16 step %c1 {
          %ro = arith.muli %i, %dim : index
          %a0 = arith.addi %base, %ro : index
          %a1 = arith.addi %a0, %boff : index
          %a = arith.addi %a1, %idx : index
          %v = memref.load %peri_row[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          memref.store %v, %m[%a] : memref<?xf32>
        }
      } else {
        %crow = arith.addi %offset, %boff : index
        %cr = arith.muli %crow, %dim : index
        %cbase = arith.addi %cr, %offset : index
        scf.for %i = %c0 to %c16 step %c1 {
          %ro = arith.muli %i, %dim : index
          %a0 = arith.addi %cbase, %ro : index
          %a = arith.addi %a0, %idx : index
          %v = memref.load %peri_col[%i, %idx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          memref.store %v, %m[%a] : memref<?xf32>
        }
      }
      gpu.return
    }

    gpu.func @lud_internal(%m: memref<?xf32>, %dim: index, %offset: index)
        workgroup(%peri_row: memref<16x16xf32, #gpu.address_space<workgroup>>, %peri_col: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %by1 = arith.addi %by, %c1 : index
      %bx1 = arith.addi %bx, %c1 : index
      %gr0 = arith.muli %by1, %c16 : index
      %grow = arith.addi %offset, %gr0 : index
      %gc0 = arith.muli %bx1, %c16 : index
      %gcol = arith.addi %offset, %gc0 : index
      %ry = arith.addi %offset, %ty : index
      %ra0 = arith.muli %ry, %dim : index
      %ra1 = arith.addi %ra0, %gcol : index
      %ra = arith.addi %ra1, %tx : index
      %rv = memref.load %m[%ra] : memref<?xf32>
      memref.store %rv, %peri_row[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %cy = arith.addi %grow, %ty : index
      %ca0 = arith.muli %cy, %dim : index
      %ca1 = arith.addi %ca0, %offset : index
      %ca = arith.addi %ca1, %tx : index
      %cv = memref.load %m[%ca] : memref<?xf32>
      memref.store %cv, %peri_col[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %l = memref.load %peri_col[%ty, %i] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %u = memref.load %peri_row[%i, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %p = arith.mulf %l, %u : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %ta1 = arith.addi %ca0, %gcol : index
      %ta = arith.addi %ta1, %tx : index
      %old = memref.load %m[%ta] : memref<?xf32>
      %new = arith.subf %old, %sum : f32
      memref.store %new, %m[%ta] : memref<?xf32>
      gpu.return
    }
  }
}
