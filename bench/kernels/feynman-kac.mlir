// feynman-kac: HeCBench `feynman-kac` (John Burkardt's feynman_kac_3d): the
// solution of a Poisson-like problem inside the ellipsoid
// (x/a)^2 + (y/b)^2 + (z/c)^2 <= 1 estimated at every grid point by N random
// walks (Feynman-Kac formula). One thread per grid point of an ni x nj x nk
// box; each walk moves by +-sqrt(3h) along each axis with probability 1/3
// (r8_uniform_01, the Park-Miller generator of the benchmark), weighting the
// walk by the potential V = 2 ((x/a^2)^2 + (y/b^2)^2 + (z/c^2)^2)
// + 1/a^2 + 1/b^2 + 1/c^2 with the trapezoidal rule, until it leaves the
// ellipsoid.
//
// Model: a walk stops when it leaves the ellipsoid or after `steps` steps
// (the benchmark's loop is unbounded). Runtime constants: a, b, c, h, the
// number of walks N, the step bound and the grid size ni, nj, nk, which
// Proteus specializes: the step loop is fully unrolled, sqrt(3h), 1/a^2 and
// the grid spacing fold, divisions by the grid sizes become multiplications.
module attributes {gpu.container_module} {
  gpu.module @fk {
    // r8_uniform_01: returns the next number in (0, 1) and the new seed.
    func.func private @r8_uniform_01(%seed: i32) -> (f64, i32) {
      %c127773 = arith.constant 127773 : i32
      %c16807 = arith.constant 16807 : i32
      %c2836 = arith.constant 2836 : i32
      %c2147483647 = arith.constant 2147483647 : i32
      %c0 = arith.constant 0 : i32
      %scale = arith.constant 4.656612875E-10 : f64
      %k = arith.divsi %seed, %c127773 : i32
      %kq = arith.muli %k, %c127773 : i32
      %rem = arith.subi %seed, %kq : i32
      %a = arith.muli %c16807, %rem : i32
      %b = arith.muli %k, %c2836 : i32
      %s0 = arith.subi %a, %b : i32
      %neg = arith.cmpi slt, %s0, %c0 : i32
      %s1 = arith.addi %s0, %c2147483647 : i32
      %s = arith.select %neg, %s1, %s0 : i32
      %f = arith.sitofp %s : i32 to f64
      %r = arith.mulf %f, %scale : f64
      return %r, %s : f64, i32
    }

    // potential(a, b, c, x, y, z)
    func.func private @potential(%a: f64, %b: f64, %c: f64, %x: f64, %y: f64,
                         %z: f64) -> f64 {
      %one = arith.constant 1.0 : f64
      %two = arith.constant 2.0 : f64
      %xa = arith.divf %x, %a : f64
      %xaa = arith.divf %xa, %a : f64
      %ya = arith.divf %y, %b : f64
      %ybb = arith.divf %ya, %b : f64
      %za = arith.divf %z, %c : f64
      %zcc = arith.divf %za, %c : f64
      %x2 = arith.mulf %xaa, %xaa : f64
      %y2 = arith.mulf %ybb, %ybb : f64
      %z2 = arith.mulf %zcc, %zcc : f64
      %s0 = arith.addf %x2, %y2 : f64
      %s1 = arith.addf %s0, %z2 : f64
      %s2 = arith.mulf %two, %s1 : f64
      %ia = arith.divf %one, %a : f64
      %iaa = arith.divf %ia, %a : f64
      %ib = arith.divf %one, %b : f64
      %ibb = arith.divf %ib, %b : f64
      %ic = arith.divf %one, %c : f64
      %icc = arith.divf %ic, %c : f64
      %t0 = arith.addf %s2, %iaa : f64
      %t1 = arith.addf %t0, %ibb : f64
      %t2 = arith.addf %t1, %icc : f64
      return %t2 : f64
    }

    // (x/a)^2 + (y/b)^2 + (z/c)^2
    func.func private @ellipse(%a: f64, %b: f64, %c: f64, %x: f64, %y: f64,
                       %z: f64) -> f64 {
      %xa = arith.divf %x, %a : f64
      %ya = arith.divf %y, %b : f64
      %zc = arith.divf %z, %c : f64
      %x2 = arith.mulf %xa, %xa : f64
      %y2 = arith.mulf %ya, %ya : f64
      %z2 = arith.mulf %zc, %zc : f64
      %s0 = arith.addf %x2, %y2 : f64
      %s1 = arith.addf %s0, %z2 : f64
      return %s1 : f64
    }

    // One axis of a step: with probability 1/3, +-stepsz.
    func.func private @axis_step(%seed: i32, %stepsz: f64) -> (f64, i32) {
      %zero = arith.constant 0.0 : f64
      %half = arith.constant 0.5 : f64
      %third = arith.constant 0.33333333333333331 : f64
      %ut, %s1 = func.call @r8_uniform_01(%seed) : (i32) -> (f64, i32)
      %move = arith.cmpf olt, %ut, %third : f64
      %d, %s = scf.if %move -> (f64, i32) {
        %u, %s2 = func.call @r8_uniform_01(%s1) : (i32) -> (f64, i32)
        %us = arith.subf %u, %half : f64
        %back = arith.cmpf olt, %us, %zero : f64
        %neg = arith.negf %stepsz : f64
        %dd = arith.select %back, %neg, %stepsz : f64
        scf.yield %dd, %s2 : f64, i32
      } else {
        scf.yield %zero, %s1 : f64, i32
      }
      return %d, %s : f64, i32
    }

    gpu.func @feynman_kac(%w_out: memref<?xf64>, %a_arg: f64, %b_arg: f64,
                          %c_arg: f64, %h_arg: f64, %ni_arg: i32,
                          %nj_arg: i32, %nk_arg: i32, %n_arg: i32,
                          %steps_arg: i32, %seed0: i32) kernel {
      %a = offload.runtime_constant %a_arg : f64
      %b = offload.runtime_constant %b_arg : f64
      %c = offload.runtime_constant %c_arg : f64
      %h = offload.runtime_constant %h_arg : f64
      %ni_i32 = offload.runtime_constant %ni_arg : i32
      %nj_i32 = offload.runtime_constant %nj_arg : i32
      %nk_i32 = offload.runtime_constant %nk_arg : i32
      %n_i32 = offload.runtime_constant %n_arg : i32
      %steps_i32 = offload.runtime_constant %steps_arg : i32
      %ni = arith.index_cast %ni_i32 : i32 to index
      %nj = arith.index_cast %nj_i32 : i32 to index
      %nk = arith.index_cast %nk_i32 : i32 to index
      %n = arith.index_cast %n_i32 : i32 to index
      %steps = arith.index_cast %steps_i32 : i32 to index

      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f64
      %half = arith.constant 0.5 : f64
      %one = arith.constant 1.0 : f64
      %three = arith.constant 3.0 : f64

      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %g = arith.addi %base, %tid : index
      %nij = arith.muli %ni, %nj : index
      %npoints = arith.muli %nij, %nk : index
      %in_range = arith.cmpi ult, %g, %npoints : index
      scf.if %in_range {
        // Grid point (i, j, k) of the box [-a, a] x [-b, b] x [-c, c].
        %i = arith.remui %g, %ni : index
        %gj = arith.divui %g, %ni : index
        %j = arith.remui %gj, %nj : index
        %k = arith.divui %g, %nij : index
        %coord = func.call @coordinates(%i, %ni, %a) : (index, index, f64) -> f64
        %ycoord = func.call @coordinates(%j, %nj, %b) : (index, index, f64) -> f64
        %zcoord = func.call @coordinates(%k, %nk, %c) : (index, index, f64) -> f64
        %chk0 = func.call @ellipse(%a, %b, %c, %coord, %ycoord, %zcoord)
            : (f64, f64, f64, f64, f64, f64) -> f64
        %outside = arith.cmpf ogt, %chk0, %one : f64
        %result = scf.if %outside -> f64 {
          scf.yield %one : f64
        } else {
          %h3 = arith.mulf %three, %h : f64
          %stepsz = math.sqrt %h3 : f64
          %hh = arith.mulf %half, %h : f64
          %g_i32 = arith.index_cast %g : index to i32
          %seed_start = arith.addi %seed0, %g_i32 : i32
          %wt, %seed_end = scf.for %trial = %c0 to %n step %c1
              iter_args(%sum = %zero, %seed = %seed_start) -> (f64, i32) {
            %x1, %x2, %x3, %w, %chk, %s = scf.for %st = %c0 to %steps step %c1
                iter_args(%p1 = %coord, %p2 = %ycoord, %p3 = %zcoord,
                          %wc = %one, %ck = %zero, %sd = %seed)
                -> (f64, f64, f64, f64, f64, i32) {
              %inside = arith.cmpf olt, %ck, %one : f64
              %r1, %r2, %r3, %rw, %rc, %rs = scf.if %inside
                  -> (f64, f64, f64, f64, f64, i32) {
                %dx, %s1 = func.call @axis_step(%sd, %stepsz) : (i32, f64) -> (f64, i32)
                %dy, %s2 = func.call @axis_step(%s1, %stepsz) : (i32, f64) -> (f64, i32)
                %dz, %s3 = func.call @axis_step(%s2, %stepsz) : (i32, f64) -> (f64, i32)
                %vs = func.call @potential(%a, %b, %c, %p1, %p2, %p3)
                    : (f64, f64, f64, f64, f64, f64) -> f64
                %n1 = arith.addf %p1, %dx : f64
                %n2 = arith.addf %p2, %dy : f64
                %n3 = arith.addf %p3, %dz : f64
                %vh = func.call @potential(%a, %b, %c, %n1, %n2, %n3)
                    : (f64, f64, f64, f64, f64, f64) -> f64
                // we = (1 - h vs) w; w = w - 0.5 h (vh we + vs w)
                %hvs = arith.mulf %h, %vs : f64
                %omh = arith.subf %one, %hvs : f64
                %we = arith.mulf %omh, %wc : f64
                %t0 = arith.mulf %vh, %we : f64
                %t1 = arith.mulf %vs, %wc : f64
                %t2 = arith.addf %t0, %t1 : f64
                %t3 = arith.mulf %hh, %t2 : f64
                %nw = arith.subf %wc, %t3 : f64
                %nc = func.call @ellipse(%a, %b, %c, %n1, %n2, %n3)
                    : (f64, f64, f64, f64, f64, f64) -> f64
                scf.yield %n1, %n2, %n3, %nw, %nc, %s3
                    : f64, f64, f64, f64, f64, i32
              } else {
                scf.yield %p1, %p2, %p3, %wc, %ck, %sd
                    : f64, f64, f64, f64, f64, i32
              }
              scf.yield %r1, %r2, %r3, %rw, %rc, %rs
                  : f64, f64, f64, f64, f64, i32
            }
            %ns = arith.addf %sum, %w : f64
            scf.yield %ns, %s : f64, i32
          }
          %nf = arith.sitofp %n_i32 : i32 to f64
          %avg = arith.divf %wt, %nf : f64
          scf.yield %avg : f64
        }
        memref.store %result, %w_out[%g] : memref<?xf64>
      }
      gpu.return
    }

    // ((n - 1 - i) * (-a) + i * a) / (n - 1): the i-th of n points in [-a, a].
    func.func private @coordinates(%i: index, %n: index, %a: f64) -> f64 {
      %c1 = arith.constant 1 : index
      %nm1 = arith.subi %n, %c1 : index
      %rest = arith.subi %nm1, %i : index
      %rest_i = arith.index_cast %rest : index to i64
      %i_i = arith.index_cast %i : index to i64
      %nm1_i = arith.index_cast %nm1 : index to i64
      %rest_f = arith.sitofp %rest_i : i64 to f64
      %i_f = arith.sitofp %i_i : i64 to f64
      %nm1_f = arith.sitofp %nm1_i : i64 to f64
      %neg_a = arith.negf %a : f64
      %l = arith.mulf %rest_f, %neg_a : f64
      %r = arith.mulf %i_f, %a : f64
      %s = arith.addf %l, %r : f64
      %x = arith.divf %s, %nm1_f : f64
      return %x : f64
    }
  }
}
