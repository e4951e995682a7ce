// sw4ck: the SW4 curvilinear/Cartesian 4th-order elastic operator kernel
// (HeCBench `sw4ck`, after SW4's rhs4th3fort / rhs4sgcurv). One thread per
// horizontal grid point (i, j) computes the operator at the 6 grid planes
// next to the top boundary, k = 0..5, where SW4 uses its summation-by-parts
// boundary closure:
//   - x and y: the 4th-order variable-coefficient interior stencil of SW4
//     (mux1..mux4 with tf = 3/4, i6 = 1/6; 2 mu + lambda along x, mu along
//     y, stretching factors 1);
//   - z: the boundary-modified operator sum_q (sum_m acof[k][q][m]
//     (2 mu + lambda)(m)) u(q) over the first 8 planes plus the ghost point
//     term ghcof[k] (2 mu + lambda)(0) u(-1);
//   - lu = a1 * lu + cof * r.
// Arrays are [k][j][i] (planes of nj x ni points). Runtime constants: the
// coefficient tables acof (6x8x8) and ghcof (6) by contents and the scalars
// cof = 1/h^2 and a1, which Proteus folds: the 384 acof loads of every point
// become immediate operands of a fully unrolled closure.
module attributes {gpu.container_module} {
  gpu.module @sw4ck {
    gpu.func @rhs4_boundary(%u: memref<?xf64>, %mu: memref<?xf64>,
                            %la: memref<?xf64>, %u_ghost: memref<?xf64>,
                            %lu: memref<?xf64>, %ni: index, %nj: index,
                            %acof_arg: memref<6x8x8xf64>,
                            %ghcof_arg: memref<6xf64>, %cof_arg: f64,
                            %a1_arg: f64) kernel {
      %acof = offload.runtime_constant %acof_arg contents : memref<6x8x8xf64>
      %ghcof = offload.runtime_constant %ghcof_arg contents : memref<6xf64>
      %cof = offload.runtime_constant %cof_arg : f64
      %a1 = offload.runtime_constant %a1_arg : f64
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f64
      %two = arith.constant 2.0 : f64
      %three = arith.constant 3.0 : f64
      %tf = arith.constant 0.75 : f64
      %i6 = arith.constant 0.16666666666666666 : f64
      %true = arith.constant true
      %false = arith.constant false

      // 2D grid of 2D blocks over the interior points 2 <= i < ni - 2,
      // 2 <= j < nj - 2.
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %ox = arith.muli %bx, %dx : index
      %oy = arith.muli %by, %dy : index
      %gx = arith.addi %ox, %tx : index
      %gy = arith.addi %oy, %ty : index
      %i = arith.addi %gx, %c2 : index
      %j = arith.addi %gy, %c2 : index
      %imax = arith.subi %ni, %c2 : index
      %jmax = arith.subi %nj, %c2 : index
      %in_i = arith.cmpi ult, %i, %imax : index
      %in_j = arith.cmpi ult, %j, %jmax : index
      %inside = arith.andi %in_i, %in_j : i1
      scf.if %inside {
        %plane = arith.muli %ni, %nj : index
        %row = arith.muli %j, %ni : index
        %col = arith.addi %row, %i : index
        scf.for %k = %c0 to %c6 step %c1 {
          %kp = arith.muli %k, %plane : index
          %p = arith.addi %kp, %col : index
          %pm1 = arith.subi %p, %c1 : index
          %pm2 = arith.subi %p, %c2 : index
          %pp1 = arith.addi %p, %c1 : index
          %pp2 = arith.addi %p, %c2 : index
          %pjm1 = arith.subi %p, %ni : index
          %pjm2 = arith.subi %pjm1, %ni : index
          %pjp1 = arith.addi %p, %ni : index
          %pjp2 = arith.addi %pjp1, %ni : index

          // x: (2 mu + lambda) u_x, 4th order.
          %rx = func.call @interior4(%mu, %la, %u, %pm2, %pm1, %p, %pp1, %pp2, %true, %tf, %i6)
              : (memref<?xf64>, memref<?xf64>, memref<?xf64>, index, index, index, index, index, i1, f64, f64) -> f64
          // y: mu u_y.
          %ry = func.call @interior4(%mu, %la, %u, %pjm2, %pjm1, %p, %pjp1, %pjp2, %false, %tf, %i6)
              : (memref<?xf64>, memref<?xf64>, memref<?xf64>, index, index, index, index, index, i1, f64, f64) -> f64
          %rxy = arith.addf %rx, %ry : f64

          // z: the SBP boundary closure over the first 8 planes.
          %rz = scf.for %q = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
            %mucof = scf.for %m = %c0 to %c8 step %c1 iter_args(%s = %zero) -> (f64) {
              %mp = arith.muli %m, %plane : index
              %pm = arith.addi %mp, %col : index
              %mu_m = memref.load %mu[%pm] : memref<?xf64>
              %la_m = memref.load %la[%pm] : memref<?xf64>
              %mu2 = arith.mulf %two, %mu_m : f64
              %l2m = arith.addf %mu2, %la_m : f64
              %a = memref.load %acof[%k, %q, %m] : memref<6x8x8xf64>
              %t = arith.mulf %a, %l2m : f64
              %ns = arith.addf %s, %t : f64
              scf.yield %ns : f64
            }
            %qp = arith.muli %q, %plane : index
            %pq = arith.addi %qp, %col : index
            %u_q = memref.load %u[%pq] : memref<?xf64>
            %t = arith.mulf %mucof, %u_q : f64
            %na = arith.addf %acc, %t : f64
            scf.yield %na : f64
          }
          // Ghost point term.
          %gh = memref.load %ghcof[%k] : memref<6xf64>
          %mu0 = memref.load %mu[%col] : memref<?xf64>
          %la0 = memref.load %la[%col] : memref<?xf64>
          %mu02 = arith.mulf %two, %mu0 : f64
          %l2m0 = arith.addf %mu02, %la0 : f64
          %ug = memref.load %u_ghost[%col] : memref<?xf64>
          %g0 = arith.mulf %gh, %l2m0 : f64
          %g1 = arith.mulf %g0, %ug : f64
          %rzg = arith.addf %rz, %g1 : f64

          %r = arith.addf %rxy, %rzg : f64
          %old = memref.load %lu[%p] : memref<?xf64>
          %scaled_old = arith.mulf %a1, %old : f64
          %cr = arith.mulf %cof, %r : f64
          %new = arith.addf %scaled_old, %cr : f64
          memref.store %new, %lu[%p] : memref<?xf64>
        }
      }
      gpu.return
    }

    // SW4's 4th-order variable-coefficient second derivative along one axis
    // at point p with neighbours pm2, pm1, pp1, pp2 and coefficient c
    // (2 mu + lambda along x when with_lambda, mu along y):
    //   mux1 = c(-1) - tf (c(0) + c(-2)), mux2 = c(-2) + c(1) + 3 (c(0) + c(-1))
    //   mux3 = c(-1) + c(2) + 3 (c(1) + c(0)), mux4 = c(1) - tf (c(0) + c(2))
    //   r = i6 (mux1 (u(-2) - u(0)) + mux2 (u(-1) - u(0)) + mux3 (u(1) - u(0))
    //           + mux4 (u(2) - u(0)))
    func.func private @interior4(%mu: memref<?xf64>, %la: memref<?xf64>,
                                 %u: memref<?xf64>, %pm2: index, %pm1: index,
                                 %p: index, %pp1: index, %pp2: index,
                                 %with_lambda: i1, %tf: f64, %i6: f64) -> f64 {
      %three = arith.constant 3.0 : f64
      %cm2 = func.call @coefficient(%mu, %la, %pm2, %with_lambda) : (memref<?xf64>, memref<?xf64>, index, i1) -> f64
      %cm1 = func.call @coefficient(%mu, %la, %pm1, %with_lambda) : (memref<?xf64>, memref<?xf64>, index, i1) -> f64
      %c00 = func.call @coefficient(%mu, %la, %p, %with_lambda) : (memref<?xf64>, memref<?xf64>, index, i1) -> f64
      %cp1 = func.call @coefficient(%mu, %la, %pp1, %with_lambda) : (memref<?xf64>, memref<?xf64>, index, i1) -> f64
      %cp2 = func.call @coefficient(%mu, %la, %pp2, %with_lambda) : (memref<?xf64>, memref<?xf64>, index, i1) -> f64
      %s1 = arith.addf %c00, %cm2 : f64
      %t1 = arith.mulf %tf, %s1 : f64
      %mux1 = arith.subf %cm1, %t1 : f64
      %s2a = arith.addf %cm2, %cp1 : f64
      %s2b = arith.addf %c00, %cm1 : f64
      %t2 = arith.mulf %three, %s2b : f64
      %mux2 = arith.addf %s2a, %t2 : f64
      %s3a = arith.addf %cm1, %cp2 : f64
      %s3b = arith.addf %cp1, %c00 : f64
      %t3 = arith.mulf %three, %s3b : f64
      %mux3 = arith.addf %s3a, %t3 : f64
      %s4 = arith.addf %c00, %cp2 : f64
      %t4 = arith.mulf %tf, %s4 : f64
      %mux4 = arith.subf %cp1, %t4 : f64
      %um2 = memref.load %u[%pm2] : memref<?xf64>
      %um1 = memref.load %u[%pm1] : memref<?xf64>
      %u0 = memref.load %u[%p] : memref<?xf64>
      %up1 = memref.load %u[%pp1] : memref<?xf64>
      %up2 = memref.load %u[%pp2] : memref<?xf64>
      %d1 = arith.subf %um2, %u0 : f64
      %d2 = arith.subf %um1, %u0 : f64
      %d3 = arith.subf %up1, %u0 : f64
      %d4 = arith.subf %up2, %u0 : f64
      %e1 = arith.mulf %mux1, %d1 : f64
      %e2 = arith.mulf %mux2, %d2 : f64
      %e3 = arith.mulf %mux3, %d3 : f64
      %e4 = arith.mulf %mux4, %d4 : f64
      %f1 = arith.addf %e1, %e2 : f64
      %f2 = arith.addf %f1, %e3 : f64
      %f3 = arith.addf %f2, %e4 : f64
      %r = arith.mulf %i6, %f3 : f64
      return %r : f64
    }

    // 2 mu(p) + lambda(p) when with_lambda, else mu(p).
    func.func private @coefficient(%mu: memref<?xf64>, %la: memref<?xf64>,
                                   %p: index, %with_lambda: i1) -> f64 {
      %m = memref.load %mu[%p] : memref<?xf64>
      %c = scf.if %with_lambda -> f64 {
        %two = arith.constant 2.0 : f64
        %l = memref.load %la[%p] : memref<?xf64>
        %m2 = arith.mulf %two, %m : f64
        %r = arith.addf %m2, %l : f64
        scf.yield %r : f64
      } else {
        scf.yield %m : f64
      }
      return %c : f64
    }
  }
}
